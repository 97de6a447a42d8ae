/**
 * The Brook front end: kernels written as in the papers' listings, turned into KernelSpecs.
 *
 * ```ts
 * const { StartScan } = brook`
 *   kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
 *     count = isinf(value[here].x) ? 1 : 0;
 *     if (here >= 1)
 *       count += isinf(value[left_1].x) ? 1 : 0;
 *   }`;
 * ctx.run(StartScan, { value, count, here: iter(0, n), left_1: iter(-1, n - 1) });
 * ```
 *
 * Parameters: `float a<>` elementwise input, `float4 v[]` gather (also `v[][]`, `v[100]`,
 * `d[10][10]`), `iter float i<>` iterator (float..float4), `out float o<>` output, `vout[4] float
 * o<>` variable output (idioms/vout.ts), plain `float k` uniforms, struct streams `Tri t<>`,
 * `BBox b[]`, `out Tri o<>` (struct.ts). Types: float, float2-4, int, int2-4, uint, uint2-4,
 * `unsigned int` (half is read as float; floatNxN uniforms as matN). `reduce void f(T a<>,
 * reduce T r<>)` declares a reduce kernel (reducekernel.ts).
 *
 * Source is read in steps: comments blanked (lines kept); struct typedefs taken out; kernels
 * found; helpers with gather parameters and the kernels themselves kept as templates that calls
 * specialize (brookcalls.ts); then each body is translated token by token (lines are kept, so
 * errors point at the listing's own lines):
 * - float2/3/4 -> vec2/3/4, int2 -> ivec2, ..., half -> float;
 * - gathers `v[i]` -> `v(i)`, `v[i][j]` -> `v(i, j)` (see kernel.ts for the accessors);
 * - integer literals become float literals (`? 1 : 0` -> `? 1.0 : 0.0`), as Cg converts them
 *   implicitly, except in statements that involve an int variable or type and inside the
 *   brackets of a non-gather index;
 * - Cg's implicit conversions made explicit (cgConversions): assignments and initializations
 *   through `brook_to_T`, logical operands and conditions through `brook_bool`, scalar
 *   swizzles, `indexof`;
 * - every loop condition also counts against maxIterations (boundLoopTokens);
 * - names that GLSL ES reserves (`input`, `output`, `filter`, ...) get a trailing `_`;
 * - lerp -> mix, frac -> fract, rsqrt -> inversesqrt, atan2 -> atan; saturate, fmod (Cg's,
 *   truncating) and isfinite are supplied. Anything else is passed to GLSL as written.
 * Text outside the kernels (helper functions) is translated the same way and shared by all of
 * them. The tag returns every kernel of the template by name. README "Brook language" lists
 * what is supported and what is not.
 */
import BROOK_HELPERS from '../../glsl/core/brook.glsl';
import { BrookError } from './errors';
import { IterType, KernelSpec, UniformType, glslName } from './kernel';
import { StructParam, StructType, fieldParam } from './struct';
import { FunctionTemplate, extractGatherHelpers, kernelTemplate, specializeCalls } from './brookcalls';
import { ElementType } from './types';

const TYPE_MAP: Record<string, string> = {
  float2: 'vec2', float3: 'vec3', float4: 'vec4',
  half: 'float', half2: 'vec2', half3: 'vec3', half4: 'vec4',
  int2: 'ivec2', int3: 'ivec3', int4: 'ivec4',
  uint2: 'uvec2', uint3: 'uvec3', uint4: 'uvec4',
  bool2: 'bvec2', bool3: 'bvec3', bool4: 'bvec4',
  float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4',
};
const FUNCTION_MAP: Record<string, string> = { lerp: 'mix', frac: 'fract', rsqrt: 'inversesqrt', atan2: 'atan' };
const INT_TYPES = new Set(['int', 'uint', 'int2', 'int3', 'int4', 'uint2', 'uint3', 'uint4', 'ivec2', 'ivec3', 'ivec4', 'uvec2', 'uvec3', 'uvec4']);
type Token = { kind: 'id' | 'num' | 'punct' | 'space'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)|([A-Za-z_][A-Za-z0-9_]*)|(0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fFhH]?|\d+(?:[eE][+-]?\d+)?[uUfFhH]?)|([\s\S])/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) tokens.push({ kind: 'space', text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: 'id', text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: 'num', text: m[3] });
    else tokens.push({ kind: 'punct', text: m[4]! });
  }
  // `unsigned int` and a bare `unsigned` are uint
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind !== 'id' || tokens[i]!.text !== 'unsigned') continue;
    tokens[i] = { kind: 'id', text: 'uint' };
    const j = nextSolid(tokens, i);
    if (j !== undefined && tokens[j]!.text === 'int') tokens.splice(i + 1, j - i);
  }
  return tokens;
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
}

