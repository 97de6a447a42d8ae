import { BrookContext, reference, scan } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';

describe('idioms/scan', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const n of [1, 2, 3, 1000, 4097, 65536, 1 << 20]) {
    it(`inclusive and exclusive uint scans of ${n} records are exact`, () => {
      const r = rng(n);
      const data = Uint32Array.from({ length: n }, () => Math.floor(r() * 4));
      const s = ctx.stream('uint', n, data);
      const incl = reference.inclusiveScan(data);
      const inc = scan(ctx, s);
      expectArrayEqual(inc.readSync(), incl, 'inclusive');
      const exc = scan(ctx, s, { exclusive: true });
      expectArrayEqual(exc.readSync(), [0, ...incl.slice(0, -1)], 'exclusive');
      [s, inc, exc].forEach((x) => x.dispose());
    });
  }

  it('scans int streams with negatives and counts past 2^24 exactly', () => {
    const n = 4097;
    const data = Int32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -5000 : 9000));
    const s = ctx.stream('int', n, data);
    const inc = scan(ctx, s);
    expectArrayEqual(inc.readSync(), reference.inclusiveScan(data), 'int');
    const big = ctx.stream('uint', 4, [2 ** 24, 1, 2 ** 30, 3]);
    const bigScan = scan(ctx, big);
    expectArrayEqual(bigScan.readSync(), [2 ** 24, 2 ** 24 + 1, 2 ** 30 + 2 ** 24 + 1, 2 ** 30 + 2 ** 24 + 4], 'uint past 2^24');
    [s, inc, big, bigScan].forEach((x) => x.dispose());
  });
});
