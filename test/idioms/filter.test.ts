import { expect } from 'chai';
import { BrookContext, FILTER_METHODS, FilterMethod, Stream, bitonicPasses, filter, reference } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';

/** float4 records (i, density draw, -i, 1); kept when y < density (so density is the kept fraction). */
function records(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) v.set([i, r(), -i, 1], i * 4);
  return v;
}

const DENSITIES: Array<[string, (n: number) => string]> = [
  ['0', () => 'false'],
  ['1 record', (n) => `i == ${Math.floor(n / 2)}`],
  ['1%', () => 'x.y < 0.01'],
  ['50%', () => 'x.y < 0.5'],
  ['99%', () => 'x.y < 0.99'],
  ['100%', () => 'true'],
];

function keepFn(label: string, n: number): (r: number[], i: number) => boolean {
  const f = Math.fround;
  return {
    '0': () => false,
    '1 record': (_r: number[], i: number) => i === Math.floor(n / 2),
    '1%': (r: number[]) => r[1]! < f(0.01),
    '50%': (r: number[]) => r[1]! < 0.5,
    '99%': (r: number[]) => r[1]! < f(0.99),
    '100%': () => true,
  }[label]!;
}

async function check(ctx: BrookContext, method: FilterMethod, s: Stream, data: Float32Array, label: string, keep: string) {
  const n = s.length;
  const expected = reference.filterReference(data, 4, keepFn(label, n));
  const got = await filter(ctx, s, { keep, method, indices: true });
  expect(got.count, `${method} n=${n} density ${label}: count`).to.equal(expected.indices.length);
  if (got.count === 0) {
    expect(got.stream).to.equal(null);
    return;
  }
  expectArrayEqual(got.stream!.readSync(), expected.values, `${method} n=${n} density ${label}`);
  expectArrayEqual(got.indices!.readSync(), expected.indices, `${method} n=${n} density ${label}: indices`);
  got.stream!.dispose();
  got.indices!.dispose();
}

