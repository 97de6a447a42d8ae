// Conformance: vout[N] outputs with push (Brook's variable output, by Horn's filter).
import { expect } from 'chai';
import { BrookContext, brook, voutRun } from '../../src/index';
import { expectArrayEqual, expectBrookError, newContext } from '../helpers';

describe('brook/vout and push', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const { dup, pairs } = brook`
    kernel void dup(float a<>, float limit, vout[3] float o<>) {
      if (a < 0) return;          // pushes nothing
      o = a; push(o);
      if (a > limit) { o = -a; push(o); }
      if (a > 2 * limit) { o = 1000 + a; push(o); }
    }
    kernel void pairs(float2 p<>, vout[2] float2 q<>) {
      q = p; push(q);
      q = p.yx; push(q);
    }`;

  it('pushes 0 to 3 records per input, in order', async () => {
    const xs = [3, -1, 7, 12, 0, -5, 9, 25];
    const a = ctx.stream('float', xs.length, xs);
    const { stream, count } = await voutRun(ctx, dup!, { a, limit: 8 });
    const expected = xs.flatMap((x) => (x < 0 ? [] : [x, ...(x > 8 ? [-x] : []), ...(x > 16 ? [1000 + x] : [])]));
    expect(count).to.equal(expected.length);
    expectArrayEqual(await stream!.read(), expected, 'pushed');
    stream!.dispose();
    a.dispose();
  });

  it('pushes vectors, and returns null when nothing is pushed', async () => {
    const p = ctx.stream('float2', 4, [1, 2, 3, 4, 5, 6, 7, 8]);
    const { stream, count } = await voutRun(ctx, pairs!, { p });
    expect(count).to.equal(8);
    expectArrayEqual(await stream!.read(), [1, 2, 2, 1, 3, 4, 4, 3, 5, 6, 6, 5, 7, 8, 8, 7], 'pairs');
    stream!.dispose();
    const neg = ctx.stream('float', 5, [-1, -2, -3, -4, -5]);
    const none = await voutRun(ctx, dup!, { a: neg, limit: 1 });
    expect(none.count).to.equal(0);
    expect(none.stream).to.equal(null);
    [p, neg].forEach((s) => s.dispose());
  });

  it('refuses vout without a bound, push without vout', () => {
    expectBrookError(() => brook`kernel void k(float a<>, vout[] float o<>) { o = a; push(o); }`, /vout\[4\]/);
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) { o = a; push(o); }`, /push\(\) needs a vout/);
  });
});
