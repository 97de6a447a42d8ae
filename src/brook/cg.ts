/**
 * Cg's implicit conversions made explicit for GLSL ES 3.00 (see compile.ts): assignments through
 * `brook_to_T`, conditions and logical operands through `brook_bool`, scalar swizzles, indexof.
 */
import { StructType } from '../core/struct';
import type { FunctionTypes } from './promote';
import { SWIZZLE, Token, glslValueType, nextSolid, spliceTokens } from './tokens';

/** What the Cg conversions need to know: declared types by name, struct types, and what they used. */
export interface CgEnv {
  /** Brook type (float4, int, a struct name, ...) of each parameter and declared variable. */
  types: Map<string, string>;
  structs: Record<string, StructType>;
  /** GLSL types T for which brook_to_T conversions are used, and whether brook_bool is. */
  used: Set<string>;
  /** Names declared with more than one type (scopes are not tracked): left as written. */
  ambiguous: Set<string>;
  /** Return and parameter types of the source's functions, for int-to-float promotion (promote.ts). */
  functions?: Map<string, FunctionTypes>;
}


/**
 * Cg's implicit conversions, made explicit for GLSL ES (which has none), by overloaded helper
 * functions so that GLSL's own overload resolution picks the source type:
 * - assignment, compound assignment and initialization to a variable, parameter, output or
 *   struct field of known type: `x = e` -> `x = brook_to_T(e)` (scalar -> vector replicates,
 *   vector -> shorter vector or scalar truncates, int/uint/bool -> float converts: `float4 o = 11;`,
 *   `result = -1;` into a float2, `float f = a > b;`, `s += i`);
 * - `||`, `&&`, `!` operands and `if`/`while`/`for`/`?:` conditions -> `brook_bool(e)` (nonzero is
 *   true), so numeric `||` works;
 * - swizzles of scalars: `f.x` -> `f`, `f.xx` -> `vec2(f)`;
 * - `indexof(s)` / `indexof s` -> `brook_indexof()`, the record's position as a float4
 *   ((index, 0, 0, 0) in 1D, (column, row, 0, 0) in 2D): `(indexof a).x`, `indexof(a).xy`.
 * Arithmetic that mixes int and float inside one expression still needs an explicit float().
 */
