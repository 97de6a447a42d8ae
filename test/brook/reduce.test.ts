// Conformance: Brook reduce kernels (reduce void f(T a<>, reduce T r<>)) to a value, to a
// smaller 1D and 2D stream, with extra constant and gather arguments, and a non-commutative
// operator (2x2 matrix product) whose result shows the fixed index order.
import { expect } from 'chai';
import { BrookContext, brook, reduceValue, reference, scatterReduce, streamScatterOp } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, randomFloats, rng } from '../helpers';

/** CPU fold in index order: r = first, then r = op(r, a) for each next record. */
function fold<T>(xs: T[], op: (r: T, a: T) => T): T {
  return xs.slice(1).reduce(op, xs[0]!);
}

const kernels = brook`
  reduce void sum(float a<>, reduce float r<>) { r += a; }
  reduce void biggest(float2 a<>, reduce float2 r<>) {
    if (a.x > r.x) r = a;       // keeps the first of equal x
  }
  // 2x2 matrices as float4 (m00, m01, m10, m11): r = r * a, not commutative
  reduce void matmul(float4 a<>, reduce float4 r<>) {
    r = float4(r.x * a.x + r.y * a.z, r.x * a.y + r.y * a.w,
               r.z * a.x + r.w * a.z, r.z * a.y + r.w * a.w);
  }
  // extra arguments (associative all the same): a constant floor, a gather of weights
  reduce void floored(float a<>, float lo, reduce float r<>) { r = max(max(r, a), lo); }
  reduce void heaviest(float a<>, float w[], reduce float r<>) {
    if (w[a] > w[r]) r = a;     // the index of the largest weight, the first of equals
  }
  reduce void isum(int a<>, reduce int r<>) { r = r + a; return; }
`;

describe('brook/reduce kernels', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('parses reduce kernels into fold passes', () => {
    expect(kernels.sum!.brook?.reduce).to.deep.equal({ input: 'a', result: 'r', type: 'float' });
    expect(kernels.floored!.uniforms).to.include({ lo: 'float' });
    expect(kernels.heaviest!.gathers).to.include({ w: 'float' });
  });

  it('reduces to a value over several passes (integers: exact)', async () => {
    const n = 5000;
    const xs = Int32Array.from({ length: n }, (_, i) => ((i * 7919) % 2001) - 1000);
    const a = ctx.stream('int', n, xs);
    const [total] = await reduceValue(ctx, kernels.isum!, { a });
    expect(total).to.equal(xs.reduce((s, x) => s + x, 0));
    const r = ctx.stream('int', 1);
    ctx.run(kernels.isum!, { a, r });
    expect(r.readSync()[0]).to.equal(total);
    [a, r].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('keeps the first maximum (order) and reduces 1D n to m records', () => {
    const n = 60;
    const v = Float32Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? Math.floor(i / 6) % 4 : i));
    const a = ctx.stream('float2', n, v);
    const r = ctx.stream('float2', 6);
    ctx.run(kernels.biggest!, { a, r });
    const pairs = Array.from({ length: n }, (_, i) => [v[2 * i]!, v[2 * i + 1]!] as [number, number]);
    const expected = Array.from({ length: 6 }, (_, k) => fold(pairs.slice(k * 10, k * 10 + 10), (x, y) => (y[0] > x[0] ? y : x))).flat();
    expectArrayEqual(r.readSync(), expected, 'first maximum of each 10');
    [a, r].forEach((s) => s.dispose());
  });

  it('reduces a 10x10 stream to 2x5 (5x2 blocks, row by row)', () => {
    const v = Float32Array.from({ length: 100 }, (_, i) => i);
    const a = ctx.stream('float', [10, 10], v);
    const r = ctx.stream('float', [2, 5]);
    ctx.run(kernels.sum!, { a, r });
    const expected: number[] = [];
    for (let row = 0; row < 2; row++) {
      for (let col = 0; col < 5; col++) {
        let s = 0;
        for (let y = row * 5; y < row * 5 + 5; y++) for (let x = col * 2; x < col * 2 + 2; x++) s += v[y * 10 + x]!;
        expected.push(s);
      }
    }
    expectArrayEqual(r.readSync(), expected, '10x10 -> 2x5');
    [a, r].forEach((s) => s.dispose());
  });

  it('multiplies 2x2 matrices in index order (a non-commutative reduction)', async () => {
    // symmetries of the square (rotations, reflections): exact in float32, and they do not commute
    const group = [[0, -1, 1, 0], [1, 0, 0, -1], [0, 1, 1, 0], [-1, 0, 0, 1], [0, 1, -1, 0]];
    const r = rng(11);
    const n = 300; // several passes of REDUCE_FACTOR
    const mats = Array.from({ length: n }, () => group[Math.floor(r() * group.length)]!);
    const mul = (x: number[], y: number[]) => [x[0]! * y[0]! + x[1]! * y[2]!, x[0]! * y[1]! + x[1]! * y[3]!, x[2]! * y[0]! + x[3]! * y[2]!, x[2]! * y[1]! + x[3]! * y[3]!];
    const a = ctx.stream('float4', n, mats.flat());
    const got = await reduceValue(ctx, kernels.matmul!, { a });
    const ordered = fold(mats, mul);
    expectArrayEqual(got, ordered, 'product in index order');
    const reversed = fold([...mats].reverse(), mul);
    expect(ordered).not.to.deep.equal(reversed); // the order is observable
    a.dispose();
  });

  it('takes extra constant and gather arguments', async () => {
    const n = 200;
    const xs = Float32Array.from({ length: n }, (_, i) => (i * 13) % 50);
    const ws = randomFloats(50, 4, 0, 1);
    const a = ctx.stream('float', n, xs);
    const w = ctx.stream('float', 50, ws);
    const [lo] = await reduceValue(ctx, kernels.floored!, { a, lo: 60 });
    expect(lo).to.equal(fold(Array.from(xs), (s, x) => Math.max(s, x, 60)));
    const [hi] = await reduceValue(ctx, kernels.floored!, { a, lo: -5 });
    expect(hi).to.equal(49);
    const [heaviest] = await reduceValue(ctx, kernels.heaviest!, { a, w });
    expect(heaviest).to.equal(fold(Array.from(xs), (s, x) => (ws[x]! > ws[s]! ? x : s)));
    [a, w].forEach((s) => s.dispose());
  });

  it('refuses shapes that do not divide and wrong declarations', () => {
    const a = ctx.stream('float', [10, 10]);
    const r = ctx.stream('float', [3, 5]);
    const r1 = ctx.stream('float', 7);
    expectBrookError(() => ctx.run(kernels.sum!, { a, r }), /h divides 10/);
    expectBrookError(() => ctx.run(kernels.sum!, { a, r: r1 }), /1D stream to a 1D stream/);
    expectBrookError(() => brook`reduce void f(float a<>, reduce float2 r<>) { r += a; }`, /must match/);
    expectBrookError(() => brook`reduce void f(float a<>, out float r<>) { r += a; }`, /no out parameters/);
    expectBrookError(() => brook`kernel void f(float a<>, reduce float r<>) { r += a; }`, /declare the kernel as reduce/);
    [a, r, r1].forEach((s) => s.dispose());
  });
});

