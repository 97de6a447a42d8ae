/**
 * Argument checks shared by the public entry points: each throws a BrookError that names the
 * argument (`where`, e.g. "filter: options.keep") and says what to pass instead. They run
 * before any GL object is made, so a refused call leaves `ctx.stats()` unchanged.
 *
 * ```ts
 * checkContext(ctx, 'filter');
 * checkStream(ctx, stream, 'filter: stream');                 // live, and of this context
 * const o = checkOptions(options, 'filter: options');         // an object or undefined -> {}
 * checkInteger(o.capacity, 'binPoints: options.capacity', 1);
 * ```
 */
import { check } from './errors';
import { checkOwner, describeValue } from './checks';
import type { BrookContext } from './context';
import { Stream } from './stream';
import { StreamDomain } from './domain';

/** `ctx` is a live brookgl context (not disposed, not lost). */
export function checkContext(ctx: unknown, where: string): asserts ctx is BrookContext {
  const c = ctx as BrookContext | null;
  check(
    c !== null && typeof c === 'object' && typeof c.guard === 'function' && typeof c.stats === 'function',
    () => `${where}: the first argument must be a brookgl context (createContext()), got ${describeValue(ctx)}`,
  );
  c.guard();
}

/** `s` is a live stream made by `ctx` (a stream of another context would read zeros there). */
export function checkStream(ctx: BrookContext, s: unknown, where: string, types?: readonly string[]): asserts s is Stream {
  const want = types ? `a ${types.join(' or ')} stream` : 'a stream';
  check(s !== undefined && s !== null, () => `${where} is missing: pass ${want}`);
  check(s instanceof Stream, () => `${where}: expected ${want}, got ${describeValue(s)}`);
  check(!s.disposed, () => `${where}: the ${s.describe()} was disposed: pass a live stream`);
  checkOwner(ctx, s.ctx, where, s.describe());
  if (types) check(types.includes(s.type), () => `${where}: expected ${want}, got a ${s.describe()}`);
}

export * from './checks';
