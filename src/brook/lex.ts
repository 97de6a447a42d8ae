/**
 * Brook's lexical layer, as brcc's: the source read into tokens with their line and column,
 * comments dropped, and the preprocessor's object-like and function-like `#define`s expanded
 * where they are used (`float a[ARRAYSIZE]`, `x[N+1]`), as brcc ran cpp before parsing.
 * `#include` and `#pragma` lines are skipped (brookgl compiles one source), `#ifdef`/`#ifndef`/
 * `#if 0|1`/`#else`/`#endif` select lines; other directives are a BrookError naming the line.
 */
import { BrookError } from '../core/errors';

/** Where a token starts in the user's source: 1-based line and column. */
export interface Pos {
  line: number;
  col: number;
}

export type TokenKind = 'id' | 'num' | 'op' | 'eof';

export interface Tok extends Pos {
  k: TokenKind;
  t: string;
  /** Offset in the source (a macro's tokens: its use's). */
  o: number;
}

const OPERATORS = [
  '<<=', '>>=',
  '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '->', '::',
  '+', '-', '*', '/', '%', '<', '>', '=', '!', '~', '&', '|', '^', '?', ':', ';', ',', '.', '(', ')', '[', ']', '{', '}',
];

const NUMBER = /(?:0[xX][0-9a-fA-F]+[uUlL]*|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fFhHlL]?|\d+[eE][+-]?\d+[fFhHlL]?|\d+[uUlL]*[fFhH]?)/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

/** A macro from `#define`: its parameters (function-like) and replacement tokens. */
interface Macro {
  params?: string[];
  body: Tok[];
}

/** Where a message about the user's source points: `line 3`. */
export function at(p: Pos): string {
  return `line ${p.line}`;
}

/**
 * A BrookError about the user's source at `p`: `where, line L: message`, then the line itself
 * with a caret under column C (the column is the caret's; tests and tools read `line L:`).
 */
export function sourceError(where: string, source: string | undefined, p: Pos, message: string): BrookError {
  const text = source?.split('\n')[p.line - 1];
  const n = String(p.line);
  const shown = text !== undefined && text.trim() !== '' && text.length < 200 ? `\n>${n}| ${text.replace(/\t/g, ' ')}\n ${' '.repeat(n.length)}  ${' '.repeat(Math.max(0, p.col - 1))}^ (column ${p.col})` : '';
  return new BrookError(`${where}, line ${p.line}: ${message}${shown}`);
}

/**
 * The tokens of `source` (comments dropped, macros expanded), ending with an 'eof' token.
 * `where` prefixes error messages (e.g. `brook`).
 */
export function lex(source: string, where = 'brook'): Tok[] {
  const raw = scan(source, where);
  return expand(raw, where);
}

/** Tokens, with the preprocessor's directives read off their lines. */
function scan(src: string, where: string): Array<Tok | { directive: string; rest: Tok[]; line: number }> {
  const out: Array<Tok | { directive: string; rest: Tok[]; line: number }> = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let atLineStart = true;
  let directive: { directive: string; rest: Tok[]; line: number } | undefined;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      i++;
      atLineStart = true;
      if (directive) {
        out.push(directive);
        directive = undefined;
      }
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      // a line continuation (macros written over several lines)
      i += 2;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) {
        if (src[j] === '\n') {
          line++;
          lineStart = j + 1;
        }
      }
      i = stop;
      continue;
    }
    const col = i - lineStart + 1;
    if (c === '#' && atLineStart && !directive) {
      IDENT.lastIndex = i + 1;
      let j = i + 1;
      while (src[j] === ' ' || src[j] === '\t') j++;
      IDENT.lastIndex = j;
      const m = IDENT.exec(src);
      directive = { directive: m ? m[0] : '', rest: [], line };
      i = m ? j + m[0].length : j;
      atLineStart = false;
      continue;
    }
    atLineStart = false;
    let tok: Tok | undefined;
    IDENT.lastIndex = i;
    const id = IDENT.exec(src);
    if (id) tok = { k: 'id', t: id[0], line, col, o: i };
    else {
      NUMBER.lastIndex = i;
      const num = /[0-9.]/.test(c) ? NUMBER.exec(src) : null;
      if (num && num[0] !== '.') tok = { k: 'num', t: num[0], line, col, o: i };
      else {
        const op = OPERATORS.find((o) => src.startsWith(o, i));
        if (!op) {
          if (c === '"' || c === "'") throw new BrookError(`${where}, ${at({ line, col })}: a kernel has no strings or characters (${c})`);
          throw new BrookError(`${where}, ${at({ line, col })}: unexpected character '${c}'`);
        }
        tok = { k: 'op', t: op, line, col, o: i };
      }
    }
    i += tok.t.length;
    if (directive) directive.rest.push(tok);
    else out.push(tok);
  }
  if (directive) out.push(directive);
  out.push({ k: 'eof', t: '', line, col: i - lineStart + 1, o: i });
  return out;
}