describe('brook/streamScatterOp(a, b, c, op): a[p] = op(a[p], c[b[p]]) in one pass', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('a[p] = op(a[p], c[b[p]]) for sum, max and a matrix product, with 1D and 2D sources', () => {
    const n = 50;
    const tv = randomFloats(n, 5, -10, 10);
    const sv = randomFloats(20, 6, -10, 10);
    const iv = Float32Array.from({ length: n }, (_, i) => (i * 7) % 23); // 20..22 are outside: zero
    const t = ctx.stream('float', n, tv);
    const index = ctx.stream('float', n, iv);
    const s = ctx.stream('float', 20, sv);
    streamScatterOp(ctx, t, index, s, kernels.sum!);
    const at = (k: number) => (k < 20 ? sv[k]! : 0);
    expectArrayEqual(t.readSync(), Array.from(tv, (x, i) => Math.fround(x + at(iv[i]!))), 'sum');
    const { biggest } = kernels;
    const t2 = ctx.stream('float2', 3, [1, 10, 5, 20, -1, 30]);
    const s2 = ctx.stream('float2', [2, 2], [0, 1, 2, 2, 4, 3, 6, 4]);
    const i2 = ctx.stream('float2', 3, [1, 1, 0, 1, 1, 0]); // (column, row)
    streamScatterOp(ctx, t2, i2, s2, biggest!);
    expectArrayEqual(t2.readSync(), [6, 4, 5, 20, 2, 2], 'first maximum of (t, s[col, row])');
    const m = ctx.stream('float4', 2, [1, 1, 0, 1, 0, -1, 1, 0]);
    const ms = ctx.stream('float4', 1, [0, -1, 1, 0]);
    const mi = ctx.stream('int', 2, [0, 0]);
    streamScatterOp(ctx, m, mi, ms, kernels.matmul!);
    // [1 1; 0 1] x [0 -1; 1 0] = [1 -1; 1 0]; [0 -1; 1 0] x [0 -1; 1 0] = [-1 0; 0 -1]
    expectArrayEqual(m.readSync(), [1, -1, 1, 0, -1, 0, 0, -1], 'r * a in that order');
    expectBrookError(() => streamScatterOp(ctx, t, index, s, { name: 'x', outputs: { o: 'float' }, body: '' }), /must be a reduce kernel/);
    [t, index, s, t2, s2, i2, m, ms, mi].forEach((x) => x.dispose());
  });
});

