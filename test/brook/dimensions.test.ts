// Conformance: streams of 3 and 4 dimensions (Brook's `float a<4, 5, 6>`) from Brook source:
// row-major host I/O, indexof (x the fastest dimension), gathers a[z][y][x] and a[float3],
// replication and stride across dimensions, iterators, against src/reference/shapes.ts.
import { expect } from 'chai';
import { BrookContext, brook, iter, layoutFor, reduceValue, reference, streamDecl, type Stream } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext } from '../helpers';

const { indexofReference, gatherClamped, resampleReference, positionOf } = reference;

const numbered = (n: number, c = 1) => Float32Array.from({ length: n * c }, (_, i) => i * 0.5 - 3);

describe('brook/dimensions: streams of 3 and 4 dimensions', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('lays out [d, h, w] with w along x and the rest folded into rows; wraps like a 1D stream past MAX_TEXTURE_SIZE', () => {
    expect(layoutFor([4, 5, 6], 8192)).to.deep.include({ width: 6, height: 20, dims: 3, length: 120 });
    expect(layoutFor([2, 3, 4, 5], 8192)).to.deep.include({ width: 5, height: 24, dims: 4, length: 120 });
    expect(layoutFor([64, 64, 8], 1024)).to.deep.include({ width: 256, height: 128, dims: 3 }); // 4096 rows > 1024: wrapped
    expect(layoutFor([2, 3, 2048], 1024)).to.deep.include({ width: 128, height: 96, dims: 3 }); // w > 1024: wrapped
  });

  for (const shape of [[4, 5, 6], [2, 3, 4, 5], [3, 1, 7]]) {
    it(`host I/O of a [${shape}] stream is row-major, every type`, () => {
      const n = shape.reduce((a, b) => a * b, 1);
      for (const type of ['float', 'float3', 'int2', 'uint4'] as const) {
        const c = Number(type.slice(-1)) || 1;
        const data = type.startsWith('float') ? numbered(n, c) : Int32Array.from({ length: n * c }, (_, i) => i * 7);
        const s = ctx.stream(type, shape, type.startsWith('uint') ? Uint32Array.from(data) : data);
        expect(s.shape).to.deep.equal(shape);
        expect(s.describe()).to.contain(`[${shape.join(', ')}]`);
        expectArrayEqual(s.readSync(), data, `${type} [${shape}]`);
        s.dispose();
      }
    });
  }

  it("streamDecl('float a<4, 5, 6>') and <2, 3, 4, 5> declare 3D and 4D streams", () => {
    const a = streamDecl(ctx, 'float a<4, 5, 6>') as Stream;
    const b = streamDecl(ctx, 'float4 b<2, 3, 4, 5>') as Stream;
    expect(a.shape).to.deep.equal([4, 5, 6]);
    expect(b.shape).to.deep.equal([2, 3, 4, 5]);
    a.dispose();
    b.dispose();
  });

  const { where } = brook`kernel void where(float a<>, out float4 o<>) { o = indexof(o); }`;
  for (const shape of [[4, 5, 6], [2, 3, 4, 5], [3, 1, 7], [1, 1, 1]]) {
    it(`indexof over [${shape}] is (x, y, z, w), x the fastest dimension`, () => {
      const n = shape.reduce((a, b) => a * b, 1);
      const a = ctx.stream('float', shape);
      const o = ctx.stream('float4', shape);
      ctx.run(where!, { a, o });
      expectArrayEqual(o.readSync(), indexofReference(shape), `indexof [${shape}]`);
      expect(Array.from(o.readSync().slice((n - 1) * 4, n * 4))).to.deep.equal([...shape].reverse().map((e) => e - 1).concat([0, 0, 0]).slice(0, 4));
      [a, o].forEach((s) => s.dispose());
      expectNoGLError(ctx);
    });
  }

  it('gathers a[z][y][x] and a[float3] read neighbours; past an edge they read the nearest record (clamped, as BrookGPU)', () => {
    const { blur } = brook`
      kernel void blur(float2 g[][][], out float2 o<>) {
        float4 p = indexof(o);
        o = g[p.z][p.y][p.x + 1.0] + g[float3(p.x, p.y - 1.0, p.z)] * 10.0 + g[p.z + 1.0][p.y][p.x] * 100.0;
      }`;
    const shape = [3, 4, 5];
    const n = 60;
    const v = numbered(n, 2);
    const g = ctx.stream('float2', shape, v);
    const o = ctx.stream('float2', shape);
    ctx.run(blur!, { g, o });
    const want = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const [x, y, z] = positionOf(i, shape) as [number, number, number];
      const a = gatherClamped(v, 2, shape, [x + 1, y, z]);
      const b = gatherClamped(v, 2, shape, [x, y - 1, z]);
      const c = gatherClamped(v, 2, shape, [x, y, z + 1]);
      for (let k = 0; k < 2; k++) want[i * 2 + k] = Math.fround(Math.fround(a[k]! + Math.fround(b[k]! * 10)) + Math.fround(c[k]! * 100));
    }
    expectArrayEqual(o.readSync(), want, 'gathers in 3D');
    [g, o].forEach((s) => s.dispose());
  });

  it('4D gathers a[w][z][y][x] and a[float4]; a 1D index reads records in row-major order; past w the last w (clamped)', () => {
    const { pick } = brook`
      kernel void pick(float g[][][][], out float4 o<>) {
        float4 p = indexof(o);
        o = float4(g[p.w][p.z][p.y][p.x], g[p.wzyx.wzyx], g[p.x + p.y * 4.0 + p.z * 12.0 + p.w * 24.0], g[p.w + 5.0][p.z][p.y][p.x]);
      }`;
    const shape = [2, 2, 3, 4];
    const v = numbered(48);
    const g = ctx.stream('float', shape, v);
    const o = ctx.stream('float4', shape);
    ctx.run(pick!, { g, o });
    const want = new Float32Array(48 * 4);
    for (let i = 0; i < 48; i++) want.set([v[i]!, v[i]!, v[i]!, gatherClamped(v, 1, shape, positionOf(i, shape).map((c, k) => (k === 3 ? c + 5 : c)))[0]!], i * 4);
    expectArrayEqual(o.readSync(), want, 'gathers in 4D');
    [g, o].forEach((s) => s.dispose());
  });

  const { copy } = brook`kernel void copy(float a<>, out float o<>) { o = a; }`;
  const pairs: Array<[number | number[], number[]]> = [
    [[2, 3, 4], [4, 6, 8]], // replication in every dimension
    [[4, 6, 8], [2, 3, 4]], // stride
    [[3, 5, 2], [2, 7, 5]], // neither divides
    [[2, 3], [4, 3, 6]], // 2D over 3D: replicated along z
    [6, [2, 3, 12]], // 1D over 3D: the row [1, 1, 6]
    [[3, 4, 5], [6, 10]], // 3D over 2D: z = 0 only
    [[2, 2, 2, 3], [3, 4, 2, 6]], // 4D
    [[2, 3, 4], [24]], // equal lengths: record by record
  ];
  for (const [is, os] of pairs) {
    it(`replication and stride: ${JSON.stringify(is)} read over ${JSON.stringify(os)}`, () => {
      const ishape = typeof is === 'number' ? [is] : is;
      const n = ishape.reduce((a, b) => a * b, 1);
      const v = numbered(n);
      const a = ctx.stream('float', is, v);
      const o = ctx.stream('float', os.length === 1 ? os[0]! : os);
      ctx.run(copy!, { a, o });
      expectArrayEqual(o.readSync(), resampleReference(v, 1, ishape, os), `${JSON.stringify(is)} over ${JSON.stringify(os)}`);
      [a, o].forEach((s) => s.dispose());
    });
  }

  it('iter float3 over a 3D domain steps each component along its dimension; iter float walks row-major', () => {
    const { walk } = brook`kernel void walk(iter float3 it<>, iter float f<>, out float4 o<>) { o = float4(it, f); }`;
    const shape = [3, 4, 5];
    const o = ctx.stream('float4', shape);
    ctx.run(walk!, { it: iter([0, 10, -1], [5, 18, 5]), f: iter(0, 120), o });
    const want = new Float32Array(60 * 4);
    const start = [0, 10, -1];
    const step = [5 / 5, 8 / 4, 6 / 3].map(Math.fround);
    for (let i = 0; i < 60; i++) {
      const p = positionOf(i, shape);
      want.set([0, 1, 2].map((k) => Math.fround(start[k]! + Math.fround(step[k]! * p[k]!))).concat([Math.fround(Math.fround(2) * i)]), i * 4);
    }
    expectArrayEqual(o.readSync(), want, 'iterators over 3D');
    o.dispose();
  });

  it('iter float4 over a 4D domain; a float2 iterator over a 3D domain is refused', () => {
    const { walk4 } = brook`kernel void walk4(iter float4 it<>, out float4 o<>) { o = it; }`;
    const shape = [2, 3, 2, 2];
    const o = ctx.stream('float4', shape);
    ctx.run(walk4!, { it: iter([0, 0, 0, 0], [2, 4, 6, 8]), o });
    const want = new Float32Array(24 * 4);
    for (let i = 0; i < 24; i++) want.set(positionOf(i, shape).map((x, k) => x * [1, 2, 2, 4][k]!), i * 4);
    expectArrayEqual(o.readSync(), want, 'iter float4 over 4D');
    const { walk2 } = brook`kernel void walk2(iter float2 it<>, out float2 o<>) { o = it; }`;
    const o3 = ctx.stream('float2', [2, 2, 2]);
    expectBrookError(() => ctx.run(walk2!, { it: iter([0, 0], [1, 1]), o: o3 }), /argument 'it'.*2D or a 1D output domain.*3D/);
    [o, o3].forEach((s) => s.dispose());
  });

  it('a reduce kernel folds a 3D stream to a value in row-major order; 3D to 3D is refused', async () => {
    const { isum } = brook`reduce void isum(int a<>, reduce int r<>) { r += a; }`;
    const n = 5 * 6 * 7;
    const v = Int32Array.from({ length: n }, (_, i) => (i * 37) % 101 - 50);
    const a = ctx.stream('int', [5, 6, 7], v);
    const [total] = await reduceValue(ctx, isum!, { a });
    expect(total).to.equal(v.reduce((x, y) => x + y, 0));
    const r = ctx.stream('int', [1, 2, 7]);
    expectBrookError(() => ctx.run(isum!, { a, r }), /argument 'r'.*reduce a 1D stream to a 1D stream/);
    [a, r].forEach((s) => s.dispose());
  });

  it('refuses bad shapes, naming them, and leaks nothing', () => {
    const before = ctx.stats();
    expectBrookError(() => ctx.stream('float', [2, 0, 3]), /3D stream shape must be 3 positive integers/);
    expectBrookError(() => ctx.stream('float', [2, 2, 2, 2, 2]), /a stream shape is a length n/);
    expectBrookError(() => ctx.stream('float', [2, 1.5, 3]), /positive integers/);
    expectBrookError(() => ctx.stream('float', [2, 3, 4], new Float32Array(23)), /needs 24/);
    expectBrookError(() => streamDecl(ctx, 'float a<2, 3, 4, 5, 6>'), /extents|dimensions/);
    expect(ctx.stats()).to.deep.equal(before);
  });

  it('stats stay flat over repeated 3D runs', () => {
    const a = ctx.stream('float', [3, 4, 5], numbered(60));
    const o = ctx.stream('float4', [3, 4, 5]);
    ctx.run(where!, { a, o });
    const before = ctx.stats();
    for (let i = 0; i < 20; i++) ctx.run(where!, { a, o });
    expect(ctx.stats()).to.deep.equal(before);
    [a, o].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });
});

