// Matrices (float2x2..float4x4) on the CPU backend: constructors, indexing and assignments by
// column, the products, componentwise operators, transpose, determinant, inverse and a matrix
// constant, each kernel's records against src/reference's brookMatrixReference (GLSL's column
// order) in Node and in the browser, where compareBackends also holds the WebGL2 context's
// records against the CPU's. The inputs are multiples of 1/8 in [-1.875, 1.875], for which every
// product and sum is exact in float32: the records match exactly but for inverse (a division).
import { expect } from 'chai';
import { BrookContext, Stream, brook, compareBackends, reference, ulpDistance } from '../../src/index';
import { cpuAndGpu, newContext, rng } from '../helpers';

const n = 96;

describe('cpu/matrices on the CPU backend', () => {
  const pair = cpuAndGpu(newContext);
  const { cpu } = pair;

  const K = brook`
    kernel void ctor(float4 a<>, float4 b<>, float c<>, out float4 o0<>, out float4 o1<>, out float4 o2<>, out float4 o3<>, out float4 o4<>, out float4 o5<>, out float4 o6<>) {
      float4x4 m = float4x4(a, b.xy, c, a.w, b.zyx, c, a.zw, b.xy);
      float2x2 s = float2x2(float4x4(a, b, a.wzyx, b.wzyx));
      float4x4 g = float4x4(float2x2(a.x, a.y, b.z, c));
      float3x3 d = float3x3(c);
      o0 = m[0]; o1 = m[1]; o2 = m[2]; o3 = m[3];
      o4 = float4(s[0], s[1]);
      o5 = g[1] + g[2] * 2.0 + g[3] * 3.0;
      o6 = float4(d[0] + d[1] * 2.0 + d[2] * 3.0, d[1].y);
    }
    kernel void products(float4 a<>, float4 b<>, float c<>, out float4 o0<>, out float4 o1<>, out float4 o2<>, out float4 o3<>, out float4 o4<>, out float4 o5<>, out float4 o6<>) {
      float3x3 m = float3x3(a.xyz, b.xyz, float3(a.w, b.w, c));
      float3x3 n = float3x3(b.zxy, a.yzx, float3(c, 1.0, -a.x));
      float3x3 p = m * n;
      float4x4 q = float4x4(a, b, a.wzyx, b.yxwz);
      o0 = float4(p[0], 0.0); o1 = float4(p[1], 0.0); o2 = float4(p[2], 0.0);
      o3 = float4(m * a.zxy, 0.0);
      o4 = float4(a.zxy * m, 0.0);
      o5 = q * b;
      o6 = b * q;
    }
    kernel void components(float4 a<>, float4 b<>, float c<>, out float4 o0<>, out float4 o1<>, out float4 o2<>, out float4 o3<>, out float4 o4<>, out float4 o5<>, out float4 o6<>) {
      float2x2 m = float2x2(a);
      float2x2 n = float2x2(b.xyz, c);
      float2x2 sum = m + n;
      float2x2 diff = m - n;
      o0 = float4(sum[0], sum[1]);
      o1 = float4(diff[0], diff[1]);
      float2x2 s = (m * 2.0 + 3.0 * m) / 4.0 - n;
      o2 = float4(s[0], s[1]);
      float2x2 pr = matrixCompMult(m, n);
      o3 = float4(pr[0], pr[1]);
      float2x2 acc = m;
      acc += n;
      acc *= n;
      o4 = float4(acc[0], acc[1]);
      float2 v = float2(a.x, b.y);
      v *= acc;
      float2x2 ng = -m;
      o5 = float4(v, ng[0]);
      float2x2 one = 1.0 - m;
      o6 = float4(one[0], one[1]);
    }
    kernel void functions(float4 a<>, float4 b<>, float c<>, float3x3 u, out float4 o0<>, out float4 o1<>, out float4 o2<>, out float4 o3<>, out float4 o4<>, out float4 o5<>) {
      float3x3 m = float3x3(a.xyz, b.xyz, float3(a.w, b.w, c));
      float3x3 t = transpose(m);
      float4x4 m4 = float4x4(a, b, float4(a.w, a.z, c, 1.0), float4(2.0, c, a.x, 3.0));
      o0 = float4(t[0], determinant(m));
      o1 = float4(t[2], determinant(m4));
      float3x3 s = m;
      s[1] = a.xyz;
      s[0][2] = c;
      o2 = float4(s[0], s[2][2]);
      float2x2 two = float2x2(a.x + 4.0, a.y, b.x, b.y + 4.0);
      float2x2 inv = inverse(two);
      o3 = float4(inv[0], inv[1]);
      o4 = float4(u * a.xyz, u[1][2]);
      o5 = float4(inverse(m + float3x3(8.0))[1], 0.0);
    }`;

  const dyadic = (seed: number, len: number) => {
    const r = rng(seed);
    return Float32Array.from({ length: len }, () => (Math.floor(r() * 31) - 15) / 8);
  };
  const a = dyadic(1, 4 * n);
  const b = dyadic(2, 4 * n);
  const c = dyadic(3, n);
  const u = Array.from(dyadic(4, 9));

  /** Runs kernel `name` on the CPU and checks each output against the reference (exactly, or within `ulps` for the outputs listed); on a GPU context, compareBackends too. */
  function check(name: 'ctor' | 'products' | 'components' | 'functions', outputs: number, ulpsFor: Record<number, number> = {}) {
    const run = (ctx: BrookContext) => {
      const streams: Stream[] = [ctx.stream('float4', n, a), ctx.stream('float4', n, b), ctx.stream('float', n, c)];
      const outs = Array.from({ length: outputs }, () => ctx.stream('float4', n));
      const args: Record<string, unknown> = { a: streams[0], b: streams[1], c: streams[2], ...(name === 'functions' ? { u } : {}) };
      outs.forEach((o, k) => (args[`o${k}`] = o));
      return { args, dispose: () => [...streams, ...outs].forEach((s) => s.dispose()), outs };
    };
    const mine = run(cpu);
    try {
      cpu.run(K[name]!, mine.args as never);
      const got = mine.outs.map((o) => o.readSync() as Float32Array);
      let checked = 0;
      for (let i = 0; i < n; i++) {
        const want = reference.brookMatrixReference(name, Array.from(a.subarray(4 * i, 4 * i + 4)), Array.from(b.subarray(4 * i, 4 * i + 4)), c[i]!, u);
        want.forEach((w, k) => {
          for (let j = 0; j < 4; j++) {
            const [x, y] = [got[k]![4 * i + j]!, w[j]!];
            const tol = ulpsFor[k] ?? 0;
            expect(tol ? ulpDistance(x, y) <= tol : Object.is(x, y) || x === y, `${name}: record ${i}, o${k}.${'xyzw'[j]}: CPU ${x}, reference ${y}${tol ? ` (within ${tol} ulps)` : ''}`).to.equal(true);
            checked++;
          }
        });
      }
      expect(checked).to.equal(n * outputs * 4);
    } finally {
      mine.dispose();
    }
    const gpu = pair.gpu;
    if (gpu) {
      const theirs = run(gpu);
      try {
        const cmp = compareBackends(gpu, K[name]!, theirs.args as never, { cpu: cpu as never, first: 2 });
        for (const [o, r] of Object.entries(cmp.outputs)) expect(r.differing, `${name}: ${o} differs between ${cmp.renderer} and the CPU on ${r.differing} of ${r.records} records, first ${JSON.stringify(r.first)}`).to.equal(0);
        expect(Object.keys(cmp.outputs).length).to.equal(outputs);
      } finally {
        theirs.dispose();
      }
    }
  }

  it('constructors: scalars and vectors fill columns, a scalar alone the diagonal, a matrix alone resized over the identity; m[i] is column i', () => check('ctor', 7));
  it('products: matrix * matrix, matrix * vector (columns weighted), vector * matrix (dots with the columns), 3x3 and 4x4', () => check('products', 7));
  it('componentwise: + - with matrices and scalars, * / by a scalar, matrixCompMult, unary -, += and *= (the product), vector *= matrix', () => check('components', 7));
  it('transpose, determinant (3x3, 4x4), inverse (2x2, 3x3: within 4 ulps), assignments to a column and a component, a float3x3 constant (column by column)', () => check('functions', 6, { 3: 4, 5: 4 }));

  it('a matrix constant takes n * n numbers column by column; a constructor with too few components is a BrookError on the CPU', () => {
    const s = cpu.stream('float4', n, a);
    const outs = Array.from({ length: 6 }, () => cpu.stream('float4', n));
    const args: Record<string, unknown> = { a: s, b: s, c: cpu.stream('float', n, c), u: [1, 2, 3] };
    outs.forEach((o, k) => (args[`o${k}`] = o));
    expect(() => cpu.run(K.functions!, args as never)).to.throw(/argument 'u': a mat3 takes 9 number\(s\), got 3|9 numbers, column by column/);
    const { few } = brook`kernel void few(float a<>, out float o<>) { float2x2 m = float2x2(a, a, a); o = m[0].x; }`;
    expect(() => cpu.run(few!, { a: args.c as Stream, o: args.c as Stream })).to.throw(/float2x2\(\.\.\.\) needs 4 components, these arguments give 3/);
    [s, ...outs, args.c as Stream].forEach((x) => x.dispose());
  });
});
