// Conformance: kernels calling kernels (with out parameters) and helper functions taking
// gathers, against CPU computations.
import { expect } from 'chai';
import { BrookContext, brook, iter } from '../../src/index';
import { brookReadAfterWriteReference } from '../../src/reference';
import { expectArrayEqual, expectBrookError, newContext, randomFloats } from '../helpers';

describe('brook/calls: kernels calling kernels, helpers taking gathers', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('a kernel calls another kernel with out parameters', () => {
    const { split, both } = brook`
      kernel void split(float a<>, out float whole<>, out float part<>) {
        whole = floor(a);
        part = a - whole;
        if (a < 0) return;
        part = part * 2;
      }
      kernel void both(float a<>, float k, out float2 o<>) {
        float w; float p;
        split(a * k, w, p);
        o = float2(w, p);
      }`;
    const xs = randomFloats(40, 8, -10, 10);
    const a = ctx.stream('float', 40, xs);
    const o = ctx.stream('float2', 40);
    ctx.run(both!, { a, k: 3, o });
    const exp = Array.from(xs).flatMap((x) => {
      const y = Math.fround(x * 3);
      const w = Math.floor(y);
      const p = Math.fround(y - w);
      return [w, y < 0 ? p : Math.fround(p * 2)];
    });
    expectArrayEqual(o.readSync(), exp, 'both');
    // the callee still runs as a kernel of its own
    const whole = ctx.stream('float', 40);
    const part = ctx.stream('float', 40);
    ctx.run(split!, { a, whole, part });
    expectArrayEqual(whole.readSync(), Array.from(xs, Math.floor), 'split');
    [a, o, whole, part].forEach((s) => s.dispose());
  });

  it('helpers take gathers, also through another helper and a called kernel', () => {
    const { window3 } = brook`
      float at(float v[], float i) { return v[i]; }
      float total(float v[], float from, float n) {
        float s = 0;
        for (float i = 0; i < n; i++) s += at(v, from + i);
        return s;
      }
      kernel void pick(float g[], float i<>, out float o<>) { o = at(g, i) * 10; }
      kernel void window3(float data[], float other[], iter float here<>, out float o<>, out float p<>) {
        o = total(data, here, 3) + total(other, here, 1);
        pick(data, here, p);
      }`;
    const n = 30;
    const dv = randomFloats(n, 1, 0, 1);
    const ov = randomFloats(n, 2, 0, 1);
    const data = ctx.stream('float', n, dv);
    const other = ctx.stream('float', n, ov);
    const o = ctx.stream('float', n);
    const p = ctx.stream('float', n);
    ctx.run(window3!, { data, other, here: iter(0, n), o, p });
    const get = (v: Float32Array, i: number) => v[Math.min(i, v.length - 1)]!; // a gather past the end reads the last record
    const exp = Array.from({ length: n }, (_, i) => Math.fround(Math.fround(Math.fround(Math.fround(0 + get(dv, i)) + get(dv, i + 1)) + get(dv, i + 2)) + get(ov, i)));
    expectArrayEqual(o.readSync(), exp, 'window3');
    expectArrayEqual(p.readSync(), Array.from(dv, (x) => Math.fround(x * 10)), 'pick');
    [data, other, o, p].forEach((s) => s.dispose());
  });

  it('refuses a non-gather passed for a gather and wrong argument counts', () => {
    expectBrookError(
      () => brook`float at(float v[], float i) { return v[i]; } kernel void k(float a<>, out float o<>) { o = at(a, 1); }`,
      /argument 1 of at \('v'\) is a gather/,
    );
    expectBrookError(
      () => brook`kernel void f(float a<>, out float o<>) { o = a; } kernel void k(float a<>, out float o<>) { f(a); }`,
      /f takes 2 arguments, this call passes 1/,
    );
  });
});

describe('brook/rejections: what Brook rejects names the kernel line', () => {
  it('writing an input stream, an iterator or a gather', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {
      o = a;
      a = 2;
    }`, /kernel k, line 3: 'a' is an input stream/);
    expectBrookError(() => brook`kernel void k(iter float i<>, out float o<>) { i += 1; o = i; }`, /line 1: 'i' is an iterator/);
    expectBrookError(() => brook`kernel void k(float g[], out float o<>) { g[0] = 1; }`, /'g' is a gather/);
    expectBrookError(() => brook`reduce void s(float a<>, reduce float r<>) { a++; r += a; }`, /'a' is the stream being reduced/);
  });

  it('indexing a scalar <> stream or iterator (a[3]): a BrookError naming the line, not a GLSL message', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {
      o = a[3];
    }`, /kernel k, line 2: 'a' is an input stream \(float a<>\), one record per output: 'a\[' has nothing to index; read a itself, or declare it a gather \(float a\[\]\)/);
    expectBrookError(() => brook`kernel void k(iter float here<>, out float o<>) { o = here[0]; }`, /line 1: 'here' is an iterator/);
    // a vector stream's component stays legal, and a gather of the same name elsewhere is not confused with it
    const { k } = brook`kernel void k(float4 pixel<>, float a[], out float o<>) { o = pixel[3] + a[0]; }`;
    expect(k!.inputs).to.have.property('pixel');
  });

  it('reading an output before the kernel writes it (Brook leaves it undefined)', () => {
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) {
      o += a;
    }`, /kernel k, line 2: 'o' is an output stream, and '\+=' here uses its value before the kernel has written it/);
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>, out float p<>) {
      o = a;
      p = o + p;
    }`, /kernel k, line 3: 'p' is an output stream, and a read here/);
    expectBrookError(() => brook`kernel void k(out int n<>) { n++; }`, /line 1: 'n' is an output stream, and '\+\+'/);
    expectBrookError(() => brook`kernel void k(float a<>, out float2 o<>) {
      float x = o.x * a;
      o = float2(x, 1);
    }`, /line 2: 'o' is an output stream/);
    expectBrookError(() => brook`typedef struct { float a; float2 b; } P;
      kernel void k(float x<>, out P o<>) { o.a = o.b.x; }`, /line 2: 'o' is an output stream/);
  });
});

describe('brook/outputs: read after the kernel wrote them, as BrookGPU allowed', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('o = a; o += 1; o /= 2; o *= o equals the CPU; indexof(o) and passing o to a function are not reads', () => {
    const { k, pos } = brook`
      void fill(float v, out float r) { r = v; }
      kernel void k(float a<>, out float o<>) {
        o = a;
        o += 1;
        o /= 2;
        o *= o;
      }
      kernel void pos(float a<>, out float o<>, out float p<>) {
        p = indexof(o).x;
        fill(a, o);
        p = p + o * 0;
      }`;
    const xs = randomFloats(40, 7);
    const a = ctx.stream('float', 40, xs);
    const o = ctx.stream('float', 40);
    const p = ctx.stream('float', 40);
    ctx.run(k!, { a, o });
    expectArrayEqual(o.readSync(), brookReadAfterWriteReference(xs), 'o');
    ctx.run(pos!, { a, o, p });
    expectArrayEqual(o.readSync(), xs, 'fill');
    expectArrayEqual(p.readSync(), Float32Array.from(xs, (_, i) => i), 'indexof');
    [a, o, p].forEach((s) => s.dispose());
  });
});
