/**
 * Sorting float keys, ascending and stable, carrying a payload, three ways.
 *
 * - `'radix'` (the default on a GPU): an LSD radix sort with 4-bit digits, 8 digit passes, the
 *   digit counts in a pyramid stored digit by digit so that each level of a record's descent is
 *   one texel fetch (radix16.ts).
 * - `'radix-2bit'`: the first form, an LSD radix sort of the keys' 32-bit sortable
 *   patterns, two bits a pass: 16 digit passes, each counting the digits of every group of four
 *   records (level 1 of a 4-way histogram pyramid, as the filter builds for its flags, here with
 *   a uvec4 of four digit counts a node), summing the pyramid up to its root, then placing every
 *   record: each output record descends the pyramid by its digit's counts to the record that
 *   belongs there (a gather; `radixOrder(ctx, keys, 'points')` instead down-sweeps the pyramid
 *   to prefixes, as scan.ts does, and scatters every record with one POINTS draw whose vertex
 *   shader computes its place, glsl/idioms/radix-scatter.vert.glsl). O(n) work a digit:
 *   ceil(log4 n) + 2 passes, the count pass and the placement touching every record once,
 *   against the bitonic network's log2 n (log2 n + 1) / 2 full passes.
 * - `'bitonic'`: the sorting network (Batcher 1968; on GPUs Buck & Purcell, GPU Gems ch. 37)
 *   that the Horn chapter compares its filter with: for n padded to a power of two P, log2 P
 *   stages of 1..log2 P compare-exchange passes each, log2 P (log2 P + 1) / 2 passes in all,
 *   every pass a full-stream kernel.
 *
 * ```ts
 * const { keys, payload, order } = sortStream(ctx, keys, { payload: values });
 * const book = sortStream(ctx, keys, { method: 'bitonic' });
 * ```
 * Keys are float and sort ascending by a total order: -inf < negatives < -0 < +0 < positives <
 * +inf < NaN (every NaN last, in input order). Equal keys keep their input order (the sort is
 * stable: the radix passes are stable; the network compares records as (key, original index)).
 * `order` holds the original index of each sorted record (uint, exact at any length).
 */
import BITONIC from '../../glsl/idioms/bitonic.glsl';
import BITONIC_STEP from '../../glsl/idioms/bitonic-step.glsl';
import RADIX_COUNT from '../../glsl/idioms/radix-count.glsl';
import RADIX_SCATTER_VERT from '../../glsl/idioms/radix-scatter.vert.glsl';
import RADIX_SCATTER_FRAG from '../../glsl/idioms/radix-scatter.frag.glsl';
import { runPass, type ShaderStage } from '../core/pass';
import { BrookContext, BrookError, ElementType, KernelSpec, Stream } from '../core/index';
import { pyramidPrefixes, sumPyramid } from './scan';
import { digitPasses, radix16Sort } from './radix16';

export type SortMethod = 'radix' | 'radix-2bit' | 'bitonic';
export const SORT_METHODS: readonly SortMethod[] = ['radix', 'radix-2bit', 'bitonic'];
import { checkContext, checkOptions, checkStream } from '../core/validate';

const init: KernelSpec = {
  name: 'BitonicInit',
  gathers: { keys: 'float' },
  uniforms: { n: 'int' },
  outputs: { sorted: 'uint2' },
  helpers: BITONIC,
  body: 'sorted = brook_index < n ? uvec2(brook_sortable(keys(brook_index)), uint(brook_index)) : uvec2(0xffffffffu, uint(brook_index));',
};

const step: KernelSpec = {
  name: 'BitonicStep',
  gathers: { src: 'uint2' },
  uniforms: { j: 'int', k: 'int' },
  outputs: { sorted: 'uint2' },
  helpers: BITONIC,
  body: BITONIC_STEP,
};

/** The original indices of the first records of a permutation. */
export const orderIndex: KernelSpec = {
  name: 'OrderIndex',
  gathers: { perm: 'uint2' },
  outputs: { idx: 'uint' },
  body: 'idx = perm(brook_index).y;',
};

