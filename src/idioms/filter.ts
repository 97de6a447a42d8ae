/**
 * Stream filtering: keep the records that satisfy a predicate, in order, in a stream of exactly
 * the kept length (Horn, GPU Gems 2 ch. 36, section 36.1).
 *
 * ```ts
 * const { stream, count } = await filter(ctx, points, { keep: 'x.w > 0.5' });
 * const book = await filter(ctx, data, { sentinel: true, method: 'scan-loop' }); // +inf x = null
 * ```
 *
 * The predicate `keep` is one Brook expression of `x` (the record) and `i` (its int index), typed
 * and compiled by the Brook front end (src/brook/predicate.ts): anything else is a BrookError.
 * `sentinel: true` is the book's form instead: a record whose first component is +infinity is
 * null. The predicate form is the safe default; it never depends on the data holding no +inf.
 *
 * Methods (`method`):
 * - `'pyramid'` (default, the fastest measured): a histogram pyramid (Ziegler et al. 2006) in
 *   its linear form, packed: uvec4 flags of four records a texel, then levels holding each
 *   node's four children's counts in one texel, up to a root whose sum is the count; each
 *   output record descends the levels, one fetch a level, to find its source. O(n) work,
 *   ceil(log4 n) + 1 passes, exact uint counts at any length.
 * - `'scatter'`: an exclusive scan of the kept flags, then one POINTS draw in which each kept
 *   record's vertex shader scatters it to its rank (scatter.ts). O(n log n) scan work, exact
 *   uint counts.
 * - `'scan-multipass'`: the book's method: the scan of section 36.1.1 (StartScan, log2 n Scan
 *   passes), then the multipass search of Listing 36-1 (k + 1 GatherSearch passes, RelGather), run
 *   from the chapter's Brook text (glsl/idioms/horn-36-1.brook). O(n log n).
 * - `'scan-loop'`: the same scan, then the single-pass looping search of Listing 36-2.
 * - `'bitonic'`: sort the records by (null flag, index) with a bitonic network and keep the
 *   first `count`: the compaction the book measures its method against. O(n log^2 n).
 *
 * The book's methods count in float32, exact to 2^24 records: beyond that they refuse (use the
 * pyramid). On the search's host parameters: Listing 36-2's comments give halfN =
 * ceil(N/2 + .5) and logN = ceil(log2 N) for N null records; with those, the printed kernels
 * land on the wrong record for most inputs (a fractional guess never equals an integer count).
 * brookgl passes halfN = 2^k / 2 and logN = k + 1, k = ceil(log2(N + 1)): powers of two, so
 * every guess is exact and the printed kernels find the right record (tested against a CPU
 * mirror and Array.filter). The listing's kernels run unchanged; Scan's guard is `>=` (see
 * horn-36-1.brook).
 *
 * Data flow of the book's methods: float2/3/4 streams with `sentinel: true` go through the
 * listings directly (value[] is the data). Otherwise a mark pass writes a float2 tag per record,
 * (index, 0) when kept and +inf when null — the chapter's own null-marking kernel applied to
 * the record indices — the listings compact the tags, and a last gather fetches the records.
 */
import HORN_36_1 from '../../glsl/idioms/horn-36-1.brook';
import HORN_36_2 from '../../glsl/idioms/horn-36-2.brook';
import PYRAMID_LEVEL4 from '../../glsl/idioms/pyramid-level4.glsl';
import { BrookContext, BrookError, ElementType, KernelSpec, Stream, iter } from '../core/index';
import { typeInfo } from '../core/types';
import { parseBrook } from '../brook/compile';
import { brookPredicate } from '../brook/predicate';
import { checkContext, checkFunction, checkRequired, checkStream, checkString } from '../core/validate';
import { bitonicOrder, gatherByIndex, orderIndex } from './sort';
import { FIRST_COMPONENT, markKernel } from './predicate';
import { scatterFilter, shown } from './scatter';

