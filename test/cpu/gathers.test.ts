// The CPU backend's gathers (Node: scripts/test-node.mjs; and in the browser run): the accessors a
// run writes for its streams' shapes (src/cpu/kernel.ts), with the floor left out where js.ts
// proves every index whole (iterators of whole start and step, indexof, locals made of them) and
// float32 rounding left out where whole arithmetic stays within 2^24. Each kernel is held against
// a plain loop here that floors, clamps to the edge and rounds every float operation, as
// BrookGPU's CPU backend did; the cases include iterators that are not whole, whole values past
// 2^24 (where float32 rounds), NaN and infinite indices, vectors, 8-bit records and domains. In
// the browser the same kernels also go through compareBackends against the WebGL2 context.
import { expect } from 'chai';
import { BrookContext, brook, compareBackends, createContext, iter } from '../../src/index';
import { compileDebug } from '../../src/cpu/kernel';
import { expectArrayEqual, newContext, randomFloats } from '../helpers';

const f = Math.fround;
/** BrookGPU's edge clamp of a float index: floor (NaN as 0), then into [0, n - 1]. */
const edge = (x: number, n: number) => {
  const i = x !== x ? 0 : Math.floor(x);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
};

const K = brook`
  kernel void star(float u[][], iter float2 p<>, out float o<>) {
    o = u[p] + 0.5 * u[p + float2(1, 0)] - 0.25 * u[p - float2(2, 0)] + u[p + float2(0, 3)] * u[p - float2(0, 1)];
  }
  kernel void big(float u[][], iter float2 p<>, out float o<>) {
    o = u[p - float2(16777216.0, 0)] + u[p + float2(1, 0) - float2(16777216.0, 0)];
  }
  kernel void byIndex(float u[][], out float o<>) {
    float2 q = indexof(o).xy;
    float2 r = q * 2.0 - float2(3, 1);
    float2 s = q;
    s = s * 0.5;
    o = u[q + float2(-1, 2)] + u[r] + 2.0 * u[s];
  }
  kernel void scalars(float g[], float a<>, out float o<>, out float w<>) {
    float i = indexof(a).x;
    o = g[i - 2.0] + g[a] + g[i * 3.0 + 1.0];
    w = g[a / 0.0 - a / 0.0] + g[1.0 / 0.0] + g[-1.0 / 0.0];
  }
  kernel void rows(float u[][], float a<>, out float o<>) {
    o = u[a];
  }
  kernel void vec4(float4 h[][], iter float2 p<>, out float4 o<>) {
    o = h[p + float2(-1, 1)] * h[p - float2(3, 0)];
  }
  kernel void vec(float4 h[][], uchar c[], iter float2 p<>, out float4 o<>) {
    o = h[p + float2(-1, 1)] + float4(c[p.x * 2.0 - 1.0]);
  }
`;

