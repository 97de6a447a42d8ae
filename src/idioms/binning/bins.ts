/**
 * The bin structure of Oat, Barczak & Shopf (2009, section 3) and its layout: one bin per texel
 * of an H x W layout (a flat 3D texture for 3D grids), `capacity` slices holding each bin's keys
 * in ascending order, and a colour buffer counting the items per bin. Built by depth peeling
 * (peel.ts) or stencil routing (routing.ts); queried by kernels through BIN_QUERY_GLSL.
 *
 * Storage: 'depth' (binning: the keys are the depth attachments; a depth-array layer cannot be
 * sampled while another layer of the same texture is attached — a feedback loop — so even
 * slices live in one array and odd slices in another) or 'color' (stencil routing: one R32F
 * array written as colour, plus one depth-stencil buffer all passes share). Every object is
 * made through the context's registry and counted in ctx.stats().
 */
import MAPPING_ONLY from '../../../glsl/idioms/binning/mapping.glsl';
import NAN from '../../../glsl/idioms/binning/nan.glsl';
import UNIFORMS from '../../../glsl/idioms/binning/uniforms.glsl';
import QUERY from '../../../glsl/idioms/binning/query.glsl';
import SLICE_COPY from '../../../glsl/idioms/binning/slice-copy.frag.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import { runPass, type PassDesc, type ShaderStage, type TextureTarget } from '../../core/pass';
import type { OcclusionWindow } from '../../core/queries';
import { STORAGE_FORMAT } from '../../core/resources';
import type { Stream } from '../../core/stream';
import type { PoolFormat } from '../../core/pool';

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

export type SliceStorage = 'depth' | 'color';

/** The flat-3D layout of a grid: tiles of gx x gy, one per z slice, bin_tilesX per row. */
export function binLayout(cells: readonly number[]): { width: number; height: number; tilesX: number } {
  const [gx, gy, gz] = cells as [number, number, number];
  const tilesX = Math.ceil(Math.sqrt(gz));
  return { width: gx * tilesX, height: gy * Math.ceil(gz / tilesX), tilesX };
}

/** The layout of `bins` value ranges (bucket sort): rows of at most MAX_TEXTURE_SIZE. */
export function valueLayout(bins: number, maxTextureSize: number): { width: number; height: number } {
  check(Number.isInteger(Math.log2(bins)) && bins >= 1 && bins <= 2 ** 24, () => `bucket sort: the number of bins must be a power of two up to 2^24, got ${bins}`);
  const width = Math.min(bins, maxTextureSize);
  return { width, height: Math.ceil(bins / width) };
}