export function cgConversions(input: Token[], env: CgEnv): Token[] {
  const t = input.map((x) => ({ ...x }));
  const types = env.types;
  // Declarations: `TYPE name` (also `unsigned int name`).
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.kind !== 'id') continue;
    const ty = t[i]!.text === 'unsigned' ? 'uint' : t[i]!.text;
    if (!glslValueType(ty) && !env.structs[ty]) continue;
    const j = nextSolid(t, i);
    if (j !== undefined && t[j]!.kind === 'id' && t[j]!.text !== 'int') {
      const k = nextSolid(t, j);
      if (k === undefined || t[k]!.text !== '(') {
        const name = t[j]!.text;
        // one map for all scopes: a name declared with two types is left as written
        if (types.has(name) && types.get(name) !== ty) env.ambiguous.add(name);
        types.set(name, ty);
      }
    }
  }
  const typeOf = (name: string) => (env.ambiguous.has(name) ? undefined : types.get(name));
  const before = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  const open = (i: number, s: string) => before.set(i, [...(before.get(i) ?? []), s]);
  const close = (i: number, s: string) => after.set(i, [s, ...(after.get(i) ?? [])]);
  const text = (i: number) => t[i]?.text;
  const isP = (i: number, s: string) => t[i]?.kind === 'punct' && t[i]!.text === s;
  const prevSolid = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (t[j]!.kind !== 'space') return j;
    return -1;
  };
  /** End (inclusive) of an operand starting at i going right, stopping at depth-0 boundaries. */
  const scanRight = (i: number, stops: Set<string>, logical = true): number => {
    let depth = 0;
    let last = i - 1;
    for (let j = i; j < t.length; j++) {
      const x = t[j]!;
      if (x.kind === 'punct') {
        if ('([{'.includes(x.text)) depth++;
        else if (')]}'.includes(x.text)) {
          if (depth === 0) return last;
          depth--;
        } else if (depth === 0 && (stops.has(x.text) || (logical && ((x.text === '|' && isP(j + 1, '|')) || (x.text === '&' && isP(j + 1, '&')))))) return last;
      }
      if (x.kind !== 'space') last = j;
    }
    return last;
  };
  const scanLeft = (i: number, stops: Set<string>): number => {
    let depth = 0;
    let first = i + 1;
    for (let j = i; j >= 0; j--) {
      const x = t[j]!;
      if (x.kind === 'punct') {
        if (')]}'.includes(x.text)) depth++;
        else if ('([{'.includes(x.text)) {
          if (depth === 0) return first;
          depth--;
        } else if (depth === 0 && (stops.has(x.text) || (x.text === '|' && isP(j - 1, '|')) || (x.text === '&' && isP(j - 1, '&')))) return first;
        else if (depth === 0 && x.text === '=' && !isP(j - 1, '=') && !isP(j + 1, '=') && !'<>!'.includes(text(j - 1) ?? '')) return first;
      } else if (depth === 0 && x.kind === 'id' && x.text === 'return') return first;
      if (x.kind !== 'space') first = j;
    }
    return first;
  };
  const STOP = new Set([';', ',', '?', ':']);
  // for (...) headers keep their initializations and steps as written (loop counters).
  const inForHeader = new Set<number>();
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.kind !== 'id' || t[i]!.text !== 'for') continue;
    const j = nextSolid(t, i);
    if (j === undefined || !isP(j, '(')) continue;
    let depth = 0;
    for (let k = j; k < t.length; k++) {
      if (isP(k, '(')) depth++;
      else if (isP(k, ')') && --depth === 0) break;
      inForHeader.add(k);
    }
  }
  const wrapBool = (a: number, b: number) => {
    if (a > b) return;
    open(a, 'brook_bool(');
    close(b, ')');
    env.used.add('bool');
  };
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    if (x.kind === 'id' && x.text === 'indexof') {
      const j = nextSolid(t, i);
      if (j === undefined) continue;
      let end: number | undefined;
      if (isP(j, '(')) {
        const k = nextSolid(t, j);
        const l = k === undefined ? undefined : nextSolid(t, k);
        if (k !== undefined && t[k]!.kind === 'id' && l !== undefined && isP(l, ')')) end = l;
      } else if (t[j]!.kind === 'id') end = j;
      if (end === undefined) continue;
      x.text = 'brook_indexof()';
      for (let k = i + 1; k <= end; k++) t[k] = { kind: 'space', text: '' };
      continue;
    }
    if (x.kind === 'id' && isP(i + 1, '.') && t[i + 2]?.kind === 'id' && SWIZZLE.test(t[i + 2]!.text)) {
      const ty = glslValueType(typeOf(x.text) ?? '');
      const p = prevSolid(i);
      if (ty && !ty.includes('vec') && !(p >= 0 && isP(p, '.'))) {
        const n = t[i + 2]!.text.length;
        x.text = n === 1 ? x.text : `${ty === 'float' ? '' : ty === 'int' ? 'i' : ty === 'uint' ? 'u' : 'b'}vec${n}(${x.text})`;
        t[i + 1] = { kind: 'space', text: '' };
        t[i + 2] = { kind: 'space', text: '' };
      }
      continue;
    }
    if (x.kind === 'id' && (x.text === 'if' || x.text === 'while')) {
      const j = nextSolid(t, i);
      if (j === undefined || !isP(j, '(')) continue;
      const a = nextSolid(t, j);
      if (a === undefined) continue;
      const b = scanRight(a, new Set());
      // the whole condition, not only its first || operand
      let depth = 0;
      let end = -1;
      for (let k = j; k < t.length; k++) {
        if (isP(k, '(')) depth++;
        else if (isP(k, ')') && --depth === 0) {
          end = k;
          break;
        }
      }
      if (end > a && b >= a) wrapBool(a, prevSolid(end));
      continue;
    }
    if (x.kind === 'punct' && ((x.text === '|' && isP(i + 1, '|')) || (x.text === '&' && isP(i + 1, '&')))) {
      wrapBool(scanLeft(i - 1, STOP), prevSolid(i));
      const r = nextSolid(t, i + 1);
      if (r !== undefined) wrapBool(r, scanRight(r, STOP));
      i++;
      continue;
    }
    if (x.kind === 'punct' && x.text === '!' && !isP(i + 1, '=')) {
      const r = nextSolid(t, i);
      if (r === undefined) continue;
      // the operand: a parenthesized expression or a name with its calls, indexing and fields
      let end = r;
      if (isP(r, '(')) end = scanRight(r + 1, new Set()) + 1;
      else if (t[r]!.kind === 'id' || t[r]!.kind === 'num') {
        for (;;) {
          const n = end + 1;
          if (isP(n, '(') || isP(n, '[')) {
            end = scanRight(n + 1, new Set()) + 1;
          } else if (isP(n, '.') && t[n + 1]?.kind === 'id') end = n + 1;
          else break;
        }
      } else continue;
      wrapBool(r, end);
      continue;
    }
    if (x.kind === 'punct' && x.text === '?') {
      const a = scanLeft(i - 1, STOP);
      wrapBool(a, prevSolid(i));
      continue;
    }
    if (x.kind === 'punct' && x.text === '=' && !inForHeader.has(i) && !isP(i + 1, '=') && !isP(i - 1, '=') && !'<>!'.includes(text(i - 1) ?? '')) {
      // the target: name(.field)* just before the operator (compound: one of + - * / before '=')
      let j = i - 1;
      if ('+-*/'.includes(text(j) ?? '') && t[j]!.kind === 'punct') j--;
      while (j >= 0 && t[j]!.kind === 'space') j--;
      const path: string[] = [];
      while (j >= 0 && t[j]!.kind === 'id') {
        path.unshift(t[j]!.text);
        if (isP(j - 1, '.')) j -= 2;
        else break;
      }
      if (path.length === 0) continue;
      // a const declaration needs a constant expression: leave it as written
      const d1 = prevSolid(j);
      const d2 = d1 >= 0 ? prevSolid(d1) : -1;
      if ((d1 >= 0 && text(d1) === 'const') || (d2 >= 0 && text(d2) === 'const')) continue;
      let ty = typeOf(path[0]!);
      for (const f of path.slice(1)) {
        if (ty && env.structs[ty]) ty = env.structs[ty]!.fields.find((x) => x.name === f)?.type;
        else if (ty && glslValueType(ty) && SWIZZLE.test(f)) ty = (ty.replace(/[234]$/, '') + (f.length > 1 ? f.length : '')).replace('half', 'float');
        else ty = undefined;
      }
      const g = ty && glslValueType(ty);
      if (!g || g === 'bool' || g.startsWith('bvec')) continue;
      const r = nextSolid(t, i);
      if (r === undefined) continue;
      const end = scanRight(r, new Set([';', ',']), false);
      if (end < r) continue;
      open(r, `brook_to_${g}(`);
      close(end, ')');
      env.used.add(g);
    }
  }
  return spliceTokens(t, before, after);
}

