/**
 * Scan (running sum) of a stream, two ways.
 *
 * - `'pyramid'` (default, the fastest measured): work-efficient, O(n). An up-sweep builds a
 *   4-way pyramid of partial sums (each level sums groups of four records of the level below,
 *   as the filter's histogram pyramid does for counts; Ziegler et al. 2006, and Blelloch's tree
 *   with fan-out 4); a down-sweep gives every node the sum of everything to its left: its
 *   parent's prefix plus its left siblings (at most three). k = ceil(log4 n) - 1 up passes and
 *   k + 1 down passes, the levels shrinking by four, so the whole scan reads and writes about
 *   2.7 n records (Hillis–Steele: 2 n log2 n).
 * - `'hillis-steele'`: Horn's section 36.1.1 (Hillis & Steele 1986) as the book prints it:
 *   ceil(log2 n) passes, pass i adding the record 2^i to the left, each a full-stream kernel.
 *   O(n log n) work.
 *
 * ```ts
 * const sums = scan(ctx, counts);                                // inclusive
 * const offsets = scan(ctx, counts, { exclusive: true });        // the first record is 0
 * const book = scan(ctx, counts, { method: 'hillis-steele' });   // the chapter's passes
 * ```
 * On int and uint streams the sums are exact (modulo 2^32), whatever the length: that is the
 * form to use for counts and indices. Float streams give float32 sums; each input value goes
 * through at most `scanAdditions(n, method)` float additions on its way to any output, so an
 * output differs from the exact running sum by at most γ_d · Σ|x_j| over the records summed,
 * d = that count and γ_d = d·u / (1 − d·u), u = 2^-24 (Higham, Accuracy and Stability of
 * Numerical Algorithms, section 4.2). Vector types scan componentwise.
 */
import SCAN_STEP from '../../glsl/idioms/scan-step.glsl';
import SCAN_EXCLUSIVE from '../../glsl/idioms/scan-exclusive.glsl';
import SCAN_DOWN from '../../glsl/idioms/scan-down.glsl';
import PYRAMID_SUM4 from '../../glsl/idioms/pyramid-sum4.glsl';
import { BrookContext, BrookError, ElementType, KernelSpec, Stream } from '../core/index';
import { checkContext, checkOptions, checkStream } from '../core/validate';

export type ScanMethod = 'pyramid' | 'hillis-steele';
export const SCAN_METHODS: readonly ScanMethod[] = ['pyramid', 'hillis-steele'];

export interface ScanOptions {
  /** Exclusive scan (sum of the records strictly to the left). Default: inclusive. */
  exclusive?: boolean;
  /** 'pyramid' (default, work-efficient) or 'hillis-steele' (the book's). */
  method?: ScanMethod;
}

const stepKernel = (t: ElementType): KernelSpec => ({ name: 'Scan', gathers: { src: t }, uniforms: { offset: 'int' }, outputs: { sum: t }, body: SCAN_STEP });
const shiftKernel = (t: ElementType): KernelSpec => ({ name: 'ScanExclusive', gathers: { src: t }, outputs: { sum: t }, body: SCAN_EXCLUSIVE });
const upKernel = (t: ElementType, name: string): KernelSpec => ({ name, gathers: { below: t }, outputs: { count: t }, body: PYRAMID_SUM4 });
const downKernel = (t: ElementType): KernelSpec => ({
  name: 'ScanDown',
  gathers: { level: t, parent: t },
  uniforms: { root: 'bool', inclusive: 'bool' },
  outputs: { sum: t },
  body: SCAN_DOWN,
});

/** Up-sweep levels of the pyramid scan of n records: levels above the input until one has at most 4 nodes. */
function pyramidLevels(n: number): number {
  let k = 0;
  for (let len = n; len > 4; len = Math.ceil(len / 4)) k++;
  return k;
}

/** Passes a scan of n records runs (exclusive Hillis–Steele adds one shift pass). */
export function scanPasses(n: number, method: ScanMethod = 'pyramid', exclusive = false): number {
  if (method === 'pyramid') return 2 * pyramidLevels(n) + 1;
  let passes = 0;
  for (let offset = 1; offset < n || passes === 0; offset *= 2) passes++;
  return passes + (exclusive ? 1 : 0);
}

/**
 * The most float additions any input value goes through on its way to an output (d of the
 * error bound above). Pyramid: 3 per level up (a sum of four), 3 as a left sibling (two more
 * siblings and the parent's prefix), then 1 per level down (a prefix is added last): 4k + 3
 * for k >= 1 up levels; 4 in the bottom group alone (k = 0). Hillis–Steele: one per pass.
 */
export function scanAdditions(n: number, method: ScanMethod = 'pyramid'): number {
  if (method === 'hillis-steele') return scanPasses(n, method);
  const k = pyramidLevels(n);
  return k === 0 ? 4 : 4 * k + 3;
}

