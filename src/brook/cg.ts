/**
 * Cg's implicit conversions made explicit for GLSL ES 3.00 (see compile.ts): assignments through
 * `brook_to_T`, conditions and logical operands through `brook_bool`, scalar swizzles, indexof.
 */
import { StructType } from '../core/struct';
import { SWIZZLE, Token, glslValueType, nextSolid, spliceTokens } from './tokens';

/** Return and parameter types (Brook type names) of the helper functions, by name. */
export interface FunctionTypes {
  ret: string;
  params: Array<string | undefined>;
}

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
  /** The kernel's elementwise inputs: `indexof(a)` of one is its own record's position (brook_indexof_in). */
  inputs?: ReadonlySet<string>;
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
 *   ((index, 0, 0, 0) in 1D, (column, row, 0, 0) in 2D): `(indexof a).x`, `indexof(a).xy`; of an
 *   elementwise input, `brook_indexof_in(...)`: its own record's, where it is resampled.
 * Arithmetic that mixes int and float inside one expression still needs an explicit float().
 */
export function cgConversions(input: Token[], env: CgEnv): Token[] {
  const rewriter = new CgRewriter(input, env);
  rewriter.declare();
  rewriter.forHeaders();
  rewriter.rewrite();
  return spliceTokens(rewriter.t, rewriter.before, rewriter.after);
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


/** Stops of an operand scanned left or right. */
const STOP = new Set([';', ',', '?', ':']);

/** One pass of the Cg conversions over a token list (see cgConversions). */
class CgRewriter {
  readonly t: Token[];
  readonly types: Map<string, string>;
  /** Text to put before and after a token (by index into t). */
  readonly before = new Map<number, string[]>();
  readonly after = new Map<number, string[]>();
  /** Tokens inside a for (...) header. */
  readonly inForHeader = new Set<number>();

  constructor(
    input: Token[],
    readonly env: CgEnv,
  ) {
    this.t = input.map((x) => ({ ...x }));
    this.types = env.types;
  }

  /** Declarations: `TYPE name` (also `unsigned int name`) into env.types. */
  declare(): void {
    for (let i = 0; i < this.t.length; i++) {
      if (this.t[i]!.kind !== 'id') continue;
      const ty = this.t[i]!.text === 'unsigned' ? 'uint' : this.t[i]!.text;
      if (!glslValueType(ty) && !this.env.structs[ty]) continue;
      const j = nextSolid(this.t, i);
      if (j !== undefined && this.t[j]!.kind === 'id' && this.t[j]!.text !== 'int') {
        const k = nextSolid(this.t, j);
        if (k === undefined || this.t[k]!.text !== '(') {
          const name = this.t[j]!.text;
          // one map for all scopes: a name declared with two types is left as written
          if (this.types.has(name) && this.types.get(name) !== ty) this.env.ambiguous.add(name);
          this.types.set(name, ty);
        }
      }
    }
  }

  typeOf(name: string) {
    return (this.env.ambiguous.has(name) ? undefined : this.types.get(name));
  }

  open(i: number, s: string) {
    return this.before.set(i, [...(this.before.get(i) ?? []), s]);
  }

  close(i: number, s: string) {
    return this.after.set(i, [s, ...(this.after.get(i) ?? [])]);
  }

  text(i: number) {
    return this.t[i]?.text;
  }

  isP(i: number, s: string) {
    return this.t[i]?.kind === 'punct' && this.t[i]!.text === s;
  }

  prevSolid(i: number) {
    for (let j = i - 1; j >= 0; j--) if (this.t[j]!.kind !== 'space') return j;
    return -1;
  }

  /** End (inclusive) of an operand starting at i going right, stopping at depth-0 boundaries. */
  scanRight(i: number, stops: Set<string>, logical = true): number {
    let depth = 0;
    let last = i - 1;
    for (let j = i; j < this.t.length; j++) {
      const x = this.t[j]!;
      if (x.kind === 'punct') {
        if ('([{'.includes(x.text)) depth++;
        else if (')]}'.includes(x.text)) {
          if (depth === 0) return last;
          depth--;
        } else if (depth === 0 && (stops.has(x.text) || (logical && ((x.text === '|' && this.isP(j + 1, '|')) || (x.text === '&' && this.isP(j + 1, '&')))))) return last;
      }
      if (x.kind !== 'space') last = j;
    }
    return last;
  }

  scanLeft(i: number, stops: Set<string>): number {
    let depth = 0;
    let first = i + 1;
    for (let j = i; j >= 0; j--) {
      const x = this.t[j]!;
      if (x.kind === 'punct') {
        if (')]}'.includes(x.text)) depth++;
        else if ('([{'.includes(x.text)) {
          if (depth === 0) return first;
          depth--;
        } else if (depth === 0 && (stops.has(x.text) || (x.text === '|' && this.isP(j - 1, '|')) || (x.text === '&' && this.isP(j - 1, '&')))) return first;
        else if (depth === 0 && x.text === '=' && !this.isP(j - 1, '=') && !this.isP(j + 1, '=') && !'<>!'.includes(this.text(j - 1) ?? '')) return first;
      } else if (depth === 0 && x.kind === 'id' && x.text === 'return') return first;
      if (x.kind !== 'space') first = j;
    }
    return first;
  }

  wrapBool(a: number, b: number) {
    if (a > b) return;
    this.open(a, 'brook_bool(');
    this.close(b, ')');
    this.env.used.add('bool');
  }

  /** for (...) headers keep their initializations and steps as written (loop counters). */
  forHeaders(): void {
    for (let i = 0; i < this.t.length; i++) {
      if (this.t[i]!.kind !== 'id' || this.t[i]!.text !== 'for') continue;
      const j = nextSolid(this.t, i);
      if (j === undefined || !this.isP(j, '(')) continue;
      let depth = 0;
      for (let k = j; k < this.t.length; k++) {
        if (this.isP(k, '(')) depth++;
        else if (this.isP(k, ')') && --depth === 0) break;
        this.inForHeader.add(k);
      }
    }
  }

  /** The rewrites, token by token. */
  rewrite(): void {
    for (let i = 0; i < this.t.length; i++) {
      const x = this.t[i]!;
      if (x.kind === 'id' && x.text === 'indexof') this.indexof(i);
      else if (x.kind === 'id' && this.isP(i + 1, '.') && this.t[i + 2]?.kind === 'id' && SWIZZLE.test(this.t[i + 2]!.text)) this.scalarSwizzle(i);
      else if (x.kind === 'id' && (x.text === 'if' || x.text === 'while')) this.condition(i);
      else if (x.kind === 'punct' && ((x.text === '|' && this.isP(i + 1, '|')) || (x.text === '&' && this.isP(i + 1, '&')))) i = this.logical(i);
      else if (x.kind === 'punct' && x.text === '!' && !this.isP(i + 1, '=')) this.not(i);
      else if (x.kind === 'punct' && x.text === '?') this.ternary(i);
      else if (x.kind === 'punct' && x.text === '=' && !this.inForHeader.has(i) && !this.isP(i + 1, '=') && !this.isP(i - 1, '=') && !'<>!'.includes(this.text(i - 1) ?? '')) this.assignment(i);
    }
  }

  /** `indexof(s)` / `indexof s` -> `brook_indexof()`; of an elementwise input, `brook_indexof_in(its extents)`. */
  indexof(i: number): void {
    const x = this.t[i]!;
    const j = nextSolid(this.t, i);
    if (j === undefined) return;
    let end: number | undefined;
    let named: string | undefined;
    if (this.isP(j, '(')) {
      const k = nextSolid(this.t, j);
      const l = k === undefined ? undefined : nextSolid(this.t, k);
      if (k !== undefined && this.t[k]!.kind === 'id' && l !== undefined && this.isP(l, ')')) [end, named] = [l, this.t[k]!.text];
    } else if (this.t[j]!.kind === 'id') [end, named] = [j, this.t[j]!.text];
    if (end === undefined) return;
    x.text = named && this.env.inputs?.has(named) ? `brook_indexof_in(brook_s_${named}_ext)` : 'brook_indexof()';
    for (let k = i + 1; k <= end; k++) this.t[k] = { kind: 'space', text: '' };
  }

  /** A scalar swizzle: `f.x` -> `f`, `f.xx` -> `vec2(f)`. */
  scalarSwizzle(i: number): void {
    const x = this.t[i]!;
    const ty = glslValueType(this.typeOf(x.text) ?? '');
    const p = this.prevSolid(i);
    if (ty && !ty.includes('vec') && !(p >= 0 && this.isP(p, '.'))) {
      const n = this.t[i + 2]!.text.length;
      x.text = n === 1 ? x.text : `${ty === 'float' ? '' : ty === 'int' ? 'i' : ty === 'uint' ? 'u' : 'b'}vec${n}(${x.text})`;
      this.t[i + 1] = { kind: 'space', text: '' };
      this.t[i + 2] = { kind: 'space', text: '' };
    }
  }

  /** An `if`/`while` condition -> `brook_bool(...)`. */
  condition(i: number): void {
    const x = this.t[i]!;
    const j = nextSolid(this.t, i);
    if (j === undefined || !this.isP(j, '(')) return;
    const a = nextSolid(this.t, j);
    if (a === undefined) return;
    const b = this.scanRight(a, new Set());
    // the whole condition, not only its first || operand
    let depth = 0;
    let end = -1;
    for (let k = j; k < this.t.length; k++) {
      if (this.isP(k, '(')) depth++;
      else if (this.isP(k, ')') && --depth === 0) {
        end = k;
        break;
      }
    }
    if (end > a && b >= a) this.wrapBool(a, this.prevSolid(end));
  }

  /** The operands of `||` and `&&` -> `brook_bool(...)`; returns the index of the second character. */
  logical(i: number): number {
    const x = this.t[i]!;
    this.wrapBool(this.scanLeft(i - 1, STOP), this.prevSolid(i));
    const r = nextSolid(this.t, i + 1);
    if (r !== undefined) this.wrapBool(r, this.scanRight(r, STOP));
    return i + 1;
  }

  /** The operand of `!` -> `brook_bool(...)`. */
  not(i: number): void {
    const x = this.t[i]!;
    const r = nextSolid(this.t, i);
    if (r === undefined) return;
    // the operand: a parenthesized expression or a name with its calls, indexing and fields
    let end = r;
    if (this.isP(r, '(')) end = this.scanRight(r + 1, new Set()) + 1;
    else if (this.t[r]!.kind === 'id' || this.t[r]!.kind === 'num') {
      for (;;) {
        const n = end + 1;
        if (this.isP(n, '(') || this.isP(n, '[')) {
          end = this.scanRight(n + 1, new Set()) + 1;
        } else if (this.isP(n, '.') && this.t[n + 1]?.kind === 'id') end = n + 1;
        else break;
      }
    } else return;
    this.wrapBool(r, end);
  }

  /** A `?:` condition -> `brook_bool(...)`. */
  ternary(i: number): void {
    const x = this.t[i]!;
    const a = this.scanLeft(i - 1, STOP);
    this.wrapBool(a, this.prevSolid(i));
  }

  /** An assignment or initialization to a target of known type: `x = brook_to_T(e)`. */
  assignment(i: number): void {
    const x = this.t[i]!;
    // the target: name(.field)* just before the operator (compound: one of + - * / before '=')
    let j = i - 1;
    if ('+-*/'.includes(this.text(j) ?? '') && this.t[j]!.kind === 'punct') j--;
    while (j >= 0 && this.t[j]!.kind === 'space') j--;
    const path: string[] = [];
    while (j >= 0 && this.t[j]!.kind === 'id') {
      path.unshift(this.t[j]!.text);
      if (this.isP(j - 1, '.')) j -= 2;
      else break;
    }
    if (path.length === 0) return;
    // a const declaration needs a constant expression: leave it as written
    const d1 = this.prevSolid(j);
    const d2 = d1 >= 0 ? this.prevSolid(d1) : -1;
    if ((d1 >= 0 && this.text(d1) === 'const') || (d2 >= 0 && this.text(d2) === 'const')) return;
    let ty = this.typeOf(path[0]!);
    for (const f of path.slice(1)) {
      if (ty && this.env.structs[ty]) ty = this.env.structs[ty]!.fields.find((x) => x.name === f)?.type;
      else if (ty && glslValueType(ty) && SWIZZLE.test(f)) ty = (ty.replace(/[234]$/, '') + (f.length > 1 ? f.length : '')).replace('half', 'float');
      else ty = undefined;
    }
    const g = ty && glslValueType(ty);
    if (!g || g === 'bool' || g.startsWith('bvec')) return;
    const r = nextSolid(this.t, i);
    if (r === undefined) return;
    const end = this.scanRight(r, new Set([';', ',']), false);
    if (end < r) return;
    this.open(r, `brook_to_${g}(`);
    this.close(end, ')');
    this.env.used.add(g);
  }
}
