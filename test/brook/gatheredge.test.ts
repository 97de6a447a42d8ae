// Conformance: a Brook gather outside its stream reads the nearest record, each dimension of the
// stream's logical shape (a domain's own extents) clamped to [0, extent - 1], as BrookGPU's
// gathers did (its CPU backend's __BrtArray::indexOf clamps every index; its GL, GLES and DX9
// textures sample with CLAMP_TO_EDGE / D3DTADDRESS_CLAMP). brook`...` kernels set core's
// KernelSpec.gatherEdge 'clamp' on their gathers; core's default stays 'zero'. Against
// reference.gatherClamped / gatherClampedIndex (src/reference/shapes.ts).
import { expect } from 'chai';
import { BrookContext, brook, generateKernelSource, reference, structStream, type KernelSpec } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, onCpu } from '../helpers';

const { gatherClamped, gatherClampedIndex, domainRead } = reference;

/** Float indices past every edge: far and near below, fractions, inside, the last, past it. */
const INDICES_1D = [-1e6, -5, -1, -0.5, -0.25, 0, 0.7, 1, 50.5, 98, 99, 99.5, 100, 101, 111, 127, 1000, 1e6];
const grid2 = (xs: number[], ys: number[]) => ys.flatMap((y) => xs.map((x) => [x, y]));

