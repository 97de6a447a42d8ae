/**
 * Bitonic sort (Batcher 1968; on GPUs Buck & Purcell, GPU Gems ch. 37), the sorting network the
 * Horn chapter compares its filter with: for n padded to a power of two P, log2 P stages of
 * 1..log2 P compare-exchange passes each, log2 P (log2 P + 1) / 2 passes in all, every pass a
 * full-stream kernel.
 *
 * ```ts
 * const { keys, payload, order } = sortStream(ctx, keys, { payload: values });
 * ```
 * Keys are float and sort ascending by a total order: -inf < negatives < -0 < +0 < positives <
 * +inf < NaN (every NaN last, in input order). Equal keys keep their input order (the sort is
 * stable: records compare as (key, original index)). `order` holds the original index of each
 * sorted record (uint, exact at any length).
 */
import BITONIC from '../../glsl/idioms/bitonic.glsl';
import BITONIC_STEP from '../../glsl/idioms/bitonic-step.glsl';
import { BrookContext, BrookError, ElementType, KernelSpec, Stream } from '../core/index';

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

const gathers = new Map<ElementType, KernelSpec>();

/** out = value[order[i].y]: the records in sorted order (a RelGather by absolute index). */
export function gatherByIndex(type: ElementType): KernelSpec {
  let spec = gathers.get(type);
  if (!spec) {
    gathers.set(
      type,
      (spec = { name: 'GatherByIndex', gathers: { value: type, order: 'uint2' }, outputs: { out_: type }, body: 'out_ = value(order(brook_index).y);' }),
    );
  }
  return spec;
}

/** Number of passes a bitonic sort of n records runs (after the init pass). */
export function bitonicPasses(n: number): number {
  const log = Math.ceil(Math.log2(Math.max(n, 1)));
  return (log * (log + 1)) / 2;
}

/**
 * Sorts records by (key, index) and returns the permutation as a uint2 stream (key bits,
 * original index) of the padded length (a power of two); the first n entries are the sorted
 * records. The caller disposes it.
 */
export function bitonicOrder(ctx: BrookContext, keys: Stream): Stream {
  if (!(keys instanceof Stream) || keys.disposed) throw new BrookError('sort needs a live stream of keys');
  if (keys.type !== 'float') throw new BrookError(`sort keys must be a float stream, got a ${keys.describe()}`);
  const n = keys.length;
  let padded = 1;
  while (padded < n) padded *= 2;
  if (padded > ctx.caps.maxRecords) {
    throw new BrookError(`bitonic sort pads ${n} records to ${padded}, beyond this device's ${ctx.caps.maxRecords}: sort at most ${ctx.caps.maxRecords} keys`);
  }
  let src = ctx.scratch('uint2', padded);
  ctx.run(init, { keys, n, sorted: src });
  for (let k = 2; k <= padded; k *= 2) {
    for (let j = k / 2; j >= 1; j /= 2) {
      const out = ctx.scratch('uint2', padded);
      ctx.run(step, { src, j, k, sorted: out });
      src.dispose();
      src = out;
    }
  }
  return src;
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
export function sortStream(ctx: BrookContext, keys: Stream, options: { payload?: Stream } = {}): SortResult {
  const { payload } = options;
  if (payload && (!(payload instanceof Stream) || payload.length !== keys.length)) {
    throw new BrookError(`sort: the payload must be a stream of ${keys.length} records like the keys`);
  }
  const perm = bitonicOrder(ctx, keys);
  const n = keys.length;
  const order = ctx.stream('uint', n);
  ctx.run(orderIndex, { perm, idx: order });
  const sortedKeys = ctx.stream('float', n);
  ctx.run(gatherByIndex('float'), { value: keys, order: perm, out_: sortedKeys });
  let sortedPayload: Stream | undefined;
  if (payload) {
    sortedPayload = ctx.stream(payload.type, n);
    ctx.run(gatherByIndex(payload.type), { value: payload, order: perm, out_: sortedPayload });
  }
  perm.dispose();
  return { keys: sortedKeys, payload: sortedPayload, order };
}