export type FilterMethod = 'pyramid' | 'scatter' | 'scan-multipass' | 'scan-loop' | 'bitonic';
export const FILTER_METHODS: readonly FilterMethod[] = ['pyramid', 'scatter', 'scan-multipass', 'scan-loop', 'bitonic'];

export interface FilterOptions {
  /** One Brook expression of `x` (the record) and `i` (int index), a bool or a number: keep when true (nonzero). */
  keep?: string;
  /** The book's null records: a record whose first component is +infinity is dropped. */
  sentinel?: boolean;
  /** Compaction method; default 'pyramid'. */
  method?: FilterMethod;
  /** Also return the original index of every kept record (a uint stream). Default: false. */
  indices?: boolean;
  /**
   * Called after each pass (or group of passes, as a scan) of every method with a label and the
   * stream it wrote (flags, null counts, pyramid levels, ranks, sort keys, search guesses), for
   * pages that show every pass. The stream is valid only during the call (read it with readSync there).
   */
  watch?: Watcher;
}

export type Watcher = (label: string, stream: Stream) => void;

/**
 * What `filter` returns. Its streams come from the context's texture pool (a compaction of the
 * same size next time reuses the texture instead of allocating one): dispose() gives them back.
 */
export interface FilterResult {
  /** The kept records, in order; null when nothing was kept (a stream has at least one record). */
  stream: Stream | null;
  /** Number of kept records (exact). */
  count: number;
  /** Original index of each kept record, when asked for. */
  indices: Stream | null;
}

/** The largest length the book's float32 scan counts exactly. */
export const FLOAT_EXACT_LIMIT = 2 ** 24;

const SENTINEL = 'floatBitsToUint(brook_first(x)) == 0x7f800000u'; // brook_first: predicate.ts

/** Keeps the records of `stream` for which the predicate holds; see the module comment. */
export function filter(ctx: BrookContext, stream: Stream, options: FilterOptions): Promise<FilterResult> {
  return filterAfter(ctx, stream, options, null);
}

/**
 * @internal `filter`, with the pyramid's count read only once the promise `beforeCount()`
 * returns has settled (it must not reject; null: at once): its passes are issued first, then
 * that is awaited, then the count is read. Binning lets its NaN probe's query be polled there
 * (checks.ts). The other methods read their counts asynchronously: their polls answer the
 * probe alongside.
 */
export async function filterAfter(ctx: BrookContext, stream: Stream, options: FilterOptions, beforeCount: (() => Promise<unknown> | null) | null): Promise<FilterResult> {
  checkContext(ctx, 'filter');
  checkStream(ctx, stream, 'filter: stream');
  options = checkRequired(options, 'filter: options', "{ keep: 'Brook expression of x and i' } or { sentinel: true }");
  const method = options.method ?? 'pyramid';
  if (!FILTER_METHODS.includes(method)) {
    throw new BrookError(`filter: unknown filter method '${String(method)}' (options.method): use one of ${FILTER_METHODS.join(', ')}`);
  }
  for (const flag of ['sentinel', 'indices'] as const) {
    const v = options[flag];
    if (v !== undefined && typeof v !== 'boolean') throw new BrookError(`filter: options.${flag} must be true or false, got ${String(v)}`);
  }
  if (options.watch !== undefined) checkFunction(options.watch, 'filter: options.watch', '(label, stream) => ...');
  if ((options.keep === undefined) === !options.sentinel) {
    throw new BrookError("filter needs exactly one of { keep: 'Brook expression of x and i' } or { sentinel: true }");
  }
  if (options.keep !== undefined) checkString(options.keep, 'filter: options.keep', "a Brook expression of x and i, e.g. 'x > 0.5'");
  if (options.sentinel && stream.info.kind !== 'float') {
    throw new BrookError(`the sentinel form (+inf marks a null record) needs a float stream, got a ${stream.describe()}`);
  }
  // a user's predicate is one Brook expression of x and i, compiled by the front end (never spliced as written)
  const keep = options.keep !== undefined ? brookPredicate(options.keep, stream.type, 'filter: options.keep').glsl : `!(${SENTINEL})`;
  // the CPU backend (src/cpu/idioms.ts) filters through src/reference, the predicate checked above (the same refusals)
  const cpu = (ctx as unknown as { backend?: string; filterRecords?: (s: Stream, k: string | undefined, i: boolean) => FilterResult }).backend === 'cpu' ? (ctx as unknown as { filterRecords: (s: Stream, k: string | undefined, i: boolean) => FilterResult }) : undefined;
  if (cpu) return cpu.filterRecords(stream, options.keep, !!options.indices);
  const watch = options.watch ?? (() => {});
  if (method === 'pyramid') return pyramidFilter(ctx, stream, keep, !!options.indices, watch, beforeCount);
  if (method === 'bitonic') return bitonicFilter(ctx, stream, keep, !!options.indices, watch);
  if (method === 'scatter') return scatterFilter(ctx, stream, keep, !!options.indices, watch);
  return hornFilter(ctx, stream, keep, method, !!options.sentinel && !options.indices, !!options.indices, watch);
}

