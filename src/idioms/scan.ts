/**
 * Scan (running sum), as in Horn's section 36.1.1 (Hillis & Steele 1986): ceil(log2 n) passes,
 * pass i adding the record 2^i to the left. O(n log n) work, every pass a full-stream kernel.
 *
 * ```ts
 * const sums = scan(ctx, counts);                       // inclusive
 * const offsets = scan(ctx, counts, { exclusive: true }); // exclusive: the first record is 0
 * ```
 * On int and uint streams the sums are exact (modulo 2^32), whatever the length: that is the
 * form to use for counts and indices. Float streams give float32 sums.
 */
import SCAN_STEP from '../../glsl/idioms/scan-step.glsl';
import SCAN_EXCLUSIVE from '../../glsl/idioms/scan-exclusive.glsl';
import { BrookContext, BrookError, ElementType, KernelSpec, Stream } from '../core/index';

export interface ScanOptions {
  /** Exclusive scan (sum of the records strictly to the left). Default: inclusive. */
  exclusive?: boolean;
}

const steps = new Map<ElementType, KernelSpec>();
const shifts = new Map<ElementType, KernelSpec>();

function kernel(cache: Map<ElementType, KernelSpec>, type: ElementType, name: string, body: string, uniforms = {}): KernelSpec {
  let spec = cache.get(type);
  if (!spec) cache.set(type, (spec = { name, gathers: { src: type }, uniforms, outputs: { sum: type }, body }));
  return spec;
}

/** Running sums of `stream` in a new stream of the same type and shape (the caller disposes it). */
export function scan(ctx: BrookContext, stream: Stream, options: ScanOptions = {}): Stream {
  if (!(stream instanceof Stream) || stream.disposed) throw new BrookError('scan needs a live stream');
  const step = kernel(steps, stream.type, 'Scan', SCAN_STEP, { offset: 'int' });
  const n = stream.length;
  const shape = stream.layout.dims === 2 ? (stream.shape as [number, number]) : n;
  let src = stream;
  for (let offset = 1; offset < n || src === stream; offset *= 2) {
    const out = ctx.scratch(stream.type, shape);
    ctx.run(step, { src, offset, sum: out });
    if (src !== stream) src.dispose();
    src = out;
  }
  if (options.exclusive) {
    const out = ctx.scratch(stream.type, shape);
    ctx.run(kernel(shifts, stream.type, 'ScanExclusive', SCAN_EXCLUSIVE), { src, sum: out });
    src.dispose();
    src = out;
  }
  return src;
}
