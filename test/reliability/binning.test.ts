// binPoints with far, infinite and NaN positions, and bad grids: the documented rule (nearest
// cell for far and infinite points, no bin for NaN ones, counted) against the CPU reference, and
// BrookErrors that leave nothing allocated.
import { expect } from 'chai';
import { BINNING_METHODS, BinGrid, Bins, BrookContext, ROUTING_METHODS, binPoints, bucketSort, createContext, reference, stencilRoute } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';
import { refuses } from './util';

const GRID: BinGrid = { cells: [4, 4, 3], origin: [0, 0, 0], cellSize: 0.25 };

/** 64 points: ordinary ones, far ones (1e10, -1e30), infinite ones and NaN ones. */
function hostile(seed: number): Float32Array {
  const r = rng(seed);
  const specials = [1e10, -1e10, 1e30, -1e30, Infinity, -Infinity, NaN];
  const v = new Float32Array(64 * 4);
  for (let i = 0; i < 64; i++) {
    const p = [r(), r(), r() * 0.75];
    if (i % 3 === 1) p[Math.floor(r() * 3)] = specials[Math.floor(r() * specials.length)]!;
    if (i % 11 === 5) p[0] = NaN;
    v.set([...p, 1], i * 4);
  }
  return v;
}

function binsOf(bins: Bins, keys: ArrayLike<number>, loads: ArrayLike<number>): number[][] {
  const columns = Math.ceil(bins.capacity / bins.slotRows);
  return Array.from({ length: bins.width * bins.height }, (_, b) =>
    Array.from({ length: loads[b]! }, (_, s) => {
      const x = Math.floor(s / bins.slotRows) * bins.width + (b % bins.width);
      const y = (s % bins.slotRows) * bins.height + Math.floor(b / bins.width);
      return keys[y * columns * bins.width + x]! * 2 ** 24;
    }),
  );
}

describe('reliability/binning: far, infinite and NaN positions, bad grids', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const data = hostile(15);
  const nans = Array.from({ length: 64 }, (_, i) => i).filter((i) => [0, 1, 2].some((k) => Number.isNaN(data[i * 4 + k]))).length;

  for (const method of [...BINNING_METHODS, ...ROUTING_METHODS]) {
    it(`${method}: far and infinite points in the nearest cell, NaN points in none (counted), as the CPU reference`, async () => {
      const pos = ctx.stream('float4', 64, data);
      const want = reference.binReference(data, GRID.cells, GRID.origin, GRID.cellSize);
      const bins = await binPoints(ctx, pos, GRID, { capacity: 4, method });
      const loads = bins.loads.readSync();
      const slots = bins.pack();
      const got = binsOf(bins, slots.readSync(), loads);
      want.bins.forEach((ids, b) => expectArrayEqual(got[b]!, ids, `bin ${b}`));
      expect(nans).to.be.greaterThan(0);
      expect(bins.stats.dropped).to.equal(nans);
      expect(want.bins.flat().length).to.equal(64 - nans);
      slots.dispose();
      pos.dispose();
      bins.dispose();
    });
  }

  it('stencilRoute: NaN points are not counted as an overflow', async () => {
    const pos = ctx.stream('float4', 64, data);
    const r = await stencilRoute(ctx, pos, GRID, { capacity: 64 });
    expect(r.dropped).to.equal(nans);
    expect(r.routed).to.equal(64 - nans);
    expect(r.overflow).to.equal(false);
    r.slots.dispose();
    pos.dispose();
  });

  it('refuses bad grids, options and streams before allocating anything', async () => {
    const pos = ctx.stream('float4', 16, new Float32Array(64));
    const other = createContext();
    const foreign = other.stream('float4', 16);
    const flt = ctx.stream('float', 4);
    const g = GRID;
    const cases: Array<[() => unknown, RegExp]> = [
      [() => binPoints(ctx, pos, undefined as never), /binPoints: grid is missing: pass \{ cells/],
      [() => binPoints(ctx, pos, {} as never), /binPoints: grid.cells must be three positive integers .* got undefined/],
      [() => binPoints(ctx, pos, { ...g, cells: [4, 4] as never }), /grid.cells must be three positive integers/],
      [() => binPoints(ctx, pos, { ...g, cells: [4, 4, 2.5] }), /grid.cells/],
      [() => binPoints(ctx, pos, { ...g, origin: undefined as never }), /binPoints: grid.origin must be 3 finite numbers .* got undefined/],
      [() => binPoints(ctx, pos, { ...g, origin: [NaN, 0, 0] }), /binPoints: grid.origin\[0\] must be a finite number, got number NaN/],
      [() => binPoints(ctx, pos, { ...g, origin: [0, Infinity, 0] }), /grid.origin\[1\] must be a finite number/],
      [() => binPoints(ctx, pos, { ...g, cellSize: 0 }), /grid.cellSize must be positive/],
      [() => binPoints(ctx, pos, { ...g, cellSize: 1e-300 }), /grid.cellSize must be positive with a finite float32 inverse/],
      [() => binPoints(ctx, pos, { ...g, cellSize: NaN }), /grid.cellSize must be a finite number/],
      [() => binPoints(ctx, pos, g, { capacity: 0 }), /options.capacity must be positive/],
      [() => binPoints(ctx, pos, g, { method: 'fast' as never }), /binning: unknown method 'fast': use .* \(options.method\)/],
      [() => binPoints(ctx, pos, g, { reduction: 'x' as never }), /options.reduction must be one of/],
      [() => binPoints(ctx, pos, g, { into: {} as never }), /options.into must be the Bins of an earlier call/],
      [() => binPoints(ctx, pos, g, null as never), /binning: options must be an object/],
      [() => binPoints(ctx, foreign, g), /binPoints: positions.*another brookgl context/],
      [() => binPoints(ctx, flt, g), /binPoints: positions: expected a float4 stream, got a float stream/],
      [() => stencilRoute(ctx, pos, { ...g, origin: [0, NaN, 0] }), /stencilRoute: grid.origin\[1\]/],
      [() => stencilRoute(ctx, pos, g, { capacity: -1 }), /stencilRoute: options.capacity/],
      [() => bucketSort(ctx, pos), /bucketSort: keys: expected a float stream/],
      [() => bucketSort(ctx, flt, { bins: NaN }), /bucketSort: options.bins must be an integer/],
    ];
    for (const [fn, pattern] of cases) await refuses(ctx, fn, pattern);
    pos.dispose();
    flt.dispose();
    await refuses(ctx, () => binPoints(ctx, pos, g), /binPoints: positions: the float4 stream of 16 records was disposed/);
    other.dispose();
  });

  it('a bad origin or a disposed stream leaves no texture, framebuffer or renderbuffer', async () => {
    const pos = ctx.stream('float4', 16, new Float32Array(64));
    await refuses(ctx, () => binPoints(ctx, pos, { ...GRID, origin: [NaN, 0, 0] }), /grid.origin\[0\]/);
    await refuses(ctx, () => binPoints(ctx, pos, { ...GRID, origin: 'x' as never }), /grid.origin must be 3 finite numbers/);
    pos.dispose();
    await refuses(ctx, () => binPoints(ctx, pos, GRID, { method: 'stencil' }), /was disposed/);
  });
});