// ---- shared pieces --------------------------------------------------------------------------

const pickLast: KernelSpec = {
  name: 'PickLast',
  gathers: { src: 'float' },
  uniforms: { at: 'int' },
  outputs: { v: 'float' },
  body: 'v = src(at);',
};

// ---- histogram pyramid ----------------------------------------------------------------------

/**
 * The flag pass of the pyramid filter: for each group of four records, a uvec4 of their kept
 * flags (0 past the end) — level 0 of the pyramid, four records to a texel.
 */
export function flagKernel(type: ElementType, keep: string): KernelSpec {
  return {
    name: 'Mark<flag4>',
    gathers: { src: type },
    uniforms: { n: 'int' },
    outputs: { flags: 'uint4' },
    helpers: `${FIRST_COMPONENT}\nbool brook_keep(${typeInfo(type).glsl} x, int i) { return ${keep}; }`,
    body: 'int first = brook_index * 4;\nfor (int c = 0; c < 4; c++) {\n  int m = first + c;\n  flags[c] = m < n && brook_keep(src(m), m) ? 1u : 0u;\n}',
  };
}

/** A level of the packed pyramid: for each node, the totals of its four children (texels of the level below; 0 past its end). */
export const packedLevel: KernelSpec = {
  name: 'PyramidLevel',
  gathers: { below: 'uint4' },
  uniforms: { lenBelow: 'int' },
  outputs: { counts: 'uint4' },
  body: PYRAMID_LEVEL4,
};

/**
 * The descent kernel for a packed pyramid of `levels` levels (lv0: flags of four records a
 * texel; lv{levels-1}: the root, one texel). A node's four children's counts are one texel, so
 * every level costs one fetch: output record k walks from the root to the record holding the
 * k-th kept one. With `fill` (a GLSL expression of the record type) the target may be longer
 * than the count: the records past it are `fill` (and their index 0xffffffff), so a pipeline
 * can size the target before it reads the count (the CCD traversal's speculative steps).
 */
