/**
 * Depth-peeled spatial binning (Oat, Barczak & Shopf, "Efficient Spatial Binning on the GPU",
 * AMD 2009) on WebGL2.
 *
 * ```ts
 * const grid = { cells: [64, 64, 64], origin: [0, 0, 0], cellSize: 1 / 64 };
 * const bins = await binPoints(ctx, positions, grid, { capacity: 8, method: 'delayed' });
 * bins.loads;            // float stream [H, W]: items per bin (the bin counter)
 * bins.pack();           // float stream [capacity * H, W]: slot i of bin (x, y) at row i*H + y, key = id / 2^24 (1.0 empty)
 *                        // (in columns of bins.slotRows slots where capacity * H > MAX_TEXTURE_SIZE)
 * ```
 *
 * The structure (section 3): one bin per texel of an H x W layout (a flat 3D texture for 3D
 * grids), `capacity` depth slices holding each bin's keys in ascending order, and a colour
 * buffer counting the items per bin. Pass i renders the working set as points; the vertex
 * shader puts each item on its bin's texel at depth = key and rejects (clips) it when its key
 * is not greater than slice i-1 at that bin (the dual-depth test); the depth test LESS into
 * slice i keeps the smallest remaining key; the fragment shader writes i+1 into the counter.
 *
 * WebGL2 differences from the paper's Direct3D 10, and what they cost:
 * - A depth-array layer cannot be sampled while another layer of the same texture is the depth
 *   attachment (a feedback loop), so even slices live in one array and odd slices in another.
 * - No predicated rendering: 'predicated' keeps an occlusion query per pass (samples that pass
 *   = items binned) and stops at the first pass that binned nothing. D3D10's predicate skips the
 *   passes after the end on the GPU with no CPU involvement; here every answer is a round trip
 *   to the CPU (~1.7 ms on an H100), so either the CPU waits for answers (with 2 queries in
 *   flight, predicated binning of 2^20 points into 32³ took 129 ms where the naive method's 67
 *   passes took 62.5 ms) or up to `inFlight` passes run past the end (each an all-rejected draw of
 *   the working set; with 8 in flight, 60 ms). Predication only pays where the capacity is well
 *   above the fullest bin.
 * - No geometry shaders or DrawAuto: 'reduced' and 'delayed' remove binned items between passes
 *   with `filter` (histogram pyramid) over the working-set ids, which reads the survivor count
 *   back (one fence per reduction) to size the next draw.
 * - Overflow (3.3): after the last slice, the items whose key is above that slice's value were
 *   not binned; if any are, the structure is rebuilt with twice the capacity (`overflows`
 *   counts the retries) up to the device's array layers, else a BrookError. No item is lost
 *   silently.
 *
 * The paper's comparator, stencil routing as it describes it (section 2; Harada 2007), builds the
 * same structure with methods 'stencil' and 'stencil-predicated': pass i draws every item (no
 * working set to shrink) into colour slice i with the stencil test admitting one write per bin
 * (cleared to 0, EQUAL 0, INCR when both tests pass) and the depth test GREATER against the key
 * routed by the pass before (depth writes on, one depth-stencil buffer for all passes). Items
 * are drawn in id order, which is key order, so the first item to pass is the next smallest
 * key: the sorted input stencil routing needs, and why it cannot bucket-sort by value. 'stencil'
 * runs `capacity` passes; 'stencil-predicated' adds the paper's occlusion-query early exit.
 * `stencilRoute` is the one-draw form (Purcell et al. 2003): k x k slots per bin, one draw.
 */
import * as twgl from 'twgl.js';
import BINNING from '../../glsl/idioms/binning.glsl';
import BINNING_QUERY from '../../glsl/idioms/binning-query.glsl';
import type { BrookContext } from '../core/context';
import { BrookError, check } from '../core/errors';
import type { KernelSpec } from '../core/kernel';
import { Stream } from '../core/stream';
import { checkContext, checkInteger, checkNumber, checkOneOf, checkOptions, checkOwner, checkRequired, checkStream, checkVector, describeValue } from '../core/validate';
import { filter } from './filter';
import { scan } from './scan';

export interface BinGrid {
  /** Cells along x, y, z (z = 1 for a 2D grid). */
  cells: [number, number, number];
  /** Corner of cell (0, 0, 0). */
  origin: [number, number, number];
  /** Edge length of a cell (points outside the grid go to the nearest cell). */
  cellSize: number;
}

export type BinningMethod = 'naive' | 'predicated' | 'reduced' | 'delayed' | 'stencil' | 'stencil-predicated';
/** Depth-peeled binning, from the paper's plain method to its best (Figure 5). */
export const BINNING_METHODS: readonly BinningMethod[] = ['naive', 'predicated', 'reduced', 'delayed'];
/** Stencil routing, the paper's comparator, without and with predicated iteration (Figure 6). */
export const ROUTING_METHODS: readonly BinningMethod[] = ['stencil', 'stencil-predicated'];
const ALL_METHODS = [...BINNING_METHODS, ...ROUTING_METHODS];

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
   * How 'reduced' and 'delayed' compact the working set: 'pyramid' (default; `filter`, each
   * survivor gathers its id by descending a histogram pyramid) or 'scatter' (an exclusive scan
   * of the survivor flags, then a POINTS draw in which each survivor's vertex shader scatters its
   * id to its rank). WebGL2 has no geometry shader, so transform feedback alone cannot drop
   * vertices: it would still need one of these.
   */
  reduction?: 'pyramid' | 'scatter';
  /**
   * A structure from an earlier call to rebuild in place (a simulation binning every step):
   * its textures are reused when the layout matches and its capacity suffices, else it is
   * disposed and a new one made. Always keep the returned Bins.
   */
  into?: Bins;
}