/** out = value[order[i].y]: the records in sorted order (a RelGather by absolute index). */
export function gatherByIndex(type: ElementType): KernelSpec {
  return { name: 'GatherByIndex', gathers: { value: type, order: 'uint2' }, outputs: { out_: type }, body: 'out_ = value(order(brook_index).y);' };
}

/** Number of passes a bitonic sort of n records runs (after the init pass). */
export function bitonicPasses(n: number): number {
  const log = Math.ceil(Math.log2(Math.max(n, 1)));
  return (log * (log + 1)) / 2;
}

/**
 * Sorts records by (key, index) and returns the permutation as a uint2 stream (key bits,
 * original index) of the padded length (a power of two); the first n entries are the sorted
 * records. The caller disposes it. `watch`, if given, sees the permutation after every pass.
 */
export function bitonicOrder(ctx: BrookContext, keys: Stream, watch?: (label: string, s: Stream) => void): Stream {
  checkKeys(ctx, keys);
  const n = keys.length;
  let padded = 1;
  while (padded < n) padded *= 2;
  if (padded > ctx.caps.maxRecords) {
    throw new BrookError(`bitonic sort pads ${n} records to ${padded}, beyond this device's ${ctx.caps.maxRecords}: sort at most ${ctx.caps.maxRecords} keys`);
  }
  let src = ctx.scratch('uint2', padded);
  try {
    ctx.runInternal(init, { keys, n, sorted: src });
    for (let k = 2; k <= padded; k *= 2) {
      for (let j = k / 2; j >= 1; j /= 2) {
        const out = ctx.scratch('uint2', padded);
        try {
          ctx.runInternal(step, { src, j, k, sorted: out });
        } catch (e) {
          out.dispose();
          throw e;
        }
        src.dispose();
        src = out;
        watch?.(`bitonic stage k = ${k}, j = ${j}`, src); // (a watcher that throws: src is released below)
      }
    }
    return src;
  } catch (e) {
    src.dispose();
    throw e;
  }
}

const radixInit: KernelSpec = {
  name: 'RadixInit',
  inputs: { key: 'float' },
  outputs: { rec: 'uint2' },
  helpers: BITONIC,
  body: 'rec = uvec2(brook_sortable(key), uint(brook_index));',
};

const radixCount: KernelSpec = {
  name: 'Radix4Count', // the 2-bit digits' four counts per group of four records (radix16.ts's is Radix16Count)
  gathers: { src: 'uint2' },
  uniforms: { shift: 'int', n: 'int' },
  outputs: { counts: 'uint4' },
  body: RADIX_COUNT,
};

/** Bits of the sort key each radix pass sorts by. */
export const RADIX_BITS = 2;

/** Levels of the digit-count pyramid of n records: ceil(n / 4) counts, then sums of four up to a root of one. */
function countLevels(n: number): number {
  let levels = 1;
  for (let len = Math.ceil(n / 4); len > 1; len = Math.ceil(len / 4)) levels++;
  return levels;
}

/** How a radix pass moves each record to its place (radixOrder's `placement`). */
export type RadixPlacement = 'descent' | 'points';

/**
 * Passes a radix sort of n records runs: an init pass, then per digit a count pass, the
 * pyramid's levels up, and the placement — one gather pass ('descent'), or the down-sweep and
 * a POINTS scatter ('points').
 */
export function radixPasses(n: number, placement: RadixPlacement = 'descent'): number {
  const up = countLevels(n) - 1;
  return 1 + (32 / RADIX_BITS) * (placement === 'descent' ? 2 + up : 2 + 2 * up);
}

/**
 * The gather form of a radix pass's placement for a pyramid of `levels` count levels: output
 * record p finds its digit d from the root's totals and its rank k among the records of digit
 * d, then descends the pyramid by the counts of d (the filter's histogram-pyramid descent,
 * Ziegler et al. 2006, per digit) to the group of four records holding it.
 */
