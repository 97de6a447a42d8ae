/**
 * Argument checks of the binning entry points (before anything is allocated), and the count of
 * items with a NaN coordinate, which no bin takes (`stats.dropped`).
 */
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import type { Stream } from '../../core/stream';
import { runPass, type ShaderStage } from '../../core/pass';
import NAN_PROBE_VERT from '../../../glsl/idioms/binning/nan-probe.vert.glsl';
import NAN_PROBE_FRAG_GLSL from '../../../glsl/idioms/binning/nan-probe.frag.glsl';
import { checkInteger, checkNumber, checkOneOf, checkOwner, checkRequired, checkVector, describeValue } from '../../core/validate';
import { BINNING_METHODS, Bins, NAN_GLSL, ROUTING_METHODS, type BinGrid, type BinMapping, type BinningMethod } from './bins';
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

const NAN_PROBE: ShaderStage = { glsl: `${NAN_GLSL}\n${NAN_PROBE_VERT}`, gathers: { items: 'float4' } };
const NAN_PROBE_FRAG: ShaderStage = { glsl: NAN_PROBE_FRAG_GLSL };

const droppedFlag: KernelSpec = {
  name: 'BinDropped',
  inputs: { p: 'float4' },
  outputs: { nan: 'uint' },
  helpers: NAN_GLSL,
  body: 'nan = binNaN(p.xyz) ? 1u : 0u;',
};

/**
 * How many items have a NaN coordinate, for `stats.dropped`: first a probe, one pass drawing
 * the items with a NaN coordinate as points under an occlusion query, issued when the build
 * starts and answered without a readback; only when it says yes are they counted exactly (a
 * flag pass and a sum, read back). Counting every build cost 5 passes and a readback of its
 * own; the first form, collected while the build's passes were queued, made Chrome's
 * getBufferSubData wait behind them (a quarter of a 4,096-particle DEM step on SwiftShader),
 * and 'predicated' binning, which reads nothing back, gained a fence.
 */
export class DroppedCount {
  private readonly probe: Promise<boolean>;
  private value: Promise<number> | null = null;
  private answered: Promise<void> | null = null;
  private done = false;

  constructor(
    private readonly ctx: BrookContext,
    private readonly items: Stream,
  ) {
    const target = ctx.scratch('float', 1);
    try {
      this.probe = runPass(ctx, {
        name: 'BinNaNProbe',
        kind: 'probe',
        vertex: NAN_PROBE,
        fragment: NAN_PROBE_FRAG,
        primitive: 'points',
        count: items.length,
        targets: [target],
        colorWrite: false,
        gathers: { items },
        occlusion: true,
      })!;
    } finally {
      target.dispose(); // the pass is issued: the target may go back to the pool
    }
    this.probe.catch(() => {}); // (a build that fails first never asks)
  }

  /** Settles (never rejects) once the probe's query is answered or dropped (a failed build waits for it: nothing is left pending). */
  settled(): Promise<void> {
    this.answered ??= this.probe.then(
      () => void (this.done = true),
      () => void (this.done = true),
    );
    return this.answered;
  }

  /**
   * What a build awaits before it stalls on a survivor count (peel.ts; filter's readSync): null
   * once the probe has answered, else the probe's answer or one turn of the query poller,
   * whichever comes first (never rejects), after a flush of the passes issued so far. The count
   * read first and the probe polled after put the probe's poll turn in series after the stall
   * (the DEM step); now that turn comes while the GPU runs the filter's passes, and when the
   * answer is in by then nothing is polled after the stall. One turn at most: waiting for the
   * answer itself spun ~190 poll turns (and ~10 4-ms timer polls) a 4,096-particle DEM step on
   * SwiftShader, whose answer comes long after; the stalling read waits for the GPU anyway.
   */
  beforeCount(): Promise<void> | null {
    if (this.done) return null;
    this.ctx.gl.flush();
    return Promise.race([this.settled(), this.ctx.queries.turn()]);
  }

  /** The count: 0 when the probe saw no NaN, else counted now (after the build: items are unchanged). */
  read(): Promise<number> {
    this.value ??= this.probe.then((any) => (any ? countDropped(this.ctx, this.items) : 0));
    return this.value;
  }
}

/** How many items have a NaN coordinate, exactly (one pass and a reduction, read back without a stall). */
function countDropped(ctx: BrookContext, items: Stream): Promise<number> {
  const flags = ctx.scratch('uint', items.length);
  try {
    ctx.runInternal(droppedFlag, { p: items, nan: flags });
    return ctx.reduce(flags, 'sum').then((r) => r[0]!);
  } finally {
    flags.dispose(); // the reduction's passes are issued: the flags may go back to the pool
  }
}