export function pyramidDescent(type: ElementType, levels: number, indices: boolean, fill?: string): KernelSpec {
  const gathers: Record<string, ElementType> = { value: type };
  const lines = ['uint k = uint(brook_index);', 'int j = 0;'];
  if (fill !== undefined) {
    // a target longer than the count (sized before the count was read): records past it get `fill`
    lines.push(`uvec4 r = lv${levels - 1}(0);`, 'if (k >= r.x + r.y + r.z + r.w) {', `  kept = ${fill};`, ...(indices ? ['  idx = 0xffffffffu;'] : []), '  return;', '}');
  }
  for (let l = levels - 1; l >= 0; l--) {
    gathers[`lv${l}`] = 'uint4';
    lines.push(
      `{ // level ${l}: the counts of node j's four children`,
      `  uvec4 c = lv${l}(j);`,
      '  int child = 3;',
      '  if (k < c.x) child = 0;',
      '  else { k -= c.x; if (k < c.y) child = 1;',
      '  else { k -= c.y; if (k < c.z) child = 2; else k -= c.z; } }',
      '  j = j * 4 + child;',
      '}',
    );
  }
  lines.push('kept = value(j);');
  if (indices) lines.push('idx = uint(j);');
  return {
    name: fill === undefined ? `PyramidDescent<${levels}>` : `PyramidDescentCapped<${levels}>`,
    gathers,
    outputs: indices ? { kept: type, idx: 'uint' } : { kept: type },
    body: lines.join('\n'),
  };
}

/** Passes a pyramid filter of n records keeping `count` runs: the flags, the levels above them up to a root of one texel, and the descent when anything is kept. */
export function pyramidFilterPasses(n: number, count: number): number {
  return pyramidLevelCount(n) + (count > 0 ? 1 : 0);
}

/** Levels of the packed pyramid over n records: the flags (four records a texel), then levels of four children a texel up to a root of one texel. */
function pyramidLevelCount(n: number): number {
  let levels = 1;
  for (let len = Math.ceil(n / 4); len > 1; len = Math.ceil(len / 4)) levels++;
  return levels;
}

/**
 * The pyramid filter: flags four records to a texel, levels of four children's totals to a
 * texel up to a root of one, the count read from the root, then one descent pass. At 2^22
 * records: 11 levels, 12 passes; the descent fetches 11 texels and the record per output
 * (the unpacked pyramid fetched up to four texels a level, 2.5 on average: ~28).
 */
async function pyramidFilter(ctx: BrookContext, stream: Stream, keep: string, indices: boolean, watch: Watcher, beforeCount: (() => Promise<unknown> | null) | null): Promise<FilterResult> {
  const n = stream.length;
  const depth = pyramidLevelCount(n);
  if (depth + 1 > ctx.caps.maxTextureImageUnits) {
    // refused before any pass: the descent gathers the stream and every level in one pass
    throw new BrookError(
      `filter: the pyramid over ${n} records has ${depth} levels; its descent reads them and the stream, ${depth + 1} textures in one pass, more than this device's ${ctx.caps.maxTextureImageUnits} texture units: use method 'scan-loop' (options.method)`,
    );
  }
  const levels: Stream[] = [ctx.scratch('uint4', Math.ceil(n / 4))];
  try {
    ctx.runInternal(flagKernel(stream.type, keep), { src: stream, n, flags: levels[0]! });
    watch('flags (1 = kept), four records a texel', levels[0]!);
    while (levels[levels.length - 1]!.length > 1) {
      const below = levels[levels.length - 1]!;
      const level = ctx.scratch('uint4', Math.ceil(below.length / 4));
      levels.push(level);
      ctx.runInternal(packedLevel, { below, lenBelow: below.length, counts: level });
      watch(`pyramid level ${levels.length - 1} (four children's counts a texel)`, level);
    }
    // The count: a stalling readSync of the one-texel root (16 bytes), not read()'s pixel-pack
    // buffer and polled fence: the call waits for the count either way, and a fence's signal
    // reaches the page a browser poll period after the GPU has finished (SwiftShader, 1k
    // records: 144 polls and 2.5 ms a call waiting against none and 1.0 ms in all; ec480c5's
    // R32UI root, read as RGBA_INTEGER, made ANGLE stall in ReadPixels and so skipped that wait).
    // Read after one microtask (or after beforeCount's promise): the call has returned its promise
    // by then, so a context disposed or lost right after the call still rejects it (reliability/async).
    await (beforeCount ? beforeCount() : null);
    const root = levels[levels.length - 1]!.readSync();
    const count = root[0]! + root[1]! + root[2]! + root[3]!;
    if (count === 0) return { stream: null, count, indices: null };
    const spec = pyramidDescent(stream.type, levels.length, indices);
    const kept = ctx.scratch(stream.type, count);
    const idx = indices ? ctx.scratch('uint', count) : null;
    try {
      const args: Record<string, Stream> = { value: stream, kept };
      levels.forEach((s, l) => (args[`lv${l}`] = s));
      if (idx) args.idx = idx;
      ctx.runInternal(spec, args);
    } catch (e) {
      [kept, idx].forEach((s) => s?.dispose());
      throw e;
    }
    return shown(watch, 'compacted', { stream: kept, count, indices: idx });
  } finally {
    levels.forEach((s) => s.dispose());
  }
}