describe('idioms/filter', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const method of FILTER_METHODS) {
    const lengths = method === 'bitonic' || method === 'scatter' ? [1, 2, 3, 1000, 4097, 65536] : [1, 2, 3, 1000, 4097, 65536, 1 << 20];
    it(`${method}: every density at lengths ${lengths.join(', ')} equals Array.filter`, async function () {
      this.timeout(400_000); // scan-multipass and scan-loop: 60-105 s on SwiftShader with the shared cores busy
      for (const n of lengths) {
        const data = records(n, n);
        const s = ctx.stream('float4', n, data);
        for (const [label, keep] of DENSITIES) await check(ctx, method, s, data, label, keep(n));
        s.dispose();
      }
    });
  }

  it('bitonic: 2^20 records at 50% equals Array.filter', async () => {
    const n = 1 << 20;
    const data = records(n, 3);
    const s = ctx.stream('float4', n, data);
    await check(ctx, 'bitonic', s, data, '50%', 'x.y < 0.5');
    s.dispose();
  });

  it('pyramid, and both searches: a length above 2^24 / 4 equals Array.filter', async function () {
    this.timeout(400_000); // ~110 s on SwiftShader when two shared cores are busy
    const n = 2 ** 22 + 3;
    if (n > ctx.caps.maxRecords) this.skip();
    const data = records(n, 11);
    const s = ctx.stream('float4', n, data);
    for (const method of ['pyramid', 'scan-loop', 'scan-multipass'] as FilterMethod[]) await check(ctx, method, s, data, '50%', 'x.y < 0.5');
    s.dispose();
  });

  it("the book's sentinel path (+inf marks null) equals the predicate path on data without infinities", async () => {
    for (const type of ['float4', 'float2', 'float'] as const) {
      const c = { float4: 4, float2: 2, float: 1 }[type];
      const n = 4097;
      const r = rng(c);
      const data = Float32Array.from({ length: n * c }, () => (r() - 0.5) * 100);
      const s = ctx.stream(type, n, data);
      // the chapter's filter kernel: output = input where the predicate holds, else inf
      const marked = ctx.stream(type, n);
      const x0 = c === 1 ? 'x' : 'x.x';
      ctx.run({ name: 'MarkNull', inputs: { x: type }, outputs: { y: type }, body: `y = x; if (!(${x0} > 0.0)) ${type === 'float' ? 'y' : 'y.x'} = uintBitsToFloat(0x7f800000u);` }, { x: s, y: marked });
      const byPredicate = await filter(ctx, s, { keep: `${x0} > 0.0` });
      for (const method of FILTER_METHODS) {
        const bySentinel = await filter(ctx, marked, { sentinel: true, method });
        expect(bySentinel.count, `${type} ${method}`).to.equal(byPredicate.count);
        expectArrayEqual(bySentinel.stream!.readSync(), byPredicate.stream!.readSync(), `${type} ${method}`);
        bySentinel.stream!.dispose();
      }
      [s, marked, byPredicate.stream!].forEach((x) => x.dispose());
    }
  });

  it('keeps records whose data holds +inf when the predicate says so (the predicate form does not use sentinels)', async () => {
    const data = Float32Array.from([Infinity, 1, -Infinity, 2, NaN, 3]);
    const s = ctx.stream('float2', 3, data);
    for (const method of FILTER_METHODS) {
      const got = await filter(ctx, s, { keep: 'true', method });
      expectArrayEqual(got.stream!.readSync(), data, method);
      got.stream!.dispose();
    }
    s.dispose();
  });

  it('filters int and uint streams, and records the predicate can index', async () => {
    const n = 1000;
    const data = Int32Array.from({ length: n * 2 }, (_, i) => i * (i % 3 ? 1 : -1));
    const s = ctx.stream('int2', n, data);
    const expected = reference.filterReference(data, 2, (r, i) => r[0]! < 0 || i % 7 === 0);
    for (const method of FILTER_METHODS) {
      const got = await filter(ctx, s, { keep: 'x.x < 0 || i % 7 == 0', method });
      expectArrayEqual(got.stream!.readSync(), expected.values, method);
      got.stream!.dispose();
    }
    s.dispose();
  });

  it('refuses bad options clearly', async () => {
    const s = ctx.stream('float', 10);
    let err: unknown;
    await filter(ctx, s, {} as never).catch((e) => (err = e));
    expect(String(err)).to.match(/exactly one of/);
    await filter(ctx, s, { keep: 'true', method: 'quick' as never }).catch((e) => (err = e));
    expect(String(err)).to.match(/unknown filter method 'quick'/);
    const u = ctx.stream('uint', 10);
    await filter(ctx, u, { sentinel: true }).catch((e) => (err = e));
    expect(String(err)).to.match(/sentinel form .* needs a float stream/);
    [s, u].forEach((x) => x.dispose());
    const long = ctx.stream('float', 2 ** 24 + 1);
    await filter(ctx, long, { keep: 'true', method: 'scan-loop' }).catch((e) => (err = e));
    expect(String(err)).to.match(/exact only up to 2\^24 .* Use method 'pyramid'/);
    long.dispose();
  });

  it('pyramid: runs with exactly as many texture units as its descent reads (levels + 1), refuses one fewer before any pass', async () => {
    const n = 1000; // levels: 250, 63, 16, 4, 1 texels
    const levels = 5;
    const data = records(n, 5);
    const s = ctx.stream('float4', n, data);
    const caps = ctx.caps as { maxTextureImageUnits: number };
    const units = caps.maxTextureImageUnits;
    try {
      caps.maxTextureImageUnits = levels + 1;
      await check(ctx, 'pyramid', s, data, '50%', 'x.y < 0.5');
      caps.maxTextureImageUnits = levels;
      const before = JSON.stringify(ctx.stats());
      const seen: string[] = [];
      for (const keep of ['x.y < 0.5', 'false']) {
        const err = await filter(ctx, s, { keep, method: 'pyramid', watch: (label) => seen.push(label) }).then(() => null, (e: Error) => e);
        expect(String(err), `keep ${keep}`).to.match(/^BrookError: .*filter: the pyramid over 1000 records has 5 levels; its descent reads them and the stream, 6 textures in one pass, more than this device's 5 texture units: use method 'scan-loop'/);
      }
      expect(seen, 'passes run before the refusal').to.deep.equal([]);
      expect(JSON.stringify(ctx.stats())).to.equal(before);
    } finally {
      caps.maxTextureImageUnits = units;
    }
    s.dispose();
  });

  it('leaves no textures behind (scratch streams go back to the pool)', async () => {
    const s = ctx.stream('float4', 4097, records(4097, 1));
    for (const method of FILTER_METHODS) (await filter(ctx, s, { keep: 'x.y < 0.5', method })).stream!.dispose();
    const before = ctx.stats().textures;
    for (let round = 0; round < 3; round++)
      for (const method of FILTER_METHODS) (await filter(ctx, s, { keep: 'x.y < 0.5', method })).stream!.dispose();
    expect(ctx.stats().textures).to.equal(before);
    s.dispose();
  });

  it('shows every pass to a watcher: the null counts of each Scan pass are the CPU running counts so far', async () => {
    const n = 1000;
    const data = records(n, 7);
    const s = ctx.stream('float4', n, data);
    const nullFlags: number[] = Array.from({ length: n }, (_, i) => (data[i * 4 + 1]! < 0.3 ? 0 : 1));
    const seen: Array<[string, Float32Array]> = [];
    const r = await filter(ctx, s, { keep: 'x.y < 0.3', method: 'scan-multipass', watch: (label, w) => seen.push([label, w.readSync() as Float32Array]) });
    const scans = seen.filter(([label]) => label.startsWith('Scan'));
    expect(scans.length).to.equal(Math.ceil(Math.log2(n)) - 1);
    // After the Scan pass with offset 2^i, record j holds the nulls among records j-2^(i+1)+1 .. j.
    scans.forEach(([label, counts], pass) => {
      const width = 2 ** (pass + 2);
      const want = nullFlags.map((_, j) => nullFlags.slice(Math.max(0, j - width + 1), j + 1).reduce((a, b) => a + b, 0));
      expectArrayEqual(counts, want, label);
    });
    expect(seen.some(([label]) => label.startsWith('GatherSearch'))).to.equal(true);
    const [lastLabel, last] = seen[seen.length - 1]!;
    expect(lastLabel).to.equal('compacted');
    expectArrayEqual(last, r.stream!.readSync(), 'the watched result is the result');
    r.stream!.dispose();
    s.dispose();
  });
  it('shows bitonic compaction to a watcher: every sort pass, and the result', async () => {
    const n = 100;
    const s = ctx.stream('float4', n, records(n, 9));
    const seen: Array<[string, ArrayLike<number>]> = [];
    const r = await filter(ctx, s, { keep: 'x.y < 0.4', method: 'bitonic', watch: (label, w) => seen.push([label, w.readSync()]) });
    expect(seen.filter(([label]) => label.startsWith('bitonic stage')).length).to.equal(bitonicPasses(n));
    const [lastLabel, last] = seen[seen.length - 1]!;
    expect(lastLabel).to.equal('compacted');
    expectArrayEqual(last, r.stream!.readSync(), 'the watched result is the result');
    r.stream!.dispose();
    s.dispose();
  });
});
