// Conformance: Brook iterators (iter float..float4) from Brook source, against start + i * (end - start) / n.
import { expect } from 'chai';
import { BrookContext, brook, iter } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext } from '../helpers';

/** CPU iterator: record i of n sees start + i * (end - start) / n, every component, in float32. */
function iterReference(start: number[], end: number[], n: number): Float32Array {
  const c = start.length;
  const out = new Float32Array(n * c);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      const step = Math.fround((end[k]! - start[k]!) / n);
      out[i * c + k] = Math.fround(start[k]! + Math.fround(step * i));
    }
  }
  return out;
}

describe('brook/iterators', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('1D iter float2 interpolates every component (regression: y stayed at its start)', () => {
    const { copy2 } = brook`kernel void copy2(iter float2 i<>, out float2 output<>) { output = i; }`;
    const output = ctx.stream('float2', 8);
    ctx.run(copy2!, { i: iter([0, 0], [8, 4]), output });
    const got = output.readSync();
    expectArrayEqual(got, iterReference([0, 0], [8, 4], 8), 'iter float2 over 8 records');
    expect(Array.from(got.slice(2, 4))).to.deep.equal([1, 0.5]);
    output.dispose();
    expectNoGLError(ctx);
  });

  for (const c of [3, 4]) {
    it(`iter float${c} over a 1D domain interpolates all ${c} components`, () => {
      const k = brook`kernel void walk(iter float${c} it<>, out float${c} o<>) { o = it; }`.walk!;
      const n = 100;
      const start = [-1, 2, 0.5, 10].slice(0, c);
      const end = [99, -48, 100.5, 10].slice(0, c);
      const o = ctx.stream(`float${c}` as 'float3', n);
      ctx.run(k, { it: iter(start, end), o });
      expectArrayEqual(o.readSync(), iterReference(start, end, n), `iter float${c}`);
      o.dispose();
    });
  }

  it('2D iter float2 keeps x by column and y by row', () => {
    const { uv } = brook`kernel void uv(iter float2 t<>, out float2 o<>) { o = t; }`;
    const o = ctx.stream('float2', [3, 4]);
    ctx.run(uv!, { t: iter([0, 0], [8, 3]), o });
    const expected: number[] = [];
    for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) expected.push(2 * x, y);
    expectArrayEqual(o.readSync(), expected, '2D iter');
    o.dispose();
  });

  it('refuses a float3 iterator over a 2D domain and arrays of the wrong length', () => {
    const { w } = brook`kernel void w(iter float3 t<>, out float3 o<>) { o = t; }`;
    const o2 = ctx.stream('float3', [2, 2]);
    expectBrookError(() => ctx.run(w!, { t: iter([0, 0, 0], [1, 1, 1]), o: o2 }), /1D output domain/);
    const o1 = ctx.stream('float3', 4);
    expectBrookError(() => ctx.run(w!, { t: iter([0, 0], [1, 1]), o: o1 }), /two arrays of 3 numbers/);
    o1.dispose();
    o2.dispose();
  });
});
