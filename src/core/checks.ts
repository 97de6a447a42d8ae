/**
 * Checks of plain values (numbers, strings, options objects, functions) and the description of
 * any value for messages: each throws a BrookError that names the argument (`where`) and says
 * what to pass instead. No runtime class is imported here, so every core module may use them;
 * the checks of contexts and streams are in validate.ts (which re-exports these).
 */
import { check } from './errors';

/** A short description of any value for messages: "number NaN", "string 'x'", "null", "a float4 stream of 8 records". */
export function describeValue(v: unknown): string {
  // streams and domains describe themselves (duck-typed: this module imports no runtime class)
  if (typeof v === 'object' && v !== null && 'type' in v && typeof (v as { describe?: unknown }).describe === 'function') return `a ${(v as unknown as { describe(): string }).describe()}`;
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `string '${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'bigint') return `bigint ${v}`;
  if (typeof v === 'object') {
    const name = (v as object).constructor?.name;
    return name && name !== 'Object' ? `a ${name}` : 'an object';
  }
  return `${typeof v} ${String(v)}`;
}

/** `owner` (of a stream, kernel or mask) is `ctx`: GL objects cannot cross contexts. */
export function checkOwner(ctx: object, owner: object, where: string, what: string): void {
  check(
    owner === ctx,
    () => `${where}: the ${what} belongs to another brookgl context; a stream, kernel or mask works only in the context that made it (copy the data across with read() and write())`,
  );
}

/** An options object, or undefined (then {}); null, numbers, strings and arrays are refused. */
export function checkOptions<T extends object>(options: T | undefined, where: string): Partial<T> {
  if (options === undefined) return {};
  check(
    options !== null && typeof options === 'object' && !Array.isArray(options),
    () => `${where} must be an object of options, got ${describeValue(options)}`,
  );
  return options;
}

/** A required options object. */
export function checkRequired<T extends object>(options: T | undefined, where: string, example: string): T {
  check(options !== undefined && options !== null, () => `${where} is missing: pass ${example}`);
  return checkOptions(options, where) as T;
}

/** A finite number (optionally within [min, max]). */
export function checkNumber(v: unknown, where: string, min = -Infinity, max = Infinity): asserts v is number {
  check(typeof v === 'number' && Number.isFinite(v), () => `${where} must be a finite number, got ${describeValue(v)}`);
  check(v >= min && v <= max, () => `${where} must be ${range(min, max)}, got ${v}`);
}

/** An integer within [min, max]. */
export function checkInteger(v: unknown, where: string, min = -Infinity, max = Infinity): asserts v is number {
  check(typeof v === 'number' && Number.isInteger(v), () => `${where} must be an integer, got ${describeValue(v)}`);
  check(v >= min && v <= max, () => `${where} must be ${range(min, max)}, got ${v}`);
}

/** A function (a callback). */
export function checkFunction(v: unknown, where: string, example: string): asserts v is (...args: never[]) => unknown {
  check(v !== undefined && v !== null, () => `${where} is missing: pass ${example}`);
  check(typeof v === 'function', () => `${where} must be a function (${example}), got ${describeValue(v)}`);
}

/** A non-empty string. */
export function checkString(v: unknown, where: string, example: string): asserts v is string {
  check(v !== undefined && v !== null, () => `${where} is missing: pass ${example}`);
  check(typeof v === 'string' && v.trim().length > 0, () => `${where} must be a non-empty string (${example}), got ${describeValue(v)}`);
}

/** One of a fixed set of values. */
export function checkOneOf<T>(v: unknown, allowed: readonly T[], where: string): asserts v is T {
  check(allowed.includes(v as T), () => `${where} must be one of ${allowed.map((a) => `'${String(a)}'`).join(', ')}, got ${describeValue(v)}`);
}

/** `n` finite numbers in an array or typed array. */
export function checkVector(v: unknown, n: number, where: string): asserts v is readonly number[] {
  const ok = (Array.isArray(v) || ArrayBuffer.isView(v)) && (v as ArrayLike<unknown>).length === n;
  check(ok, () => `${where} must be ${n} finite numbers [${['x', 'y', 'z', 'w'].slice(0, n).join(', ')}], got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  for (let i = 0; i < n; i++) {
    check(typeof a[i] === 'number' && Number.isFinite(a[i]), () => `${where}[${i}] must be a finite number, got ${describeValue(a[i])}`);
  }
}

function range(min: number, max: number): string {
  if (min === -Infinity) return `at most ${max}`;
  if (max === Infinity) return min === 1 ? 'positive' : min === 0 ? 'non-negative' : `at least ${min}`;
  return `in [${min}, ${max}]`;
}