/** Translates Cg/Brook statements to GLSL ES 3.00 (see the module comment for the rules). */
export function translateBody(text: string, gathers: Set<string>, intNames: Set<string>, boundLoops = false, env?: CgEnv): string {
  let tokens = tokenize(text);
  if (env) tokens = cgConversions(tokens, env);
  if (boundLoops) tokens = boundLoopTokens(tokens);
  const ints = new Set(intNames);
  // First pass: which statements must keep integer literals.
  const intStatement: boolean[] = [];
  let statement = 0;
  let involvesInt = false;
  const statementOf: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'id' && INT_TYPES.has(t.text)) {
      involvesInt = true;
      const next = tokens.slice(i + 1).find((x) => x.kind !== 'space');
      if (next?.kind === 'id') ints.add(next.text);
    } else if (t.kind === 'id' && ints.has(t.text)) {
      involvesInt = true;
    }
    statementOf[i] = statement;
    if (t.kind === 'punct' && (t.text === ';' || t.text === '{' || t.text === '}')) {
      intStatement[statement++] = involvesInt;
      involvesInt = false;
    }
  }
  intStatement[statement] = involvesInt;

  const out: string[] = [];
  const brackets: Array<'gather' | 'plain'> = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'id') {
      const next = nextSolid(tokens, i);
      if (gathers.has(t.text) && next && tokens[next]!.text === '[') {
        out.push(glslName(t.text), '(');
        brackets.push('gather');
        i = next;
        continue;
      }
      out.push(TYPE_MAP[t.text] ?? FUNCTION_MAP[t.text] ?? glslName(t.text));
    } else if (t.kind === 'num') {
      let text = t.text.replace(/[fFhH]$/, (s) => (/^0[xX]/.test(t.text) ? s : ''));
      const plainInt = /^\d+$/.test(text);
      const inPlainIndex = brackets.includes('plain');
      if (plainInt && !inPlainIndex && !intStatement[statementOf[i]!]) text += '.0';
      out.push(text);
    } else if (t.kind === 'punct' && t.text === '[') {
      brackets.push('plain');
      out.push('[');
    } else if (t.kind === 'punct' && t.text === ']') {
      const kind = brackets.pop();
      if (kind === 'gather') {
        const next = nextSolid(tokens, i);
        if (next && tokens[next]!.text === '[') {
          out.push(', ');
          brackets.push('gather');
          i = next;
        } else {
          out.push(')');
        }
      } else {
        out.push(']');
      }
    } else {
      out.push(t.text);
    }
  }
  return out.join('');
}

const SCALAR_KIND: Record<string, string> = { float: 'float', half: 'float', int: 'int', uint: 'uint', bool: 'bool' };

/** GLSL type of a Brook scalar or vector type name (float4 -> vec4), or undefined. */
function glslValueType(t: string): string | undefined {
  const m = /^(float|half|int|uint|bool)([234]?)$/.exec(t);
  if (!m) return undefined;
  const kind = SCALAR_KIND[m[1]!]!;
  if (!m[2]) return kind;
  return `${kind === 'float' ? '' : kind === 'int' ? 'i' : kind === 'uint' ? 'u' : 'b'}vec${m[2]}`;
}