describe('brook/gathers clamp to the edge (BrookGPU)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const { g1, g2, g3, blur, gh, gs } = brook`
    struct P { float2 a; float b; };
    kernel void g1(float a[], float i<>, out float o<>, out float oi<>, out float o2<>, out float orc<>) {
      int k = int(floor(i));
      o = a[i];
      oi = a[k];
      o2 = a[float2(i, -3.0)];
      orc = a[2][k];
    }
    kernel void g2(float a[][], float2 p<>, out float o<>, out float oi<>, out float os<>) {
      o = a[p];
      oi = a[int(floor(p.y))][int(floor(p.x))];
      os = a[p.x];
    }
    kernel void g3(float a[][][], float4 p<>, out float o<>, out float oi<>) {
      o = a[p.xyz];
      oi = a[int(floor(p.z))][int(floor(p.y))][int(floor(p.x))];
    }
    kernel void blur(float img[][], out float o<>) {
      float2 p = indexof(o).xy;
      float s = 0.0;
      for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) s += img[p + float2(dx, dy)];
      }
      o = s;
    }
    kernel void gh(float a[], float b[][], float c[][][], float4 p<>, out float o1<>, out float o2<>, out float o3<>, out float o4<>, out float o5<>) {
      o1 = a[p.x];
      o2 = b[p.xy];
      o3 = b[p.y][p.x];
      o4 = c[p.xyz];
      o5 = c[p.z][p.y][p.x];
    }
    kernel void gs(P s[], float i<>, out float2 oa<>, out float ob<>) {
      P q = s[i];
      oa = q.a;
      ob = q.b;
    }`;

  /** g1's four outputs over `values` (n records, or a domain of them) for INDICES_1D. */
  function run1(src: Parameters<typeof ctx.run>[1]['a'], values: ArrayLike<number>, n: number, what: string): void {
    const m = INDICES_1D.length;
    const i = ctx.stream('float', m, INDICES_1D);
    const outs = { o: ctx.stream('float', m), oi: ctx.stream('float', m), o2: ctx.stream('float', m), orc: ctx.stream('float', m) };
    ctx.run(g1!, { a: src, i, ...outs });
    const want = INDICES_1D.map((x) => gatherClamped(values, 1, [n], [x])[0]!);
    expect(want[0]).to.equal(values[0]);
    expect(want.at(-1)).to.equal(values[n - 1]);
    expectArrayEqual(outs.o.readSync(), want, `${what}: a[float]`);
    expectArrayEqual(outs.oi.readSync(), INDICES_1D.map((x) => gatherClampedIndex(values, 1, n, x)[0]!), `${what}: a[int]`);
    expectArrayEqual(outs.o2.readSync(), want, `${what}: a[float2(i, -3)] (y past the rank, dropped)`);
    expectArrayEqual(outs.orc.readSync(), INDICES_1D.map((x) => gatherClamped(values, 1, [n], [Math.floor(x), 2])[0]!), `${what}: a[2][k] (row clamped to 0)`);
    [i, ...Object.values(outs)].forEach((s) => s.dispose());
  }

  it('1D: a stream of 100 records folded into a 16-wide texture clamps to records 0..99 (float, int, float2 and [i][j] indices)', () => {
    const v = Float32Array.from({ length: 100 }, (_, k) => k * 3 + 1);
    const a = ctx.stream('float', 100, v);
    expect(a.layout.width * a.layout.height).to.be.above(100); // texels past record 99 exist: a clamp must not reach them
    run1(a, v, 100, '1D');
    a.dispose();
    expectNoGLError(ctx);
  });

  const XS = [-9, -1, -0.5, 0, 2.5, 6, 6.9, 7, 8, 100];
  const YS = [-3, -1, 0, 2, 4, 4.5, 5, 9];

  /** g2's outputs over `values` of shape [h, w] (a stream or a domain) on the XS x YS grid. */
  function run2(src: Parameters<typeof ctx.run>[1]['a'], values: ArrayLike<number>, shape: [number, number], what: string): void {
    const pts = grid2(XS, YS);
    const p = ctx.stream('float2', pts.length, pts.flat());
    const outs = { o: ctx.stream('float', pts.length), oi: ctx.stream('float', pts.length), os: ctx.stream('float', pts.length) };
    ctx.run(g2!, { a: src, p, ...outs });
    const want = pts.map((q) => gatherClamped(values, 1, shape, q)[0]!);
    expectArrayEqual(outs.o.readSync(), want, `${what}: a[float2]`);
    expectArrayEqual(outs.oi.readSync(), want, `${what}: a[int][int]`);
    expectArrayEqual(outs.os.readSync(), pts.map(([x]) => gatherClampedIndex(values, 1, shape[0] * shape[1], x!)[0]!), `${what}: a[float] (row-major record, clamped)`);
    [p, ...Object.values(outs)].forEach((s) => s.dispose());
  }

  it('2D: each dimension clamps on its own (negative, fractional and past-the-end rows and columns)', () => {
    const v = Float32Array.from({ length: 35 }, (_, k) => k * 2 - 7);
    const a = ctx.stream('float', [5, 7], v);
    run2(a, v, [5, 7], '2D');
    a.dispose();
  });

  it('2D: a 3x3 box sum (a blur) reads the edge records again past the border', () => {
    const [h, w] = [6, 9];
    const v = Float32Array.from({ length: h * w }, (_, k) => ((k * 37) % 23) - 11);
    const img = ctx.stream('float', [h, w], v);
    const o = ctx.stream('float', [h, w]);
    ctx.run(blur!, { img, o });
    const want = new Float32Array(h * w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s = Math.fround(s + gatherClamped(v, 1, [h, w], [x + dx, y + dy])[0]!);
        want[y * w + x] = s;
      }
    }
    expectArrayEqual(o.readSync(), want, 'box sum');
    expect(want[0]).to.equal(Math.fround(4 * v[0]! + 2 * v[1]! + 2 * v[w]! + v[w + 1]!)); // the corner counts itself four times
    [img, o].forEach((s) => s.dispose());
  });

  it('3D: a[float3] and a[z][y][x] clamp x, y and z to the stream\'s [3, 4, 5]', () => {
    const shape = [3, 4, 5];
    const v = Float32Array.from({ length: 60 }, (_, k) => k + 0.5);
    const a = ctx.stream('float', shape, v);
    const pts: number[][] = [];
    for (const z of [-1, 1, 3, 7]) for (const y of [-1, 3, 4]) for (const x of [-2, 0, 4, 5, 9]) pts.push([x, y, z, 0]);
    const p = ctx.stream('float4', pts.length, pts.flat());
    const o = ctx.stream('float', pts.length);
    const oi = ctx.stream('float', pts.length);
    ctx.run(g3!, { a, p, o, oi });
    const want = pts.map((q) => gatherClamped(v, 1, shape, q)[0]!);
    expectArrayEqual(o.readSync(), want, '3D a[float3]');
    expectArrayEqual(oi.readSync(), want, '3D a[z][y][x]');
    [a, p, o, oi].forEach((s) => s.dispose());
  });

  it('float indices past int\'s range (|x| >= 2^31, infinities) clamp to the last / first record, not record 0 (every float form)', () => {
    // int(floor(x)) is undefined in GLSL for such x (SwiftShader: INT_MIN, i.e. record 0)
    const BIG = [-Infinity, -1e30, -3e9, -2147483648, -1, 2, 2147483647, 3e9, 1e30, Infinity];
    const pts: number[][] = [];
    for (const z of [-3e9, 1, 3e9]) for (const y of [-3e9, 2, 3e9]) for (const x of BIG) pts.push([x, y, z, 3e9]);
    const n = pts.length;
    const v1 = Float32Array.from({ length: 100 }, (_, k) => k + 1);
    const v2 = Float32Array.from({ length: 35 }, (_, k) => k * 2 - 7);
    const v3 = Float32Array.from({ length: 60 }, (_, k) => k + 0.5);
    const a = ctx.stream('float', 100, v1);
    const b = ctx.stream('float', [5, 7], v2);
    const c = ctx.stream('float', [3, 4, 5], v3);
    const p = ctx.stream('float4', n, pts.flat());
    const outs = [1, 2, 3, 4, 5].map(() => ctx.stream('float', n));
    ctx.run(gh!, { a, b, c, p, o1: outs[0]!, o2: outs[1]!, o3: outs[2]!, o4: outs[3]!, o5: outs[4]! });
    const w1 = pts.map((q) => gatherClamped(v1, 1, [100], [q[0]!])[0]!);
    const w2 = pts.map((q) => gatherClamped(v2, 1, [5, 7], q.slice(0, 2))[0]!);
    const w3 = pts.map((q) => gatherClamped(v3, 1, [3, 4, 5], q.slice(0, 3))[0]!);
    expectArrayEqual(outs[0]!.readSync(), w1, 'a[float] (1D)');
    expectArrayEqual(outs[1]!.readSync(), w2, 'b[float2] (2D)');
    expectArrayEqual(outs[2]!.readSync(), w2, 'b[y][x] floats (2D)');
    expectArrayEqual(outs[3]!.readSync(), w3, 'c[float3] (3D)');
    expectArrayEqual(outs[4]!.readSync(), w3, 'c[z][y][x] floats (3D)');
    // the vec4 and four-float forms (core KernelSpec; a 1D stream's other extents are 1): a GLSL body, which a CPU context does not run
    if (!onCpu(ctx)) {
      const g4: KernelSpec = { name: 'edgeClampVec4', gathers: { g: 'float' }, inputs: { p: 'float4' }, outputs: { o: 'float', o4: 'float' }, gatherEdge: { g: 'clamp' }, body: 'o = g(p); o4 = g(p.w, p.z, p.y, p.x);' };
      ctx.run(g4, { g: a, p, o: outs[0]!, o4: outs[1]! });
      expectArrayEqual(outs[0]!.readSync(), w1, 'g(vec4) (1D)');
      expectArrayEqual(outs[1]!.readSync(), w1, 'g(l, k, j, i) floats (1D)');
    }
    [a, b, c, p, ...outs].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('domains clamp to their own extents, not their stream\'s (1D domain(20, 30), 2D domain(int2(1, 1), int2(5, 4)))', () => {
    const v1 = Float32Array.from({ length: 100 }, (_, k) => k * 3 + 1);
    const a1 = ctx.stream('float', 100, v1);
    run1(a1.domain(20, 30), v1.slice(20, 30), 10, '1D domain');
    const v2 = Float32Array.from({ length: 35 }, (_, k) => k * 2 - 7);
    const a2 = ctx.stream('float', [5, 7], v2);
    run2(a2.domain([1, 1], [5, 4]), domainRead(v2, 1, [5, 7], [1, 1], [5, 4]), [3, 4], '2D domain');
    [a1, a2].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('struct gathers clamp every field alike (a stream and a domain of it)', () => {
    const P = gs!.structs!.P!;
    const n = 10;
    const data = Float32Array.from({ length: n * 3 }, (_, k) => k * 1.5 - 4);
    const s = structStream(ctx, P, n, data);
    const i = ctx.stream('float', INDICES_1D.length, INDICES_1D);
    const oa = ctx.stream('float2', INDICES_1D.length);
    const ob = ctx.stream('float', INDICES_1D.length);
    for (const [src, values, m, what] of [[s, data, n, 'stream'], [s.domain(3, 8), data.slice(9, 24), 5, 'domain']] as const) {
      ctx.run(gs!, { s: src, i, oa, ob });
      const recs = INDICES_1D.map((x) => gatherClampedIndex(values, 3, m, x));
      expectArrayEqual(oa.readSync(), recs.flatMap((r) => r.slice(0, 2)), `struct ${what}: field a`);
      expectArrayEqual(ob.readSync(), recs.map((r) => r[2]!), `struct ${what}: field b`);
    }
    [s, i, oa, ob].forEach((x) => x.dispose());
  });

  it('core: gatherEdge is per gather, default zero; the clamped accessor is a separate form; bad values are refused', () => {
    const zero: KernelSpec = { name: 'edgeZero', gathers: { g: 'float' }, inputs: { i: 'float' }, outputs: { o: 'float' }, body: 'o = g(i);' };
    const clamp: KernelSpec = { ...zero, name: 'edgeClamp', gatherEdge: { g: 'clamp' } };
    const v = Float32Array.from({ length: 100 }, (_, k) => k + 1);
    const g = ctx.stream('float', 100, v);
    const i = ctx.stream('float', INDICES_1D.length, INDICES_1D);
    const o = ctx.stream('float', INDICES_1D.length);
    ctx.run(zero, { g, i, o });
    expectArrayEqual(o.readSync(), INDICES_1D.map((x) => (x >= 0 && x < 100 ? v[Math.floor(x)]! : 0)), 'zero outside (default)');
    ctx.run(clamp, { g, i, o });
    expectArrayEqual(o.readSync(), INDICES_1D.map((x) => gatherClamped(v, 1, [100], [x])[0]!), 'clamped');
    expect(g1!.gatherEdge).to.deep.equal({ a: 'clamp' });
    const zs = generateKernelSource(zero).source;
    const cs = generateKernelSource(clamp).source;
    expect(zs).to.contain('brook_inside4(brook_c').and.not.contain('clamp(brook_c');
    expect(cs).to.contain('clamp(brook_c').and.not.contain('brook_inside4(brook_c');
    expectBrookError(() => ctx.run({ ...zero, name: 'edgeBad', gatherEdge: { h: 'clamp' } }, { g, i, o }), /gatherEdge names 'h'/);
    expectBrookError(() => ctx.run({ ...zero, name: 'edgeBad2', gatherEdge: { g: 'wrap' as 'clamp' } }, { g, i, o }), /must be 'zero' or 'clamp'/);
    [g, i, o].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });
});
