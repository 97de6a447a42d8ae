// Brook's typed front end (src/brook: lex, parse, check, glsl): the forms of BrookGPU's own
// application programs that the token-rewriting front end refused, run and checked against
// src/reference; C's expression grammar; type errors in Brook's words on the user's line;
// predicate options parsed as exactly one expression.
import { expect } from 'chai';
import { BrookContext, brook, brookPredicate, filter, iter, parseBrook } from '../../src/index';
import {
  brookCGrammarReference, brookCastsReference, brookReturnKernelReference, brookSizedGathersReference, brookVectorCompareReference,
} from '../../src/reference';
import { expectArrayEqual, expectBrookError, newContext, onCpu, randomFloats } from '../helpers';

describe('brook/front end: the forms of BrookGPU applications, against src/reference', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('gathers sized by a macro or an expression (float a[ARRAYSIZE], float x[N+1]) and a function-like macro', () => {
    const { sized } = brook`
      #define ARRAYSIZE 8
      #define N 7
      #define SQ(v) ((v) * (v))
      kernel void sized(float a[ARRAYSIZE], float x[N+1], float b[N + 1], iter float i<>, out float o<>) {
        o = a[i] + x[N - i] + SQ(b[i]);
      }`;
    const [av, xv, bv] = [1, 2, 3].map((s) => randomFloats(8, s, -10, 10));
    const a = ctx.stream('float', 8, av);
    const x = ctx.stream('float', 8, xv);
    const b = ctx.stream('float', 8, bv);
    const o = ctx.stream('float', 8);
    ctx.run(sized!, { a, x, b, i: iter(0, 8), o });
    expectArrayEqual(o.readSync(), brookSizedGathersReference(av!, xv!, bv!, 8), 'sized gathers');
    [a, x, b, o].forEach((s) => s.dispose());
  });

  it('a kernel with a return type (kernel float4 f(float4 x)) called from another kernel; it is no kernel to run itself', () => {
    const ks = brook`
      kernel float4 scale(float4 x, float k) { return x * k + 1; }
      kernel void apply(float4 v<>, float k, out float4 o<>) { o = scale(v, k) - scale(v.wzyx, 0.5); }`;
    expect(Object.keys(ks)).to.deep.equal(['apply']);
    const vv = randomFloats(64, 4, -5, 5);
    const v = ctx.stream('float4', 16, vv);
    const o = ctx.stream('float4', 16);
    ctx.run(ks.apply!, { v, k: 3, o });
    expectArrayEqual(o.readSync(), brookReturnKernelReference(vv, 3), 'apply');
    [v, o].forEach((s) => s.dispose());
  });

  it("Cg's vector comparisons: (v >= lo) && (v < hi) on float2 stored as a float2, a bool2 ?: selecting components", () => {
    const { inside } = brook`
      kernel void inside(float2 p<>, float2 lo, float2 hi, out float2 o<>, out float2 m<>) {
        o = (p >= lo) && (p < hi);
        m = (p > 0) ? p : -p;
      }`;
    const pv = randomFloats(200, 5, -2, 2);
    pv[0] = 0.5; // on the edges: lo is inclusive, hi exclusive
    pv[1] = 1;
    const p = ctx.stream('float2', 100, pv);
    const o = ctx.stream('float2', 100);
    const m = ctx.stream('float2', 100);
    ctx.run(inside!, { p, lo: [0.5, -1], hi: [1.5, 1], o, m });
    const ref = brookVectorCompareReference(pv, [0.5, -1], [1.5, 1]);
    expectArrayEqual(o.readSync(), ref.o, 'inside');
    expectArrayEqual(m.readSync(), ref.m, 'componentwise ?:');
    [p, o, m].forEach((s) => s.dispose());
  });

  it('C-style casts between vector types: (float3)(v), (float4)(s), (float)(int)(x)', () => {
    const { casts } = brook`
      kernel void casts(float4 v<>, out float3 a<>, out float4 b<>, out float c<>) {
        a = (float3)(v) * 2;
        b = (float4)(v.w);
        c = (float)(int)(v.x * 3.5);
      }`;
    const vv = randomFloats(40, 6, -9, 9);
    const v = ctx.stream('float4', 10, vv);
    const a = ctx.stream('float3', 10);
    const b = ctx.stream('float4', 10);
    const c = ctx.stream('float', 10);
    ctx.run(casts!, { v, a, b, c });
    const ref = brookCastsReference(vv);
    expectArrayEqual(a.readSync(), ref.a, '(float3)(v) * 2');
    expectArrayEqual(b.readSync(), ref.b, '(float4)(v.w)');
    expectArrayEqual(c.readSync(), ref.c, '(float)(int)(v.x * 3.5)');
    [v, a, b, c].forEach((s) => s.dispose());
  });

  it("kernels of brookgl's earlier front end: g(i) reads a gather, brook_index and brook_pos are read-only", () => {
    const { old } = brook`
      kernel void old(float g[], out float o<>) { o = g(brook_index) + g[brook_pos.x] * 2; }`;
    const gv = randomFloats(32, 7, -4, 4);
    const g = ctx.stream('float', 32, gv);
    const o = ctx.stream('float', 32);
    if (onCpu(ctx)) {
      // texel positions of core's GLSL: a CPU context refuses them, naming the GPU context and indexof (docs/brook.md, CPU backend)
      expectBrookError(() => ctx.run(old!, { g, o }), /brook_index .*has no CPU meaning; this kernel needs a GPU context \(createContext\(\)\), or use indexof/);
    } else {
      ctx.run(old!, { g, o });
      expectArrayEqual(o.readSync(), Array.from(gv, (x) => Math.fround(x + Math.fround(x * 2))), 'g(i) + g[i] * 2');
    }
    expectBrookError(() => brook`kernel void k(out float o<>) { brook_index = 1; o = 0; }`, /'brook_index' is const/);
    [g, o].forEach((s) => s.dispose());
  });

  it("C's grammar: comma, compound and bitwise assignments, ++/--, switch with fall-through, do-while, nested ?:", () => {
    const { cgrammar } = brook`
      kernel void cgrammar(int a<>, out int o<>, out float f<>) {
        int x = a, y = 3, z;
        z = (x++, x + y);
        z <<= 2; z ^= 5; z %= 7; z |= ~a & 12; z >>= 1;
        int w = --y;
        switch (a % 3) { case 0: z += 100; break; case 1: z -= 1; default: z *= 2; }
        do { w += 2; } while (w < 10);
        o = x > 5 ? z : (w > 11 ? -z : z + w);
        f = a / 2;
      }`;
    const av = Int32Array.from({ length: 30 }, (_, i) => i);
    const a = ctx.stream('int', 30, av);
    const o = ctx.stream('int', 30);
    const f = ctx.stream('float', 30);
    ctx.run(cgrammar!, { a, o, f });
    const ref = brookCGrammarReference(av);
    expectArrayEqual(o.readSync(), ref.o, 'o');
    expectArrayEqual(f.readSync(), ref.f, 'f = a / 2 (C: int division)');
    [a, o, f].forEach((s) => s.dispose());
  });
});

