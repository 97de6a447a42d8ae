// Conformance: BrookGPU's streamGatherOp and streamScatterOp with the meaning of its runtime
// (runtime/brt.cpp, __streamGatherOrScatterOp), against src/reference's loop of that runtime:
// gather reads then modifies the source in the order of i (repeated indices see each other's
// updates); scatter combines a gathered record into the first argument.
import { expect } from 'chai';
import { BrookContext, brook, reference, streamGatherOp, streamScatterOp } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, rng } from '../helpers';

const kernels = brook`
  reduce void myinc1(float a <>, reduce float b <>) { b = a + 1; }
  reduce void mydec1(float a <>, reduce float b <>) { b = a - 1; }
  reduce void twice(float a <>, reduce float b <>) { b += a; }
  reduce void myinc(float4 a <>, reduce float4 b <>) {
    float4 one = float4(1.0f, 1.0f, 1.0f, 1.0f);
    b = a + one;
  }
  // a Fibonacci step: applied k times it is no shorter expression (exact in float32 here)
  reduce void fib(float2 a <>, reduce float2 b <>) { b = float2(a.y, a.x + a.y); }
`;
const ops: Record<string, reference.ReduceOp> = {
  myinc1: (a) => [a[0]! + 1],
  mydec1: (a) => [a[0]! - 1],
  twice: (a, b) => [b[0]! + a[0]!],
  myinc: (a) => a.map((x) => x + 1),
  fib: (a) => [a[1]!, a[0]! + a[1]!],
};

describe('brook/streamGatherOp: t[i] = s[index[i]]; s[index[i]] = op(s[index[i]]), in the order of i', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it("the issue's repro: s=[10,20], index=[1,1], t=[0,0] gives t=[20,21], s=[10,22]", () => {
    const s = ctx.stream('float', 2, [10, 20]);
    const index = ctx.stream('float', 2, [1, 1]);
    const t = ctx.stream('float', 2, [0, 0]);
    streamGatherOp(ctx, t, index, s, kernels.myinc1!);
    expectArrayEqual(t.readSync(), [20, 21], 't');
    expectArrayEqual(s.readSync(), [10, 22], 's');
    const ref = reference.brookGatherOpReference([0, 0], [1, 1], [10, 20], { comps: 1, indexComps: 1, extents: [2] }, ops.myinc1!);
    expectArrayEqual(ref.t, [20, 21], 'reference t');
    expectArrayEqual(ref.s, [10, 22], 'reference s');
    [s, index, t].forEach((x) => x.dispose());
  });

  for (const [name, seed, n, m] of [['myinc1', 1, 300, 40], ['twice', 2, 200, 150], ['mydec1', 3, 64, 3]] as const) {
    it(`${name}: ${n} random indices into ${m} records (repeats up to ${Math.ceil(n / m)}× and beyond; some outside)`, () => {
      const r = rng(seed);
      const sv = Float32Array.from({ length: m }, () => Math.floor(r() * 8) - 4);
      const iv = Float32Array.from({ length: n }, () => Math.floor(r() * (m + 3)) - 1 + (r() < 0.5 ? 0.3 : -0.3)); // rounded as BrookGPU rounds
      [NaN, Infinity, -Infinity, 1e30, -1e30, -0.7, -1.2, m - 0.5].forEach((x, k) => (iv[k * 7] = x)); // no int of their own; -0.7 is record 0
      const tv = Float32Array.from({ length: n }, () => 99);
      const s = ctx.stream('float', m, sv);
      const index = ctx.stream('float', n, iv);
      const t = ctx.stream('float', n, tv);
      streamGatherOp(ctx, t, index, s, kernels[name]!);
      const ref = reference.brookGatherOpReference(tv, iv, sv, { comps: 1, indexComps: 1, extents: [m] }, ops[name]!);
      expectArrayEqual(t.readSync(), ref.t, 't');
      expectArrayEqual(s.readSync(), ref.s, 's');
      expect(new Set(Array.from(iv, (x) => Math.trunc(x + 0.5))).size).to.be.lessThan(n); // repeats were exercised
      expectNoGLError(ctx);
      [s, index, t].forEach((x) => x.dispose());
    });
  }

  it('a 2D source through float2 (column, row) indices, a 2D t, and an operator that is no shorter when composed', () => {
    const r = rng(7);
    const [H, W] = [5, 7];
    const sv = Float32Array.from({ length: H * W * 2 }, (_, k) => Math.floor(r() * 10) - 3);
    const iv = Float32Array.from({ length: 6 * 4 * 2 }, (_, k) => (k % 2 ? Math.floor(r() * H) : Math.floor(r() * 3)));
    const s = ctx.stream('float2', [H, W], sv);
    const index = ctx.stream('float2', [6, 4], iv);
    const t = ctx.stream('float2', [6, 4]);
    streamGatherOp(ctx, t, index, s, kernels.fib!);
    const ref = reference.brookGatherOpReference(new Float32Array(48), iv, sv, { comps: 2, indexComps: 2, extents: [W, H] }, ops.fib!);
    expectArrayEqual(t.readSync(), ref.t, 't');
    expectArrayEqual(s.readSync(), ref.s, 's');
    [s, index, t].forEach((x) => x.dispose());
  });

  it('refuses what BrookGPU asserted against, naming the argument; nothing leaks', () => {
    const s = ctx.stream('float', 4);
    const s2 = ctx.stream('float', [2, 2]);
    const i = ctx.stream('float', 3);
    const t = ctx.stream('float', 3);
    const before = JSON.stringify(ctx.stats());
    expectBrookError(() => streamGatherOp(ctx, t, i, s, { name: 'x', outputs: { o: 'float' }, body: '' }), /must be a reduce kernel/);
    expectBrookError(() => streamGatherOp(ctx, t, i, s2, kernels.myinc1!), /2D source takes float2 indices/);
    expectBrookError(() => streamGatherOp(ctx, s2, i, s, kernels.myinc1!), /index has 3 records, t has 4/);
    expectBrookError(() => streamGatherOp(ctx, t, i, t, kernels.myinc1!), /'t' and 's' are the same stream/);
    expectBrookError(() => streamGatherOp(ctx, t, i, s, kernels.myinc!), /must be float4 streams/);
    expect(JSON.stringify(ctx.stats())).to.equal(before);
    [s, s2, i, t].forEach((x) => x.dispose());
  });
});

