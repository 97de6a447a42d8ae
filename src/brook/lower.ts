/**
 * Brook's kernel kinds lowered onto core's plain run, in one place: `ctx.run` offers every call
 * here first (core's installLowering) and runs the kernel itself when this answers false.
 *
 * - A reduce kernel called by its own parameters (`ctx.run(sum, { a, r })`) runs as its fold
 *   passes (reducekernel.ts).
 * - While a write query is open (writequery.ts), a run gets the counting output added; so does
 *   each fold pass of a reduce kernel.
 *
 * Both end in core's runKernel, which never comes back here.
 */
import type { BrookContext } from '../core/context';
import { Kernel, type KernelArgs, type KernelSpec, type RunOptions } from '../core/kernel';
import { installLowering, runKernel } from '../core/run';
import { runReduceKernel } from './reducekernel';

/** What lowering needs of an open write query: a run with the counting output added. */
export interface OpenQuery {
  run(given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): void;
}

const openQueries = new WeakMap<BrookContext, OpenQuery>();

/** The write query open on `ctx`, if any. */
export function openQueryOn(ctx: BrookContext): OpenQuery | undefined {
  return openQueries.get(ctx);
}

/** Opens (or, with undefined, closes) the write query of `ctx`. */
export function setOpenQuery(ctx: BrookContext, query: OpenQuery | undefined): void {
  if (query) openQueries.set(ctx, query);
  else openQueries.delete(ctx);
}

/** Core's plain run, counted when a write query is open (z-mask builds never are). */
function runCounted(ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): void {
  const query = options.build ? undefined : openQueries.get(ctx);
  if (query) query.run(given, args, options);
  else runKernel(ctx, given, args, options);
}

function lowerBrook(ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): boolean {
  const spec = given instanceof Kernel ? given.spec : given;
  if (spec?.reduceOf && args && typeof args === 'object' && !('reduce_src' in args)) {
    runReduceKernel(ctx, given, args, options, runCounted);
    return true;
  }
  if (options.build || !openQueries.has(ctx)) return false;
  runCounted(ctx, given, args, options);
  return true;
}

/** Installs Brook's lowering (idempotent): parseBrook and the write query's constructor call it. */
export function useBrookKinds(): void {
  installLowering(lowerBrook);
}