describe('brook/front end: type errors in Brook words on the user line', () => {
  it('vector sizes: a float3 assigned to a float4 output', () => {
    expectBrookError(() => brook`
      kernel void k(float4 img[][], float2 p<>, out float4 o<>) {
        float3 c = img[p.y][p.x];
        o = c;
      }`, /kernel k, line 4: a float3 cannot be assigned to the float4 output 'o' \(Cg does not widen a vector/);
  });
  it('int and float: a shift by a float, and no generated name in any message', () => {
    let message = '';
    try {
      parseBrook(`kernel void k(float a<>, out float o<>) {\n  int n = 3;\n  n = n << a;\n  o = n;\n}`);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.match(/kernel k, line 3: '<<' needs ints or uints, not a int and a float/);
    expect(message).to.not.match(/brook_|vec\d|GLSL|ERROR/);
  });
  it('assigning an input stream', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {\n  a = 1;\n  o = a;\n}`, /kernel k, line 2: 'a' is an input stream, which a kernel cannot write/);
  });
  it('an unknown name, and an unknown function', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {\n  o = a + b;\n}`, /kernel k, line 2: 'b' is not declared/);
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {\n  o = blend(a);\n}`, /kernel k, line 2: 'blend' is not a function this source declares nor one of Cg's built-ins/);
  });
  it('a missing semicolon, at the end of the line that lacks it, with its column', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {\n  float x = a * 2\n  o = x;\n}`, /line 2: expected ';' after '2'\n>2\|   float x = a \* 2\n\s+\^ \(column 18\)/);
  });
  it('macros that double each other forty times are a BrookError, not a hang', () => {
    let src = '';
    for (let k = 0; k < 40; k++) src += `#define M${k} M${k + 1} M${k + 1}\n`;
    expectBrookError(() => parseBrook(`${src}kernel void k(out float o<>) { o = M0; }`), /the macros expand past 100000 tokens/);
    expectBrookError(() => parseBrook('#if X > 1\nkernel void k(out float o<>) { o = 1; }\n#endif'), /line 1: #if takes only 0 or 1 here/);
  });
  it('a vector condition, a widening cast and a bad swizzle', () => {
    expectBrookError(() => brook`kernel void k(float2 a<>, out float o<>) {\n  if (a > 0) o = 1;\n}`, /line 2: the condition of if is a bool2, not one bool: write any\(...\) or all\(...\)/);
    expectBrookError(() => brook`kernel void k(float2 a<>, out float4 o<>) {\n  o = (float4)(a);\n}`, /line 2: a float2 cannot be cast to a float4/);
    expectBrookError(() => brook`kernel void k(float2 a<>, out float o<>) {\n  o = a.z;\n}`, /line 2: a float2 has no component 'z'/);
  });
});

