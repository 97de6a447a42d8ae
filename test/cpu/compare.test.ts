// GPU against CPU: compareBackends runs each kernel on the WebGL2 context and on the CPU backend
// and finds the records that differ. A representative set of the brook-tag specs' kernels (every
// kind of parameter, Cg's conversions, ints and uints, loops, discards, gathers past the edges,
// domains, struct streams, reduce kernels) must agree within COMPARE_ULPS (4) or exactly for ints;
// a spec also checks that compareBackends names a real difference (8-bit sums). GLSL ES 3.00
// leaves % of negative ints undefined (SwiftShader's differs from C's): the kernels take % of
// non-negative numbers (docs/brook.md, "CPU backend").
import { expect } from 'chai';
import { BrookContext, Comparison, brook, compareBackends, iter, structStream, ulpDistance } from '../../src/index';
import { newContext, randomFloats, rng } from '../helpers';

const expectSame = (c: Comparison, what: string) => {
  for (const [name, o] of Object.entries(c.outputs)) {
    expect(o.differing, `${what}: output ${name} differs on ${o.differing} of ${o.records} records on ${c.renderer}, first ${JSON.stringify(o.first.slice(0, 2))}`).to.equal(0);
  }
  expect(Object.keys(c.outputs).length, `${what}: outputs compared`).to.be.greaterThan(0);
  expect(c.ok).to.equal(true);
};

const ints = (n: number, seed: number, lo: number, hi: number) => {
  const r = rng(seed);
  return Int32Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo)));
};