// ---- bitonic sort compaction ------------------------------------------------------------------

async function bitonicFilter(ctx: BrookContext, stream: Stream, keep: string, indices: boolean, watch: Watcher): Promise<FilterResult> {
  const n = stream.length;
  const keys = ctx.scratch('float', n);
  const flags = ctx.scratch('uint', n);
  let perm: Stream | null = null;
  try {
    ctx.runInternal(
      markKernel('sortkey', stream.type, keep, { key: 'float', flag: 'uint' }, 'key = keep ? 0.0 : 1.0;\nflag = keep ? 1u : 0u;'),
      { x: stream, key: keys, flag: flags },
    );
    watch('sort keys (0 = kept, 1 = null)', keys);
    perm = bitonicOrder(ctx, keys, watch);
    const count = (await ctx.reduce(flags, 'sum'))[0]!;
    if (count === 0) return { stream: null, count, indices: null };
    const kept = ctx.scratch(stream.type, count);
    let idx: Stream | null = null;
    try {
      ctx.runInternal(gatherByIndex(stream.type), { value: stream, order: perm, out_: kept });
      if (indices) {
        idx = ctx.scratch('uint', count);
        ctx.runInternal(orderIndex, { perm, idx });
      }
    } catch (e) {
      [kept, idx].forEach((s) => s?.dispose());
      throw e;
    }
    return shown(watch, 'compacted', { stream: kept, count, indices: idx });
  } finally {
    keys.dispose();
    flags.dispose();
    perm?.dispose();
  }
}

// ---- Horn's scan / search (the book) ---------------------------------------------------------

/** The chapter's kernels with `float4` records swapped for `type` (float2, float3 or float4). */
export function hornKernels(type: 'float2' | 'float3' | 'float4'): Record<string, KernelSpec> {
  const swap = (text: string) => text.replace(/\bfloat4\b/g, type);
  const a = parseBrook(swap(HORN_36_1));
  const b = parseBrook(swap(HORN_36_2));
  return { StartScan: a.StartScan!, Scan: a.Scan!, GatherSearch: a.GatherSearch!, RelGather: a.RelGather!, GatherSearchLoop: b.GatherSearch! };
}

/** Host parameters of the search: halfN = 2^k / 2, logN = k + 1, k = ceil(log2(nulls + 1)). */
export function searchParameters(nulls: number): { halfN: number; logN: number } {
  const k = Math.ceil(Math.log2(nulls + 1));
  return { halfN: 2 ** k / 2, logN: k + 1 };
}

const fill: KernelSpec = { name: 'Fill', uniforms: { v: 'float' }, outputs: { out_: 'float' }, body: 'out_ = v;' };
function gatherByTag(type: ElementType): KernelSpec {
  return {
    name: 'GatherByTag',
    inputs: { tag: 'float2' },
    gathers: { value: type },
    outputs: { kept: type, idx: 'uint' },
    body: 'kept = value(tag.x);\nidx = uint(tag.x);',
  };
}

