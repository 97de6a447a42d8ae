import { expect } from 'chai';
import { BINNING_METHODS, BIN_QUERY_GLSL, ROUTING_METHODS, BIN_UNIFORMS, BinGrid, Bins, BrookContext, BrookError, KernelSpec, binPoints, binUniforms, bucketSort, reference, stencilRoute } from '../../src/index';
import { expectArrayEqual, expectBrookRejection, newContext, recordWaits, rng } from '../helpers';

const GRID: BinGrid = { cells: [8, 8, 5], origin: [-1, -1, -1], cellSize: 0.25 };

function points(kind: 'uniform' | 'clustered' | 'single', n: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const p =
      kind === 'uniform' ? [r() * 2 - 1, r() * 2 - 1, r() * 1.25 - 1]
      : kind === 'clustered' ? [0.3 + 0.15 * (r() - 0.5), -0.2 + 0.15 * (r() - 0.5), -0.5 + 0.3 * (r() - 0.5)]
      : [0.1 + 0.01 * r(), 0.1 + 0.01 * r(), -0.9 + 0.01 * r()];
    v.set([...p, 1], i * 4);
  }
  return v;
}

/** Slot s of bin b in a read-back Bins.pack() stream (slots in columns of bins.slotRows). */
function packedKey(keys: ArrayLike<number>, bins: Bins, b: number, s: number): number {
  const columns = Math.ceil(bins.capacity / bins.slotRows);
  const x = Math.floor(s / bins.slotRows) * bins.width + (b % bins.width);
  const y = (s % bins.slotRows) * bins.height + Math.floor(b / bins.width);
  return keys[y * columns * bins.width + x]!;
}

