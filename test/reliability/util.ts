// Helpers of the reliability specs: a refused call must throw (or reject with) a BrookError
// whose message matches, and leave ctx.stats() exactly as it was.
import { expect } from 'chai';
import type { BrookContext, Stats } from '../../src/index';

/** How long an operation may take to settle before the spec calls it a hang. */
export const HANG_MS = 10_000;

/** Settles with `p`, or rejects with "hang" after `ms`. */
export function withinTime<T>(p: Promise<T>, ms = HANG_MS, what = 'operation'): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle in ${ms} ms`)), ms)));
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

/** The error `fn` throws or its promise rejects with (undefined when it succeeds). */
export async function caught(fn: () => unknown, what = 'call'): Promise<unknown> {
  try {
    const r = fn();
    if (r && typeof (r as Promise<unknown>).then === 'function') await withinTime(r as Promise<unknown>, HANG_MS, what);
  } catch (e) {
    return e;
  }
  return undefined;
}

export function expectBrookErrorValue(e: unknown, pattern: RegExp, what = 'call'): void {
  expect(e, `${what}: expected a BrookError matching ${pattern}, but it succeeded`).to.not.equal(undefined);
  expect(e, `${what}: ${String(e)}`).to.be.instanceOf(Error);
  expect((e as Error).name, `${what}: ${String((e as Error).stack ?? e)}`).to.equal('BrookError');
  expect((e as Error).message, what).to.match(pattern);
}

/**
 * Asserts that `fn` (sync or async) fails with a BrookError matching `pattern` and that
 * `ctx.stats()` is the same after the failure as before it.
 */
export async function refuses(ctx: BrookContext, fn: () => unknown, pattern: RegExp, what = pattern.source): Promise<void> {
  const before = ctx.stats();
  const e = await caught(fn, what);
  expectBrookErrorValue(e, pattern, what);
  expectSameStats(ctx, before, what);
}

export function expectSameStats(ctx: BrookContext, before: Stats, what = 'after the failure'): void {
  expect(ctx.stats(), `ctx.stats() changed: ${what}`).to.deep.equal(before);
}