/** The flat-3D layout of a grid: tiles of gx x gy, one per z slice, bin_tilesX per row. */
export function binLayout(cells: readonly number[]): { width: number; height: number; tilesX: number } {
  const [gx, gy, gz] = cells as [number, number, number];
  const tilesX = Math.ceil(Math.sqrt(gz));
  return { width: gx * tilesX, height: gy * Math.ceil(gz / tilesX), tilesX };
}

const VERTEX = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp sampler2DArray;
${BINNING}
uniform sampler2D items;
uniform int itemsLogW;
uniform sampler2D working;
uniform int workingLogW;
uniform bool reduced;
uniform bool first;
uniform sampler2DArray previous;
uniform int previousLayer;
void main() {
  int id = gl_VertexID;
  if (reduced) id = int(texelFetch(working, ivec2(gl_VertexID & ((1 << workingLogW) - 1), gl_VertexID >> workingLogW), 0).x);
  vec4 item = texelFetch(items, ivec2(id & ((1 << itemsLogW) - 1), id >> itemsLogW), 0);
  ivec2 pixel = binPixel(item);
  float key = binKey(item, id);
  float z = key * 2.0 - 1.0;
  // the dual-depth test: only keys above the previous slice's may land in this one
  if (!first && key <= texelFetch(previous, ivec3(pixel, previousLayer), 0).r) z = 2.0;
  if (!binValid(item)) z = 2.0; // a NaN position: in no bin
  gl_Position = vec4((vec2(pixel) + 0.5) / vec2(bin_size) * 2.0 - 1.0, z, 1.0);
  gl_PointSize = 1.0;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
uniform float passNumber;
out vec4 load;
void main() { load = vec4(passNumber); }`;

/** Copies one depth slice into a float colour texture (so kernels and readbacks can use it). */
const SLICE_FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler2DArray;
uniform sampler2DArray slices;
uniform int layer;
uniform ivec2 offset;
out vec4 key;
void main() { key = vec4(texelFetch(slices, ivec3(ivec2(gl_FragCoord.xy) - offset, layer), 0).r); }`;

/** The uniforms of glsl/idioms/binning.glsl. */
const MAPPING_UNIFORMS = {
  bin_mode: 'int',
  bin_origin: 'float3',
  bin_invCell: 'float3',
  bin_grid: 'int3',
  bin_tilesX: 'int',
  bin_size: 'int2',
  bin_shift: 'int',
} as const;

/** The uniforms of BIN_QUERY_GLSL, for kernels that include it (values: binUniforms). */
export const BIN_UNIFORMS = { ...MAPPING_UNIFORMS, bin_slotRows: 'int' } as const;

/**
 * GLSL for kernels that query a bin structure: the binning helpers (uniforms declared by the
 * kernel: BIN_UNIFORMS) and binLoad / binItem / binCell / binNeighbour (the 27-neighbourhood)
 * over gathers `binLoads` (bins.loads) and `binSlots` (bins.pack()). Put it in `helpers`.
 */
export const BIN_QUERY_GLSL = `${BINNING.replace(/^uniform .*$/gm, '')}\n${BINNING_QUERY}`;

/** The uniform values of a spatial grid for kernels using BIN_QUERY_GLSL. */
export function binUniforms(bins: Bins, grid: BinGrid): Record<string, number | number[]> {
  return { ...mappingUniforms({ mode: 'spatial', grid }, bins.width, bins.height), bin_slotRows: bins.slotRows } as Record<string, number | number[]>;
}

/** Items not yet binned after a slice: key above that slice's value at the item's bin. */
function survivorKernel(reduced: boolean): KernelSpec {
  return {
    name: `BinSurvivors<${reduced ? 'working set' : 'all'}>`,
    ...(reduced ? { inputs: { w: 'float2' as const } } : {}),
    gathers: { items: 'float4', slice: 'float' },
    uniforms: MAPPING_UNIFORMS,
    outputs: { rec: 'float2' },
    helpers: BINNING.replace(/^uniform .*$/gm, ''),
    body: [
      reduced ? 'int id = int(w.x);' : 'int id = brook_index;',
      'vec4 item = items(id);',
      'ivec2 px = binPixel(item);',
      'rec = vec2(float(id), binValid(item) && binKey(item, id) > slice(px) ? 1.0 : 0.0);',
    ].join('\n'),
  };
}
const SURVIVORS = { all: survivorKernel(false), working: survivorKernel(true) };

/** Where the items go: spatial cells, or (bucket sort) value ranges. */
export interface BinMapping {
  mode: 'spatial' | 'value';
  grid?: BinGrid;
  /** value mode: number of bins, a power of two up to 2^24. */
  bins?: number;
}

export interface BinningStats {
  method: BinningMethod;
  /** Binning passes drawn (including ones past the end while queries were pending). */
  passes: number;
  /** Working-set reductions run (each reads its survivor count back). */
  reductions: number;
  /** Rebuilds with a doubled capacity after an overflow. */
  overflows: number;
  /** Items left out because a coordinate is NaN (spatial binning: they have no cell). */
  dropped: number;
}

/**
 * How a structure stores its slices: 'depth' (binning: the keys are the depth attachments, even
 * and odd slices in two arrays) or 'color' (stencil routing: one R32F array written as colour,
 * plus the one depth-stencil buffer all passes share).
 */
type SliceStorage = 'depth' | 'color';


/** A built bin structure; owns its textures (dispose()). */
export class Bins {
  readonly width: number;
  readonly height: number;
  readonly capacity: number;
  /**
   * Slots stacked in one column of `pack()`'s stream: all of them when capacity x height fits
   * MAX_TEXTURE_SIZE, else as many as fit, further slots in columns to the right.
   */
  readonly slotRows: number;
  /** Items per bin (float [height, width]). */
  readonly loads: Stream;
  stats!: BinningStats;
  private arrays: WebGLTexture[];
  /** @internal The depth-stencil buffer of 'color' storage (stencil routing). */
  readonly depthStencil: WebGLRenderbuffer | null = null;
  private fbo: WebGLFramebuffer;
  private isDisposed = false;

  /** @internal */
  constructor(
    private readonly ctx: BrookContext,
    width: number,
    height: number,
    capacity: number,
    readonly storage: SliceStorage = 'depth',
  ) {
    const gl = ctx.gl;
    this.width = width;
    this.height = height;
    this.capacity = capacity;
    this.slotRows = Math.max(1, Math.min(capacity, Math.floor(ctx.caps.maxTextureSize / height)));
    this.loads = ctx.stream('float', [height, width]);
    if (storage === 'depth') {
      this.arrays = [0, 1].map(() => ctx.resources.textureArray(width, height, Math.max(Math.ceil(capacity / 2), 1), gl.DEPTH_COMPONENT32F, 4));
    } else {
      this.arrays = [ctx.resources.textureArray(width, height, capacity, gl.R32F, 4)];
      this.depthStencil = ctx.resources.renderbuffer(width, height, gl.DEPTH32F_STENCIL8, 8);
    }
    this.fbo = ctx.resources.framebuffer();
  }

  /** @internal The array and layer of slice i. */
  slot(i: number): [WebGLTexture, number] {
    return this.storage === 'depth' ? [this.arrays[i % 2]!, i >> 1] : [this.arrays[0]!, i];
  }

  /** @internal */
  get framebuffer(): WebGLFramebuffer {
    return this.fbo;
  }

  /** Copies slice i into `out` (float [height, width], or at texel [x, y] of a larger stream): 1.0 where empty. */
  copySlice(i: number, out: Stream, [x, y] = [0, 0]): void {
    const gl = this.ctx.gl;
    const [tex, layer] = this.slot(i);
    const { info } = this.ctx.rawProgram(null, SLICE_FRAGMENT, 'bin slice copy');
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.ctx.framebufferFor([out.texture]));
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.viewport(x, y, this.width, this.height);
    gl.useProgram(info.program);
    twgl.setUniforms(info, { slices: tex, layer, offset: [x, y] });
    gl.bindVertexArray(this.ctx.passVertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /**
   * All slots as one stream of keys (1.0 = empty): slot i of bin (x, y) at row
   * (i % slotRows) * height + y, column floor(i / slotRows) * width + x — with every slot in one
   * column (slotRows = capacity) unless that is taller than MAX_TEXTURE_SIZE. Kernels gather
   * from it (glsl/idioms/binning-query.glsl).
   */
  pack(): Stream {
    const columns = Math.ceil(this.capacity / this.slotRows);
    const max = this.ctx.caps.maxTextureSize;
    check(columns * this.width <= max, () => `bins: ${this.capacity} slots of ${this.width}x${this.height} bins do not fit one ${max}x${max} texture; read slices one by one with copySlice`);
    const out = this.ctx.scratch('float', [this.slotRows * this.height, columns * this.width]); // pooled: a simulation packs every step
    for (let i = 0; i < this.capacity; i++) this.copySlice(i, out, [Math.floor(i / this.slotRows) * this.width, (i % this.slotRows) * this.height]);
    return out;
  }

  get disposed(): boolean {
    return this.isDisposed;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.loads.dispose();
    const r = this.ctx.resources;
    for (const obj of [...this.arrays, this.depthStencil, this.fbo]) if (obj && r.owns(obj)) r.release(obj);
  }
}

/** The binning uniforms (glsl/idioms/binning.glsl) of `mapping` for a layout of width x height bins. */
function mappingUniforms(mapping: BinMapping, width: number, height: number): Record<string, unknown> {
  if (mapping.mode === 'spatial') {
    const g = mapping.grid!;
    const { tilesX } = binLayout(g.cells);
    return { bin_mode: 0, bin_origin: g.origin, bin_invCell: [1 / g.cellSize, 1 / g.cellSize, 1 / g.cellSize], bin_grid: g.cells, bin_tilesX: tilesX, bin_size: [width, height], bin_shift: 0 };
  }
  return { bin_mode: 1, bin_origin: [0, 0, 0], bin_invCell: [1, 1, 1], bin_grid: [1, 1, 1], bin_tilesX: 1, bin_size: [width, height], bin_shift: 24 - Math.log2(mapping.bins!) };
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
  const layers = ctx.gl.getParameter(ctx.gl.MAX_ARRAY_TEXTURE_LAYERS) as number;
  const maxCapacity = storage === 'depth' ? 2 * layers : layers;
  const inFlight = options.inFlight ?? (ctx.caps.software ? 2 : 8);
  check(Number.isInteger(inFlight) && inFlight >= 1, () => `binning: inFlight must be a positive integer, got ${inFlight}`);
  const { width, height } = mapping.mode === 'spatial' ? binLayout(mapping.grid!.cells) : valueLayout(mapping.bins!, ctx.caps.maxTextureSize);
  check(width <= ctx.caps.maxTextureSize && height <= ctx.caps.maxTextureSize, () => `binning: the bin layout ${width}x${height} exceeds MAX_TEXTURE_SIZE ${ctx.caps.maxTextureSize}`);
  let reuse = options.into && !options.into.disposed ? options.into : null;
  if (reuse && (reuse.width !== width || reuse.height !== height || reuse.capacity < capacity || reuse.storage !== storage)) {
    reuse.dispose();
    reuse = null;
  }
  let overflows = 0;
  // points with a NaN coordinate are in no bin: counted alongside the build (read back at its end)
  const dropped = mapping.mode === 'spatial' ? countDropped(ctx, items) : Promise.resolve(0);
  dropped.catch(() => {}); // (awaited below; a build that fails first must not leave it unhandled)
  for (;;) {
    const made = !reuse;
    const bins = reuse ?? new Bins(ctx, width, height, Math.min(capacity, maxCapacity), storage);
    reuse = null;
    capacity = bins.capacity;
    let overflow: boolean;
    try {
      overflow = routing
        ? await routeOnce(ctx, bins, items, mapping, method === 'stencil-predicated', inFlight, dropped)
        : await binOnce(ctx, bins, items, mapping, method, inFlight, options.reduction ?? 'pyramid');
    } catch (e) {
      if (made) bins.dispose(); // a failed build releases what it took
      await dropped.catch(() => {});
      throw e;
    }
    if (!overflow) {
      bins.stats.overflows = overflows;
      bins.stats.dropped = await dropped;
      return bins;
    }
    bins.dispose();
    if (capacity >= maxCapacity) {
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

/** A grid's cells, origin and cell size, checked before anything is allocated. */
function checkGrid(grid: BinGrid, where: string): void {
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

function checkMethod(method: BinningMethod, mode: BinMapping['mode']): void {
  check(ALL_METHODS.includes(method), () => `binning: unknown method '${String(method)}': use ${ALL_METHODS.join(', ')} (options.method)`);
  check(ROUTING_METHODS.includes(method) === false || mode === 'spatial', () => `binning: '${method}' (stencil routing) needs the items drawn in key order, which holds for spatial binning (key = id) but not for bucket sort's values; use a binning method such as 'delayed'`);
}

function checkBinningOptions(ctx: BrookContext, o: BinningOptions): void {
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

/** How many items have a NaN coordinate (one pass and a reduction, read back without a stall). */
function countDropped(ctx: BrookContext, items: Stream): Promise<number> {
  const flags = ctx.scratch('uint', items.length);
  try {
    ctx.run(droppedFlag, { p: items, nan: flags });
    return ctx.reduce(flags, 'sum').then((r) => r[0]!);
  } finally {
    flags.dispose(); // the reduction's passes are issued: the flags may go back to the pool
  }
}

/**
 * Predicated iteration without predicated rendering: an occlusion query around each pass, at
 * most `inFlight` of them unanswered; `done` once some pass is known to have drawn nothing.
 * Waits are on the answers themselves (the query poller), not on timers: a setTimeout loop
 * would cost Chrome's 4 ms nested-timer clamp per wait.
 */
class PassPredicate {
  private readonly pending = new Set<Promise<void>>();
  done = false;
  constructor(
    private readonly ctx: BrookContext,
    private readonly inFlight: number,
  ) {}

  draw(draw: () => void): void {
    const answer: Promise<void> = this.ctx.queries
      .occlusion(draw)
      .then((any) => void (this.done ||= !any), () => {}) // a failed query stops nothing; the next call reports a lost context
      .then(() => void this.pending.delete(answer));
    this.pending.add(answer);
  }

  /** Waits until fewer than inFlight passes are unanswered. */
  async throttle(): Promise<void> {
    while (this.pending.size >= this.inFlight) await Promise.race(this.pending);
  }

  /** Waits for every answer. */
  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** One build into `bins` at its capacity; true when items were left over (overflow). */
async function binOnce(
  ctx: BrookContext,
  bins: Bins,
  items: Stream,
  mapping: BinMapping,
  method: BinningMethod,
  inFlight: number,
  reduction: 'pyramid' | 'scatter',
): Promise<boolean> {
  const gl = ctx.gl;
  const { width, height, capacity } = bins;
  const u = mappingUniforms(mapping, width, height);
  const n = items.length;
  const expectedLoad = Math.ceil(n / (width * height));
  const reduceFrom = method === 'reduced' ? 0 : method === 'delayed' ? Math.max(expectedLoad - 1, 0) : Infinity;
  const stats: BinningStats = { method, passes: 0, reductions: 0, overflows: 0, dropped: 0 };
  bins.stats = stats;

  // the counter starts at zero and every slice at 1.0 (empty), also the ones no pass reaches
  gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([bins.loads.texture]));
  gl.clearColor(0, 0, 0, 0);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.bindFramebuffer(gl.FRAMEBUFFER, bins.framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, null, 0);
  gl.depthMask(true);
  gl.clearDepth(1);
  for (let i = 0; i < capacity; i++) {
    const [tex, layer] = bins.slot(i);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, tex, 0, layer);
    gl.clear(gl.DEPTH_BUFFER_BIT);
  }

  let working: Stream | null = null; // float2 (id, 1) records of the items still to bin; null = all
  let count = n;
  const predicate = method === 'predicated' ? new PassPredicate(ctx, inFlight) : null;
  const slice = ctx.scratch('float', [height, width]);
  try {
    for (let i = 0; i < capacity && count > 0 && !predicate?.done; i++) {
      drawPass(i);
      stats.passes++;
      if (i >= reduceFrom) {
        // remove the items this pass binned (key <= slice i at their bin)
        bins.copySlice(i, slice);
        const recs = ctx.scratch('float2', count);
        ctx.run(working ? SURVIVORS.working : SURVIVORS.all, { ...(working ? { w: working } : {}), items, slice, rec: recs, ...u });
        const kept = reduction === 'scatter' ? await scatterCompact(ctx, recs) : await filter(ctx, recs, { keep: 'x.y > 0.5' });
        recs.dispose();
        working?.dispose();
        working = kept.stream;
        count = kept.count;
        stats.reductions++;
      }
      await predicate?.throttle();
    }
    await predicate?.drain();
    if (count === 0 || predicate?.done) return false;
    // overflow test (3.3): items above the last slice's value were not binned
    bins.copySlice(capacity - 1, slice);
    const recs = ctx.scratch('float2', count);
    ctx.run(working ? SURVIVORS.working : SURVIVORS.all, { ...(working ? { w: working } : {}), items, slice, rec: recs, ...u });
    const left = await filter(ctx, recs, { keep: 'x.y > 0.5' });
    recs.dispose();
    left.stream?.dispose();
    return left.count > 0;
  } finally {
    slice.dispose();
    working?.dispose();
  }

  function drawPass(i: number): void {
    const [tex, layer] = bins.slot(i);
    gl.bindFramebuffer(gl.FRAMEBUFFER, bins.framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, bins.loads.texture, 0);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, tex, 0, layer);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.viewport(0, 0, width, height);
    gl.depthMask(true);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    const { info } = ctx.rawProgram(VERTEX, FRAGMENT, 'binning pass');
    gl.useProgram(info.program);
    const prev = bins.slot(i > 0 ? i - 1 : 1); // (pass 0 tests nothing: any array but the attached one)
    twgl.setUniforms(info, {
      ...u,
      items: items.texture,
      itemsLogW: Math.log2(items.layout.width),
      working: (working ?? items).texture,
      workingLogW: working ? Math.log2(working.layout.width) : 0,
      reduced: working !== null,
      previous: prev[0],
      previousLayer: prev[1],
      first: i === 0,
      passNumber: i + 1,
    });
    gl.bindVertexArray(ctx.passVertexArray);
    const draw = () => gl.drawArrays(gl.POINTS, 0, count);
    if (predicate) predicate.draw(draw);
    else draw();
    gl.bindVertexArray(null);
    gl.disable(gl.DEPTH_TEST);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, null, 0, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
}

const liveFlag: KernelSpec = { name: 'LiveFlag', inputs: { r: 'float2' }, outputs: { f: 'uint' }, body: 'f = r.y > 0.5 ? 1u : 0u;' };
const lastCount: KernelSpec = { name: 'LastCount', gathers: { rank: 'uint', flag: 'uint' }, uniforms: { at: 'int' }, outputs: { n: 'uint' }, body: 'n = rank(at) + flag(at);' };

const SCATTER_VERTEX = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp usampler2D;
uniform sampler2D recs;
uniform usampler2D ranks;
uniform int inLogW;
uniform int outLogW;
uniform ivec2 outSize;
flat out float id;
void main() {
  ivec2 t = ivec2(gl_VertexID & ((1 << inLogW) - 1), gl_VertexID >> inLogW);
  vec2 r = texelFetch(recs, t, 0).xy;
  int k = int(texelFetch(ranks, t, 0).x);
  id = r.x;
  ivec2 o = ivec2(k & ((1 << outLogW) - 1), k >> outLogW);
  gl_Position = r.y > 0.5 ? vec4((vec2(o) + 0.5) / vec2(outSize) * 2.0 - 1.0, 0.0, 1.0) : vec4(2.0, 2.0, 2.0, 1.0);
  gl_PointSize = 1.0;
}`;
const SCATTER_FRAGMENT = `#version 300 es
precision highp float;
flat in float id;
out vec4 rec;
void main() { rec = vec4(id, 1.0, 0.0, 0.0); }`;

/** Keeps the (id, live) records with live = 1 by an exclusive scan and a vertex-shader scatter. */
async function scatterCompact(ctx: BrookContext, recs: Stream): Promise<{ stream: Stream | null; count: number }> {
  const gl = ctx.gl;
  const n = recs.length;
  const flags = ctx.scratch('uint', n);
  ctx.run(liveFlag, { r: recs, f: flags });
  const ranks = scan(ctx, flags, { exclusive: true });
  const total = ctx.scratch('uint', 1);
  ctx.run(lastCount, { rank: ranks, flag: flags, at: n - 1, n: total });
  const count = ((await total.read()) as Uint32Array)[0]!;
  total.dispose();
  flags.dispose();
  try {
    if (count === 0) return { stream: null, count };
    const out = ctx.scratch('float2', count);
    const { info } = ctx.rawProgram(SCATTER_VERTEX, SCATTER_FRAGMENT, 'scatter compaction');
    gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([out.texture]));
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.viewport(0, 0, out.layout.width, out.layout.height);
    gl.useProgram(info.program);
    twgl.setUniforms(info, {
      recs: recs.texture,
      ranks: ranks.texture,
      inLogW: Math.log2(recs.layout.width),
      outLogW: Math.log2(out.layout.width),
      outSize: [out.layout.width, out.layout.height],
    });
    gl.bindVertexArray(ctx.passVertexArray);
    gl.drawArrays(gl.POINTS, 0, n);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return { stream: out, count };
  } finally {
    ranks.dispose();
  }
}

function valueLayout(bins: number, maxTextureSize: number): { width: number; height: number } {
  check(Number.isInteger(Math.log2(bins)) && bins >= 1 && bins <= 2 ** 24, () => `bucket sort: the number of bins must be a power of two up to 2^24, got ${bins}`);
  const width = Math.min(bins, maxTextureSize);
  return { width, height: Math.ceil(bins / width) };
}

// ---- bucket sort (section 4.3) ------------------------------------------------------------------

const toItems: KernelSpec = { name: 'ValueItems', inputs: { v: 'float' }, outputs: { item: 'float4' }, body: 'item = vec4(v, 0.0, 0.0, 0.0);' };
const checkKeys: KernelSpec = {
  name: 'CheckKeys',
  inputs: { v: 'float' },
  outputs: { bad: 'uint' },
  body: 'bad = (v >= 0.0 && v < 16777216.0 && v == floor(v)) ? 0u : 1u;',
};
const loadsInOrder: KernelSpec = { name: 'LoadsInOrder', gathers: { loads: 'float' }, uniforms: { w: 'int' }, outputs: { n: 'uint' }, body: 'n = uint(loads(brook_index / w, brook_index % w));' };
const gatherSorted: KernelSpec = {
  name: 'BucketGather',
  gathers: { ends: 'uint', slots: 'float' },
  uniforms: { bins: 'int', steps: 'int', w: 'int', h: 'int', slotRows: 'int' },
  outputs: { sorted: 'float' },
  body: [
    '// the first bin whose running count passes this record (binary search), then the slot in it',
    'uint k = uint(brook_index);',
    'int lo = 0, hi = bins - 1;',
    'for (int s = 0; s < steps; s++) { int mid = (lo + hi) / 2; if (ends(mid) > k) hi = mid; else lo = mid + 1; }',
    'int b = lo;',
    'int slot = int(k - (b > 0 ? ends(b - 1) : 0u));',
    'sorted = slots((slot % slotRows) * h + b / w, (slot / slotRows) * w + b % w) * 16777216.0;',
  ].join('\n'),
};

/**
 * Bucket sort by binning (section 4.3), with the paper's restriction made exact: the keys are
 * distinct integers in [0, 2^24) (the key is stored as a depth, and two equal keys cannot pass
 * the dual-depth test), binned into `bins` equal ranges (a power of two; default chosen so the
 * expected load is about 4), then gathered bin by bin. Returns a new float stream of the keys in
 * ascending order. Keys outside the range or not integers, and duplicates (detected as a count
 * shortfall after binning), raise a BrookError.
 */
export async function bucketSort(ctx: BrookContext, keys: Stream, options: { bins?: number; method?: BinningMethod } = {}): Promise<Stream> {
  checkContext(ctx, 'bucketSort');
  checkStream(ctx, keys, 'bucketSort: keys', ['float']);
  check(keys.layout.dims === 1, () => 'bucketSort: keys must be a 1D float stream of distinct integers in [0, 2^24)');
  options = checkOptions(options, 'bucketSort: options');
  if (options.bins !== undefined) checkInteger(options.bins, 'bucketSort: options.bins', 1, 2 ** 24);
  if (options.method !== undefined) checkMethod(options.method, 'value');
  const n = keys.length;
  const bins = options.bins ?? 2 ** Math.max(0, Math.min(24, Math.round(Math.log2(n / 4))));
  const bad = ctx.scratch('uint', n);
  ctx.run(checkKeys, { v: keys, bad });
  const badCount = (await ctx.reduce(bad, 'sum'))[0]!;
  bad.dispose();
  if (badCount > 0) throw new BrookError(`bucketSort: ${badCount} key(s) are not integers in [0, 2^24); the binning sort stores keys exactly only there — use sortStream for other keys`);
  const items = ctx.scratch('float4', n);
  ctx.run(toItems, { v: keys, item: items });
  let structure: Bins | null = null;
  const order = ctx.scratch('uint', bins);
  try {
    structure = await binItems(ctx, items, { mode: 'value', bins }, { method: options.method ?? 'delayed', capacity: 8 });
    ctx.run(loadsInOrder, { loads: structure.loads, w: structure.width, n: order });
    const ends = scan(ctx, order);
    try {
      const total = (await ctx.reduce(order, 'sum'))[0]!;
      if (total !== n) {
        throw new BrookError(`bucketSort: only ${total} of ${n} keys were binned: the keys are not distinct (binning keeps one of each equal key); use sortStream for keys with duplicates`);
      }
      const slots = structure.pack();
      const out = ctx.stream('float', n);
      ctx.run(gatherSorted, { ends, slots, bins, steps: Math.ceil(Math.log2(bins)) + 1, w: structure.width, h: structure.height, slotRows: structure.slotRows, sorted: out });
      slots.dispose();
      return out;
    } finally {
      ends.dispose();
    }
  } finally {
    structure?.dispose();
    order.dispose();
    items.dispose();
  }
}

// ---- stencil routing (Purcell et al. 2003; Harada 2007), the paper's comparator -------------------

/** Both routings: each item as a point on its bin (pointSize texels wide) at depth (id + 1) / 2^24. */
const ROUTE_VERTEX = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
${BINNING}
uniform sampler2D items;
uniform int itemsLogW;
uniform float pointSize;
flat out float key;
void main() {
  int id = gl_VertexID;
  vec4 item = texelFetch(items, ivec2(id & ((1 << itemsLogW) - 1), id >> itemsLogW), 0);
  ivec2 pixel = binPixel(item);
  key = binKey(item, id);
  // depth (id + 1) / 2^24: above the cleared 0.0 for every id, so GREATER admits the smallest one
  gl_Position = vec4((vec2(pixel) + 0.5) / vec2(bin_size) * 2.0 - 1.0, (key + BIN_KEY_SCALE) * 2.0 - 1.0, 1.0);
  if (!binValid(item)) gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // a NaN position: in no bin
  gl_PointSize = pointSize;
}`;
const ROUTE_PASS_FRAGMENT = `#version 300 es
precision highp float;
uniform float passNumber;
flat in float key;
layout(location = 0) out vec4 slot;
layout(location = 1) out vec4 load;
void main() {
  slot = vec4(key);
  load = vec4(passNumber);
}`;

/**
 * One stencil-routing build into `bins` ('color' storage): pass i draws all items into slice i,
 * the stencil admitting one write per bin and the depth test GREATER the key routed before.
 * True when items were left over (overflow).
 */
async function routeOnce(ctx: BrookContext, bins: Bins, items: Stream, mapping: BinMapping, predicated: boolean, inFlight: number, dropped: Promise<number>): Promise<boolean> {
  const gl = ctx.gl;
  const { width, height, capacity } = bins;
  const n = items.length;
  const stats: BinningStats = { method: predicated ? 'stencil-predicated' : 'stencil', passes: 0, reductions: 0, overflows: 0, dropped: 0 };
  bins.stats = stats;
  const { info } = ctx.rawProgram(ROUTE_VERTEX, ROUTE_PASS_FRAGMENT, 'stencil routing pass');
  const predicate = predicated ? new PassPredicate(ctx, inFlight) : null;
  const uniforms = { ...mappingUniforms(mapping, width, height), items: items.texture, itemsLogW: Math.log2(items.layout.width), pointSize: 1 };
  gl.bindFramebuffer(gl.FRAMEBUFFER, bins.framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, bins.loads.texture, 0);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, bins.depthStencil);
  gl.viewport(0, 0, width, height);
  // every slice empty (1.0), no load, depth 0.0 below every key
  for (let i = 0; i < capacity; i++) {
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, bins.slot(i)[0], 0, i);
    gl.clearBufferfv(gl.COLOR, 0, [1, 1, 1, 1]);
  }
  gl.clearBufferfv(gl.COLOR, 1, [0, 0, 0, 0]);
  gl.depthMask(true);
  gl.clearBufferfi(gl.DEPTH_STENCIL, 0, 0, 0);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  for (let i = 0; i < capacity && !predicate?.done; i++) {
    const draw = () => gl.drawArrays(gl.POINTS, 0, n);
    routePass(i, () => (predicate ? predicate.draw(draw) : draw()));
    stats.passes++;
    await predicate?.throttle();
  }
  await predicate?.drain();
  if (predicate?.done) return false;
  // overflow (3.3): fewer items in the bins than were drawn
  const routed = (await ctx.reduce(bins.loads, 'sum'))[0]!;
  return routed < n - (await dropped);

  function routePass(i: number, draw: () => void): void {
    gl.bindFramebuffer(gl.FRAMEBUFFER, bins.framebuffer);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, bins.slot(i)[0], 0, i);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
    gl.viewport(0, 0, width, height);
    gl.clearBufferiv(gl.STENCIL, 0, [0]);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.GREATER);
    gl.depthMask(true);
    gl.enable(gl.STENCIL_TEST);
    gl.stencilFunc(gl.EQUAL, 0, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.INCR);
    gl.useProgram(info.program);
    twgl.setUniforms(info, { ...uniforms, passNumber: i + 1 });
    gl.bindVertexArray(ctx.passVertexArray);
    draw();
    gl.bindVertexArray(null);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.STENCIL_TEST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
}

const ROUTE_FRAGMENT = `#version 300 es
precision highp float;
flat in float key;
out vec4 slot;
void main() { slot = vec4(key * 16777216.0); } // the item's id`;
const SLOT_FRAGMENT = `#version 300 es
precision highp float;
uniform int k;
uniform int slot;
out vec4 unused;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  if ((p.y % k) * k + (p.x % k) != slot) discard;
  unused = vec4(0.0);
}`;


export interface Routed {
  /** Item ids, -1 where empty: slot s of bin (x, y) at texel (x*k + s % k, y*k + floor(s / k)). */
  slots: Stream;
  /** Slots per bin side (k x k slots per bin). */
  k: number;
  /** Items that found a slot; fewer than the item count means a bin overflowed. */
  routed: number;
  overflow: boolean;
  /** Draws: k*k stencil initialisation passes plus one routing pass. */
  passes: number;
  /** Items with a NaN coordinate, which have no bin. */
  dropped: number;
}

/**
 * One-draw stencil routing (Purcell et al. 2003): every bin is a block of k x k texels whose
 * stencil values are set to 0..k²-1 (one pass per value: WebGL2 fragment shaders cannot write
 * stencil); then all items are drawn once as points of size k over their bin's block with the
 * stencil test EQUAL 0 and DECR_WRAP on every outcome, so the n-th item of a bin lands in the
 * texel that started at n - 1. Items keep draw (id) order within a bin, as binning's ascending
 * keys do. More than k² items in a bin wrap the 8-bit stencil and are lost: `routed` counts the
 * items placed so that is detected. (The multipass form the paper compares against is
 * `binPoints` with method 'stencil' or 'stencil-predicated'.)
 */
export async function stencilRoute(ctx: BrookContext, positions: Stream, grid: BinGrid, options: { capacity?: number } = {}): Promise<Routed> {
  checkContext(ctx, 'stencilRoute');
  checkStream(ctx, positions, 'stencilRoute: positions', ['float4']);
  check(positions.layout.dims === 1, () => 'stencilRoute: positions must be a 1D float4 stream');
  checkGrid(grid, 'stencilRoute');
  options = checkOptions(options, 'stencilRoute: options');
  if (options.capacity !== undefined) checkInteger(options.capacity, 'stencilRoute: options.capacity', 1);
  const gl = ctx.gl;
  const k = Math.ceil(Math.sqrt(options.capacity ?? 4));
  check(k * k <= 255, () => `stencil routing: ${k * k} slots per bin exceed the 8-bit stencil (255)`);
  const maxPoint = (gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE) as Float32Array)[1]!;
  check(k <= maxPoint, () => `stencil routing: points of ${k} pixels exceed this device's largest point size ${maxPoint}`);
  const { width, height } = binLayout(grid.cells);
  const route = ctx.rawProgram(ROUTE_VERTEX, ROUTE_FRAGMENT, 'stencil routing').info;
  const slotProgram = ctx.rawProgram(null, SLOT_FRAGMENT, 'stencil slots').info;
  const slots = ctx.stream('float', [height * k, width * k]);
  const stencil = ctx.resources.renderbuffer(width * k, height * k, gl.STENCIL_INDEX8, 1);
  const fbo = ctx.resources.framebuffer();
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, slots.texture, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.STENCIL_ATTACHMENT, gl.RENDERBUFFER, stencil);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.viewport(0, 0, width * k, height * k);
    gl.clearBufferfv(gl.COLOR, 0, [-1, -1, -1, -1]);
    gl.enable(gl.STENCIL_TEST);
    // stencil value s in slot s of every block
    gl.colorMask(false, false, false, false);
    gl.useProgram(slotProgram.program);
    gl.bindVertexArray(ctx.passVertexArray);
    for (let s = 0; s < k * k; s++) {
      gl.stencilFunc(gl.ALWAYS, s, 0xff);
      gl.stencilOp(gl.KEEP, gl.KEEP, gl.REPLACE);
      twgl.setUniforms(slotProgram, { k, slot: s });
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    gl.colorMask(true, true, true, true);
    // route every item in one draw
    gl.stencilFunc(gl.EQUAL, 0, 0xff);
    gl.stencilOp(gl.DECR_WRAP, gl.DECR_WRAP, gl.DECR_WRAP);
    gl.useProgram(route.program);
    twgl.setUniforms(route, { ...mappingUniforms({ mode: 'spatial', grid }, width, height), items: positions.texture, itemsLogW: Math.log2(positions.layout.width), pointSize: k });
    gl.drawArrays(gl.POINTS, 0, positions.length);
    gl.bindVertexArray(null);
    gl.disable(gl.STENCIL_TEST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  } finally {
    ctx.resources.release(fbo);
    ctx.resources.release(stencil);
  }
  const routed = await countRouted(ctx, slots);
  const dropped = await countDropped(ctx, positions); // NaN positions are drawn nowhere
  return { slots, k, routed, overflow: routed < positions.length - dropped, passes: k * k + 1, dropped };
}

const occupied: KernelSpec = { name: 'Occupied', inputs: { s: 'float' }, outputs: { n: 'uint' }, body: 'n = s >= 0.0 ? 1u : 0u;' };
async function countRouted(ctx: BrookContext, slots: Stream): Promise<number> {
  const flags = ctx.scratch('uint', [slots.layout.height, slots.layout.width]);
  ctx.run(occupied, { s: slots, n: flags });
  const n = (await ctx.reduce(flags, 'sum'))[0]!;
  flags.dispose();
  return n;
}