describe('idioms/binning (Oat, Barczak & Shopf 2009)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const [kind, n] of [['uniform', 1500], ['clustered', 300], ['single', 40]] as const) {
    for (const method of [...BINNING_METHODS, ...ROUTING_METHODS]) {
      it(`${method}: bins, loads and in-bin order equal a CPU binning (${kind}, ${n} points)`, async () => {
        const data = points(kind, n, 5);
        const pos = ctx.stream('float4', n, data);
        const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
        const bins = await binPoints(ctx, pos, GRID, { capacity: 4, method });
        expect([bins.width, bins.height]).to.deep.equal([want.width, want.height]);
        const loads = bins.loads.readSync();
        const slots = bins.pack();
        const keys = slots.readSync();
        const maxLoad = Math.max(...want.bins.map((b) => b.length));
        expect(bins.capacity).to.be.at.least(maxLoad);
        want.bins.forEach((ids, b) => {
          expect(loads[b], `load of bin ${b}`).to.equal(ids.length);
          const got: number[] = [];
          for (let s = 0; s < bins.capacity; s++) {
            const key = packedKey(keys, bins, b, s);
            if (s < ids.length) got.push(key * 2 ** 24);
            else expect(key, `empty slot ${s} of bin ${b}`).to.equal(1);
          }
          expectArrayEqual(got, ids, `bin ${b}`);
        });
        if (maxLoad > 4) expect(bins.stats.overflows, 'overflow handled by growing').to.be.greaterThan(0);
        [slots, pos].forEach((s) => s.dispose());
        bins.dispose();
      });
    }
  }

  it('the scatter reduction (scan + vertex-shader scatter) bins exactly like the pyramid one', async () => {
    for (const [kind, n] of [['uniform', 1500], ['clustered', 300]] as const) {
      const data = points(kind, n, 9);
      const pos = ctx.stream('float4', n, data);
      const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
      for (const method of ['reduced', 'delayed'] as const) {
        const bins = await binPoints(ctx, pos, GRID, { capacity: 4, method, reduction: 'scatter' });
        const loads = bins.loads.readSync();
        const slots = bins.pack();
        const keys = slots.readSync();
        want.bins.forEach((ids, b) => {
          expect(loads[b], `${kind} ${method}: load of bin ${b}`).to.equal(ids.length);
          const got = ids.map((_, s) => packedKey(keys, bins, b, s) * 2 ** 24);
          expectArrayEqual(got, ids, `${kind} ${method}: bin ${b}`);
        });
        expect(bins.stats.reductions).to.be.greaterThan(0);
        slots.dispose();
        bins.dispose();
      }
      pos.dispose();
    }
  });

  it('stops early when predicated, and reduces the working set when asked', async () => {
    const data = points('uniform', 1500, 8);
    const pos = ctx.stream('float4', 1500, data);
    const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
    const maxLoad = Math.max(...want.bins.map((b) => b.length));
    const stats: Record<string, { passes: number; reductions: number }> = {};
    for (const method of [...BINNING_METHODS, ...ROUTING_METHODS]) {
      const bins = await binPoints(ctx, pos, GRID, { capacity: 64, method, inFlight: 2 });
      stats[method] = bins.stats;
      bins.dispose();
    }
    expect(stats.naive!.passes).to.equal(64);
    expect(stats.predicated!.passes).to.be.within(maxLoad + 1, maxLoad + 1 + 2);
    expect(stats.reduced!.passes).to.equal(maxLoad);
    expect(stats.reduced!.reductions).to.equal(maxLoad);
    expect(stats.delayed!.passes).to.equal(maxLoad);
    expect(stats.delayed!.reductions).to.be.lessThan(maxLoad);
    expect(stats.stencil!.passes).to.equal(64);
    expect(stats['stencil-predicated']!.passes).to.be.within(maxLoad + 1, maxLoad + 1 + 2);
    pos.dispose();
  });

  it('bucket sort equals a CPU sort of distinct integer keys, and refuses duplicates and non-integers', async () => {
    const r = rng(4);
    const set = new Set<number>();
    while (set.size < 5000) set.add(Math.floor(r() * 2 ** 24));
    const keys = Float32Array.from(set);
    const s = ctx.stream('float', keys.length, keys);
    for (const method of ['delayed', 'naive'] as const) {
      const sorted = await bucketSort(ctx, s, { method });
      expectArrayEqual(sorted.readSync(), Float32Array.from(keys).sort(), `bucket sort (${method})`);
      sorted.dispose();
    }
    s.dispose();
    const dup = ctx.stream('float', 4, [5, 9, 5, 1]);
    let err: unknown;
    await bucketSort(ctx, dup).catch((e) => (err = e));
    expect(err).to.be.instanceOf(BrookError);
    expect(String(err)).to.match(/only 3 of 4 keys were binned: the keys are not distinct/);
    const frac = ctx.stream('float', 3, [1, 2.5, 3]);
    err = undefined;
    await bucketSort(ctx, frac).catch((e) => (err = e));
    expect(String(err)).to.match(/1 key\(s\) are not integers in \[0, 2\^24\)/);
    [dup, frac].forEach((x) => x.dispose());
  });

  it('rebuilds in place (into) with the same bins as a fresh build, and no new textures', async () => {
    const first = ctx.stream('float4', 1500, points('uniform', 1500, 1));
    let bins = await binPoints(ctx, first, GRID, { capacity: 128 }); // room for the clustered case's fullest bin
    const before = ctx.stats();
    for (const [kind, n, seed] of [['clustered', 300, 2], ['uniform', 800, 3], ['single', 10, 4]] as const) {
      const data = points(kind, n, seed);
      const pos = ctx.stream('float4', n, data);
      const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
      const again = await binPoints(ctx, pos, GRID, { capacity: 128, into: bins });
      expect(again, `${kind}: the same structure`).to.equal(bins);
      const keys = again.pack();
      const k = keys.readSync();
      const loads = again.loads.readSync();
      want.bins.forEach((ids, b) => {
        expect(loads[b], `${kind}: load of bin ${b}`).to.equal(ids.length);
        for (let slot = 0; slot < again.capacity; slot++) {
          const key = packedKey(k, again, b, slot);
          expect(key, `${kind}: bin ${b} slot ${slot}`).to.equal(slot < ids.length ? ids[slot]! / 2 ** 24 : 1);
        }
      });
      keys.dispose();
      pos.dispose();
      bins = again;
    }
    // textures in use (not idle in the pool, which holds a few per shape) and depth buffers: unchanged
    const live = (st: ReturnType<typeof ctx.stats>) => st.textures - st.pooledTextures;
    expect(live(ctx.stats())).to.equal(live(before));
    expect(ctx.stats().renderbuffers).to.equal(before.renderbuffers);
    bins.dispose();
    first.dispose();
  });

  it('releases its textures', async () => {
    const pos = ctx.stream('float4', 500, points('uniform', 500, 2));
    for (const method of ['delayed', 'stencil-predicated'] as const) {
      (await binPoints(ctx, pos, GRID, { method })).dispose();
      const before = ctx.stats();
      for (let k = 0; k < 5; k++) (await binPoints(ctx, pos, GRID, { method })).dispose();
      expect(ctx.stats().textures, method).to.equal(before.textures);
      expect(ctx.stats().renderbuffers, method).to.equal(before.renderbuffers);
    }
    pos.dispose();
  });

  it("peeling polls the NaN probe's query before it stalls on a survivor count, once (the waits overlap)", async () => {
    // the probe's query is issued first; polled only after the stalling count reads, its poll
    // turn came in series after them (main before this spec); waiting for its answer before
    // the read spun ~190 turns a DEM step on SwiftShader: one poll turn before the read, no more
    const pos = ctx.stream('float4', 300, points('clustered', 300, 4));
    for (const method of BINNING_METHODS) {
      let bins: Bins | null = null;
      const waits = await recordWaits(ctx, async () => (bins = await binPoints(ctx, pos, GRID, { method, capacity: 16 })));
      const firstRead = waits.indexOf('read');
      expect(firstRead, `${method}: survivor counts read (${waits.join(' ')})`).to.be.at.least(0);
      expect(waits.indexOf('poll'), `${method}: the probe polled before the first count read (${waits.join(' ')})`).to.be.within(0, firstRead - 1);
      if (method !== 'predicated') {
        // (predicated waits for its passes' queries too)
        expect(waits.filter((w) => w === 'answer'), `${method}: one query, the probe`).to.have.length(1);
        expect(waits.slice(0, firstRead).filter((w) => w === 'poll'), `${method}: one poll turn before the read (${waits.join(' ')})`).to.have.length(1);
        expect(waits.filter((w) => w === 'poll').length, `${method}: polls in all (${waits.join(' ')})`).to.be.at.most(3);
      }
      expect(bins!.stats.dropped, method).to.equal(0);
      bins!.dispose();
    }
    pos.dispose();
  });

  it('refuses an unknown method, and stencil routing for bucket sort (its keys are not in draw order)', async () => {
    const pos = ctx.stream('float4', 10, points('uniform', 10, 2));
    const keys = ctx.stream('float', 3, [7, 1, 4]);
    await expectBrookRejection(binPoints(ctx, pos, GRID, { method: 'fast' as never }), /unknown method 'fast': use naive, .*stencil-predicated/);
    await expectBrookRejection(bucketSort(ctx, keys, { method: 'stencil' }), /'stencil' \(stencil routing\) needs the items drawn in key order/);
    [pos, keys].forEach((s) => s.dispose());
  });

  for (const [kind, n] of [['uniform', 1500], ['clustered', 300]] as const) {
    it(`stencil routing gives the same bins (${kind}, ${n} points)`, async () => {
      const data = points(kind, n, 5);
      const pos = ctx.stream('float4', n, data);
      const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
      const maxLoad = Math.max(...want.bins.map((b) => b.length));
      const r = await stencilRoute(ctx, pos, GRID, { capacity: maxLoad });
      expect(r.overflow).to.equal(false);
      expect(r.routed).to.equal(n);
      const ids = r.slots.readSync();
      const rowWidth = want.width * r.k;
      want.bins.forEach((expected, b) => {
        const bx = b % want.width, by = Math.floor(b / want.width);
        const got: number[] = [];
        for (let slot = 0; slot < r.k * r.k; slot++) {
          const v = ids[(by * r.k + Math.floor(slot / r.k)) * rowWidth + bx * r.k + (slot % r.k)]!;
          if (v >= 0) got.push(v);
        }
        expectArrayEqual(got, expected, `bin ${b}`);
      });
      r.slots.dispose();
      pos.dispose();
    });
  }

  it('stencil routing detects a bin that overflows its k x k slots', async () => {
    const pos = ctx.stream('float4', 40, points('single', 40, 5));
    const r = await stencilRoute(ctx, pos, GRID, { capacity: 16 });
    expect(r.routed).to.equal(16);
    expect(r.overflow).to.equal(true);
    r.slots.dispose();
    pos.dispose();
  });

  it('packs slots taller than MAX_TEXTURE_SIZE into columns, and binItem finds them there', async () => {
    const tall: BinGrid = { cells: [2, 4096, 1], origin: [-1, -1, -1], cellSize: 0.05 };
    const n = 300;
    const data = points('clustered', n, 7);
    const pos = ctx.stream('float4', n, data);
    const want = reference.binReference(data, tall.cells, tall.origin, tall.cellSize);
    const bins = await binPoints(ctx, pos, tall, { capacity: 16 });
    expect(bins.capacity * bins.height, 'the slots need more rows than one texture has').to.be.greaterThan(ctx.caps.maxTextureSize);
    expect(bins.slotRows).to.equal(Math.floor(ctx.caps.maxTextureSize / 4096));
    const slots = bins.pack();
    expect([slots.layout.height, slots.layout.width]).to.deep.equal([bins.slotRows * 4096, Math.ceil(bins.capacity / bins.slotRows) * 2]);
    const keys = slots.readSync();
    want.bins.forEach((ids, b) => ids.forEach((id, s) => expect(packedKey(keys, bins, b, s) * 2 ** 24, `bin ${b} slot ${s}`).to.equal(id)));
    // each point finds itself among its bin's items: its rank there equals the CPU's
    const rank: KernelSpec = {
      name: 'RankInBin',
      inputs: { p: 'float4' },
      gathers: { binLoads: 'float', binSlots: 'float' },
      uniforms: BIN_UNIFORMS,
      outputs: { r: 'float' },
      helpers: BIN_QUERY_GLSL,
      body: 'ivec2 b = binPixelOf(binCell(p.xyz)); r = -1.0; for (int i = 0; i < binLoad(b); i++) if (binItem(b, i) == brook_index) r = float(i);',
    };
    const out = ctx.stream('float', n);
    ctx.run(rank, { p: pos, binLoads: bins.loads, binSlots: slots, ...binUniforms(bins, tall), r: out });
    const wantRank = new Float32Array(n);
    want.bins.forEach((ids) => ids.forEach((id, s) => (wantRank[id] = s)));
    expectArrayEqual(out.readSync(), wantRank, 'rank of each point in its bin');
    [pos, slots, out].forEach((x) => x.dispose());
    bins.dispose();
  });

  it('the GLSL queries walk the 27-neighbourhood: neighbour counts equal a brute-force CPU count', async () => {
    const n = 800;
    const data = points('uniform', n, 12);
    const pos = ctx.stream('float4', n, data);
    const bins = await binPoints(ctx, pos, GRID);
    const slots = bins.pack();
    // a radius no pair distance is within 1e-4 of, so float32 and float64 agree on every pair
    const d = (i: number, j: number) => Math.hypot(data[i * 4]! - data[j * 4]!, data[i * 4 + 1]! - data[j * 4 + 1]!, data[i * 4 + 2]! - data[j * 4 + 2]!);
    let r = 0.2;
    const near = () => { for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (Math.abs(d(i, j) - r) < 1e-4) return true; return false; };
    while (near()) r += 1e-3;
    const want = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j !== i && d(i, j) < r ? 1 : 0) as number).reduce((a, b) => a + b, 0));
    const neighbours: KernelSpec = {
      name: 'Neighbours',
      inputs: { p: 'float4' },
      gathers: { binLoads: 'float', binSlots: 'float', bodies: 'float4' },
      uniforms: { ...BIN_UNIFORMS, r: 'float' },
      outputs: { count: 'float' },
      helpers: BIN_QUERY_GLSL,
      body: [
        'ivec3 c = binCell(p.xyz);',
        'for (int k = 0; k < 27; k++) {',
        '  ivec2 b;',
        '  if (!binNeighbour(c, k, b)) continue;',
        '  for (int i = 0; i < binLoad(b); i++) {',
        '    int j = binItem(b, i);',
        '    if (j != brook_index && distance(bodies(j).xyz, p.xyz) < r) count += 1.0;',
        '  }',
        '}',
      ].join('\n'),
    };
    const out = ctx.stream('float', n);
    ctx.run(neighbours, { p: pos, binLoads: bins.loads, binSlots: slots, bodies: pos, r, ...binUniforms(bins, GRID), count: out });
    expectArrayEqual(out.readSync(), want, 'neighbours within r');
    [pos, slots, out].forEach((s) => s.dispose());
    bins.dispose();
  });
});