const SWIZZLE = /^(?:[xyzw]{1,4}|[rgba]{1,4})$/;

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
function cgConversions(input: Token[], env: CgEnv): Token[] {
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
  const out: Token[] = [];
  t.forEach((x, i) => {
    for (const s of before.get(i) ?? []) out.push(...tokenize(s));
    out.push(x);
    for (const s of after.get(i) ?? []) out.push(...tokenize(s));
  });
  return out;
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

/**
 * Every loop condition also counts an iteration: `while (c)` -> `while ((c) && brook_loop())`,
 * `for (a; c; b)` -> `for (a; (c) && brook_loop(); b)` (an empty c -> `brook_loop()`);
 * `do ... while (c);` is covered by its while. brook_loop() is generated with the kernel
 * (KernelSpec.maxIterations).
 */
function boundLoopTokens(tokens: Token[]): Token[] {
  const out = [...tokens];
  const punct = (text: string): Token => ({ kind: 'punct', text });
  const call: Token[] = [{ kind: 'id', text: 'brook_loop' }, punct('('), punct(')')];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.kind !== 'id' || (t.text !== 'while' && t.text !== 'for')) continue;
    const open = nextSolid(out, i);
    if (open === undefined || out[open]!.text !== '(') continue;
    let depth = 0;
    let close = -1;
    const semis: number[] = [];
    for (let j = open; j < out.length; j++) {
      const x = out[j]!.text;
      if (out[j]!.kind !== 'punct') continue;
      if (x === '(') depth++;
      else if (x === ')' && --depth === 0) {
        close = j;
        break;
      } else if (x === ';' && depth === 1) semis.push(j);
    }
    if (close < 0) continue; // unbalanced: GLSL will say so
    let from: number;
    let to: number;
    if (t.text === 'while') {
      from = open + 1;
      to = close;
    } else {
      if (semis.length !== 2) continue;
      from = semis[0]! + 1;
      to = semis[1]!;
    }
    while (from < to && out[from]!.kind === 'space') from++;
    while (to > from && out[to - 1]!.kind === 'space') to--;
    const empty = from === to;
    const cond = empty ? [...call] : [punct('('), ...out.slice(from, to), punct(')'), punct(' && '), ...call];
    out.splice(from, to - from, ...cond);
    i = open; // loops nested in the condition are rare; the body follows and is scanned next
  }
  return out;
}

function nextSolid(tokens: Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j]!.kind !== 'space') return j;
  return undefined;
}

function normalizeType(t: string, where: string): string {
  const glsl: Record<string, string> = { vec2: 'float2', vec3: 'float3', vec4: 'float4', ivec2: 'int2', ivec3: 'int3', ivec4: 'int4', uvec2: 'uint2', uvec3: 'uint3', uvec4: 'uint4', half: 'float', half2: 'float2', half3: 'float3', half4: 'float4', float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4' };
  const n = glsl[t] ?? t;
  if (!/^(float|int|uint)[234]?$|^mat[234]$|^bool$/.test(n)) {
    throw new BrookError(`${where}: unknown type '${t}' (use float, float2-4, int, int2-4, uint, uint2-4)`);
  }
  return n;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The source with every comment blanked out: each comment character becomes a space and its
 * newlines stay, so offsets and line numbers are those of the original text. A comment may
 * hold anything (`{`, `(`, the word kernel, a whole older kernel); an unterminated block
 * comment runs to the end, as in C.
 */
export function stripComments(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (c) => c.replace(/[^\n]/g, ' '));
}

/** Options of the Brook front end (`parseBrook(text, options)`, `brookWith(options)`). */
export interface BrookOptions {
  /**
   * The most loop iterations (all loops of a record together: every `for`, `while` and
   * `do ... while` condition the body evaluates) one record may run. Past it every loop exits
   * and the record's float outputs are written as NaN, so a kernel that loops forever ends
   * instead of freezing the browser. WebGL2 has no way to interrupt a running shader, so this
   * bound is compiled into the GLSL. Default `DEFAULT_MAX_ITERATIONS`; `Infinity` leaves loops
   * unbounded.
   */
  maxIterations?: number;
}

/** Loop iterations one record may run in a kernel from the Brook front end, unless set otherwise. */
export const DEFAULT_MAX_ITERATIONS = 1_000_000;

/**
 * The struct declarations of (comment-free) Brook source — `typedef struct tag { ... } Name;`
 * and `struct Name { ... };` — and the text with them blanked out (lines kept).
 */
function extractStructs(text: string): { text: string; structs: Record<string, StructType> } {
  const structs: Record<string, StructType> = {};
  const re = /\b(typedef\s+)?struct\s*([A-Za-z_]\w*)?\s*\{/g;
  let out = text;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const line = lineAt(text, m.index);
    const where = `brook, struct on line ${line}`;
    const open = m.index + m[0].length - 1;
    const close = matching(text, open, '{', '}', where);
    let end: number;
    let name: string | undefined;
    const after = text.slice(close + 1);
    if (m[1]) {
      const t = /^\s*([A-Za-z_]\w*)\s*;/.exec(after);
      if (!t) throw new BrookError(`${where}: expected the type's name and ';' after '}' (typedef struct { ... } Name;)`);
      name = t[1];
      end = close + 1 + t[0].length;
    } else {
      const t = /^\s*;/.exec(after);
      if (!t || !m[2]) throw new BrookError(`${where}: write typedef struct { ... } Name; or struct Name { ... };`);
      name = m[2];
      end = close + 1 + t[0].length;
    }
    const fields: StructType['fields'][number][] = [];
    for (const decl of text.slice(open + 1, close).split(';')) {
      const d = decl.trim();
      if (!d) continue;
      const fm = /^([A-Za-z_]\w*)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)$/.exec(d.replace(/\s+/g, ' '));
      if (!fm) throw new BrookError(`${where} (${name}): cannot read field '${d}': write e.g. 'float3 A, B, C;' (fields are float, float2, float3 or float4)`);
      const type = normalizeType(fm[1]!, `${where} (${name}), field '${fm[2]}'`);
      if (!/^float[234]?$/.test(type)) throw new BrookError(`${where} (${name}): field '${fm[2]}' is ${fm[1]}; struct fields must be float, float2, float3 or float4`);
      for (const f of fm[2]!.split(',').map((x) => x.trim())) {
        if (fields.some((x) => x.name === f)) throw new BrookError(`${where} (${name}): field '${f}' is declared twice`);
        fields.push({ name: f, type: type as ElementType });
      }
    }
    if (fields.length === 0) throw new BrookError(`${where} (${name}): a struct needs at least one field`);
    if (structs[name!]) throw new BrookError(`${where}: a struct named ${name} is already declared`);
    if (TYPE_MAP[name!] || /^(float|int|uint|bool|half)[234]?$/.test(name!)) throw new BrookError(`${where}: '${name}' is a built-in type name`);
    structs[name!] = { name: name!, fields, components: fields.reduce((n, f) => n + Number(f.type.slice(5) || 1), 0) };
    out = out.slice(0, m.index) + out.slice(m.index, end).replace(/[^\n]/g, ' ') + out.slice(end);
    re.lastIndex = end;
  }
  return { text: out, structs };
}