describe('brook/front end: predicate options are one expression of the record type', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('compiles one expression of x and i through the checker', () => {
    expect(brookPredicate('x.w > 0.5 && i % 2 == 0', 'float4', 'filter: options.keep').glsl).to.equal('x.w > 0.5 && i % 2 == 0');
    expect(brookPredicate('x', 'float', 'filter: options.keep').glsl).to.equal('bool(x)');
    expect(brookPredicate('x > 1', 'uint', 'filter: options.keep').glsl).to.equal('x > 1u');
  });

  it('refuses anything else, naming the option, before any GL call', async () => {
    expectBrookError(() => brookPredicate('x > 0.5; } void f() { bool b = true', 'float', 'filter: options.keep'), /filter: options.keep, line 1: expected the end of the expression, found ';'/);
    expectBrookError(() => brookPredicate('x > 0.5 &&', 'float', 'liveCount: keep'), /liveCount: keep, line 1: the source ends inside an expression/);
    expectBrookError(() => brookPredicate('x.xy > 0.5', 'float4', 'filter: options.keep'), /filter: options.keep: the expression is a bool2, not one bool/);
    expectBrookError(() => brookPredicate('y > 0', 'float', 'filter: options.keep'), /filter: options.keep, line 1: 'y' is not declared/);
    expectBrookError(() => brookPredicate('(x = 1) > 0', 'float', 'filter: options.keep'), /'x' is an input stream, which a kernel cannot write/);
    const s = ctx.stream('float', 16, randomFloats(16, 9, -1, 1));
    const live = ctx.stats().textures;
    let caught: unknown;
    try {
      await filter(ctx, s, { keep: 'x > 0.5; } void f() { bool b = true' });
    } catch (e) {
      caught = e;
    }
    expect((caught as Error)?.name).to.equal('BrookError');
    expect((caught as Error).message).to.match(/filter: options.keep, line 1: expected the end of the expression/);
    expect(ctx.stats().textures).to.equal(live);
    s.dispose();
  });
});