const CONVERSION_SOURCES = ['float', 'vec2', 'vec3', 'vec4', 'int', 'ivec2', 'ivec3', 'ivec4', 'uint', 'uvec2', 'uvec3', 'uvec4', 'bool'];

/** The brook_to_T and brook_bool overloads used by translated code (see cgConversions). */
export function conversionHelpers(used: Set<string>): string {
  const lines: string[] = [];
  const size = (g: string) => (/\d$/.test(g) ? Number(g.slice(-1)) : 1);
  for (const target of [...used].sort()) {
    if (target === 'bool') {
      lines.push(
        'bool brook_bool(bool x) { return x; }',
        'bool brook_bool(float x) { return x != 0.0; }',
        'bool brook_bool(int x) { return x != 0; }',
        'bool brook_bool(uint x) { return x != 0u; }',
      );
      continue;
    }
    const n = size(target);
    for (const src of CONVERSION_SOURCES) {
      const m = size(src);
      let e: string;
      if (m === 1) e = `${target}(x)`;
      else if (m >= n) e = `${target}(x.${'xyzw'.slice(0, n)})`;
      else continue; // Cg has no widening of vectors either
      lines.push(`${target} brook_to_${target}(${src} x) { return ${e}; }`);
    }
  }
  return lines.join('\n');
}