export function radixDescent(levels: number): KernelSpec {
  const gathers: Record<string, ElementType> = { src: 'uint2' };
  for (let l = 0; l < levels; l++) gathers[`lv${l}`] = 'uint4';
  const lines = [
    'uint k = uint(brook_index);',
    `uvec4 total = lv${levels - 1}(0);`,
    'int d = 3;',
    'for (int c = 0; c < 3; c++) { if (k < total[c]) { d = c; break; } k -= total[c]; }',
    'int j = 0;',
  ];
  for (let l = levels - 2; l >= 0; l--) {
    lines.push(
      `{ // level ${l + 1} of the counts`,
      '  int b = j * 4;',
      `  uint c = lv${l}(b)[d];`,
      '  if (k < c) j = b;',
      `  else { k -= c; c = lv${l}(b + 1)[d];`,
      '    if (k < c) j = b + 1;',
      `    else { k -= c; c = lv${l}(b + 2)[d];`,
      '      if (k < c) j = b + 2; else { k -= c; j = b + 3; } } }',
      '}',
    );
  }
  lines.push(
    '// the k-th record of digit d among records 4j..4j+3',
    'placed = src(j * 4 + 3);',
    'for (int m = j * 4; m < j * 4 + 3; m++) {',
    '  uvec2 r = src(m);',
    '  if (int((r.x >> uint(shift)) & 3u) == d) { if (k == 0u) { placed = r; break; } k -= 1u; }',
    '}',
  );
  return { name: `RadixDescent<${levels}>`, gathers, uniforms: { shift: 'int' }, outputs: { placed: 'uint2' }, body: lines.join('\n') };
}

/**
 * Sorts records by (key, index) with an LSD radix sort and returns the permutation as a uint2
 * stream (sortable key bits, original index) of n records. The caller disposes it.
 * `placement`: 'descent' (default; every output record gathers its source by descending the
 * digit-count pyramid: fragment passes only) or 'points' (the pyramid is down-swept to prefixes
 * and every record scatters itself with a POINTS draw).
 */
export function radixOrder(ctx: BrookContext, keys: Stream, placement: RadixPlacement = 'descent'): Stream {
  checkKeys(ctx, keys);
  if (placement !== 'descent' && placement !== 'points') throw new BrookError(`radix placement must be 'descent' or 'points', got '${String(placement)}'`);
  const n = keys.length;
  const levels = countLevels(n);
  if (placement === 'descent' && levels + 1 > ctx.caps.maxTextureImageUnits) {
    throw new BrookError(`a radix sort of ${n} keys descends ${levels} pyramid levels, more than this device's ${ctx.caps.maxTextureImageUnits - 1} texture units allow: use method 'bitonic'`);
  }
  const rec = ctx.scratch('uint2', n);
  try {
    ctx.runInternal(radixInit, { key: keys, rec });
  } catch (e) {
    rec.dispose();
    throw e;
  }
  return digitPasses(ctx, rec, RADIX_BITS, (src, shift, scratch, temps) => {
    const counts = scratch('uint4', Math.ceil(n / 4));
    ctx.runInternal(radixCount, { src, shift, n, counts });
    const placed = scratch('uint2', n);
    if (placement === 'descent') {
      const lv: Stream[] = [counts];
      sumPyramid(ctx, lv, 1, 'RadixLevel', temps);
      const args: Record<string, Stream | number> = { src, shift, placed };
      lv.forEach((s, l) => (args[`lv${l}`] = s));
      ctx.runInternal(radixDescent(lv.length), args);
    } else {
      scatterPoints(ctx, src, counts, placed, shift, temps);
    }
    return placed;
  });
}

/**
 * Sorts records by (key, index) with the 4-bit-digit radix sort (radix16.ts) and returns the
 * permutation as a uint2 stream (sortable key bits, original index) of n records. The caller
 * disposes it.
 */
export function radix16Order(ctx: BrookContext, keys: Stream): Stream {
  checkKeys(ctx, keys);
  const rec = ctx.scratch('uint2', keys.length);
  try {
    ctx.runInternal(radixInit, { key: keys, rec });
  } catch (e) {
    rec.dispose();
    throw e;
  }
  return radix16Sort(ctx, rec);
}

const RADIX_SCATTER: ShaderStage = { glsl: RADIX_SCATTER_VERT, gathers: { src: 'uint2', prefix: 'uint4', root: 'uint4' } };
const RADIX_PLACED: ShaderStage = { glsl: RADIX_SCATTER_FRAG };