// A gather indexed by a vector with more components than the stream has dimensions (a 1D stream
// at a float2 or a float4): the extra components are dropped, as BrookGPU's textures ignored them
// (prog/tests gather_directGLES: a[float2(3, 4)] on a<100> is a[3]); brookgl used to read a 1D
// stream's texel (x, y) of its folded layout. Against reference.brookRankedGatherReference.
describe('brook/gathers at vector indices with more components than the stream has dimensions', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('a 1D stream at a float2/float4 reads a[x]; a 2D one at a float3/float4 d[y][x]; a 3D one at a float4 v[z][y][x]', () => {
    const { g1, g2, g3 } = brook`
      kernel void g1(float a[], float4 p<>, out float o1<>, out float o2<>, out float o4<>) {
        float2 q = p.xy;
        o1 = a[p.x];
        o2 = a[q];
        o4 = a[p];
      }
      kernel void g2(float d[][], float4 p<>, out float o2<>, out float o3<>, out float o4<>) {
        o2 = d[p.xy];
        o3 = d[p.xyz];
        o4 = d[p];
      }
      kernel void g3(float v[][][], float4 p<>, out float o3<>, out float o4<>) {
        o3 = v[p.xyz];
        o4 = v[p];
      }`;
    const n = 60;
    const cases: Array<[number[], typeof g1, string[], number]> = [
      [[100], g1, ['o1', 'o2', 'o4'], 1],
      [[10, 12], g2, ['o2', 'o3', 'o4'], 2],
      [[4, 5, 6], g3, ['o3', 'o4'], 3],
    ];
    for (const [shape, kernel, outs, rank] of cases) {
      const size = shape.reduce((x, y) => x * y, 1);
      const values = numbered(size);
      const src = ctx.stream('float', shape.length === 1 ? shape[0]! : shape, values);
      const ext = [...shape].reverse(); // x first
      // x, y, z inside the stream's rank; the components past it 1..5, so that reading them would show
      const idx = Float32Array.from({ length: n * 4 }, (_, i) => (i % 4 < rank ? ((i * 7 + Math.floor(i / 4) * 3) % ext[i % 4]!) + 0.25 : 1 + (i % 5)));
      const p = ctx.stream('float4', n, idx);
      const o = Object.fromEntries(outs.map((name) => [name, ctx.stream('float', n)]));
      ctx.run(kernel!, { [rank === 1 ? 'a' : rank === 2 ? 'd' : 'v']: src, p, ...o });
      for (const name of outs) {
        const width = name === 'o1' ? 1 : Number(name.slice(1));
        const expected = Array.from({ length: n }, (_, r) => reference.brookRankedGatherReference(values, shape, Array.from(idx.subarray(r * 4, r * 4 + width)), rank));
        expectArrayEqual(o[name]!.readSync(), expected, `${shape.join('x')} ${name}`);
      }
      [src, p, ...Object.values(o)].forEach((s) => s.dispose());
    }
    expectNoGLError(ctx);
  });
});