/** Runs the directives and expands macros. */
function expand(items: ReturnType<typeof scan>, where: string): Tok[] {
  const macros = new Map<string, Macro>();
  const out: Tok[] = [];
  // #if nesting: whether each level is taken, and whether its #else may still be
  const conds: Array<{ taking: boolean; taken: boolean; outer: boolean }> = [];
  const live = () => conds.every((c) => c.taking);
  for (let k = 0; k < items.length; k++) {
    const x = items[k]!;
    if ('directive' in x) {
      const w = `${where}, line ${x.line}`;
      const name = x.rest[0]?.k === 'id' ? x.rest[0].t : undefined;
      switch (x.directive) {
        case 'ifdef':
        case 'ifndef': {
          if (!name) throw new BrookError(`${w}: #${x.directive} needs a macro name`);
          const on = macros.has(name) === (x.directive === 'ifdef');
          conds.push({ taking: on, taken: on, outer: live() });
          continue;
        }
        case 'if': {
          const v = x.rest.length === 1 && x.rest[0]!.k === 'num' ? Number(x.rest[0]!.t) : undefined;
          if (v === undefined) throw new BrookError(`${w}: #if takes only 0 or 1 here (or use #ifdef NAME)`);
          conds.push({ taking: v !== 0, taken: v !== 0, outer: live() });
          continue;
        }
        case 'else': {
          const c = conds[conds.length - 1];
          if (!c) throw new BrookError(`${w}: #else without #if`);
          c.taking = !c.taken;
          c.taken = true;
          continue;
        }
        case 'endif':
          if (!conds.pop()) throw new BrookError(`${w}: #endif without #if`);
          continue;
        default:
      }
      if (!live()) continue;
      switch (x.directive) {
        case 'define': {
          if (!name) throw new BrookError(`${w}: #define needs a name`);
          const t = x.rest;
          // a function-like macro: '(' right after the name, no space
          if (t[1]?.t === '(' && t[1].line === t[0]!.line && t[1].col === t[0]!.col + name.length) {
            const params: string[] = [];
            let j = 2;
            for (; j < t.length && t[j]!.t !== ')'; j++) if (t[j]!.k === 'id') params.push(t[j]!.t);
            macros.set(name, { params, body: t.slice(j + 1) });
          } else macros.set(name, { body: t.slice(1) });
          continue;
        }
        case 'undef':
          if (name) macros.delete(name);
          continue;
        case 'include':
        case 'pragma':
        case 'line':
        case '':
          continue;
        default:
          throw new BrookError(`${w}: the preprocessor directive #${x.directive} is not supported (brookgl takes #define, #undef, #ifdef, #ifndef, #if 0/1, #else, #endif)`);
      }
    }
    if (!live() && x.k !== 'eof') continue;
    out.push(x);
  }
  if (macros.size === 0) return out;
  return substitute(out, macros, where, 0, new Set(), { left: 10 * out.length + MACRO_TOKENS });
}

/**
 * Macro expansion's work bound: tokens handled, beyond ten per source token (a chain of macros
 * doubling each other would otherwise take all memory and time).
 */
const MACRO_TOKENS = 100_000;

/** Macro expansion: each use replaced by its body (at the use's position), rescanned. */
function substitute(toks: Tok[], macros: Map<string, Macro>, where: string, depth: number, hidden: ReadonlySet<string>, budget: { left: number }): Tok[] {
  if (depth > 64) throw new BrookError(`${where}: macros expand into each other more than 64 deep`);
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (--budget.left < 0) throw new BrookError(`${where}: the macros expand past ${MACRO_TOKENS} tokens beyond ten per token of the source (macros that expand into each other?)`);
    const x = toks[i]!;
    const m = x.k === 'id' && !hidden.has(x.t) ? macros.get(x.t) : undefined;
    if (!m) {
      out.push(x);
      continue;
    }
    const place = (b: Tok[]) => b.map((y) => ({ ...y, line: x.line, col: x.col, o: x.o }));
    const inner = new Set(hidden).add(x.t);
    if (!m.params) {
      for (const y of substitute(place(m.body), macros, where, depth + 1, inner, budget)) out.push(y);
      continue;
    }
    if (toks[i + 1]?.t !== '(') {
      out.push(x);
      continue;
    }
    // the arguments: split at top-level commas
    const args: Tok[][] = [[]];
    let d = 0;
    let j = i + 2;
    for (; j < toks.length; j++) {
      const y = toks[j]!;
      if (y.k === 'eof') throw new BrookError(`${where}, ${at(x)}: the macro ${x.t}( is not closed`);
      if (y.t === '(') d++;
      else if (y.t === ')') {
        if (d === 0) break;
        d--;
      } else if (y.t === ',' && d === 0) {
        args.push([]);
        continue;
      }
      args[args.length - 1]!.push(y);
    }
    if (m.params.length === 0 && args.length === 1 && args[0]!.length === 0) args.pop();
    if (args.length !== m.params.length) throw new BrookError(`${where}, ${at(x)}: the macro ${x.t} takes ${m.params.length} arguments, got ${args.length}`);
    const body: Tok[] = [];
    for (const y of place(m.body)) {
      const p = y.k === 'id' ? m.params.indexOf(y.t) : -1;
      if (p >= 0) for (const a of args[p]!) body.push({ ...a, line: x.line, col: x.col, o: x.o });
      else body.push(y);
    }
    for (const y of substitute(body, macros, where, depth + 1, inner, budget)) out.push(y);
    i = j;
  }
  return out;
}
