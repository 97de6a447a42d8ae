// Conformance: `return;` anywhere in a Brook kernel keeps the outputs written so far.
import { BrookContext, brook } from '../../src/index';
import { expectArrayEqual, expectNoGLError, newContext, randomFloats } from '../helpers';

describe('brook/return', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('a kernel ending in return; writes its outputs (regression: they were skipped)', () => {
    const { twice } = brook`kernel void twice(float a<>, out float b<>) { b = 2 * a; return; }`;
    const xs = randomFloats(50, 1);
    const a = ctx.stream('float', 50, xs);
    const b = ctx.stream('float', 50);
    ctx.run(twice!, { a, b });
    expectArrayEqual(b.readSync(), xs.map((x) => 2 * x), 'twice');
    [a, b].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('an early return keeps what was written before it, in every output', () => {
    const { early } = brook`
      kernel void early(float a<>, out float b<>, out float2 c<>) {
        b = a;
        if (a < 0) return;
        c = float2(a, 1);
        if (a > 500) { b = -1; return; }
        b = a + 1;
      }`;
    const xs = randomFloats(64, 2);
    const a = ctx.stream('float', 64, xs);
    const b = ctx.stream('float', 64);
    const c = ctx.stream('float2', 64);
    ctx.run(early!, { a, b, c });
    const eb = new Float32Array(64);
    const ec = new Float32Array(128);
    xs.forEach((x, i) => {
      eb[i] = x;
      if (x < 0) return;
      ec[2 * i] = x;
      ec[2 * i + 1] = 1;
      if (x > 500) {
        eb[i] = -1;
        return;
      }
      eb[i] = Math.fround(x + 1);
    });
    expectArrayEqual(b.readSync(), eb, 'b');
    expectArrayEqual(c.readSync(), ec, 'c');
    [a, b, c].forEach((s) => s.dispose());
  });
});
