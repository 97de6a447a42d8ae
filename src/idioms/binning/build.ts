/**
 * Building a bin structure: `binItems` / `binPoints` check the arguments, pick or reuse the
 * structure, run depth peeling (peel.ts) or stencil routing (routing.ts), and rebuild with a
 * doubled capacity on overflow (section 3.3) up to the device's array layers, else a
 * BrookError: no item is lost silently.
 */
import type { BrookContext } from '../../core/context';
import { BrookError, check } from '../../core/errors';
import { defaultInFlight } from '../../core/queries';
import { Stream } from '../../core/stream';
import { Bins, ROUTING_METHODS, binLayout, valueLayout, type BinGrid, type BinMapping, type BinningMethod, type SliceStorage } from './bins';
import { DroppedCount, checkBinningOptions, checkGrid, checkMethod } from './checks';
import { peelOnce } from './peel';
import { checkContext, checkOptions, checkStream } from '../../core/validate';
import { routeOnce } from './routing';

export interface BinningOptions {
  /** Slots per bin to start with (grown on overflow). Default 8. */
  capacity?: number;
  /**
   * Default 'delayed' (reduction after the expected bin load, the paper's best). 'stencil' and
   * 'stencil-predicated' route instead (spatial binning only: they need items in key order).
   */
  method?: BinningMethod;
  /**
   * Occlusion queries unanswered at most, for 'predicated' and 'stencil-predicated': more
   * means fewer stalls on the CPU round trip and more passes drawn past the end. Default 8 on
   * a GPU, 2 on a software renderer (the best of 1, 2, 4, 8 measured on each: bench 'binning').
   */
  inFlight?: number;
  /**
   * How 'reduced' and 'delayed' compact the working set, as `filter` methods: 'pyramid'
   * (default; each survivor gathers its id by descending a histogram pyramid) or 'scatter' (an
   * exclusive scan of the survivor flags, then a POINTS draw in which each survivor's vertex
   * shader scatters its id to its rank).
   */
  reduction?: 'pyramid' | 'scatter';
  /**
   * A structure from an earlier call to rebuild in place (a simulation binning every step):
   * its textures are reused when the layout matches and its capacity suffices, else it is
   * disposed and a new one made. Always keep the returned Bins.
   */
  into?: Bins;
}

/** Bins the items of `items` (float4: xyz position, or the integer value in x) by `mapping`. */
export async function binItems(ctx: BrookContext, items: Stream, mapping: BinMapping, options: BinningOptions = {}): Promise<Bins> {
  checkContext(ctx, 'binning');
  checkStream(ctx, items, 'binning: items (positions)', ['float4']);
  check(items.layout.dims === 1, () => 'binning: items must be a 1D float4 stream (xyz position, or the value in x)');
  options = checkOptions(options, 'binning: options');
  checkBinningOptions(ctx, options);
  check(items.length < 2 ** 24, () => `binning: at most 2^24 - 1 items (keys are ids / 2^24), got ${items.length}`);
  const method = options.method ?? 'delayed';
  checkMethod(method, mapping.mode);
  const routing = ROUTING_METHODS.includes(method);
  const storage: SliceStorage = routing ? 'color' : 'depth';
  let capacity = options.capacity ?? 8;
  check(Number.isInteger(capacity) && capacity >= 1, () => `binning: capacity must be a positive integer, got ${capacity}`);
  const layers = ctx.caps.maxArrayTextureLayers;
  const maxCapacity = storage === 'depth' ? 2 * layers : layers;
  const inFlight = options.inFlight ?? defaultInFlight(ctx);
  check(Number.isInteger(inFlight) && inFlight >= 1, () => `binning: inFlight must be a positive integer, got ${inFlight}`);
  const { width, height } = mapping.mode === 'spatial' ? binLayout(mapping.grid!.cells) : valueLayout(mapping.bins!, ctx.caps.maxTextureSize);
  check(width <= ctx.caps.maxTextureSize && height <= ctx.caps.maxTextureSize, () => `binning: the bin layout ${width}x${height} exceeds MAX_TEXTURE_SIZE ${ctx.caps.maxTextureSize}`);
  let reuse = options.into && !options.into.disposed ? options.into : null;
  if (reuse && (reuse.width !== width || reuse.height !== height || reuse.capacity < capacity || reuse.storage !== storage)) {
    reuse.dispose();
    reuse = null;
  }
  let overflows = 0;
  // points with a NaN coordinate are in no bin: probed now, counted at the end if there are any
  const dropped = mapping.mode === 'spatial' ? new DroppedCount(ctx, items) : null;
  const droppedCount = () => dropped?.read() ?? Promise.resolve(0);
  for (;;) {
    const made = !reuse;
    const bins = reuse ?? new Bins(ctx, width, height, Math.min(capacity, maxCapacity), storage);
    reuse = null;
    capacity = bins.capacity;
    let overflow: boolean;
    try {
      overflow = routing
        ? await routeOnce(ctx, bins, items, mapping, method === 'stencil-predicated', inFlight, droppedCount)
        : await peelOnce(ctx, bins, items, mapping, method, inFlight, options.reduction ?? 'pyramid', dropped && (() => dropped.beforeCount()));
    } catch (e) {
      if (made) bins.dispose(); // a failed build releases what it took
      await dropped?.settled();
      throw e;
    }
    if (!overflow) {
      bins.stats.overflows = overflows;
      try {
        bins.stats.dropped = await droppedCount();
      } catch (e) {
        if (made) bins.dispose();
        throw e;
      }
      return bins;
    }
    bins.dispose();
    if (capacity >= maxCapacity) {
      await dropped?.settled();
      throw new BrookError(`binning overflow: some bin holds more than ${maxCapacity} items, the most this device's ${layers} array layers allow; use more (smaller) bins`);
    }
    capacity *= 2;
    overflows++;
  }
}

/**
 * Spatial binning of float4 positions into `grid`'s cells. Points outside the grid go to the
 * nearest cell (infinite coordinates too); points with a NaN coordinate go to none
 * (`bins.stats.dropped` counts them).
 */
export async function binPoints(ctx: BrookContext, positions: Stream, grid: BinGrid, options: BinningOptions = {}): Promise<Bins> {
  checkContext(ctx, 'binPoints');
  checkStream(ctx, positions, 'binPoints: positions', ['float4']);
  checkGrid(grid, 'binPoints');
  return binItems(ctx, positions, { mode: 'spatial', grid }, options);
}
