// scatterReduce, streamGatherOp and streamScatterOp on the CPU backend against src/reference's
// loops, and, in the page, against the GPU: the same inputs on a WebGL2 context and a CPU context
// give the same records exactly. The operators are chosen so that float rounding cannot hide a
// wrong order: r * 2 + a is exact in its product and rounds once, so any other order of the
// records folded into one target gives another answer. In Node (scripts/test-node.mjs) there is
// no GPU context: the CPU is checked against the references only.
import { expect } from 'chai';
import { BrookContext, brook, reference, scatterReduce, streamGatherOp, streamScatterOp } from '../../src/index';
import { cpuAndGpu, expectArrayEqual, expectBrookError, rng } from '../helpers';

const { sum, shiftAdd, shiftAdd2, dec } = brook`
  reduce void sum(float a<>, reduce float r<>) { r += a; }
  reduce void shiftAdd(float a<>, reduce float r<>) { r = r * 2.0 + a; }
  reduce void shiftAdd2(float2 a<>, reduce float2 r<>) { r = r * 2.0 + a; }
  reduce void dec(float a<>, reduce float r<>) { r = a - 1.0; }`;

/** Float indices of a target of `m` records: mostly inside, some rounding at .5, some outside (negative, past the end, NaN, infinite). */
function indices(n: number, m: number, seed: number): Float32Array {
  const r = rng(seed);
  const odd = [-0.6, -1.4, -1.5, -3, m - 0.5, m - 0.51, m + 2, NaN, Infinity, -Infinity, 2.5, 1e30];
  return Float32Array.from({ length: n }, (_, i) => (i % 13 === 5 ? odd[(i / 13) % odd.length | 0]! : Math.floor(r() * m) + (i % 2 ? 0.25 : 0)));
}


describe('cpu/scatter and gather operators: the CPU backend against src/reference and the GPU', () => {
  const pair = cpuAndGpu();
  const { cpu, both } = pair;

  it('scatterReduce: each target folds the records sent to it in the order of i (sum, r * 2 + a, float2), outside indices send nothing', () => {
    for (const [n, m] of [[1000, 37], [4096, 64], [300, 1]] as const) {
      const r = rng(n + m);
      const sv = Float32Array.from({ length: n }, () => Math.floor(r() * 8));
      const iv = indices(n, m, n);
      const tv = Float32Array.from({ length: m }, (_, k) => k % 5);
      for (const [op, name, plain] of [
        [sum, 'sum', (x: number[], acc: number[]) => [acc[0]! + x[0]!]],
        [shiftAdd, 'r * 2 + a', (x: number[], acc: number[]) => [acc[0]! * 2 + x[0]!]],
      ] as const) {
        const got = both((ctx) => {
          const s = ctx.stream('float', n, sv);
          const index = ctx.stream('float', n, iv);
          const t = ctx.stream('float', m, tv);
          scatterReduce(ctx, s, index, t, op!);
          const out = t.readSync();
          [s, index, t].forEach((x) => x.dispose());
          return out;
        });
        const want = reference.scatterReduceReference(sv, iv, tv, 1, plain);
        expectArrayEqual(got.cpu, want, `CPU ${name}, ${n} into ${m}`);
        if (got.gpu) expectArrayEqual(got.gpu, got.cpu, `GPU against CPU ${name}, ${n} into ${m}`);
      }
      // a float2 operator: the components fold together
      const s2 = Float32Array.from({ length: 2 * n }, () => Math.floor(r() * 8) - 4);
      const t2 = Float32Array.from({ length: 2 * m }, (_, k) => k % 3);
      const got2 = both((ctx) => {
        const s = ctx.stream('float2', n, s2);
        const index = ctx.stream('float', n, iv);
        const t = ctx.stream('float2', m, t2);
        scatterReduce(ctx, s, index, t, shiftAdd2!);
        const out = t.readSync();
        [s, index, t].forEach((x) => x.dispose());
        return out;
      });
      expectArrayEqual(got2.cpu, reference.scatterReduceReference(s2, iv, t2, 2, (x, acc) => [acc[0]! * 2 + x[0]!, acc[1]! * 2 + x[1]!]), `CPU float2, ${n} into ${m}`);
      if (got2.gpu) expectArrayEqual(got2.gpu, got2.cpu, `GPU against CPU float2, ${n} into ${m}`);
    }
  });

  it('scatterReduce refuses the same bad arguments with the same words on both', () => {
    const messages = both((ctx) => {
      const s = ctx.stream('float', 10);
      const i5 = ctx.stream('float', 5);
      const i10 = ctx.stream('float', 10);
      const t = ctx.stream('float', 4);
      const t2 = ctx.stream('float2', 4);
      const caught = [
        () => scatterReduce(ctx, s, i5, t, sum!),
        () => scatterReduce(ctx, s, i10, t2, sum!),
        () => scatterReduce(ctx, s, i10, t, { name: 'plain', outputs: { o: 'float' }, body: 'o = 1.0;' }),
        () => scatterReduce(ctx, s, i10, 3 as never, sum!),
      ].map((f) => {
        expectBrookError(f, /^\(brookgl\) scatterReduce: /);
        try {
          f();
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      });
      [s, i5, i10, t, t2].forEach((x) => x.dispose());
      return caught;
    });
    if (messages.gpu) expect(messages.cpu).to.deep.equal(messages.gpu);
  });

  it('streamGatherOp and streamScatterOp (BrookGPU\'s loops) give the GPU\'s records', () => {
    const n = 500;
    const m = 60;
    const r = rng(77);
    const sv = Float32Array.from({ length: m }, () => Math.floor(r() * 100));
    const iv = indices(n, m, 78);
    const got = both((ctx) => {
      const t = ctx.stream('float', n);
      const index = ctx.stream('float', n, iv);
      const s = ctx.stream('float', m, sv);
      streamGatherOp(ctx, t, index, s, dec!);
      const a = ctx.stream('float', n, Float32Array.from({ length: n }, (_, k) => k % 7));
      streamScatterOp(ctx, a, index, s, shiftAdd!);
      const out = { t: t.readSync(), s: s.readSync(), a: a.readSync() };
      [t, index, s, a].forEach((x) => x.dispose());
      return out;
    });
    const g = reference.brookGatherOpReference(new Float32Array(n), iv, sv, { comps: 1, indexComps: 1, extents: [m] }, (x) => [x[0]! - 1]);
    expectArrayEqual(got.cpu.t, g.t, 'CPU streamGatherOp t');
    expectArrayEqual(got.cpu.s, g.s, 'CPU streamGatherOp s');
    const a = reference.brookScatterOpReference(Float32Array.from({ length: n }, (_, k) => k % 7), iv, g.s, { comps: 1, indexComps: 1, extents: [m] }, (x, acc) => [acc[0]! * 2 + x[0]!]);
    expectArrayEqual(got.cpu.a, a, 'CPU streamScatterOp a');
    if (got.gpu) for (const k of ['t', 's', 'a'] as const) expectArrayEqual(got.gpu[k], got.cpu[k], `GPU against CPU ${k}`);
  });
});
