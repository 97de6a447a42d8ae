/**
 * The idioms a Brook program calls, on the CPU backend, through src/reference: filter (a
 * predicate of x and i, or the sentinel), scan (inclusive or exclusive) and sortStream. The
 * idioms' modules (src/idioms) call these for a CPU context after checking their arguments, so
 * the options and errors are theirs; a `method` choice and `watch` are the GPU's passes and are
 * not used here. Sums are in double precision, in record order (scanReference), stored as the
 * stream's type; the sort is src/reference's stable order (-0 before +0, NaN last).
 */
import { parseBrook } from '../brook/compile';
import { iter } from '../core/kernelspec';
import type { Stream } from '../core/stream';
import { filterReference, sortOrderReference } from '../reference/filter';
import { scanReference } from '../reference/reduce';
import type { CpuContext } from './context';
import type { CpuStream } from './stream';

const shapeOf = (s: Stream): number | number[] => (s.layout.dims === 1 ? s.length : [...s.shape]);

/** scan on the CPU: a stream of the running sums, of `stream`'s type and shape. */
export function cpuScan(ctx: CpuContext, stream: Stream, exclusive: boolean): Stream {
  const s = stream as CpuStream;
  return ctx.stream(s.type, shapeOf(s) as never, scanReference(s.data, s.info.components, exclusive));
}

/** sortStream on the CPU: the keys ascending (stable), the payload in their order, the order. */
export function cpuSort(ctx: CpuContext, keys: Stream, payload?: Stream): { keys: Stream; payload?: Stream; order: Stream } {
  const k = keys as CpuStream;
  const order = sortOrderReference(k.data);
  const n = order.length;
  const sortedKeys = ctx.stream('float', n, Float32Array.from(order, (i) => k.data[i]!));
  const out: { keys: Stream; payload?: Stream; order: Stream } = { keys: sortedKeys, order: ctx.stream('uint', n, Uint32Array.from(order)) };
  if (payload) {
    const p = payload as CpuStream;
    const c = p.info.components;
    const data = new (p.data.constructor as Float32ArrayConstructor)(n * c);
    order.forEach((i, j) => {
      for (let m = 0; m < c; m++) data[j * c + m] = p.data[i * c + m]!;
    });
    out.payload = ctx.stream(p.type, n, data);
  }
  return out;
}

const keepKernels = new Map<string, ReturnType<typeof parseBrook>[string]>();

/**
 * filter on the CPU: the records whose predicate holds (a Brook expression of x and i, compiled
 * by the front end and run by the CPU backend as a kernel), or that are not null (+inf first).
 */
export function cpuFilter(ctx: CpuContext, stream: Stream, keep: string | undefined, indices: boolean): { stream: Stream | null; count: number; indices: Stream | null } {
  const s = stream as CpuStream;
  const c = s.info.components;
  let flags: ArrayLike<number> | undefined;
  if (keep !== undefined) {
    const key = `${s.type}\n${keep}`;
    let k = keepKernels.get(key);
    if (!k) {
      k = parseBrook(`kernel void brook_keep(${s.type} x<>, iter float brook_i<>, out float brook_k<>) {\n  int i = int(brook_i);\n  brook_k = (${keep}) ? 1.0 : 0.0;\n}`).brook_keep!;
      keepKernels.set(key, k);
    }
    const n = s.length;
    const f = ctx.stream('float', n);
    try {
      // x of any shape: the same record index as the 1D flags (row-major)
      ctx.run(k, { x: s, brook_i: iter(0, n), brook_k: f });
      flags = (f as CpuStream).data.slice();
    } finally {
      f.dispose();
    }
  }
  const kept = filterReference(s.data, c, (rec, i) => (flags ? flags[i] !== 0 : rec[0] !== Infinity));
  const count = kept.indices.length;
  if (count === 0) return { stream: null, count, indices: null };
  const data = new (s.data.constructor as Float32ArrayConstructor)(kept.values);
  return { stream: ctx.stream(s.type, count, data), count, indices: indices ? ctx.stream('uint', count, Uint32Array.from(kept.indices)) : null };
}
