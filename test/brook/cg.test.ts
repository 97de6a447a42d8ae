// Conformance: Cg-flavoured expressions of Brook kernels — indexof, implicit conversions
// (scalar to vector, bool to float, int to float on assignment), scalar swizzles, numeric ||,
// isfinite, unsigned int — and sized gather declarations, each against a CPU computation.
import { expect } from 'chai';
import { BrookContext, brook, iter } from '../../src/index';
import { expectArrayEqual, expectNoGLError, newContext, randomFloats } from '../helpers';

describe('brook/cg expressions and indexof', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('indexof on inputs and outputs, (indexof a).x, and passed to a function', () => {
    const { where } = brook`
      float twice(float4 p) { return 2 * p.x + p.y; }
      kernel void where(float a<>, out float4 o<>, out float i<>) {
        o = indexof(a);
        i = (indexof o).x + twice(indexof(a)) + a;
      }`;
    const n = 70;
    const xs = randomFloats(n, 9, 0, 1);
    const a = ctx.stream('float', n, xs);
    const o = ctx.stream('float4', n);
    const i = ctx.stream('float', n);
    ctx.run(where!, { a, o, i });
    expectArrayEqual(o.readSync(), Array.from({ length: n }, (_, k) => [k, 0, 0, 0]).flat(), 'indexof 1D');
    expectArrayEqual(i.readSync(), Array.from(xs, (x, k) => Math.fround(3 * k + x)), 'indexof in expressions');
    const o2 = ctx.stream('float4', [3, 5]);
    const a2 = ctx.stream('float', [3, 5]);
    const i2 = ctx.stream('float', [3, 5]);
    ctx.run(where!, { a: a2, o: o2, i: i2 });
    const exp: number[] = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 5; c++) exp.push(c, r, 0, 0);
    expectArrayEqual(o2.readSync(), exp, 'indexof 2D is (column, row)');
    [a, o, i, o2, a2, i2].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('promotes scalars to vectors, truncates vectors, converts bool and int on assignment', () => {
    const { promote } = brook`
      kernel void promote(float a<>, out float4 o<>, out float2 r<>, out float3 t<>) {
        o = 11;
        r = -1;
        if (a > 0.5) r = a;
        float f = a > 0.25;
        int k = 3;
        float s = 0;
        s += k;
        t = float4(f, s, a, 99);
      }`;
    const xs = Float32Array.from([0, 0.3, 0.6, 0.9]);
    const a = ctx.stream('float', 4, xs);
    const o = ctx.stream('float4', 4);
    const r = ctx.stream('float2', 4);
    const t = ctx.stream('float3', 4);
    ctx.run(promote!, { a, o, r, t });
    expectArrayEqual(o.readSync(), new Float32Array(16).fill(11), 'float4 o = 11');
    expectArrayEqual(r.readSync(), Array.from(xs).flatMap((x) => (x > 0.5 ? [x, x] : [-1, -1])), 'r');
    expectArrayEqual(t.readSync(), Array.from(xs).flatMap((x) => [x > 0.25 ? 1 : 0, 3, x]), 't');
    [a, o, r, t].forEach((s) => s.dispose());
  });

  it('swizzles scalars, numeric || && !, isfinite, unsigned int', () => {
    const { misc } = brook`
      kernel void misc(float a<>, float b<>, unsigned int u, out float4 o<>, out uint w<>) {
        float2 d = a.xx;
        float keep = (a || b) ? 1 : 0;
        float both = a && !b;
        float fin = isfinite(a / b);
        o = float4(d.y, keep, both, fin);
        unsigned int v = u;
        w = v + 1u;
      }`;
    const as = [0, 0, 1, 2.5, -1];
    const bs = [0, 3, 0, 0, 2];
    const a = ctx.stream('float', 5, as);
    const b = ctx.stream('float', 5, bs);
    const o = ctx.stream('float4', 5);
    const w = ctx.stream('uint', 5);
    ctx.run(misc!, { a, b, u: 4000000000, o, w });
    const exp = as.flatMap((x, i) => {
      const y = bs[i]!;
      return [x, x || y ? 1 : 0, x && !y ? 1 : 0, Number.isFinite(x / y) ? 1 : 0];
    });
    expectArrayEqual(o.readSync(), exp, 'misc');
    expectArrayEqual(w.readSync(), new Uint32Array(5).fill(4000000001), 'unsigned int');
    [a, b, o, w].forEach((s) => s.dispose());
  });

  it('sized gathers: float a[100] and float d[10][10]', () => {
    const { sized } = brook`
      kernel void sized(float a[100], float d[10][10], iter float i<>, out float o<>) {
        o = a[i] + d[i / 10][fmod(i, 10)] * 1000;
      }`;
    expect(sized!.gathers).to.deep.equal({ a: 'float', d: 'float' });
    const av = randomFloats(100, 3, 0, 1);
    const dv = Float32Array.from({ length: 100 }, (_, k) => k);
    const a = ctx.stream('float', 100, av);
    const d = ctx.stream('float', [10, 10], dv);
    const o = ctx.stream('float', 100);
    ctx.run(sized!, { a, d, i: iter(0, 100), o });
    expectArrayEqual(o.readSync(), Array.from(av, (x, k) => Math.fround(x + k * 1000)), 'sized');
    [a, d, o].forEach((s) => s.dispose());
  });
});
