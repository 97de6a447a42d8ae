/**
 * Brook reduce kernels: `reduce void sum(float a<>, reduce float r<>) { r += a; }`, run by
 * `ctx.run(sum, { a, r })` where `r` is a stream whose shape says what to reduce to:
 *
 * - one record: the whole stream (Brook's reduce to a value; `reduceValue` reads it back), in
 *   log passes folding REDUCE_FACTOR consecutive records each;
 * - a 1D stream of m records from n (m divides n): record k folds records k·n/m … (k+1)·n/m − 1;
 * - a 2D stream [h, w] from [H, W] (h divides H, w divides W): record (row, col) folds the
 *   H/h × W/w block at (row·H/h, col·W/w), row by row: 10×10 to 2×5 folds 5×2 blocks.
 *
 * Order: every fold runs in index order — `r` holds the result of the records before, `a` is
 * the next record — and the passes fold consecutive groups, so an associative operator gives
 * the sequential left-to-right result even when it does not commute (a matrix product).
 * Extra constant and gather arguments are passed by name as for any kernel.
 */
import { check } from '../core/errors';
import type { BrookContext } from '../core/context';
import type { Kernel } from '../core/kernel';
import type { KernelSpec, RunOptions } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import { Stream } from '../core/stream';
import { REDUCE_FACTOR } from '../core/reduce';

/** Runs reduce kernel `kernel` as its fold passes, each by `run` (lower.ts: counted while a write query is open). */
export function runReduceKernel(ctx: BrookContext, kernel: Kernel | KernelSpec, args: KernelArgs, options: RunOptions, run: (ctx: BrookContext, k: Kernel | KernelSpec, a: KernelArgs, o: RunOptions) => void): void {
  const spec = 'spec' in kernel ? kernel.spec : kernel;
  const meta = spec.brook!.reduce!;
  const where = (n: string) => `reduce kernel ${spec.name}, argument '${n}'`;
  check(!options.mask && !options.region, () => `reduce kernel ${spec.name}: masks and regions do not apply to reductions`);
  const src = args[meta.input];
  const out = args[meta.result];
  check(src instanceof Stream && !src.disposed, () => `${where(meta.input)}: pass the ${meta.type} stream to reduce`);
  check(out instanceof Stream && !out.disposed, () => `${where(meta.result)}: pass a ${meta.type} stream to reduce into (one record for a value)`);
  check(src.type === meta.type, () => `${where(meta.input)}: expected a ${meta.type} stream, got a ${src.describe()}`);
  check(out.type === meta.type, () => `${where(meta.result)}: expected a ${meta.type} stream, got a ${out.describe()}`);
  const extra: KernelArgs = { ...args };
  delete extra[meta.input];
  delete extra[meta.result];
  const pass = (from: Stream, into: Stream, span: number, block: [number, number], twoD: boolean) =>
    run(ctx, kernel, { ...extra, reduce_src: from, [meta.result]: into, reduce_n: from.length, reduce_span: span, reduce_block: block, reduce_2d: twoD }, {});

  if (out.length === 1) {
    let cur = src;
    while (cur.length > REDUCE_FACTOR) {
      const next = ctx.scratch(meta.type, Math.ceil(cur.length / REDUCE_FACTOR));
      pass(cur, next, REDUCE_FACTOR, [1, 1], false);
      if (cur !== src) cur.dispose();
      cur = next;
    }
    pass(cur, out, cur.length, [1, 1], false);
    if (cur !== src) cur.dispose();
    return;
  }
  const s = src.layout;
  const o = out.layout;
  if (s.dims === 2 && o.dims === 2) {
    const [H, W] = s.shape as [number, number];
    const [h, w] = o.shape as [number, number];
    check(
      H % h === 0 && W % w === 0,
      () => `${where(meta.result)}: a [${H}, ${W}] stream reduces to [h, w] only where h divides ${H} and w divides ${W}; got [${h}, ${w}]`,
    );
    pass(src, out, 1, [W / w, H / h], true);
    return;
  }
  check(
    s.dims === 1 && o.dims === 1,
    () => `${where(meta.result)}: reduce a 1D stream to a 1D stream and a 2D one to a 2D one (or either to one record); got a ${src.describe()} into a ${out.describe()}`,
  );
  check(
    src.length % out.length === 0,
    () => `${where(meta.result)}: ${src.length} records reduce to m records only where m divides ${src.length}; got ${out.length}`,
  );
  pass(src, out, src.length / out.length, [1, 1], false);
}

/**
 * Reduces with a Brook reduce kernel to one record and reads it back (Brook's reduce to a
 * value, `float total; sum(a, total);`). `args` holds the stream to reduce and any extra
 * constants and gathers; the result parameter is supplied.
 * @example const [total] = await reduceValue(ctx, sum, { a });
 */
export async function reduceValue(ctx: BrookContext, kernel: Kernel | import('../core/kernel').KernelSpec, args: KernelArgs): Promise<number[]> {
  ctx.guard();
  const spec = 'spec' in kernel ? kernel.spec : kernel;
  const reduce = spec.brook?.reduce;
  check(reduce, () => `reduceValue: kernel ${spec.name} is not a reduce kernel (reduce void ${spec.name}(T a<>, reduce T r<>))`);
  const r = ctx.scratch(reduce.type, 1);
  try {
    ctx.run(kernel, { ...args, [reduce.result]: r });
    return Array.from(await r.read());
  } finally {
    r.dispose();
  }
}