/** GLSL declaration of a struct type. */
function structDecl(t: StructType): string {
  return `struct ${t.name} { ${t.fields.map((f) => `${TYPE_MAP[f.type] ?? f.type} ${glslName(f.name)};`).join(' ')} };`;
}

/** GLSL for a kernel's struct parameters: the struct globals, gather accessors, prologue and epilogue. */
function structGlue(params: Record<string, StructParam>): { helpers: string; prologue: string; epilogue: string } {
  const helpers: string[] = [];
  const prologue: string[] = [];
  const epilogue: string[] = [];
  for (const [param, { struct, role }] of Object.entries(params)) {
    const name = glslName(param);
    const fields = struct.fields.map((f) => glslName(fieldParam(param, f.name)));
    if (role === 'gathers') {
      const sigs: Array<[string, string]> = [
        ['int brook_a', 'brook_a'], ['uint brook_a', 'brook_a'], ['float brook_a', 'brook_a'], ['ivec2 brook_a', 'brook_a'],
        ['vec2 brook_a', 'brook_a'], ['int brook_r, int brook_c', 'brook_r, brook_c'], ['float brook_r, float brook_c', 'brook_r, brook_c'],
      ];
      for (const [sig, call] of sigs) helpers.push(`${struct.name} ${name}(${sig}) { return ${struct.name}(${fields.map((f) => `${f}(${call})`).join(', ')}); }`);
    } else {
      helpers.push(`${struct.name} ${name};`);
      prologue.push(`  ${name} = ${struct.name}(${fields.join(', ')});`);
      if (role === 'outputs') epilogue.push(...struct.fields.map((f, i) => `  ${fields[i]} = ${name}.${glslName(f.name)};`));
    }
  }
  return { helpers: helpers.join('\n'), prologue: prologue.join('\n'), epilogue: epilogue.join('\n') };
}

/**
 * The struct types of Brook source, by name: Listing 36-3's and 36-5's typedefs as printed.
 * @example const { Tri, BBox } = parseBrookStructs(listing36_3);
 */
export function parseBrookStructs(source: string): Record<string, StructType> {
  if (typeof source !== 'string') throw new BrookError('brook: the source must be a string of Brook code');
  return extractStructs(stripComments(source)).structs;
}

