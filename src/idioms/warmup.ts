/**
 * `warmup`: the first seconds of a page, paid ahead. A page's first call of each idiom links
 * its programs and allocates its textures (the pool is empty); measured on an NVIDIA H200
 * (bench suite `mixed`, alone, first call against the median of the next seven): sort 1M +
 * read 426 ms against 37, scan 4M + read 98 against 26, filter 4M 93 against 4.7, sum 4M 34
 * against 1.5. `await warmup(ctx, { n })` runs each named idiom once on n scratch records,
 * reads its answer and disposes it, so the programs are linked and the intermediate textures
 * of that size are in the pool when the page's own first call comes.
 *
 * ```ts
 * const ctx = createContext();
 * await warmup(ctx, { n: 1 << 22, ops: ['sum', 'scan', 'sort'] });   // behind a loading screen
 * ```
 *
 * What it cannot do: keep the GPU's clocks up. A GPU that idled for a second or more lowers
 * its clocks, and the next few calls run slower until the driver raises them (docs/benchmarks.md,
 * "brookgl in a mixed page"); a warm-up long before the work does not help with that.
 *
 * It lives with the idioms, not on the context: src/core knows nothing of sort, scan or filter.
 */
import { BrookError } from '../core/errors';
import type { BrookContext } from '../core/context';
import { checkContext, checkOptions, checkInteger, describeValue } from '../core/validate';
import { scan } from './scan';
import { sortStream, type SortMethod } from './sort';
import { filter } from './filter';

/** What `warmup` can run ahead. */
export type WarmupOp = 'sum' | 'scan' | 'sort' | 'filter' | 'read';
export const WARMUP_OPS: readonly WarmupOp[] = ['sum', 'scan', 'sort', 'filter', 'read'];

export interface WarmupOptions {
  /** Records of the scratch float stream: the size the page will use (pool textures are kept by shape). Default 2^20. */
  n?: number;
  /** Idioms to run once each; default all of WARMUP_OPS. */
  ops?: readonly WarmupOp[];
  /** filter's predicate (programs are linked per predicate); default 'x > 0.5'. */
  keep?: string;
  /** sortStream's method; default its own default. A payload is sorted along when `payload` is true (default true). */
  sortMethod?: SortMethod;
  payload?: boolean;
}

export interface WarmupResult {
  /** Wall-clock milliseconds of the whole warm-up, the answers read back. */
  ms: number;
  /** Milliseconds of each idiom's run. */
  perOp: Partial<Record<WarmupOp, number>>;
}

/** Runs each of `options.ops` once on `options.n` scratch records and waits for the answers (see the module's comment). */
export async function warmup(ctx: BrookContext, options: WarmupOptions = {}): Promise<WarmupResult> {
  checkContext(ctx, 'warmup');
  const o = checkOptions(options, 'warmup: options');
  for (const key of Object.keys(o)) {
    if (!['n', 'ops', 'keep', 'sortMethod', 'payload'].includes(key)) throw new BrookError(`warmup: unknown option '${key}' (options.${key}): the options are n, ops, keep, sortMethod, payload`);
  }
  const n = o.n ?? 1 << 20;
  checkInteger(n, 'warmup: options.n', 1, ctx.caps.maxRecords);
  const ops: readonly WarmupOp[] = o.ops ?? WARMUP_OPS;
  if (!Array.isArray(ops as unknown)) throw new BrookError(`warmup: options.ops must be an array of ${WARMUP_OPS.join(', ')}, got ${describeValue(ops)}`);
  for (const op of ops) {
    if (!WARMUP_OPS.includes(op)) throw new BrookError(`warmup: unknown op ${typeof op === 'string' ? `'${op}'` : describeValue(op)} in options.ops: use ${WARMUP_OPS.join(', ')}`);
  }
  if (o.payload !== undefined && typeof o.payload !== 'boolean') throw new BrookError(`warmup: options.payload must be true or false, got ${describeValue(o.payload)}`);
  const started = performance.now();
  const perOp: Partial<Record<WarmupOp, number>> = {};
  // values in [0, 1) (a fixed pattern: filter keeps about half, sort has work to do)
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) values[i] = ((i * 2654435761) >>> 0) / 4294967296;
  const x = ctx.stream('float', n, values);
  try {
    for (const op of ops) {
      const t0 = performance.now();
      if (op === 'sum') await ctx.reduce(x, 'sum');
      else if (op === 'read') await x.read();
      else if (op === 'scan') {
        const r = scan(ctx, x);
        try {
          await r.read();
        } finally {
          r.dispose();
        }
      } else if (op === 'filter') {
        const r = await filter(ctx, x, { keep: o.keep ?? 'x > 0.5' });
        await ctx.queries.fence();
        r.stream?.dispose();
      } else {
        const payload = o.payload === false ? undefined : ctx.stream('uint', n);
        try {
          const r = sortStream(ctx, x, { payload, method: o.sortMethod });
          try {
            await r.keys.read();
          } finally {
            [r.keys, r.payload, r.order].forEach((t) => t?.dispose());
          }
        } finally {
          payload?.dispose();
        }
      }
      perOp[op] = performance.now() - t0;
    }
  } finally {
    x.dispose();
  }
  return { ms: performance.now() - started, perOp };
}