async function hornFilter(
  ctx: BrookContext,
  stream: Stream,
  keep: string,
  method: 'scan-multipass' | 'scan-loop',
  direct: boolean,
  indices: boolean,
  watch: Watcher,
): Promise<FilterResult> {
  const n = stream.length;
  if (n > FLOAT_EXACT_LIMIT) {
    throw new BrookError(
      `the book's filter counts in float32, exact only up to 2^24 = ${FLOAT_EXACT_LIMIT} records; this stream has ${n}. ` +
        "Use method 'pyramid' (integer counts) for longer streams",
    );
  }
  const useData = direct && stream.info.components >= 2;
  const vtype = useData ? (stream.type as 'float2' | 'float3' | 'float4') : 'float2';
  const k = hornKernels(vtype);
  const temps: Stream[] = [];
  const scratch = (type: ElementType, len: number) => {
    const s = ctx.scratch(type, len);
    temps.push(s);
    return s;
  };
  try {
    let value = stream;
    if (!useData) {
      value = scratch('float2', n);
      ctx.runInternal(markKernel('tag', stream.type, keep, { tag: 'float2' }, 'tag = keep ? vec2(float(i), 0.0) : vec2(uintBitsToFloat(0x7f800000u));'), {
        x: stream,
        tag: value,
      });
    }
    // 36.1.1: running count of null records
    let count = scratch('float', n);
    ctx.runInternal(k.StartScan!, { value, count, here: iter(0, n), left_1: iter(-1, n - 1) });
    watch('StartScan: nulls among records i-1, i', count);
    for (let twotoi = 2; twotoi < n; twotoi *= 2) {
      const next = scratch('float', n);
      ctx.runInternal(k.Scan!, { input: count, count: next, here: iter(0, n), left_2toi: iter(-twotoi, n - twotoi), twotoi });
      count = next;
      watch(`Scan, twotoi = ${twotoi}`, count);
    }
    const last = scratch('float', 1);
    ctx.runInternal(pickLast, { src: count, at: n - 1, v: last });
    const nulls = (await last.read())[0]!;
    const m = n - nulls;
    if (m === 0) return { stream: null, count: 0, indices: null };
    const { halfN, logN } = searchParameters(nulls);
    // 36.1.2: search and gather
    let found: Stream;
    if (method === 'scan-multipass') {
      let guess = scratch('float', m);
      ctx.runInternal(fill, { v: halfN, out_: guess });
      let twotoi = halfN;
      for (let i = 0; i < logN; i++) {
        twotoi /= 2;
        const next = scratch('float', m);
        ctx.runInternal(k.GatherSearch!, { scatterValues: count, outGuess: next, value, twotoi, lastguess: guess, here: iter(0, m) });
        guess = next;
        watch(`GatherSearch ${i + 1}: guesses`, guess);
      }
      found = useData ? ctx.scratch(vtype, m) : scratch(vtype, m);
      ctx.runInternal(k.RelGather!, { outp: found, gatherindex: guess, value, here: iter(0, m) });
    } else {
      found = useData ? ctx.scratch(vtype, m) : scratch(vtype, m);
      ctx.runInternal(k.GatherSearchLoop!, { scatterValues: count, output: found, value, halfN, logN, here: iter(0, m) });
    }
    if (useData) return shown(watch, 'compacted', { stream: found, count: m, indices: null });
    watch('found (index, 0) tags', found);
    const kept = ctx.scratch(stream.type, m);
    const idx = indices ? ctx.scratch('uint', m) : scratch('uint', m);
    try {
      ctx.runInternal(gatherByTag(stream.type), { tag: found, value: stream, kept, idx });
    } catch (e) {
      kept.dispose();
      if (indices) idx.dispose();
      throw e;
    }
    return shown(watch, 'compacted', { stream: kept, count: m, indices: indices ? idx : null });
  } finally {
    temps.forEach((s) => s.dispose());
  }
}
