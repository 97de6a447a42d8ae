/**
 * Z-cull masks, Brook's write masks, regions and write queries on the CPU backend: the depth
 * test, scissor and fragment count of a GPU pass, played record by record.
 *
 * A CpuDepth is the depth buffer a GPU context keeps in a renderbuffer, here one float per texel
 * of the output's layout (width x height; a record's texel is its row-major index, as
 * core/layout.ts lays streams out), holding the same values the GPU stores:
 *
 * - a z mask (ctx.zmask, ctx.buildMask; core/zmask.ts): cleared to 1.0, then 0.0 wherever the
 *   builder kept its record (did not discard); a masked run draws at 0.5 with the test LESS
 *   (runs where 0.5 < depth: records the builder discarded), `invert` with GREATER;
 * - a write mask (src/brt/writemask.ts): cleared to 1.0; a tested run draws at 0.5 with LESS, a
 *   setting one stores 0.5 into every record it writes.
 *
 * A record a run skips (mask, region) keeps its old output value, as the texel a failed depth
 * test or a scissor leaves untouched; so does a record the kernel discards. `planRun` turns a
 * run's options into the per-record gate the record loop (kernel.ts) consults, and `finishRun`
 * applies what the run wrote (depth sets, mask builds) and says how many records it wrote, which
 * a write query or an occlusion query counts.
 */
import { BrookError, check } from '../core/errors';
import type { RunOptions } from '../core/kernelspec';
import { describeValue } from '../core/checks';

/** The depth a pass draws its records at (core/kernelsource.ts: window depth 0.5). */
const PASS_DEPTH = 0.5;

/** What owns a CPU depth buffer (a CpuContext). */
export interface DepthOwner {
  guard(): void;
  forgetDepth(d: CpuDepth): void;
}

export class CpuDepth {
  /** One depth value per texel, row-major (x the fastest). */
  depth: Float32Array | null;
  /** Times the mask has been built (ctx.buildMask); 0 means never. */
  builds = 0;

  /** @internal Use ctx.zmask(stream) or writeMask(ctx, rows, columns). */
  constructor(
    /** @internal The context that owns it. */
    readonly ctx: DepthOwner,
    readonly width: number,
    readonly height: number,
  ) {
    this.depth = new Float32Array(width * height).fill(1);
  }

  get disposed(): boolean {
    return this.depth === null;
  }

  /** @internal Every texel at depth `d` (a write mask's clear: 1.0). */
  clear(d: number): void {
    this.values('clear').fill(d);
  }

  /** @internal The depth values (a BrookError once disposed). */
  values(what = 'use'): Float32Array {
    if (!this.depth) throw new BrookError(`this z mask was disposed (${what}): create a new one with ctx.zmask(stream)`);
    return this.depth;
  }

  dispose(): void {
    if (!this.depth) return;
    this.depth = null;
    this.ctx.forgetDepth(this);
  }
}

/** The output a run's masks and region are measured against: its stream's texture and the records the run covers. */
export interface RunTarget {
  /** The output stream's layout: texels per row, rows, dimensions. */
  width: number;
  height: number;
  dims: number;
  /** Records of the output stream (its texels beyond are padding). */
  length: number;
  /** Whether the output is a domain (GPU: a scissor), which regions may not be combined with. */
  view: boolean;
}

/** What a run does per record: whether it may run (null: all), and what to do with the records it wrote. */
export interface RunGate {
  /** 1 where the record runs (indexed by the output stream's record), or null when every record runs. */
  run: Uint8Array | null;
  /** 1 where the record was written: filled by the record loop when non-null. */
  wrote: Uint8Array | null;
  /** False for a mask build, whose outputs are bound but not written (its colour writes are off on a GPU). */
  store: boolean;
  /** After the loop: depth sets and builds; returns the records written (for queries), or -1 when nobody counts. */
  finish: () => number;
}

/**
 * The gate of a run of kernel `name` over `target` with `options` (z mask, invert, region, a
 * write mask as src/brt/lower.ts passes it, a mask build), checked as core/run.ts checks them on
 * a GPU context, with the same messages. `counting`: someone counts the records written.
 */
