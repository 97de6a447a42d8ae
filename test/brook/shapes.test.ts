// Conformance: Brook's shape rules — an elementwise input whose shape differs from the
// output's is resampled, each dimension as floor(i * in / out): repeated (replication) where
// it is smaller, skipped (stride) where it is larger.
import { expect } from 'chai';
import { BrookContext, brook } from '../../src/index';
import { expectArrayEqual, expectBrookError, newContext } from '../helpers';

/** CPU resampling of a [ih, iw] stream over [oh, ow] (1D n as [1, n]). */
function resample(v: ArrayLike<number>, [ih, iw]: number[], [oh, ow]: number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < oh!; r++) for (let c = 0; c < ow!; c++) out.push(v[Math.floor((r * ih!) / oh!) * iw! + Math.floor((c * iw!) / ow!)]!);
  return out;
}

describe('brook/shapes: replication and stride of inputs', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());
  const { copy } = brook`kernel void copy(float a<>, out float o<>) { o = a; }`;

  for (const [n, m] of [[10, 40], [40, 10], [7, 10], [10, 7], [3, 1000], [1000, 3]] as const) {
    it(`1D: ${n} records read over ${m}`, () => {
      const v = Float32Array.from({ length: n }, (_, i) => i * 3 + 1);
      const a = ctx.stream('float', n, v);
      const o = ctx.stream('float', m);
      ctx.run(copy!, { a, o });
      expectArrayEqual(o.readSync(), resample(v, [1, n], [1, m]), `${n} over ${m}`);
      [a, o].forEach((s) => s.dispose());
    });
  }

  for (const [is, os] of [[[2, 3], [4, 9]], [[8, 6], [4, 3]], [[5, 5], [3, 7]], [[1, 12], [3, 8]]] as const) {
    it(`2D: [${is}] read over [${os}]`, () => {
      const v = Float32Array.from({ length: is[0] * is[1] }, (_, i) => i);
      const a = ctx.stream('float', [is[0], is[1]], v);
      const o = ctx.stream('float', [os[0], os[1]]);
      ctx.run(copy!, { a, o });
      expectArrayEqual(o.readSync(), resample(v, [...is], [...os]), `[${is}] over [${os}]`);
      [a, o].forEach((s) => s.dispose());
    });
  }

  it('a 1D stream over a 2D output is the row [1, n]; equal lengths read record by record', () => {
    const v = Float32Array.from({ length: 6 }, (_, i) => i + 0.5);
    const a = ctx.stream('float', 6, v);
    const o = ctx.stream('float', [2, 4]);
    ctx.run(copy!, { a, o });
    expectArrayEqual(o.readSync(), resample(v, [1, 6], [2, 4]), '1D over 2D');
    const same = ctx.stream('float', [2, 3]);
    ctx.run(copy!, { a, o: same });
    expectArrayEqual(same.readSync(), v, 'equal lengths');
    same.dispose();
    [a, o].forEach((s) => s.dispose());
  });

  it('hand-written KernelSpecs keep the strict rule (lengths must match)', () => {
    const a = ctx.stream('float', 9);
    const o = ctx.stream('float', 10);
    expectBrookError(
      () => ctx.run({ name: 'strict', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'o = a;' }, { a, o }),
      /cannot be read elementwise/,
    );
    expect(copy!.resample).to.equal(true);
    [a, o].forEach((s) => s.dispose());
  });
});
