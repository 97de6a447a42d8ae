import { expect } from 'chai';
import { BrookContext, bitonicPasses, reference, sortStream } from '../../src/index';
import { expectArrayEqual, newContext, randomFloats, rng } from '../helpers';

describe('idioms/sort (bitonic)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const n of [1, 2, 3, 1000, 4097, 65536]) {
    it(`sorts ${n} float keys with duplicates and negatives, carrying a payload, stably`, () => {
      const r = rng(n);
      const keys = Float32Array.from({ length: n }, () => Math.round((r() - 0.5) * 50) / 4);
      const payload = Float32Array.from({ length: n * 2 }, (_, i) => i);
      const k = ctx.stream('float', n, keys);
      const p = ctx.stream('float2', n, payload);
      ctx.trace.start();
      const out = sortStream(ctx, k, { payload: p });
      const order = reference.sortOrderReference(keys);
      expectArrayEqual(out.order.readSync(), order, 'order');
      expectArrayEqual(out.keys.readSync(), order.map((i) => keys[i]!), 'keys');
      expectArrayEqual(out.payload!.readSync(), order.flatMap((i) => [2 * i, 2 * i + 1]), 'payload');
      [k, p, out.keys, out.payload!, out.order].forEach((s) => s.dispose());
      return ctx.trace.stop().then((passes) => {
        expect(passes.filter((x) => x.kernel === 'BitonicStep').length).to.equal(bitonicPasses(n));
      });
    });
  }

  it('orders -inf < negatives < -0 < +0 < positives < +inf < NaN (NaN last, in input order)', () => {
    const keys = Float32Array.from([NaN, 1, -0, Infinity, 0, -Infinity, -1, NaN, -0, 0]);
    const k = ctx.stream('float', keys.length, keys);
    const out = sortStream(ctx, k);
    expectArrayEqual(out.order.readSync(), [5, 6, 2, 8, 4, 9, 1, 3, 0, 7], 'order');
    const sorted = out.keys.readSync();
    expect(Object.is(sorted[2], -0) && Object.is(sorted[4], 0)).to.equal(true);
    expect(Number.isNaN(sorted[8]!) && Number.isNaN(sorted[9]!)).to.equal(true);
    [k, out.keys, out.order].forEach((s) => s.dispose());
  });

  it('sorts random keys the same way as the reference at 2^17', () => {
    const n = 1 << 17;
    const keys = randomFloats(n, 77);
    const k = ctx.stream('float', n, keys);
    const out = sortStream(ctx, k);
    expectArrayEqual(out.order.readSync(), reference.sortOrderReference(keys), 'order');
    [k, out.keys, out.order].forEach((s) => s.dispose());
  });
});