describe('brook/streamScatterOp: a[p] = op(a[p], c[b[p]]), only a changes', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it("the issue's repro: t2=[100,200], i2=[1,0], s2=[10,20] gives t2=[21,11]", () => {
    const t2 = ctx.stream('float', 2, [100, 200]);
    const i2 = ctx.stream('float', 2, [1, 0]);
    const s2 = ctx.stream('float', 2, [10, 20]);
    streamScatterOp(ctx, t2, i2, s2, kernels.myinc1!);
    expectArrayEqual(t2.readSync(), [21, 11], 't2');
    expectArrayEqual(s2.readSync(), [10, 20], 's2 unchanged');
    [t2, i2, s2].forEach((x) => x.dispose());
  });

  it('2D indices into a 2D source, float4 records, repeated indices (each p reads c, none writes it)', () => {
    const r = rng(11);
    const av = Float32Array.from({ length: 3 * 3 * 4 }, () => Math.floor(r() * 20));
    const cv = Float32Array.from({ length: 2 * 4 * 4 }, () => Math.floor(r() * 20) - 10);
    const bv = Float32Array.from({ length: 3 * 3 * 2 }, (_, k) => (k % 2 ? Math.floor(r() * 3) - 0.4 : Math.floor(r() * 4))); // row 2 is outside
    const a = ctx.stream('float4', [3, 3], av);
    const b = ctx.stream('float2', [3, 3], bv);
    const c = ctx.stream('float4', [2, 4], cv);
    streamScatterOp(ctx, a, b, c, kernels.myinc!);
    expectArrayEqual(a.readSync(), reference.brookScatterOpReference(av, bv, cv, { comps: 4, indexComps: 2, extents: [4, 2] }, ops.myinc!), 'a');
    expectArrayEqual(c.readSync(), cv, 'c unchanged');
    const a1 = ctx.stream('float', 5, [1, 2, 3, 4, 5]);
    const b1 = ctx.stream('float', 5, [0, 0, 1, 1, 9]);
    const c1 = ctx.stream('float', 2, [10, 20]);
    streamScatterOp(ctx, a1, b1, c1, kernels.twice!);
    expectArrayEqual(a1.readSync(), reference.brookScatterOpReference([1, 2, 3, 4, 5], [0, 0, 1, 1, 9], [10, 20], { comps: 1, indexComps: 1, extents: [2] }, ops.twice!), 'a1');
    expectArrayEqual(a1.readSync(), [11, 12, 23, 24, 5], 'a1 by hand');
    [a, b, c, a1, b1, c1].forEach((x) => x.dispose());
  });

  it('an index with no int of its own (NaN, infinite, 1e30) reads zero as any index outside c does; rounding edges', () => {
    const m = 40;
    const bv = Float32Array.from([NaN, Infinity, -Infinity, 1e30, -1e30, 3e9, -3e9, -0.7, -1.2, -1.5, -0.5, 2.5, 2.49999, m - 0.5, m - 0.51, 39.5, 7]);
    const av = Float32Array.from(bv, (_, p) => 1000 * (p + 1));
    const cv = Float32Array.from({ length: m }, (_, k) => k + 1); // no record of c is zero
    const [a, b, c] = [ctx.stream('float', av.length, av), ctx.stream('float', bv.length, bv), ctx.stream('float', m, cv)];
    streamScatterOp(ctx, a, b, c, kernels.twice!);
    const want = reference.brookScatterOpReference(av, bv, cv, { comps: 1, indexComps: 1, extents: [m] }, ops.twice!);
    expectArrayEqual(want.subarray(0, 7), av.subarray(0, 7), 'reference: NaN, infinities and 1e30 read zero');
    expectArrayEqual(a.readSync(), want, 'a');
    const uv = Uint32Array.from([0xffffffff, 2, m, 0x80000000, 0x7fffffff, 0]);
    const [ua, ub] = [ctx.stream('float', uv.length), ctx.stream('uint', uv.length, uv)];
    streamScatterOp(ctx, ua, ub, c, kernels.twice!);
    expectArrayEqual(ua.readSync(), reference.brookScatterOpReference(new Float32Array(uv.length), uv, cv, { comps: 1, indexComps: 1, extents: [m] }, ops.twice!), 'uint indices');
    expectNoGLError(ctx);
    [a, b, c, ua, ub].forEach((x) => x.dispose());
  });

  it('float indices past 2^23 name the record they round to (x + 0.5 in float32 would round an odd one up)', () => {
    const m = (1 << 23) + 8;
    const cv = Float32Array.from({ length: m }, (_, k) => k); // exact in float32
    const bv = Float32Array.from([8388609, 8388611, 8388607, 8388608, 8388613, 8388614, m - 1, m, 4194305.5, 4194304.5]);
    const c = ctx.stream('float', m, cv);
    const a = ctx.stream('float', bv.length);
    const b = ctx.stream('float', bv.length, bv);
    streamScatterOp(ctx, a, b, c, kernels.twice!);
    expectArrayEqual(a.readSync(), reference.brookScatterOpReference(new Float32Array(bv.length), bv, cv, { comps: 1, indexComps: 1, extents: [m] }, ops.twice!), 'streamScatterOp');
    const t = ctx.stream('float', bv.length);
    streamGatherOp(ctx, t, b, c, kernels.twice!);
    expectArrayEqual(t.readSync(), reference.brookGatherOpReference(new Float32Array(bv.length), bv, cv, { comps: 1, indexComps: 1, extents: [m] }, ops.twice!).t, 'streamGatherOp t');
    expectNoGLError(ctx);
    [a, b, c, t].forEach((x) => x.dispose());
  });
});
