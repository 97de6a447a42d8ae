/**
 * Expressions a user passes as strings (a filter's `keep`, liveCount's predicate): parsed as
 * exactly one Brook expression of `x` (the record, of the stream's type) and `i` (its int index),
 * typed by the checker as a kernel's would be and printed as GLSL. Anything that is not one
 * expression (`'x > 0.5; } void f() { ...'`), or not a bool or a number, is a BrookError naming
 * the option; nothing is spliced into a shader as written.
 */
import { BrookError } from '../core/errors';
import type { ElementType } from '../core/types';
import type { Sym } from './ast';
import { Checker } from './check';
import { GlslEmitter } from './glsl';
import { parseExpression } from './parse';
import { INT, isNum, typeName, typeOfName } from './types';

/** A predicate in GLSL: the expression (a bool) and the helper functions it needs (may be empty). */
export interface CompiledPredicate {
  glsl: string;
  helpers: string;
}

/**
 * Compiles `text`, one Brook expression of `x` (a record of `type`) and `i` (int), to a GLSL bool
 * expression. `option` names the option in errors (e.g. 'filter: options.keep').
 * @example brookPredicate('x.w > 0.5 && i % 2 == 0', 'float4', 'filter: options.keep').glsl
 */
export function brookPredicate(text: string, type: ElementType, option: string): CompiledPredicate {
  if (typeof text !== 'string' || text.trim() === '') throw new BrookError(`${option} must be one Brook expression of x and i, e.g. 'x > 0.5', got ${JSON.stringify(text)}`);
  if (text.length > 100_000) throw new BrookError(`${option}: the expression is longer than 100,000 characters`);
  // a filter called in a loop passes the same text each time: parse and check it once
  const key = `${type}\u0000${text}`;
  const cached = COMPILED.get(key);
  if (cached) return cached;
  const compiled = compilePredicate(text, type, option);
  if (COMPILED.size >= COMPILED_MOST) COMPILED.clear();
  COMPILED.set(key, compiled);
  return compiled;
}

/** Predicates compiled (the GLSL depends on the text and the record type only; errors are not kept). */
const COMPILED = new Map<string, CompiledPredicate>();
const COMPILED_MOST = 256;

function compilePredicate(text: string, type: ElementType, option: string): CompiledPredicate {
  const where = option;
  try {
    const e = parseExpression(text, where);
    const checker = new Checker({ items: [] }, text);
    const ty = typeOfName(type)!;
    const syms: Sym[] = [
      { name: 'x', ty, role: 'input', stream: true },
      { name: 'i', ty: INT, role: 'iter' },
    ];
    const t = checker.checkExpression(e, syms, where);
    if (!isNum(t.ty) || t.ty.n !== 1) {
      throw new BrookError(`${option}: the expression is a ${typeName(t.ty!)}, not one bool${isNum(t.ty) ? ': write any(...) or all(...)' : ''}`);
    }
    const b = checker.toBool(t, e.pos, 'the expression');
    const helpers = new Map<string, string>();
    const em = new GlslEmitter({ checker, typed: () => { throw new BrookError(`${option}: a predicate calls no functions of its own`); }, bounded: false, vout: false, helpers, functions: new Map(), active: [] });
    const glsl = em.expr(b);
    if (helpers.size) {
      // the idioms splice the expression into their own kernels, which have no place for helpers
      throw new BrookError(`${option}: componentwise &&, || or ?: on vectors is not possible in a predicate option; compare components (x.x > 0.0 && x.y > 0.0) or use all(...)/any(...) of one comparison`);
    }
    return { glsl, helpers: '' };
  } catch (err) {
    if (err instanceof RangeError) throw new BrookError(`${option}: the expression is nested too deeply`);
    throw err;
  }
}