describe('brook/scatterReduce with a reduce-kernel operator', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('t[index[i]] = op(t[index[i]], s[i]), duplicates combined in the order of i', () => {
    const n = 300;
    const r = rng(21);
    const sv = Float32Array.from({ length: n }, () => Math.floor(r() * 100));
    const iv = Float32Array.from({ length: n }, () => Math.floor(r() * 40)); // 40..49 get nothing
    const tv = Float32Array.from({ length: 50 }, (_, k) => k * 1000);
    const s = ctx.stream('float', n, sv);
    const index = ctx.stream('float', n, iv);
    const t = ctx.stream('float', 50, tv);
    scatterReduce(ctx, s, index, t, kernels.sum!);
    const expected = Array.from(tv);
    sv.forEach((x, i) => (expected[iv[i]!] = expected[iv[i]!]! + x));
    expectArrayEqual(t.readSync(), expected, 'scatter-add');
    // a non-commutative operator: 2x2 matrix products in the order of i
    const group = [[0, -1, 1, 0], [1, 0, 0, -1], [0, 1, 1, 0], [1, 1, 0, 1]];
    const mats = Array.from({ length: 40 }, (_, i) => group[(i * 7 + (i >> 2)) % 4]!);
    const targets = Float32Array.from({ length: 40 }, (_, i) => (i * 3) % 5);
    const ms = ctx.stream('float4', 40, mats.flat());
    const mi = ctx.stream('float', 40, targets);
    const mt = ctx.stream('float4', 5, Array.from({ length: 5 }, () => [1, 0, 0, 1]).flat());
    scatterReduce(ctx, ms, mi, mt, kernels.matmul!);
    const mul = (x: number[], y: number[]) => [x[0]! * y[0]! + x[1]! * y[2]!, x[0]! * y[1]! + x[1]! * y[3]!, x[2]! * y[0]! + x[3]! * y[2]!, x[2]! * y[1]! + x[3]! * y[3]!];
    const exp = Array.from({ length: 5 }, () => [1, 0, 0, 1]);
    mats.forEach((m, i) => (exp[targets[i]!] = mul(exp[targets[i]!]!, m)));
    expectArrayEqual(mt.readSync(), exp.flat(), 'products in the order of i');
    [s, index, t, ms, mi, mt].forEach((x) => x.dispose());
  });

  it('rounds indices as BrookGPU and streamGatherOp do, (int)(x + 0.5); an index outside t (or NaN, infinite) scatters nothing', () => {
    const tn = 50;
    const edges = [2.4, 2.5, 2.6, -0.4, -0.5, -0.7, -1, -1.2, 48.9, 49.49, 49.5, 49.6, 50, NaN, Infinity, -Infinity, 1e30, -1e30, 3.5, 3.49999];
    const r = rng(23);
    const iv = Float32Array.from({ length: 200 }, (_, i) => (i < edges.length ? edges[i]! : (r() - 0.1) * 55));
    const sv = Float32Array.from({ length: iv.length }, () => Math.floor(r() * 100));
    const tv = Float32Array.from({ length: tn }, (_, k) => k * 1000);
    const s = ctx.stream('float', iv.length, sv);
    const index = ctx.stream('float', iv.length, iv);
    const t = ctx.stream('float', tn, tv);
    scatterReduce(ctx, s, index, t, kernels.sum!);
    const want = reference.scatterReduceReference(sv, iv, tv, 1, (x, acc) => [acc[0]! + x[0]!]);
    expectArrayEqual(t.readSync(), want, 'scatter-add with rounded indices');
    expect(want[2]! - tv[2]! + want[3]! - tv[3]!, 'the edge records scattered somewhere').to.be.greaterThan(0);
    [s, index, t].forEach((x) => x.dispose());
    expectNoGLError(ctx);
  });

  it('float indices past 2^23 name the record they round to (x + 0.5 in float32 would round an odd one up)', () => {
    const tn = (1 << 23) + 8;
    const iv = Float32Array.from([8388609, 8388611, 8388607, 8388608, 8388613, tn - 1, tn, 4194305.5]);
    const sv = Float32Array.from(iv, (_, i) => i + 1);
    const s = ctx.stream('float', iv.length, sv);
    const index = ctx.stream('float', iv.length, iv);
    const t = ctx.stream('float', tn);
    scatterReduce(ctx, s, index, t, kernels.sum!);
    const want = reference.scatterReduceReference(sv, iv, new Float32Array(tn), 1, (x, acc) => [acc[0]! + x[0]!]);
    const got = t.readSync();
    for (const k of [4194306, 8388607, 8388608, 8388609, 8388610, 8388611, 8388612, 8388613, 8388614, tn - 1]) expect(got[k], `t[${k}]`).to.equal(want[k]);
    expectArrayEqual(got, want, 't');
    [s, index, t].forEach((x) => x.dispose());
    expectNoGLError(ctx);
  });

  it('refuses a t of more than 2^24 records (float indices could not tell its records apart); nothing leaks', () => {
    const s = ctx.stream('float', 2, [1, 2]);
    const index = ctx.stream('float', 2, [0, 1]);
    const t = ctx.stream('float', (1 << 24) + 2);
    const before = JSON.stringify(ctx.stats());
    expectBrookError(() => scatterReduce(ctx, s, index, t, kernels.sum!), /t has 16777218 records, at most 2\^24/);
    expect(JSON.stringify(ctx.stats())).to.equal(before);
    [s, index, t].forEach((x) => x.dispose());
  });
});