describe('cpu/compareBackends: the brook kernels agree on the GPU and the CPU', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const K = brook`
    struct P { float2 a; float b; };
    kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
    kernel void stencil(float u[][], iter float2 p<>, out float o<>) {
      o = 0.25 * (u[p + float2(1, 0)] + u[p - float2(1, 0)] + u[p + float2(0, 1)] + u[p - float2(0, 1)]) - u[p];
    }
    kernel void gathers(float4 v[], float i<>, out float4 o<>, out float s<>) {
      o = v[i * 3.0 - 7.0].wzyx + v[abs(int(i)) % 5];
      s = v[-1].x + v[1e6].y;
    }
    kernel void conv(float a<>, int b<>, out float o<>, out int oi<>, out uint ou<>, out float4 ov<>) {
      float3 t = a;
      int k = a;
      o = t.x + b / 3 + (a > 0 ? 1 : 0);
      oi = b * 7 - abs(k) % 4 + (b >> 2) + (b & 5) + int(a) + b / 3;
      ou = uint(abs(b)) * 2654435761u + 12345u;
      ov = float4(t.xy, b, k) * 0.5;
    }
    kernel void loops(float a<>, int n<>, out float o<>) {
      float s = 0.0;
      for (int j = 0; j < n; j++) {
        if (j == 7) break;
        if (j % 2 == 1) continue;
        s += a * float(j);
      }
      int w = 0;
      while (w < 3) { s = s * 0.5 + 1.0; w++; }
      do { s -= 1.0; } while (s > 10.0);
      o = s;
    }
    kernel void drop(float a<>, out float o<>) {
      if (a < 0.0) discard;
      o = sqrt(a);
    }
    kernel void fns(float a<>, float b<>, out float o<>, out float2 o2<>) {
      o = min(a, b) + max(a, b) * 0.5 + clamp(a, -1.0, 1.0) + step(0.0, b) + floor(a) + fract(b) + abs(a) + sign(b) + fmod(a, 3.0) + a % 2.5;
      o2 = float2(dot(float2(a, b), float2(b, a)), length(float3(a, b, 1.0)));
    }
    kernel void idx(float a<>, out float4 o<>) { o = indexof(o) + a; }
    kernel void structs(P p<>, out P q<>) { q.a = p.a.yx * 2.0; q.b = p.b + p.a.x; }
    reduce void sum(float a<>, reduce float r<>) { r += a; }
    reduce void hi(float4 a<>, reduce float4 r<>) { r = max(r, a); }
    kernel void swz(float4 a<>, out float4 o<>) {
      float4 t = a;
      t.xz = a.yw * 2.0;
      t.w += t.x;
      o = t.wzyx + float4(a.x < a.y, any(a > 0.5), all(a.xy > -1.0), !(a.z > 0.0));
    }
  `;

  it('saxpy, 1D, 10,000 records', () => {
    const n = 10_000;
    const x = ctx.stream('float', n, randomFloats(n, 1));
    const y = ctx.stream('float', n, randomFloats(n, 2));
    const r = ctx.stream('float', n);
    expectSame(compareBackends(ctx, K.saxpy!, { a: 1.5, x, y, r }), 'saxpy');
    [x, y, r].forEach((s) => s.dispose());
  });

  it('a 5-point stencil over a 2D gather, past its edges (clamped)', () => {
    const u = ctx.stream('float', [37, 53], randomFloats(37 * 53, 3, -1, 1));
    const o = ctx.stream('float', [37, 53]);
    expectSame(compareBackends(ctx, K.stencil!, { u, p: iter([0, 0], [53, 37]), o }), 'stencil');
    [u, o].forEach((s) => s.dispose());
  });

  it('gathers at computed and out-of-range indices', () => {
    const v = ctx.stream('float4', 50, randomFloats(200, 4));
    const i = ctx.stream('float', 64, randomFloats(64, 5, -5, 30));
    const o = ctx.stream('float4', 64);
    const s = ctx.stream('float', 64);
    expectSame(compareBackends(ctx, K.gathers!, { v, i, o, s }), 'gathers');
    [v, i, o, s].forEach((x) => x.dispose());
  });

  it("Cg's conversions, int and uint arithmetic (exact)", () => {
    const n = 500;
    const a = ctx.stream('float', n, randomFloats(n, 6, -100, 100));
    const b = ctx.stream('int', n, ints(n, 7, -1000, 1000));
    const o = ctx.stream('float', n), oi = ctx.stream('int', n), ou = ctx.stream('uint', n), ov = ctx.stream('float4', n);
    expectSame(compareBackends(ctx, K.conv!, { a, b, o, oi, ou, ov }), 'conv');
    [a, b, o, oi, ou, ov].forEach((x) => x.dispose());
  });

  it('loops with break and continue, while and do', () => {
    const n = 300;
    const a = ctx.stream('float', n, randomFloats(n, 8, -10, 10));
    const m = ctx.stream('int', n, ints(n, 9, -2, 12));
    const o = ctx.stream('float', n);
    expectSame(compareBackends(ctx, K.loops!, { a, n: m, o }), 'loops');
    [a, m, o].forEach((x) => x.dispose());
  });

  it('discard keeps the old records on both', () => {
    const n = 256;
    const a = ctx.stream('float', n, randomFloats(n, 10, -1, 1));
    const o = ctx.stream('float', n, new Float32Array(n).fill(-7));
    expectSame(compareBackends(ctx, K.drop!, { a, o }), 'discard');
    [a, o].forEach((x) => x.dispose());
  });

  it('built-ins (min, max, clamp, step, floor, fract, abs, sign, fmod, %, dot, length)', () => {
    const n = 400;
    const a = ctx.stream('float', n, randomFloats(n, 11, -20, 20));
    const b = ctx.stream('float', n, randomFloats(n, 12, -20, 20));
    const o = ctx.stream('float', n), o2 = ctx.stream('float2', n);
    expectSame(compareBackends(ctx, K.fns!, { a, b, o, o2 }), 'built-ins');
    [a, b, o, o2].forEach((x) => x.dispose());
  });

  it('indexof over 1D, 2D and 3D outputs and through a domain', () => {
    for (const shape of [100, [9, 13], [3, 4, 5]] as const) {
      const len = typeof shape === 'number' ? shape : shape.reduce((p, q) => p * q, 1);
      const a = ctx.stream('float', shape as never, randomFloats(len, 13));
      const o = ctx.stream('float4', shape as never);
      expectSame(compareBackends(ctx, K.idx!, { a, o }), `indexof ${JSON.stringify(shape)}`);
      [a, o].forEach((x) => x.dispose());
    }
    const a = ctx.stream('float', [10, 10], randomFloats(100, 14));
    const o = ctx.stream('float4', [10, 10]);
    expectSame(compareBackends(ctx, K.idx!, { a: a.domain([2, 3], [8, 7]), o: o.domain([1, 1], [7, 5]) }), 'indexof through domains');
    [a, o].forEach((x) => x.dispose());
  });

  it('struct streams in and out', () => {
    const P = K.structs!.structs!.P!;
    const p = structStream(ctx, P, 40, randomFloats(120, 15));
    const q = structStream(ctx, P, 40);
    expectSame(compareBackends(ctx, K.structs!, { p, q }), 'structs');
    [p, q].forEach((x) => x.dispose());
  });

  it('domains of struct streams in and out, field by field (1D and 2D), against the kernel done by hand', () => {
    const P = K.structs!.structs!.P!;
    const pv = randomFloats(120, 31);
    const p = structStream(ctx, P, 40, pv);
    const q = structStream(ctx, P, 40, new Float32Array(120).fill(-7));
    const c = compareBackends(ctx, K.structs!, { p: p.domain(5, 25), q: q.domain(10, 30) });
    expectSame(c, 'struct domains');
    expect(c.outputs.q!.records, 'the records of the domain compared').to.equal(20);
    // what both wrote: q[10 + i] = f(p[5 + i]) inside the domain (q.a = p.a.yx * 2, q.b = p.b + p.a.x), -7 outside
    const got = q.readSync();
    for (let r = 0; r < 40; r++) {
      const i = r - 10;
      const want = i >= 0 && i < 20 ? [pv[(5 + i) * 3 + 1]! * 2, pv[(5 + i) * 3]! * 2, Math.fround(pv[(5 + i) * 3 + 2]! + pv[(5 + i) * 3]!)] : [-7, -7, -7];
      expect(Array.from(got.subarray(r * 3, r * 3 + 3)), `record ${r}`).to.deep.equal(want);
    }
    const p2 = structStream(ctx, P, [6, 8], randomFloats(144, 32));
    const q2 = structStream(ctx, P, [4, 4]);
    const c2 = compareBackends(ctx, K.structs!, { p: p2.domain([1, 2], [5, 6]), q: q2.domain([0, 0], [4, 4]) });
    expectSame(c2, '2D struct domains');
    expect(c2.outputs.q!.records).to.equal(16);
    [p, q, p2, q2].forEach((x) => x.dispose());
  });

  it('its own reads of the GPU\'s streams are counted apart from ctx.stats(), and move to it when the caller\'s work uses what they made', () => {
    const { two } = brook`kernel void two(out float p<>, out float q<>) { p = 1.0; q = 2.0; }`;
    const a = ctx.stream('float', 10, randomFloats(10, 33));
    const b = ctx.stream('float', 10, randomFloats(10, 34));
    const before = ctx.stats();
    const seen = ctx.resources.observed();
    // the GPU refuses the run (output domains of different records) after the comparison copied the arguments
    expect(() => compareBackends(ctx, two!, { p: a.domain(0, 5), q: b.domain(1, 6) })).to.throw(/same records/);
    expect(ctx.stats(), 'ctx.stats() after a refused comparison').to.deep.equal(before);
    const after = ctx.resources.observed();
    expect(after.framebuffers, 'the framebuffers its reads made, counted apart').to.be.greaterThan(seen.framebuffers);
    // the caller reads a itself: the framebuffer the comparison made for it is now the caller's, as if made now
    a.readSync();
    expect(ctx.stats().framebuffers).to.equal(before.framebuffers + 1);
    expect(ctx.resources.observed().framebuffers).to.equal(after.framebuffers - 1);
    // released with its stream from the bucket it is counted in
    const mid = ctx.stats();
    b.dispose();
    expect(ctx.stats().framebuffers, 'b\'s framebuffer was never the caller\'s').to.equal(mid.framebuffers);
    expect(ctx.resources.observed().framebuffers).to.equal(after.framebuffers - 2);
    a.dispose();
    expect(ctx.stats().framebuffers).to.equal(mid.framebuffers - 1);
  });

  it('reduce kernels to one record and to a stream (sums in another order: within 2^-20 relatively)', () => {
    const a = ctx.stream('float', 1000, randomFloats(1000, 16, 0, 1));
    const r = ctx.stream('float', 1);
    const c = compareBackends(ctx, K.sum!, { a, r }, { abs: 1000 * 2 ** -20 });
    expectSame(c, 'sum');
    const v = ctx.stream('float4', [20, 30], randomFloats(2400, 17));
    const m = ctx.stream('float4', [4, 5]);
    expectSame(compareBackends(ctx, K.hi!, { a: v, r: m }), 'max to [4, 5]');
    [a, r, v, m].forEach((x) => x.dispose());
  });

  it('swizzles written and read, bool to float', () => {
    const a = ctx.stream('float4', 128, randomFloats(512, 18, -1, 1));
    const o = ctx.stream('float4', 128);
    expectSame(compareBackends(ctx, K.swz!, { a, o }), 'swizzles');
    [a, o].forEach((x) => x.dispose());
  });

  it('names a real difference: 8-bit sums saturate on the GPU and wrap on the CPU (BrookGPU\'s CPU backend), record by record with their inputs', () => {
    const { add8 } = brook`kernel void add8(uchar a<>, uchar b<>, out uchar c<>) { c = a + b; }`;
    const n = 100;
    const av = Uint8Array.from({ length: n }, (_, i) => 200 + (i % 50));
    const bv = Uint8Array.from({ length: n }, (_, i) => i);
    const a = ctx.stream('char', n, av), b = ctx.stream('char', n, bv), c = ctx.stream('char', n);
    const cmp = compareBackends(ctx, add8!, { a, b, c }, { first: 3 });
    const over = Array.from(av).map((x, i) => x + bv[i]! > 255);
    expect(cmp.ok).to.equal(false);
    expect(cmp.outputs.c!.differing).to.equal(over.filter(Boolean).length);
    const firstOver = over.indexOf(true);
    const d = cmp.outputs.c!.first[0]!;
    expect(d.record).to.equal(firstOver);
    expect(d.position).to.deep.equal([firstOver, 1, 1, 1].slice(0, 1));
    expect(d.gpu).to.deep.equal([255]);
    expect(d.cpu).to.deep.equal([(av[firstOver]! + bv[firstOver]!) & 255]);
    expect(d.inputs).to.deep.equal({ a: [av[firstOver]], b: [bv[firstOver]] });
    [a, b, c].forEach((s) => s.dispose());
    expect(ulpDistance(1, Math.fround(1 + 2 ** -23))).to.equal(1);
    expect(ulpDistance(-0, 0)).to.equal(0);
    expect(ulpDistance(NaN, 1)).to.equal(Infinity);
  });

  it('tolerances: sin of large arguments is bounded absolutely (GLSL ES), and options.abs accepts it', () => {
    const sk = brook`kernel void skew(float x<>, out float r<>) { r = sin(x); }`;
    const big = ctx.stream('float', 64, randomFloats(64, 19, -1000, 1000));
    const out = ctx.stream('float', 64);
    const loose = compareBackends(ctx, sk.skew!, { x: big, r: out }, { abs: 2 ** -11 * 8 });
    expect(loose.outputs.r!.differing, `sin within 2^-8 on ${loose.renderer}: ${JSON.stringify(loose.outputs.r!.first)}`).to.equal(0);
    [big, out].forEach((s) => s.dispose());
  });
});