/** The 'points' placement: down-sweep the counts to prefixes, then one POINTS draw. */
function scatterPoints(ctx: BrookContext, src: Stream, counts: Stream, out: Stream, shift: number, temps: Stream[]): void {
  const pyramid = pyramidPrefixes(ctx, counts);
  temps.push(...pyramid.temps);
  runPass(ctx, {
    name: 'RadixScatter',
    kind: 'scatter',
    vertex: RADIX_SCATTER,
    fragment: RADIX_PLACED,
    primitive: 'points',
    count: src.length,
    targets: [out],
    gathers: { src, prefix: pyramid.prefix ?? pyramid.root, root: pyramid.root },
    uniforms: { hasPrefix: pyramid.prefix !== null, shift },
  });
}

function checkKeys(ctx: BrookContext, keys: Stream): void {
  checkContext(ctx, 'sort');
  checkStream(ctx, keys, 'sort: keys', ['float']);
}

export interface SortOptions {
  /** Records of any type, one per key, carried into the keys' order. */
  payload?: Stream;
  /**
   * 'radix' (4-bit digits; the default on a GPU: the fewest passes and texel fetches),
   * 'radix-2bit' (the first radix sort) or 'bitonic' (the book's network; the default on a
   * software renderer, where the radix sort's count and placement passes cost more ALU than
   * the network's two-fetch passes: SwiftShader at 256k keys with a payload, keys read back,
   * 2.2 s against 3.9 s, bench-results/sort.json). All give the same order.
   */
  method?: SortMethod;
}

export interface SortResult {
  /** The keys in ascending order. */
  keys: Stream;
  /** The payload records in the keys' order, when a payload was given. */
  payload?: Stream;
  /** For each sorted position, the record's original index (uint). */
  order: Stream;
}

/** Sorts float `keys` ascending (stable), carrying an optional payload stream of the same length. */
export function sortStream(ctx: BrookContext, keys: Stream, options: SortOptions = {}): SortResult {
  checkContext(ctx, 'sortStream');
  checkStream(ctx, keys, 'sortStream: keys', ['float']);
  const { payload, method: chosen } = checkOptions(options, 'sortStream: options');
  const method = chosen ?? (ctx.caps.software ? 'bitonic' : 'radix');
  if (!SORT_METHODS.includes(method)) throw new BrookError(`sortStream: unknown sort method '${String(method)}' (options.method): use one of ${SORT_METHODS.join(', ')}`);
  if (payload !== undefined) {
    checkStream(ctx, payload, 'sortStream: options.payload');
    if (payload.length !== keys.length) {
      throw new BrookError(`sortStream: options.payload must be a stream of ${keys.length} records like the keys, got a ${payload.describe()}`);
    }
  }
  // the CPU backend (src/cpu/idioms.ts) sorts through src/reference
  if ((ctx as unknown as { backend?: string }).backend === 'cpu') return (ctx as unknown as { sortRecords(k: Stream, p?: Stream): SortResult }).sortRecords(keys, payload);
  const perm = method === 'radix' ? radix16Order(ctx, keys) : method === 'radix-2bit' ? radixOrder(ctx, keys) : bitonicOrder(ctx, keys);
  const n = keys.length;
  const made: Stream[] = [];
  try {
    const order = ctx.stream('uint', n);
    made.push(order);
    ctx.runInternal(orderIndex, { perm, idx: order });
    const sortedKeys = ctx.stream('float', n);
    made.push(sortedKeys);
    ctx.runInternal(gatherByIndex('float'), { value: keys, order: perm, out_: sortedKeys });
    let sortedPayload: Stream | undefined;
    if (payload) {
      sortedPayload = ctx.stream(payload.type, n);
      made.push(sortedPayload);
      ctx.runInternal(gatherByIndex(payload.type), { value: payload, order: perm, out_: sortedPayload });
    }
    return { keys: sortedKeys, payload: sortedPayload, order };
  } catch (e) {
    made.forEach((s) => s.dispose()); // a failure (out of memory, lost context) leaves nothing behind
    throw e;
  } finally {
    perm.dispose();
  }
}