describe('cpu/gathers on the CPU backend (accessors written per shape)', () => {
  const ctx = createContext({ backend: 'cpu' });
  after(() => ctx.dispose());
  const W = 13;
  const H = 7;
  const U = randomFloats(W * H, 61, -4, 4);
  const at = (x: number, y: number) => U[edge(y, H) * W + edge(x, W)]!;

  /** The star kernel of a plain loop, p = start + step * position as float32. */
  const star = (s: [number, number], t: [number, number]) =>
    Float32Array.from({ length: W * H }, (_, k) => {
      const px = f(s[0] + f(t[0] * (k % W)));
      const py = f(s[1] + f(t[1] * Math.floor(k / W)));
      const a = f(at(px, py) + f(0.5 * at(f(px + 1), py)));
      const b = f(a - f(0.25 * at(f(px - 2), py)));
      return f(b + f(at(px, f(py + 3)) * at(px, f(py - 1))));
    });

  for (const [what, start, end] of [
    ['a whole iterator (the floor left out)', [0, 0], [W, H]],
    ['a whole iterator of step 2 from -3', [-3, -3], [-3 + 2 * W, -3 + 2 * H]],
    ['an iterator at half positions (floored)', [0.5, 0.25], [W + 0.5, H + 0.25]],
    ['an iterator of step 0.5 (floored)', [0, 0], [W / 2, H / 2]],
  ] as Array<[string, [number, number], [number, number]]>) {
    it(`a stencil over a 2D gather past its edges, through ${what}`, () => {
      const u = ctx.stream('float', [H, W], U);
      const o = ctx.stream('float', [H, W]);
      ctx.run(K.star!, { u, p: iter(start, end), o });
      const t: [number, number] = [f((end[0] - start[0]) / W), f((end[1] - start[1]) / H)];
      expectArrayEqual(o.readSync(), star([f(start[0]), f(start[1])], t), what);
      [u, o].forEach((x) => x.dispose());
    });
  }

  it('generates the whole accessor only where the iterator is whole, and keeps float32 rounding past 2^24', () => {
    const { star1 } = brook`kernel void star1(float u[][], iter float2 p<>, out float o<>) { o = u[p] + u[p + float2(1, -1)]; }`;
    const u = ctx.stream('float', [H, W], U);
    const o = ctx.stream('float', [H, W]);
    ctx.run(star1!, { u, p: iter([0, 0], [W, H]), o });
    ctx.run(star1!, { u, p: iter([0.5, 0], [W + 0.5, H]), o });
    const src = compileDebug(star1!);
    expect(src.length).to.equal(2);
    expect(src[0]).to.match(/g_u\$2i\(/).and.not.match(/Math\.floor/);
    expect(src[1]).to.match(/g_u\$2\(/).and.match(/Math\.floor/);
    // p.x from 2^24 in steps of 2: p + 1 rounds (ties to even) in float32, and the gather sees that
    const start = 2 ** 24;
    ctx.run(K.big!, { u, p: iter([start, 0], [start + 2 * W, H]), o });
    const want = Float32Array.from({ length: W * H }, (_, k) => {
      const px = f(start + 2 * (k % W));
      const py = Math.floor(k / W);
      return f(at(f(px - start), py) + at(f(f(px + 1) - start), py));
    });
    expectArrayEqual(o.readSync(), want, 'past 2^24');
    [u, o].forEach((x) => x.dispose());
  });

  it('indexof and locals made of it: whole, and floored once a local is scaled by 0.5', () => {
    const u = ctx.stream('float', [H, W], U);
    const o = ctx.stream('float', [H, W]);
    ctx.run(K.byIndex!, { u, o });
    const want = Float32Array.from({ length: W * H }, (_, k) => {
      const x = k % W;
      const y = Math.floor(k / W);
      const a = f(at(x - 1, y + 2) + at(2 * x - 3, 2 * y - 1));
      return f(a + f(2 * at(f(x * 0.5), f(y * 0.5))));
    });
    expectArrayEqual(o.readSync(), want, 'byIndex');
    const src = compileDebug(K.byIndex!)[0]!;
    // q and r are whole (no floor), s is not; r's arithmetic is exact (no rounding printed)
    expect(src).to.match(/g_u\$2i\(/).and.match(/g_u\$2\(/);
    [u, o].forEach((x) => x.dispose());
  });

  it('a gather repeated in a statement is read once, unless the statement moves its index or is a loop test', () => {
    const { twice } = brook`kernel void twice(float u[][], iter float2 p<>, out float o<>) {
      float2 q = p;
      float s = u[q] * u[q] + u[q + float2(1, 0)];
      float t = u[q] + (q.x = q.x + 1.0) * 0.0 + u[q];
      int k = 0;
      while (u[q] < 3.0 && u[q] > -3.0 && k < 2) { q = q + float2(1, 1); k++; }
      o = s + t + u[q];
    }`;
    const u = ctx.stream('float', [H, W], U);
    const o = ctx.stream('float', [H, W]);
    ctx.run(twice!, { u, p: iter([0, 0], [W, H]), o });
    const want = Float32Array.from({ length: W * H }, (_, r) => {
      let qx = r % W;
      let qy = Math.floor(r / W);
      const s = f(f(at(qx, qy) * at(qx, qy)) + at(qx + 1, qy));
      const a = at(qx, qy);
      qx = qx + 1;
      const t = f(f(a + f(qx * 0)) + at(qx, qy));
      for (let k = 0; at(qx, qy) < 3 && at(qx, qy) > -3 && k < 2; k++) {
        qx += 1;
        qy += 1;
      }
      return f(f(s + t) + at(qx, qy));
    });
    expectArrayEqual(o.readSync(), want, 'twice');
    const src = compileDebug(twice!)[0]!;
    expect(src).to.match(/const brook_g0 = g_u\$2i?\(/);
    [u, o].forEach((x) => x.dispose());
  });

  it('1D gathers: whole and fractional indices, NaN (record 0) and infinities (the edges)', () => {
    const n = 40;
    const G = randomFloats(17, 62, -3, 3);
    const A = Float32Array.from(randomFloats(n, 63, -5, 25), (x, k) => (k % 3 ? x : Math.round(x)));
    const g = ctx.stream('float', 17, G);
    const a = ctx.stream('float', n, A);
    const o = ctx.stream('float', n);
    const w = ctx.stream('float', n);
    ctx.run(K.scalars!, { g, a, o, w });
    const gi = (x: number) => G[edge(x, 17)]!;
    expectArrayEqual(o.readSync(), Float32Array.from({ length: n }, (_, i) => f(f(gi(i - 2) + gi(A[i]!)) + gi(f(f(i * 3) + 1)))), 'o');
    expectArrayEqual(w.readSync(), new Float32Array(n).fill(f(f(G[0]! + G[16]!) + G[0]!)), 'w');
    [g, a, o, w].forEach((x) => x.dispose());
  });

  it('a scalar index into a 2D gather counts records row by row, clamped to the last', () => {
    const n = 30;
    const A = Float32Array.from({ length: n }, (_, i) => i * 3.5 - 10);
    const u = ctx.stream('float', [H, W], U);
    const a = ctx.stream('float', n, A);
    const o = ctx.stream('float', n);
    ctx.run(K.rows!, { u, a, o });
    expectArrayEqual(o.readSync(), Float32Array.from(A, (x) => U[edge(x, W * H)]!), 'rows');
    [u, a, o].forEach((x) => x.dispose());
  });

  it('float4 and uchar gathers, and a gather through a domain (its origin)', () => {
    const HV = randomFloats(4 * W * H, 64, -2, 2);
    const C = Uint8Array.from({ length: 9 }, (_, k) => 30 * k);
    const h = ctx.stream('float4', [H, W], HV);
    const c = ctx.stream('char', 9, C);
    const o = ctx.stream('float4', [H, W]);
    ctx.run(K.vec!, { h, c, p: iter([0, 0], [W, H]), o });
    const want = (hw: number, hh: number, ox: number, oy: number, full: number) =>
      Float32Array.from({ length: 4 * W * H }, (_, j) => {
        const k = j >> 2;
        const x = k % W;
        const y = Math.floor(k / W);
        const rec = (edge(y + 1, hh) + oy) * full + edge(x - 1, hw) + ox;
        return f(HV[4 * rec + (j & 3)]! + f(C[edge(2 * x - 1, 9)]! / 255));
      });
    expectArrayEqual(o.readSync(), want(W, H, 0, 0, W), 'vec');
    // a view of 6 by 4 records from x 2, y 1: the accessor adds its origin and clamps to its extents
    const o2 = ctx.stream('float4', [H, W]);
    ctx.run(K.vec!, { h: h.domain([2, 1], [8, 5]), c, p: iter([0, 0], [W, H]), o: o2 });
    expectArrayEqual(o2.readSync(), want(6, 4, 2, 1, W), 'vec through a domain');
    [h, c, o, o2].forEach((x) => x.dispose());
  });
});

describe('cpu/gathers: the same kernels on the GPU and the CPU (compareBackends; browser only)', () => {
  let ctx: BrookContext;
  before(function () {
    if (typeof document === 'undefined') this.skip();
    ctx = newContext();
  });
  after(() => ctx?.dispose());

  it('whole and floored iterators, indexof and its locals, float4 gathers through a domain', () => {
    const W = 29;
    const H = 17;
    const u = ctx.stream('float', [H, W], randomFloats(W * H, 71, -4, 4));
    const h = ctx.stream('float4', [H, W], randomFloats(4 * W * H, 72, -2, 2));
    const o = ctx.stream('float', [H, W]);
    const o4 = ctx.stream('float4', [H, W]);
    const runs: Array<[string, ReturnType<typeof compareBackends>]> = [
      ['step 1', compareBackends(ctx, K.star!, { u, p: iter([0, 0], [W, H]), o })],
      ['step 2 from -3', compareBackends(ctx, K.star!, { u, p: iter([-3, -3], [-3 + 2 * W, -3 + 2 * H]), o })],
      ['half positions', compareBackends(ctx, K.star!, { u, p: iter([0.5, 0.25], [W + 0.5, H + 0.25]), o })],
      ['indexof', compareBackends(ctx, K.byIndex!, { u, o })],
      // (8-bit gathers are left out here: SwiftShader's UNORM read of a byte is not c / 255 rounded
      // to float32 in the last place, which a sum near 0 makes many ulps; the CPU spec above covers them)
      ['float4 through a domain', compareBackends(ctx, K.vec4!, { h: h.domain([2, 1], [8, 5]), p: iter([0, 0], [W, H]), o: o4 })],
    ];
    for (const [what, cmp] of runs) {
      for (const [name, out] of Object.entries(cmp.outputs)) expect(out.differing, `${what}: ${name} on ${cmp.renderer}, first ${JSON.stringify(out.first.slice(0, 2))}`).to.equal(0);
      expect(cmp.ok, what).to.equal(true);
    }
    [u, h, o, o4].forEach((x) => x.dispose());
  });
});
