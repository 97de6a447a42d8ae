// Conformance: loops in Brook kernels are bounded (maxIterations), so a loop that never ends
// ends; bounded loops that finish in time answer as on the CPU.
import { expect } from 'chai';
import { BrookContext, DEFAULT_MAX_ITERATIONS, brook, brookWith, parseBrook } from '../../src/index';
import { expectArrayEqual, expectBrookError, newContext } from '../helpers';

describe('brook/loops and maxIterations', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('for, while and do-while loops that finish answer as on the CPU', () => {
    const { sums } = brook`
      kernel void sums(float a<>, out float3 o<>) {
        float s = 0;
        for (int i = 0; i < int(a); i++) s += float(i);
        float t = 0; int j = 0;
        while (j < 5) { t += a; j++; }
        float u = 1;
        do { u *= 2; } while (u < a);
        o = float3(s, t, u);
      }`;
    expect(sums!.maxIterations).to.equal(DEFAULT_MAX_ITERATIONS);
    const xs = Float32Array.from({ length: 30 }, (_, i) => i);
    const a = ctx.stream('float', 30, xs);
    const o = ctx.stream('float3', 30);
    ctx.run(sums!, { a, o });
    const expected: number[] = [];
    for (const x of xs) {
      let s = 0;
      for (let i = 0; i < x; i++) s += i;
      let u = 1;
      do u *= 2; while (u < x);
      expected.push(s, 5 * x, u);
    }
    expectArrayEqual(o.readSync(), expected, 'sums');
    [a, o].forEach((s) => s.dispose());
  });

  it('an endless loop stops at maxIterations and writes NaN instead of hanging', () => {
    const { spin } = brookWith({ maxIterations: 1000 })`
      kernel void spin(float a<>, out float o<>, out int steps<>) {
        o = a;
        steps = 0;
        while (true) { o += 1; steps++; }
      }`;
    const a = ctx.stream('float', 16, new Float32Array(16).fill(2));
    const o = ctx.stream('float', 16);
    const steps = ctx.stream('int', 16);
    ctx.run(spin!, { a, o, steps });
    expect(Array.from(o.readSync()).every(Number.isNaN)).to.equal(true);
    expectArrayEqual(steps.readSync(), new Int32Array(16).fill(1000), 'iterations run before the bound');
    [a, o, steps].forEach((s) => s.dispose());
  });

  it('counts all loops of a record together, nested ones included', () => {
    const { nest } = brookWith({ maxIterations: 50 })`
      kernel void nest(float n<>, out float o<>) {
        o = 0.0;
        for (int i = 0; i < int(n); i++) for (int j = 0; j < int(n); j++) o += 1.0;
      }`;
    // n = 6: 6 outer + 36 inner = 42 conditions passed, under 50; n = 7: 7 + 49 > 50.
    const n = ctx.stream('float', 2, [6, 7]);
    const o = ctx.stream('float', 2);
    ctx.run(nest!, { n, o });
    const got = o.readSync();
    expect(got[0]).to.equal(36);
    expect(Number.isNaN(got[1]!)).to.equal(true);
    [n, o].forEach((s) => s.dispose());
  });

  it('maxIterations: Infinity leaves loops as written; bad bounds are BrookErrors', () => {
    const src = 'kernel void k(out float o<>) { o = 0; for (int i = 0; i < 3; i++) o += 1; }';
    expect(parseBrook(src, { maxIterations: Infinity }).k!.body).not.to.contain('brook_loop');
    expect(parseBrook(src).k!.body).to.contain('(i < 3) && brook_loop()');
    for (const bad of [0, -1, 1.5, NaN, 2 ** 31]) {
      expectBrookError(() => parseBrook(src, { maxIterations: bad }), /maxIterations/);
    }
  });
});
