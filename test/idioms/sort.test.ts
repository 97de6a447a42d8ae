import { expect } from 'chai';
import { BrookContext, SORT_METHODS, bitonicPasses, radix16Levels, radix16Passes, radixOrder, radixPasses, reference, sortStream } from '../../src/index';
import { expectArrayEqual, newContext, randomFloats, rng } from '../helpers';

describe('idioms/sort', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const method of SORT_METHODS) {
    const kernel = method === 'radix' ? 'RadixPlace' : method === 'radix-2bit' ? 'RadixDescent' : 'BitonicStep';
    const expectedPasses = (n: number) => (method === 'radix' ? 32 / 4 : method === 'radix-2bit' ? 32 / 2 : bitonicPasses(n));
    for (const n of [1, 2, 3, 1000, 4097, 65536]) {
      it(`${method}: sorts ${n} float keys with duplicates and negatives, carrying a payload, stably`, async () => {
        const r = rng(n);
        const keys = Float32Array.from({ length: n }, () => Math.round((r() - 0.5) * 50) / 4);
        const payload = Float32Array.from({ length: n * 2 }, (_, i) => i);
        const k = ctx.stream('float', n, keys);
        const p = ctx.stream('float2', n, payload);
        ctx.trace.start();
        const out = sortStream(ctx, k, { payload: p, method });
        const passes = await ctx.trace.stop();
        const order = reference.sortOrderReference(keys);
        expectArrayEqual(await out.order.read(), order, 'order');
        expectArrayEqual(await out.keys.read(), order.map((i) => keys[i]!), 'keys');
        expectArrayEqual(await out.payload!.read(), order.flatMap((i) => [2 * i, 2 * i + 1]), 'payload');
        expect(passes.filter((x) => x.kernel.startsWith(kernel)).length).to.equal(expectedPasses(n));
        if (method === 'radix') expect(passes.length).to.equal(radix16Passes(n) + 3); // + order, keys and payload gathers
        if (method === 'radix-2bit') expect(passes.length).to.equal(radixPasses(n) + 3);
        [k, p, out.keys, out.payload!, out.order].forEach((s) => s.dispose());
      });
    }

    it(`${method}: orders -inf < negatives < -0 < +0 < positives < +inf < NaN (NaN last, in input order)`, async () => {
      const keys = Float32Array.from([NaN, 1, -0, Infinity, 0, -Infinity, -1, NaN, -0, 0]);
      const k = ctx.stream('float', keys.length, keys);
      const out = sortStream(ctx, k, { method });
      expectArrayEqual(await out.order.read(), [5, 6, 2, 8, 4, 9, 1, 3, 0, 7], 'order');
      const sorted = await out.keys.read();
      expect(Object.is(sorted[2], -0) && Object.is(sorted[4], 0)).to.equal(true);
      expect(Number.isNaN(sorted[8]!) && Number.isNaN(sorted[9]!)).to.equal(true);
      [k, out.keys, out.order].forEach((s) => s.dispose());
    });

    it(`${method}: many duplicate keys (8 distinct values over 20,000 records) keep their input order, with a uint payload`, async () => {
      const n = 20000;
      const r = rng(5);
      const keys = Float32Array.from({ length: n }, () => [3, -1, 0, -0, 7.5, 1e30, -1e-30, NaN][Math.floor(r() * 8)]!);
      const payload = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
      const k = ctx.stream('float', n, keys);
      const p = ctx.stream('uint', n, payload);
      const out = sortStream(ctx, k, { payload: p, method });
      const order = reference.sortOrderReference(keys);
      expectArrayEqual(await out.order.read(), order, 'order');
      expectArrayEqual(await out.payload!.read(), order.map((i) => payload[i]!), 'payload');
      [k, p, out.keys, out.payload!, out.order].forEach((s) => s.dispose());
    });
  }

  it('the two radix sorts name their count passes apart in a trace: Radix16Count (4-bit digits) and Radix4Count (2-bit), one a digit', async () => {
    const n = 5000;
    const keys = randomFloats(n, 36);
    const names: Record<string, string[]> = {};
    for (const method of ['radix', 'radix-2bit'] as const) {
      const k = ctx.stream('float', n, keys);
      ctx.trace.start();
      const out = sortStream(ctx, k, { method });
      names[method] = (await ctx.trace.stop()).map((x) => x.kernel);
      expectArrayEqual(await out.keys.read(), [...keys].sort((a, b) => a - b), `${method} keys`);
      [k, out.keys, out.order].forEach((s) => s.dispose());
    }
    expect(names.radix!.filter((x) => x === 'Radix16Count').length).to.equal(32 / 4);
    expect(names['radix-2bit']!.filter((x) => x === 'Radix4Count').length).to.equal(32 / 2);
    expect(names.radix!.concat(names['radix-2bit']!).filter((x) => x === 'RadixCount')).to.deep.equal([]);
  });

  for (const n of [1, 3, 4097, 20000]) {
    it(`radix with the points placement (down-sweep + POINTS scatter) orders ${n} keys like the reference`, async () => {
      const r = rng(n + 9);
      const keys = Float32Array.from({ length: n }, () => (r() < 0.1 ? -0 : Math.round((r() - 0.5) * 40) / 8));
      const k = ctx.stream('float', n, keys);
      ctx.trace.start();
      const perm = radixOrder(ctx, k, 'points');
      const passes = await ctx.trace.stop();
      expect(passes.length).to.equal(radixPasses(n, 'points'));
      const back = await perm.read();
      expectArrayEqual(Array.from({ length: n }, (_, i) => back[2 * i + 1]!), reference.sortOrderReference(keys), 'order');
      [k, perm].forEach((s) => s.dispose());
    });
  }

  // 2^17, not 2^20: on SwiftShader (a CPU) a 2^20 radix sort takes about a minute.
  it('radix: sorts 2^17 random keys with a payload the same way as the reference', async () => {
    const n = 1 << 17;
    const keys = randomFloats(n, 77);
    const payload = Int32Array.from({ length: n }, (_, i) => -i);
    const k = ctx.stream('float', n, keys);
    const p = ctx.stream('int', n, payload);
    const out = sortStream(ctx, k, { payload: p, method: 'radix' });
    const order = reference.sortOrderReference(keys);
    expectArrayEqual(await out.order.read(), order, 'order');
    expectArrayEqual(await out.payload!.read(), order.map((i) => -i), 'payload');
    [k, p, out.keys, out.payload!, out.order].forEach((s) => s.dispose());
  });

  it('bitonic: sorts random keys the same way as the reference at 2^17', () => {
    const n = 1 << 17;
    const keys = randomFloats(n, 77);
    const k = ctx.stream('float', n, keys);
    const out = sortStream(ctx, k, { method: 'bitonic' });
    expectArrayEqual(out.order.readSync(), reference.sortOrderReference(keys), 'order');
    [k, out.keys, out.order].forEach((s) => s.dispose());
  });

  it('radix: runs on a device with exactly as many texture units as its placement pass reads (levels + 3), refuses one fewer', async () => {
    const n = 1000;
    const levels = radix16Levels(n).length; // the placement gathers src, dig, prefix and every level
    const keys = randomFloats(n, 7);
    const k = ctx.stream('float', n, keys);
    const caps = ctx.caps as { maxTextureImageUnits: number };
    const units = caps.maxTextureImageUnits;
    try {
      caps.maxTextureImageUnits = levels + 3;
      const out = sortStream(ctx, k, { method: 'radix' });
      expectArrayEqual(await out.order.read(), reference.sortOrderReference(keys), `order with ${levels + 3} texture units`);
      [out.keys, out.order].forEach((s) => s.dispose());
      caps.maxTextureImageUnits = levels + 2;
      const before = ctx.stats();
      expect(() => sortStream(ctx, k, { method: 'radix' })).to.throw(/reads 7 textures in one pass, more than this device's 6 texture units/);
      expect(ctx.stats()).to.deep.equal(before);
    } finally {
      caps.maxTextureImageUnits = units;
    }
    k.dispose();
  });

  it('a sort leaves no texture, buffer or sync behind and refuses bad arguments', () => {
    const k = ctx.stream('float', 100, randomFloats(100, 1));
    for (const method of SORT_METHODS) {
      const warm = sortStream(ctx, k, { method }); // warm the pool and programs
      [warm.keys, warm.order].forEach((s) => s.dispose());
    }
    const before = ctx.stats();
    for (const method of SORT_METHODS) {
      const out = sortStream(ctx, k, { method });
      [out.keys, out.order].forEach((s) => s.dispose());
    }
    const after = ctx.stats();
    expect(after.textures - after.pooledTextures).to.equal(before.textures - before.pooledTextures);
    expect(after.buffers).to.equal(0);
    expect(() => sortStream(ctx, k, { method: 'quick' as never })).to.throw(/unknown sort method 'quick'/);
    const u = ctx.stream('uint', 4);
    expect(() => sortStream(ctx, u)).to.throw(/float stream/);
    expect(() => sortStream(ctx, u, { method: 'radix' })).to.throw(/float stream/);
    [k, u].forEach((s) => s.dispose());
  });
});