/** Tagged template for struct declarations: `const { Tri } = brookStructs\`typedef struct { float3 A, B, C; } Tri;\``. */
export function brookStructs(strings: TemplateStringsArray, ...values: unknown[]): Record<string, StructType> {
  return parseBrookStructs(String.raw({ raw: strings }, ...values));
}

/** The gather through which a reduce kernel reads the stream it reduces (see reducekernel.ts). */
export const REDUCE_SOURCE = 'reduce_src';
/** The uniforms of a reduce kernel's pass: records, records per output (1D), block (2D), mode. */
const REDUCE_UNIFORMS: Record<string, UniformType> = { reduce_n: 'int', reduce_span: 'int', reduce_block: 'int2', reduce_2d: 'bool' };

/**
 * A reduce kernel as one pass: each output record folds its block of input records in index
 * order (row-major within a 2D block). The user's body combines the next record `a` into the
 * running result `r` (brook_kernel(), called once per record after the first); the last call is
 * main's own, skipped when the block has one record.
 */
function reduceFold(a: string, r: string, type: ElementType): { globals: string; prologue: string; skip: string } {
  const t = TYPE_MAP[type] ?? type;
  const A = glslName(a);
  const R = glslName(r);
  const at = (k: string) =>
    `(reduce_2d ? ${REDUCE_SOURCE}(ivec2(brook_pos.x * reduce_block.x + (${k}) % reduce_block.x, brook_pos.y * reduce_block.y + (${k}) / reduce_block.x)) : ${REDUCE_SOURCE}(brook_index * reduce_span + (${k})))`;
  return {
    globals: `${t} ${A};\nbool brook_reduce_skip = false;`,
    prologue: [
      '  int brook_count = reduce_2d ? reduce_block.x * reduce_block.y : min(reduce_span, reduce_n - brook_index * reduce_span);',
      `  ${R} = ${at('0')};`,
      '  for (int brook_k = 1; brook_k < brook_count - 1; brook_k++) {',
      `    ${A} = ${at('brook_k')};`,
      '    brook_kernel();',
      '  }',
      `  if (brook_count > 1) ${A} = ${at('brook_count - 1')}; else brook_reduce_skip = true;`,
    ].join('\n'),
    skip: 'if (brook_reduce_skip) return; ',
  };
}