/** The uniforms of glsl/idioms/binning/mapping.glsl, for kernels that declare them. */
export const MAPPING_UNIFORMS = {
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

/** The mapping functions for kernels (their uniforms declared as MAPPING_UNIFORMS). */
const MAPPING = `${NAN}\n${MAPPING_ONLY}`;
export const MAPPING_GLSL = MAPPING;
/** The NaN test binning shares (nan.glsl): binValid, the NaN probe and the exact count. */
export const NAN_GLSL = NAN;

/** The mapping with its uniforms declared, for pass stages (glsl/idioms/binning/*.glsl). */
export const MAPPING_STAGE_GLSL = `${UNIFORMS}\n${MAPPING}`;

/**
 * GLSL for kernels that query a bin structure: the binning helpers (uniforms declared by the
 * kernel: BIN_UNIFORMS) and binLoad / binItem / binCell / binNeighbour (the 27-neighbourhood)
 * over gathers `binLoads` (bins.loads) and `binSlots` (bins.pack()). Put it in `helpers`.
 */
export const BIN_QUERY_GLSL = `${MAPPING}\n${QUERY}`;

/** The binning uniforms (glsl/idioms/binning/mapping.glsl) of `mapping` for a layout of width x height bins. */
export function mappingUniforms(mapping: BinMapping, width: number, height: number): Record<string, number | number[]> {
  if (mapping.mode === 'spatial') {
    const g = mapping.grid!;
    const { tilesX } = binLayout(g.cells);
    return { bin_mode: 0, bin_origin: g.origin, bin_invCell: [1 / g.cellSize, 1 / g.cellSize, 1 / g.cellSize], bin_grid: g.cells, bin_tilesX: tilesX, bin_size: [width, height], bin_shift: 0 };
  }
  return { bin_mode: 1, bin_origin: [0, 0, 0], bin_invCell: [1, 1, 1], bin_grid: [1, 1, 1], bin_tilesX: 1, bin_size: [width, height], bin_shift: 24 - Math.log2(mapping.bins!) };
}

/** The uniform values of a spatial grid for kernels using BIN_QUERY_GLSL. */
export function binUniforms(bins: Bins, grid: BinGrid): Record<string, number | number[]> {
  return { ...mappingUniforms({ mode: 'spatial', grid }, bins.width, bins.height), bin_slotRows: bins.slotRows };
}

const SLICE_COPY_STAGE: ShaderStage = { glsl: SLICE_COPY };

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
  private readonly arrays: WebGLTexture[];
  private readonly layers: number;
  private readonly arrayFormat: PoolFormat;
  /** @internal The depth-stencil buffer of 'color' storage (stencil routing), a pooled texture like the slices. */
  readonly depthStencil: TextureTarget | null = null;
  private isDisposed = false;

  /** @internal */
  constructor(
    private readonly ctx: BrookContext,
    width: number,
    height: number,
    capacity: number,
    readonly storage: SliceStorage = 'depth',
  ) {
    this.width = width;
    this.height = height;
    this.capacity = capacity;
    this.slotRows = Math.max(1, Math.min(capacity, Math.floor(ctx.caps.maxTextureSize / height)));
    this.loads = ctx.scratch('float', [height, width]); // pooled like the slices: every build clears it
    // The slice arrays come from the context's texture pool (every build clears them), so a
    // structure built every step reuses them and the framebuffers cached on their layers.
    if (storage === 'depth') {
      this.layers = Math.max(Math.ceil(capacity / 2), 1);
      this.arrayFormat = { internalFormat: STORAGE_FORMAT.DEPTH32F, texelBytes: 4 };
      this.arrays = [0, 1].map(() => ctx.acquireTextureArray(width, height, this.layers, this.arrayFormat));
    } else {
      this.layers = capacity;
      this.arrayFormat = { internalFormat: STORAGE_FORMAT.R32F, texelBytes: 4 };
      this.arrays = [ctx.acquireTextureArray(width, height, capacity, this.arrayFormat)];
      this.depthStencil = { texture: ctx.acquireTexture(width, height, DEPTH_STENCIL), width, height, label: 'bins depth-stencil' };
    }
  }

  /** @internal Slice i as a pass target: its array and layer. */
  slice(i: number): TextureTarget {
    const [texture, layer] = this.storage === 'depth' ? [this.arrays[i % 2]!, i >> 1] : [this.arrays[0]!, i];
    return { texture, layer, width: this.width, height: this.height, label: `bin slice ${i}` };
  }

  /** Copies slice i into `out` (float [height, width], or at texel [x, y] of a larger stream): 1.0 where empty. */
  copySlice(i: number, out: Stream, [x, y] = [0, 0]): void {
    const s = this.slice(i);
    runPass(this.ctx, {
      name: `BinSliceCopy<${i}>`,
      kind: 'copy',
      fragment: SLICE_COPY_STAGE,
      targets: [out],
      viewport: [x, y, this.width, this.height],
      records: this.width * this.height,
      uniforms: { slices: s.texture, layer: s.layer, offset: [x, y] },
    });
  }

  /**
   * All slots as one stream of keys (1.0 = empty): slot i of bin (x, y) at row
   * (i % slotRows) * height + y, column floor(i / slotRows) * width + x — with every slot in one
   * column (slotRows = capacity) unless that is taller than MAX_TEXTURE_SIZE. Kernels gather
   * from it (glsl/idioms/binning/query.glsl).
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
    for (const tex of this.arrays) if (r.owns(tex)) this.ctx.releaseTextureArray(tex, this.width, this.height, this.layers, this.arrayFormat);
    if (this.depthStencil && r.owns(this.depthStencil.texture)) this.ctx.releaseTexture(this.depthStencil.texture, this.width, this.height, DEPTH_STENCIL);
  }
}

/** The format of stencil routing's depth-stencil buffer (a pooled 2D texture). */
const DEPTH_STENCIL: PoolFormat = { internalFormat: STORAGE_FORMAT.DEPTH32F_STENCIL8, texelBytes: 8 };

/** What `slicePasses` draws: pass `i`'s description (POINTS and the occlusion query are added). */
export interface SlicePasses {
  /** The query window of a predicated build (section 3.2), or null: then every pass runs. */
  window: OcclusionWindow | null;
  /** At most this many passes (the slices). */
  passes: number;
  stats: BinningStats;
  /** Checked before each pass: false ends the loop (peeling: no item left to bin). */
  more?: () => boolean;
  pass: (i: number) => Omit<PassDesc, 'primitive' | 'occlusion'>;
  /** Runs after pass `i` is drawn, before its query is waited on (peeling's reductions). */
  after?: (i: number) => Promise<void>;
}

/**
 * The multipass loop of both builds (depth peeling and stencil routing): one POINTS pass of the
 * items per slice, counted in `stats.passes`; in a predicated build each pass carries an
 * occlusion query and the loop ends once the window sees a pass that drew nothing. Waits for
 * every query before returning.
 */
export async function slicePasses(ctx: BrookContext, o: SlicePasses): Promise<void> {
  for (let i = 0; i < o.passes && (o.more?.() ?? true) && !o.window?.done; i++) {
    const answer = runPass(ctx, { ...o.pass(i), primitive: 'points', occlusion: o.window !== null });
    o.stats.passes++;
    await o.after?.(i);
    if (answer) await o.window!.admit(answer);
  }
  await o.window?.drain();
}
