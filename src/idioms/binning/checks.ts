/**
 * Argument checks of the binning entry points (before anything is allocated), and the count of
 * items with a NaN coordinate, which no bin takes (`stats.dropped`).
 */
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernel';
import type { Stream } from '../../core/stream';
import { startRead, type PendingRead } from '../../core/streamread';
import { checkInteger, checkNumber, checkOneOf, checkOwner, checkRequired, checkVector, describeValue } from '../../core/validate';
import { BINNING_METHODS, Bins, ROUTING_METHODS, type BinGrid, type BinMapping, type BinningMethod } from './bins';
import type { BinningOptions } from './build';

const ALL_METHODS = [...BINNING_METHODS, ...ROUTING_METHODS];

/** A grid's cells, origin and cell size, checked before anything is allocated. */
export function checkGrid(grid: BinGrid, where: string): void {
  checkRequired(grid, `${where}: grid`, '{ cells: [gx, gy, gz], origin: [x, y, z], cellSize }');
  check(
    Array.isArray(grid.cells) && grid.cells.length === 3 && grid.cells.every((c) => Number.isInteger(c) && c >= 1),
    () => `${where}: grid.cells must be three positive integers [gx, gy, gz], got ${describeValue(grid.cells)}${Array.isArray(grid.cells) ? ` ${JSON.stringify(grid.cells)}` : ''}`,
  );
  checkVector(grid.origin, 3, `${where}: grid.origin`);
  checkNumber(grid.cellSize, `${where}: grid.cellSize`);
  check(
    Math.fround(grid.cellSize) > 0 && Number.isFinite(Math.fround(1 / grid.cellSize)),
    () => `${where}: grid.cellSize must be positive with a finite float32 inverse, got ${grid.cellSize}`,
  );
}

export function checkMethod(method: BinningMethod, mode: BinMapping['mode']): void {
  check(ALL_METHODS.includes(method), () => `binning: unknown method '${String(method)}': use ${ALL_METHODS.join(', ')} (options.method)`);
  check(ROUTING_METHODS.includes(method) === false || mode === 'spatial', () => `binning: '${method}' (stencil routing) needs the items drawn in key order, which holds for spatial binning (key = id) but not for bucket sort's values; use a binning method such as 'delayed'`);
}

export function checkBinningOptions(ctx: BrookContext, o: BinningOptions): void {
  if (o.capacity !== undefined) checkInteger(o.capacity, 'binning: options.capacity', 1);
  if (o.inFlight !== undefined) checkInteger(o.inFlight, 'binning: options.inFlight', 1);
  if (o.reduction !== undefined) checkOneOf(o.reduction, ['pyramid', 'scatter'], 'binning: options.reduction');
  if (o.into !== undefined) {
    check(o.into instanceof Bins, () => `binning: options.into must be the Bins of an earlier call, got ${describeValue(o.into)}`);
    checkOwner(ctx, o.into.loads.ctx, 'binning: options.into', 'bin structure');
  }
}

const droppedFlag: KernelSpec = {
  name: 'BinDropped',
  inputs: { p: 'float4' },
  outputs: { nan: 'uint' },
  body: 'nan = any(greaterThan(floatBitsToUint(p.xyz) & 0x7fffffffu, uvec3(0x7f800000u))) ? 1u : 0u;',
};

/**
 * How many items have a NaN coordinate: a flag pass, a sum and the copy of the sum into a
 * pixel-pack buffer when made, collected when asked. A build asks once its own passes are
 * done, so the collect waits for nothing and the count costs no round trip of its own. (Read
 * as soon as its fence signalled, Chrome's getBufferSubData waited behind the build's queued
 * passes: a quarter of a 4,096-particle DEM step on SwiftShader; read after the build, the
 * extra fence round trip cost as much.)
 */
export class DroppedCount {
  private readonly pending: PendingRead;
  private value: Promise<number> | null = null;

  constructor(ctx: BrookContext, items: Stream) {
    const flags = ctx.scratch('uint', items.length);
    let sum: Stream | null = null;
    try {
      ctx.run(droppedFlag, { p: items, nan: flags });
      sum = ctx.reduceToStream(flags, 'sum');
      this.pending = startRead(sum, {});
    } finally {
      flags.dispose(); // the passes and the copy are issued: the streams may go back to the pool
      sum?.dispose();
    }
  }

  /** The count (collected once). */
  read(): Promise<number> {
    this.value ??= this.pending.done.then(() => this.pending.collect()[0]!).finally(() => this.pending.dispose());
    return this.value;
  }

  /** Releases the buffer unread (a build that failed). */
  dispose(): void {
    this.pending.dispose();
  }
}

/** How many items have a NaN coordinate (one pass and a reduction, read back without a stall). */
export function countDropped(ctx: BrookContext, items: Stream): Promise<number> {
  return new DroppedCount(ctx, items).read();
}