/** Parses Brook source into kernel descriptions, by name. */
export function parseBrook(source: string, options: BrookOptions = {}): Record<string, KernelSpec> {
  if (typeof source !== 'string') throw new BrookError(`brook: the source must be a string of Brook code, got ${source === null ? 'null' : typeof source}`);
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!(maxIterations === Infinity || (Number.isInteger(maxIterations) && maxIterations >= 1 && maxIterations < 2 ** 31))) {
    throw new BrookError(`brook: maxIterations must be a positive integer below 2^31 or Infinity, got ${String(maxIterations)}`);
  }
  const { text, structs } = extractStructs(stripComments(source));
  const kernels: Record<string, KernelSpec> = {};
  const helpers: string[] = [];
  const re = /\b(kernel|reduce)\s+void\s+([A-Za-z_]\w*)\s*\(/g;
  let cursor = 0;
  let m: RegExpExecArray | null;
  const found: Array<{ reduce: boolean; name: string; params: string; paramsLine: number; body: string; shown: string; bodyLine: number }> = [];
  while ((m = re.exec(text))) {
    const line = lineAt(text, m.index);
    helpers.push(text.slice(cursor, m.index));
    const open = m.index + m[0].length;
    const close = matching(text, open - 1, '(', ')', `brook, kernel ${m[2]}`);
    const brace = text.indexOf('{', close);
    if (brace < 0 || text.slice(close + 1, brace).trim() !== '') {
      throw new BrookError(`brook, kernel ${m[2]} (line ${line}): expected '{' after the parameter list`);
    }
    const end = matching(text, brace, '{', '}', `brook, kernel ${m[2]}`);
    found.push({
      reduce: m[1] === 'reduce',
      name: m[2]!, params: text.slice(open, close), paramsLine: line,
      body: text.slice(brace + 1, end), shown: source.slice(brace + 1, end), bodyLine: lineAt(text, brace),
    });
    cursor = end + 1;
    re.lastIndex = cursor;
  }
  helpers.push(text.slice(cursor));
  if (found.length === 0) throw new BrookError('brook: no `kernel void Name(...) { ... }` found in the source');
  const bound = maxIterations === Infinity ? undefined : maxIterations;
  const sharedEnv: CgEnv = { types: new Map(), structs, used: new Set(), ambiguous: new Set() };
  const { text: helperText, templates: gatherHelpers } = extractGatherHelpers(helpers.join('\n'));
  const templates = new Map<string, FunctionTemplate>(gatherHelpers.map((t) => [t.name, t]));
  for (const k of found) {
    if (k.reduce) continue;
    try {
      templates.set(k.name, kernelTemplate(k.name, k.params, k.body));
    } catch {
      // a parameter list that cannot be read is reported, better worded, when the kernel is read
    }
  }
  const shared = translateBody(helperText, new Set(), new Set(), bound !== undefined, sharedEnv).trim();
  const decls = Object.values(structs).map(structDecl).join('\n');

  for (const k of found) {
    const where = `brook, kernel ${k.name} (line ${k.paramsLine})`;
    if (kernels[k.name]) throw new BrookError(`${where}: a kernel named ${k.name} is already declared`);
    const spec: Required<Pick<KernelSpec, 'inputs' | 'gathers' | 'iters' | 'uniforms'>> & KernelSpec = {
      name: k.name, inputs: {}, gathers: {}, iters: {}, uniforms: {}, outputs: {}, body: '',
    };
    const intNames = new Set<string>();
    const structParams: Record<string, StructParam> = {};
    let reduceInput: { name: string; type: ElementType } | undefined;
    let extraHelpers = '';
    let bodyPrefix = '';
    let voutOf: KernelSpec['voutOf'];
    let reduceResult: { name: string; type: ElementType } | undefined;
    const params = k.params.split(',').map((p) => p.trim().replace(/\s+/g, ' ').replace(/\bunsigned int\b|\bunsigned\b/g, 'uint'));
    for (const raw of params.filter((p, i) => p.length > 0 || i > 0 || params.length > 1)) {
      // vout[N] T o<>: up to N records pushed per input record (Brook's variable output)
      const vm = /^vout ?\[ ?(\d*) ?\] ?(.*)$/.exec(raw);
      const p = vm ? `out ${vm[2]}` : raw;
      const pm = /^(?:(out|iter|const|reduce) )?([A-Za-z_]\w*) ?([A-Za-z_]\w*) ?(< ?>|(?:\[ ?\d* ?\] ?)+)?$/.exec(p);
      if (!pm) {
        throw new BrookError(`${where}: cannot read parameter '${p}': write e.g. 'float a<>', 'float4 v[]', 'float d[10][10]', 'iter float i<>', 'out float o<>' or 'float k'`);
      }
      const [, qualifier, rawType, rawName, suffix] = pm;
      const name = rawName!;
      const isStream = suffix?.startsWith('<');
      const isGather = suffix?.startsWith('[');
      const struct = structs[rawType!];
      if (struct) {
        const role =
          qualifier === 'out' ? 'outputs'
          : qualifier === 'iter' || qualifier === 'reduce' ? undefined
          : isStream ? 'inputs' : isGather ? 'gathers' : 'uniforms';
        if (!role || (role === 'outputs' && !isStream)) {
          throw new BrookError(`${where}: struct parameter '${name}' must be a stream (${rawType} ${name}<>), a gather (${rawType} ${name}[]), a constant (${rawType} ${name}) or an output (out ${rawType} ${name}<>)`);
        }
        structParams[name] = { struct, role };
        for (const f of struct.fields) spec[role][fieldParam(name, f.name)] = f.type;
        continue;
      }
      const type = normalizeType(rawType!, `${where}, parameter '${rawName}'`);
      if (/^(u?int)/.test(type)) intNames.add(rawName!);
      const elementType = type as ElementType;
      if (qualifier === 'reduce' || (k.reduce && isStream && !qualifier)) {
        if (!k.reduce) throw new BrookError(`${where}: '${rawName}' is a reduce parameter: declare the kernel as reduce void ${k.name}(...)`);
        if (qualifier === 'reduce' ? reduceResult : reduceInput) {
          throw new BrookError(`${where}: a reduce kernel takes one stream to reduce (T a<>) and one reduce parameter (reduce T r<>); '${rawName}' is one too many`);
        }
        if (qualifier === 'reduce') reduceResult = { name, type: elementType };
        else reduceInput = { name, type: elementType };
        if (/^mat|^bool/.test(type)) throw new BrookError(`${where}: '${rawName}' must be a stream type (float..float4, int.., uint..)`);
        continue;
      }
      if (vm) {
        const most = Number(vm[1]);
        if (!vm[1] || !(most >= 1 && most <= 64)) throw new BrookError(`${where}: say how many records one input may push at most: vout[4] ${rawType} ${rawName}<> (1 to 64)`);
        if (!isStream || !/^float[234]?$/.test(type)) throw new BrookError(`${where}: vout parameter '${rawName}' must be a float..float4 stream: vout[${most}] float ${rawName}<>`);
        if (voutOf) throw new BrookError(`${where}: one vout parameter per kernel`);
        voutOf = { output: name, most, type: elementType };
      }
      if (qualifier === 'out') {
        if (k.reduce) throw new BrookError(`${where}: a reduce kernel has no out parameters; its result is the reduce parameter`);
        if (!isStream) throw new BrookError(`${where}: output '${rawName}' must be a stream: out ${rawType} ${rawName}<>`);
        spec.outputs[name] = elementType;
      } else if (qualifier === 'iter') {
        if (!isStream) throw new BrookError(`${where}: iterator '${rawName}' must be declared as iter ${rawType} ${rawName}<>`);
        if (!/^float[234]?$/.test(type)) throw new BrookError(`${where}: iterator '${rawName}' must be float, float2, float3 or float4`);
        spec.iters[name] = type as IterType;
      } else if (isStream) {
        spec.inputs[name] = elementType;
      } else if (isGather) {
        spec.gathers[name] = elementType;
      } else {
        spec.uniforms[name] = type as UniformType;
      }
    }
    if (k.reduce) {
      if (!reduceInput || !reduceResult) throw new BrookError(`${where}: a reduce kernel needs a stream to reduce (float a<>) and a reduce parameter (reduce float r<>)`);
      if (reduceInput.type !== reduceResult.type) {
        throw new BrookError(`${where}: the reduced stream '${reduceInput.name}' is ${reduceInput.type} but the reduce parameter '${reduceResult.name}' is ${reduceResult.type}; they must match`);
      }
      if (Object.keys(structParams).length || Object.keys(spec.iters).length) throw new BrookError(`${where}: reduce kernels take no struct or iterator parameters here`);
      const fold = reduceFold(reduceInput.name, reduceResult.name, reduceInput.type);
      spec.gathers[REDUCE_SOURCE] = reduceInput.type;
      Object.assign(spec.uniforms, REDUCE_UNIFORMS);
      spec.outputs[reduceResult.name] = reduceResult.type;
      spec.reduceOf = { input: reduceInput.name, result: reduceResult.name, type: reduceInput.type };
      spec.prologue = fold.prologue;
      extraHelpers = fold.globals;
      bodyPrefix = fold.skip;
    }
    if (Object.keys(spec.outputs).length === 0) throw new BrookError(`${where}: a kernel needs at least one 'out' stream parameter`);
    if (voutOf) {
      if (Object.keys(spec.outputs).length > 1 || Object.keys(spec.iters).length || Object.keys(structParams).length) {
        throw new BrookError(`${where}: a kernel with a vout parameter has no other outputs, iterators or struct parameters here`);
      }
      const t = TYPE_MAP[voutOf.type] ?? voutOf.type;
      const o = glslName(voutOf.output);
      spec.voutOf = voutOf;
      extraHelpers = [
        `int brook_vslot; int brook_vcount = 0; bool brook_vset = false; ${t} brook_vvalue;`,
        `void brook_push(${t} v) { if (brook_vcount == brook_vslot) { brook_vvalue = v; brook_vset = true; } brook_vcount++; }`,
      ].join('\n');
      spec.prologue = `  brook_vslot = brook_index % ${voutOf.most};`;
      // a slot nobody pushed into is null: +infinity in its first component (the filter's sentinel)
      spec.epilogue = `  ${o} = brook_vset ? brook_vvalue : ${t}(uintBitsToFloat(0x7f800000u));`;
    }
    const gathers = new Set([...Object.keys(spec.gathers), ...Object.entries(structParams).filter(([, p]) => p.role === 'gathers').map(([n]) => n)]);
    const env: CgEnv = { types: new Map(), structs, used: new Set(sharedEnv.used), ambiguous: new Set() };
    for (const role of [spec.inputs, spec.gathers, spec.iters, spec.uniforms, spec.outputs] as Array<Record<string, string>>) {
      for (const [n, ty] of Object.entries(role)) env.types.set(n, ty);
    }
    for (const [n, p] of Object.entries(structParams)) env.types.set(n, p.struct.name);
    if (reduceInput) env.types.set(reduceInput.name, reduceInput.type);
    // (the prefix goes on the body's first line, the line of its '{', so lines still match)
    // What Brook rejects: writing a stream input, an iterator or a gather inside the kernel.
    const readOnly: Array<[string, string]> = [
      ...Object.keys(spec.inputs).filter((n) => !n.startsWith(REDUCE_SOURCE)).map((n): [string, string] => [n, 'an input stream']),
      ...Object.keys(spec.iters).map((n): [string, string] => [n, 'an iterator']),
      ...[...gathers].map((n): [string, string] => [n, 'a gather']),
      ...Object.entries(structParams).filter(([, p]) => p.role === 'inputs').map(([n]): [string, string] => [n, 'an input stream']),
      ...(reduceInput ? [[reduceInput.name, 'the stream being reduced'] as [string, string]] : []),
    ];
    for (const [n, what] of readOnly) {
      const w = new RegExp(`(?<![.\\w])${n}\\s*(?:\\[[^\\]]*\\]\\s*)*(?:\\.\\s*\\w+\\s*)*(?:[-+*/]?=(?!=)|\\+\\+|--)`).exec(k.body);
      if (w) {
        const line = k.bodyLine + (k.body.slice(0, w.index).match(/\n/g)?.length ?? 0);
        throw new BrookError(`brook, kernel ${k.name}, line ${line}: '${n}' is ${what}, which a kernel cannot write; copy it into a local variable or write an out parameter`);
      }
    }
    if (voutOf) k.body = k.body.replace(new RegExp(`\\bpush\\s*\\(\\s*${voutOf.output}\\s*\\)`, 'g'), `brook_push(${voutOf.output})`);
    else if (/\bpush\s*\(/.test(k.body)) throw new BrookError(`${where}: push() needs a vout parameter (vout[4] float o<>)`);
    const calls = specializeCalls(k.body, gathers, templates, where);
    const called = calls.functions.length ? translateBody(calls.functions.join('\n'), gathers, intNames, bound !== undefined, env) : '';
    spec.body = bodyPrefix + translateBody(calls.body, gathers, intNames, bound !== undefined, env);
    const glue = structGlue(structParams);
    spec.helpers = [BROOK_HELPERS, conversionHelpers(env.used), decls, glue.helpers, extraHelpers, shared, called].filter(Boolean).join('\n');
    if (glue.prologue) spec.prologue = glue.prologue;
    if (glue.epilogue) spec.epilogue = glue.epilogue;
    if (Object.keys(structParams).length) spec.structParams = structParams;
    if (Object.keys(structs).length) spec.structs = structs;
    spec.origin = { text: k.shown, bodyLine: k.bodyLine };
    spec.resample = true;
    if (bound !== undefined) spec.maxIterations = bound;
    kernels[k.name] = spec;
  }
  return kernels;
}

function matching(text: string, open: number, a: string, b: string, where: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === a) depth++;
    else if (text[i] === b && --depth === 0) return i;
  }
  throw new BrookError(`${where}: unbalanced '${a}' starting on line ${lineAt(text, open)}`);
}

/**
 * Tagged template for Brook kernels; returns them by name. Interpolated values are pasted in
 * as text (numbers become constants in the source).
 * @example const { saxpy } = brook`kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }`;
 */
export function brook(strings: TemplateStringsArray, ...values: unknown[]): Record<string, KernelSpec> {
  return parseBrook(String.raw({ raw: strings }, ...values));
}

/**
 * A `brook` tag with options, e.g. a tighter loop bound for code typed into a teaching page.
 * @example const { spin } = brookWith({ maxIterations: 1000 })`kernel void spin(out float o<>) { while (true) o += 1; }`;
 */
export function brookWith(options: BrookOptions): (strings: TemplateStringsArray, ...values: unknown[]) => Record<string, KernelSpec> {
  return (strings, ...values) => parseBrook(String.raw({ raw: strings }, ...values), options);
}
