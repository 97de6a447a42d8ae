// Conformance: Cg's int-to-float promotion inside one expression (`int i; float f = i * 0.5;`,
// `float x = a + i;`), without float() in the source, against reference.brookMixedReference.
import { BrookContext, brook } from '../../src/index';
import { brookMixedReference } from '../../src/reference';
import { expectArrayEqual, expectBrookError, newContext } from '../helpers';

describe('brook/promote: mixed int and float in one expression, as Cg promotes', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('arithmetic, comparisons, ternaries, built-ins, helper arguments and loop bounds mixing int and float equal the CPU', () => {
    const { mixed } = brook`
      float scale(float x, float k) { return x * k; }
      kernel void mixed(float a<>, int i<>, uint u<>, float4 v<>, float g[], float n,
                        out float o<>, out float4 w<>, out float c<>, out uint m<>, out float s<>) {
        int j = i + 3;
        float f = j * 0.5;
        float x = a + i;
        float y = scale(j, a);
        float z = floor(u) + max(i, a) + min(j, a) + mix(a, i, 0.5) + clamp(i, 0.25, 8.5);
        o = f + x * 2 - y + z;
        w = v * i + j;
        c = i < n ? g[i] * j : 1;
        m = u + 1;
        s = 0;
        for (int k = 0; k < n; k++) s += k;
      }`;
    const len = 37;
    // dyadic values with few bits: every product and sum is exact in float32, whatever order
    // or fusing the GPU uses
    const a = Float32Array.from({ length: len }, (_, r) => ((r * 7) % 32 + 1) / 4);
    const i = Int32Array.from({ length: len }, (_, r) => (r * 5) % 10);
    const u = Uint32Array.from({ length: len }, (_, r) => (r * 13) % 101);
    const v = Float32Array.from({ length: len * 4 }, (_, k) => ((k * 3) % 17) / 8 - 1);
    const g = Float32Array.from({ length: 10 }, (_, k) => k * 1.5 - 4);
    const n = 5.5;
    const s = {
      a: ctx.stream('float', len, a), i: ctx.stream('int', len, i), u: ctx.stream('uint', len, u), v: ctx.stream('float4', len, v),
      g: ctx.stream('float', 10, g),
      o: ctx.stream('float', len), w: ctx.stream('float4', len), c: ctx.stream('float', len), m: ctx.stream('uint', len), s: ctx.stream('float', len),
    };
    ctx.run(mixed!, { ...s, n });
    const ref = brookMixedReference(a, i, u, v, g, n);
    expectArrayEqual(s.o.readSync(), ref.o, 'o = f + x * 2 - y + z');
    expectArrayEqual(s.w.readSync(), ref.w, 'w = v * i + j');
    expectArrayEqual(s.c.readSync(), ref.c, 'c = i < n ? g[i] * j : 1');
    expectArrayEqual(s.m.readSync(), ref.m, 'm = u + 1');
    expectArrayEqual(s.s.readSync(), ref.s, 'for (int k = 0; k < n; k++) s += k');
    Object.values(s).forEach((x) => x.dispose());
  });

  it('leaves int arithmetic int, and reports what cannot be typed with the kernel line', () => {
    const { ints } = brook`
      kernel void ints(int i<>, out int q<>, out int r<>) {
        q = i / 2 + (i & 3);
        r = i % 3 - 1;
      }`;
    const i = ctx.stream('int', 12, Int32Array.from({ length: 12 }, (_, k) => k * 7 + 1));
    const q = ctx.stream('int', 12);
    const r = ctx.stream('int', 12);
    ctx.run(ints!, { i, q, r });
    const xs = Array.from({ length: 12 }, (_, k) => k * 7 + 1);
    // non-negative operands: GLSL ES leaves % of negative ints undefined
    expectArrayEqual(q.readSync(), xs.map((x) => Math.trunc(x / 2) + (x & 3)), 'i / 2 + (i & 3)');
    expectArrayEqual(r.readSync(), xs.map((x) => (x % 3) - 1), 'i % 3 - 1');
    [i, q, r].forEach((x) => x.dispose());
    // a type error is the checker's, in Brook's words on the kernel's line, before any GLSL
    expectBrookError(() => brook`
      kernel void bad(float4 v<>, out float4 o<>) {
        o = v;
        o = v.xyz + v;
      }`, /kernel bad, line 4: '\+' cannot combine a float3 and a float4/);
  });
});
