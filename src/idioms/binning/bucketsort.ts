/**
 * Bucket sort by binning (Oat, Barczak & Shopf 2009, section 4.3): the keys binned by value
 * into equal ranges, then gathered bin by bin in order.
 */
import type { BrookContext } from '../../core/context';
import { BrookError, check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import { Stream } from '../../core/stream';
import { scan } from '../scan';
import type { BinningMethod, Bins } from './bins';
import { binItems } from './build';
import { checkMethod } from './checks';
import { checkContext, checkInteger, checkOptions, checkStream } from '../../core/validate';

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
  ctx.runInternal(checkKeys, { v: keys, bad });
  const badCount = (await ctx.reduce(bad, 'sum'))[0]!;
  bad.dispose();
  if (badCount > 0) throw new BrookError(`bucketSort: ${badCount} key(s) are not integers in [0, 2^24); the binning sort stores keys exactly only there — use sortStream for other keys`);
  const items = ctx.scratch('float4', n);
  ctx.runInternal(toItems, { v: keys, item: items });
  let structure: Bins | null = null;
  const order = ctx.scratch('uint', bins);
  try {
    structure = await binItems(ctx, items, { mode: 'value', bins }, { method: options.method ?? 'delayed', capacity: 8 });
    ctx.runInternal(loadsInOrder, { loads: structure.loads, w: structure.width, n: order });
    const ends = scan(ctx, order);
    try {
      const total = (await ctx.reduce(order, 'sum'))[0]!;
      if (total !== n) {
        throw new BrookError(`bucketSort: only ${total} of ${n} keys were binned: the keys are not distinct (binning keeps one of each equal key); use sortStream for keys with duplicates`);
      }
      const slots = structure.pack();
      const out = ctx.stream('float', n);
      ctx.runInternal(gatherSorted, { ends, slots, bins, steps: Math.ceil(Math.log2(bins)) + 1, w: structure.width, h: structure.height, slotRows: structure.slotRows, sorted: out });
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
