import { expect } from 'chai';
import { BrookContext, ElementType, SCAN_METHODS, Stream, reference, scan, scanAdditions, scanPasses, typeInfo } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';

/** Unit roundoff of float32. */
const FLOAT32_U = 2 ** -24;

/** γ_d = d·u / (1 − d·u): the relative bound of a sum whose terms go through d roundings. */
function gamma(d: number): number {
  return (d * FLOAT32_U) / (1 - d * FLOAT32_U);
}

/** The integer prefix sums wrapped to 32 bits as the stream's kind stores them. */
function wrap(sums: Float64Array, kind: 'int' | 'uint'): number[] {
  return Array.from(sums, (v) => {
    const m = ((v % 2 ** 32) + 2 ** 32) % 2 ** 32;
    return kind === 'uint' ? m : m >= 2 ** 31 ? m - 2 ** 32 : m;
  });
}

describe('idioms/scan', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const method of SCAN_METHODS) {
    const sizes = method === 'pyramid' ? [1, 2, 3, 4, 5, 16, 17, 1000, 4097, 65536, 1 << 20] : [1, 2, 3, 1000, 4097, 65536];
    for (const n of sizes) {
      it(`${method}: inclusive and exclusive uint scans of ${n} records are exact, in ${scanPasses(n, method)} passes`, async () => {
        const r = rng(n);
        const data = Uint32Array.from({ length: n }, () => Math.floor(r() * 4));
        const s = ctx.stream('uint', n, data);
        ctx.trace.start();
        const inc = scan(ctx, s, { method });
        const passes = await ctx.trace.stop();
        expect(passes.length).to.equal(scanPasses(n, method));
        expectArrayEqual(await inc.read(), reference.scanReference(data, 1), 'inclusive');
        const exc = scan(ctx, s, { exclusive: true, method });
        expectArrayEqual(await exc.read(), reference.scanReference(data, 1, true), 'exclusive');
        [s, inc, exc].forEach((x) => x.dispose());
      });
    }

    it(`${method}: int and uint scans wrap modulo 2^32 exactly (negatives, sums past 2^24 and 2^32)`, async () => {
      for (const n of [5, 4097]) {
        const r = rng(n + 1);
        const ints = Int32Array.from({ length: n }, () => Math.floor((r() - 0.5) * 2 ** 32));
        const uints = Uint32Array.from({ length: n }, () => Math.floor(r() * 2 ** 32));
        for (const [type, data] of [['int', ints], ['uint', uints]] as const) {
          const s = ctx.stream(type, n, data);
          const inc = scan(ctx, s, { method });
          expectArrayEqual(await inc.read(), wrap(reference.scanReference(data, 1), type), `${type}[${n}]`);
          [s, inc].forEach((x) => x.dispose());
        }
      }
    });

    it(`${method}: vector and 2D streams scan componentwise in record order`, async () => {
      const cases: Array<[ElementType, number | [number, number]]> = [['uint2', 1000], ['int4', 333], ['uint3', [37, 53]]];
      for (const [type, shape] of cases) {
        const c = typeInfo(type).components;
        const n = typeof shape === 'number' ? shape : shape[0] * shape[1];
        const r = rng(n);
        const data = Array.from({ length: n * c }, () => Math.floor(r() * 1000) - (type === 'int4' ? 500 : 0));
        const s = ctx.stream(type, shape, data);
        const out = scan(ctx, s, { method, exclusive: true });
        expect(out.shape).to.deep.equal(s.shape);
        expectArrayEqual(await out.read(), reference.scanReference(data, c, true), `${type} ${JSON.stringify(shape)}`);
        [s, out].forEach((x) => x.dispose());
      }
    });

    it(`${method}: float scans stay within γ_d·Σ|x| of the exact sums (d = additions per value)`, async () => {
      for (const n of [1, 7, 4097, 100000]) {
        for (const [lo, hi] of [[0, 1], [-1000, 1000]]) {
          const r = rng(n * 3 + lo);
          const data = Float32Array.from({ length: n }, () => lo + (hi - lo) * r());
          const s = ctx.stream('float', n, data);
          const out = scan(ctx, s, { method });
          const got = await out.read();
          const exact = reference.scanReference(data, 1);
          const abs = reference.scanReference(data.map(Math.abs), 1);
          const g = gamma(scanAdditions(n, method));
          for (let i = 0; i < n; i++) {
            const err = Math.abs(got[i]! - exact[i]!);
            if (!(err <= g * abs[i]!)) expect.fail(`n = ${n}, [${lo}, ${hi}): record ${i} is ${got[i]}, exact ${exact[i]}, error ${err} > bound ${g * abs[i]!}`);
          }
          [s, out].forEach((x) => x.dispose());
        }
      }
    });
  }

  it('the pyramid scan runs O(n) work: 2 ceil(log4 n) - 1 passes, levels shrinking by four', async () => {
    const n = 65536;
    const s = ctx.stream('uint', n, new Uint32Array(n).fill(1));
    ctx.trace.start();
    const out = scan(ctx, s);
    const passes = await ctx.trace.stop();
    const written = passes.reduce((t, p) => t + p.records, 0);
    expect(passes.length).to.equal(2 * Math.ceil(Math.log2(n) / 2) - 1);
    expect(written).to.be.below(1.7 * n);
    [s, out].forEach((x) => x.dispose());
  });

  it('refuses an unknown method and a disposed stream', () => {
    const s: Stream = ctx.stream('float', 4);
    expect(() => scan(ctx, s, { method: 'blelloch' as never })).to.throw(/unknown scan method 'blelloch'/);
    s.dispose();
    expect(() => scan(ctx, s)).to.throw(/live stream/);
  });
});