/** Running sums of `stream` in a new stream of the same type and shape (the caller disposes it). */
export function scan(ctx: BrookContext, stream: Stream, options: ScanOptions = {}): Stream {
  checkContext(ctx, 'scan');
  checkStream(ctx, stream, 'scan: stream');
  options = checkOptions(options, 'scan: options');
  if (options.exclusive !== undefined && typeof options.exclusive !== 'boolean') {
    throw new BrookError(`scan: options.exclusive must be true or false, got ${String(options.exclusive)}`);
  }
  const method = options.method ?? 'pyramid';
  if (!SCAN_METHODS.includes(method)) throw new BrookError(`scan: unknown scan method '${String(method)}' (options.method): use one of ${SCAN_METHODS.join(', ')}`);
  // the CPU backend (src/cpu/idioms.ts) scans through src/reference
  if ((ctx as unknown as { backend?: string }).backend === 'cpu') return (ctx as unknown as { scanRecords(s: Stream, e: boolean): Stream }).scanRecords(stream, !!options.exclusive);
  return method === 'pyramid' ? pyramidScan(ctx, stream, !!options.exclusive) : hillisSteele(ctx, stream, !!options.exclusive);
}

function outputShape(stream: Stream): number | [number, number] {
  return stream.layout.dims === 2 ? (stream.shape as [number, number]) : stream.length;
}

function pyramidScan(ctx: BrookContext, stream: Stream, exclusive: boolean): Stream {
  const type = stream.type;
  const down = downKernel(type);
  const levels: Stream[] = [stream];
  const temps: Stream[] = [];
  try {
    sumPyramid(ctx, levels, 4, 'ScanUp', temps);
    // Down: exclusive prefixes from the top level to level 1, then the scan of level 0.
    const parent = sweepDown(ctx, levels, levels.length - 1, 1, temps);
    const out = ctx.scratch(type, outputShape(stream));
    try {
      ctx.runInternal(down, { level: stream, parent: parent ?? stream, root: parent === null, inclusive: !exclusive, sum: out });
    } catch (e) {
      out.dispose();
      throw e;
    }
    return out;
  } finally {
    temps.forEach((s) => s.dispose());
  }
}

/**
 * @internal The down-swept prefixes of a pyramid whose first level is given (uint4 counts in
 * the radix sort): builds the levels above it up to a root of one node, then for every node of
 * `first` the sum of the nodes to its left. `prefix` is null when `first` is the root itself.
 * The caller disposes `temps` (which hold `prefix` and `root`, unless root is `first`).
 */
export function pyramidPrefixes(ctx: BrookContext, first: Stream): { prefix: Stream | null; root: Stream; temps: Stream[]; passes: number } {
  const levels: Stream[] = [first];
  const temps: Stream[] = [];
  try {
    sumPyramid(ctx, levels, 1, 'ScanUp', temps);
    const parent = sweepDown(ctx, levels, levels.length - 2, 0, temps);
    return { prefix: parent, root: levels[levels.length - 1]!, temps, passes: 2 * (levels.length - 1) };
  } catch (e) {
    temps.forEach((s) => s.dispose());
    throw e;
  }
}

/**
 * @internal Horn's reduction pyramid: sums of four, level by level above the last of `levels`,
 * until a level has at most `top` nodes (the scan's up-sweep, the filter's histogram pyramid,
 * the radix sort's digit counts). Each level is appended to `levels` (and to `temps` when given)
 * before its pass runs, so the caller can dispose it even when the pass fails; `watch` sees it
 * after. `name` names the passes in the trace.
 */
export function sumPyramid(ctx: BrookContext, levels: Stream[], top: number, name: string, temps?: Stream[], watch?: (level: Stream) => void): void {
  const up = upKernel(levels[0]!.type, name);
  while (levels[levels.length - 1]!.length > top) {
    const below = levels[levels.length - 1]!;
    const level = ctx.scratch(below.type, Math.ceil(below.length / 4));
    levels.push(level);
    temps?.push(level);
    ctx.runInternal(up, { below, count: level });
    watch?.(level);
  }
}

/** The down-sweep from `levels[from]` to `levels[to]`: exclusive prefixes of each (kept in `temps`); returns the last (null when none). */
function sweepDown(ctx: BrookContext, levels: Stream[], from: number, to: number, temps: Stream[]): Stream | null {
  const down = downKernel(levels[0]!.type);
  let parent: Stream | null = null;
  for (let l = from; l >= to; l--) {
    const level = levels[l]!;
    const prefix = ctx.scratch(level.type, level.length);
    temps.push(prefix);
    ctx.runInternal(down, { level, parent: parent ?? level, root: parent === null, inclusive: false, sum: prefix });
    parent = prefix;
  }
  return parent;
}

function hillisSteele(ctx: BrookContext, stream: Stream, exclusive: boolean): Stream {
  const step = stepKernel(stream.type);
  const n = stream.length;
  const shape = outputShape(stream);
  let src = stream;
  for (let offset = 1; offset < n || src === stream; offset *= 2) {
    const out = ctx.scratch(stream.type, shape);
    ctx.runInternal(step, { src, offset, sum: out });
    if (src !== stream) src.dispose();
    src = out;
  }
  if (exclusive) {
    const out = ctx.scratch(stream.type, shape);
    ctx.runInternal(shiftKernel(stream.type), { src, sum: out });
    src.dispose();
    src = out;
  }
  return src;
}