export function planRun(name: string, target: RunTarget, options: RunOptions, counting: boolean): RunGate {
  const region = options.region ?? 'all';
  const mask = (options.build ?? options.mask ?? null) as unknown as CpuDepth | null;
  if (mask) {
    check(mask instanceof CpuDepth, () => `kernel ${name}: options.mask must be a z mask of this CPU context (ctx.zmask(stream)), got ${describeValue(mask)}`);
    check(!mask.disposed, () => `kernel ${name}: the z mask was disposed`);
    check(
      mask.width === target.width && mask.height === target.height,
      () => `kernel ${name}: the z mask is ${mask.width}x${mask.height} texels but the output is ${target.width}x${target.height}; make the mask with ctx.zmask(output)`,
    );
    check(options.build !== undefined || mask.builds > 0, () => `kernel ${name}: the z mask has not been built yet (ctx.buildMask)`);
  }
  check(!options.invert || options.mask, () => `kernel ${name}: invert needs a mask`);
  const wm = options.writeMask as unknown as { mask: CpuDepth; test: boolean; set: boolean } | undefined;
  if (wm) {
    check(!mask, () => `kernel ${name}: a write mask cannot be combined with a z mask`);
    check(!wm.mask.disposed, () => `kernel ${name}: the bound write mask was disposed`);
    check(
      wm.mask.width === target.width && wm.mask.height === target.height,
      () => `kernel ${name}: the bound write mask is ${wm.mask.height}x${wm.mask.width} (rows x columns) but the output's texture is ${target.height}x${target.width}; create the mask with the output's size or unbind it`,
    );
  }
  check(['all', 'interior', 'boundary'].includes(region), () => `kernel ${name}: region must be 'all', 'interior' or 'boundary', got '${String(region)}'`);
  if (region !== 'all') {
    check(!target.view, () => `kernel ${name}: region '${region}' cannot be combined with an output domain (the domain already limits the records written)`);
    check(target.dims === 2, () => `kernel ${name}: region '${region}' needs a 2D output ([height, width]); this one is ${target.dims}D`);
    check(target.width >= 3 && target.height >= 3, () => `kernel ${name}: region '${region}' needs an output of at least 3x3 texels`);
  }
  const n = target.length;
  let run: Uint8Array | null = null;
  const allow = (keep: (i: number) => boolean) => {
    run ??= new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) if (run[i] && !keep(i)) run[i] = 0;
  };
  const { width: W, height: H } = target;
  if (region === 'interior') allow((i) => i % W >= 1 && i % W <= W - 2 && Math.floor(i / W) >= 1 && Math.floor(i / W) <= H - 2);
  if (region === 'boundary') allow((i) => !(i % W >= 1 && i % W <= W - 2 && Math.floor(i / W) >= 1 && Math.floor(i / W) <= H - 2));
  if (mask && !options.build) {
    const d = mask.values();
    // LESS: 0.5 < depth (the builder discarded the record); GREATER with invert
    allow(options.invert ? (i) => PASS_DEPTH > d[i]! : (i) => PASS_DEPTH < d[i]!);
  }
  if (wm?.test) {
    const d = wm.mask.values();
    allow((i) => PASS_DEPTH < d[i]!);
  }
  const needWrote = counting || options.build !== undefined || wm?.set === true;
  const wrote = needWrote ? new Uint8Array(n) : null;
  const finish = (): number => {
    if (!wrote) return -1;
    if (options.build) {
      // Listing 34-2: cleared to 1.0, then 0.0 where the builder kept its record
      const d = mask!.values();
      d.fill(1);
      for (let i = 0; i < n; i++) if (wrote[i]) d[i] = 0;
    }
    if (wm?.set) {
      const d = wm.mask.values();
      for (let i = 0; i < n; i++) if (wrote[i]) d[i] = PASS_DEPTH;
    }
    let count = 0;
    for (let i = 0; i < n; i++) count += wrote[i]!;
    return count;
  };
  return { run, wrote, store: options.build === undefined, finish };
}
