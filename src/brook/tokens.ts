/**
 * The Brook front end's lexical layer (see compile.ts): tokens, Brook-to-GLSL type and function
 * names, comment blanking, and the small text helpers (matching brackets, line numbers) that
 * the other src/brook modules share.
 */
import { BrookError } from '../core/errors';

export const TYPE_MAP: Record<string, string> = {
  float2: 'vec2', float3: 'vec3', float4: 'vec4',
  half: 'float', half2: 'vec2', half3: 'vec3', half4: 'vec4',
  int2: 'ivec2', int3: 'ivec3', int4: 'ivec4',
  uint2: 'uvec2', uint3: 'uvec3', uint4: 'uvec4',
  // 8-bit normalized streams (BrookGPU's char/uchar and fixed): floats in [0, 1] in a kernel
  char: 'float', char2: 'vec2', char3: 'vec3', char4: 'vec4',
  uchar: 'float', uchar2: 'vec2', uchar3: 'vec3', uchar4: 'vec4',
  fixed: 'float', fixed2: 'vec2', fixed3: 'vec3', fixed4: 'vec4',
  bool2: 'bvec2', bool3: 'bvec3', bool4: 'bvec4',
  float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4',
};
export const FUNCTION_MAP: Record<string, string> = { lerp: 'mix', frac: 'fract', rsqrt: 'inversesqrt', atan2: 'atan' };
export const INT_TYPES = new Set(['int', 'uint', 'int2', 'int3', 'int4', 'uint2', 'uint3', 'uint4', 'ivec2', 'ivec3', 'ivec4', 'uvec2', 'uvec3', 'uvec4']);
export type Token = { kind: 'id' | 'num' | 'punct' | 'space'; text: string };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)|([A-Za-z_][A-Za-z0-9_]*)|(0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fFhH]?|\d+(?:[eE][+-]?\d+)?[uUfFhH]?)|([\s\S])/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) tokens.push({ kind: 'space', text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: 'id', text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: 'num', text: m[3] });
    else tokens.push({ kind: 'punct', text: m[4]! });
  }
  // `unsigned int` and a bare `unsigned` are uint; `unsigned char` is char (both 8-bit unorm)
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind !== 'id' || tokens[i]!.text !== 'unsigned') continue;
    const j = nextSolid(tokens, i);
    if (j !== undefined && /^char[234]?$/.test(tokens[j]!.text)) {
      tokens.splice(i, j - i);
      continue;
    }
    tokens[i] = { kind: 'id', text: 'uint' };
    if (j !== undefined && tokens[j]!.text === 'int') tokens.splice(i + 1, j - i);
  }
  return tokens;
}


const SCALAR_KIND: Record<string, string> = { float: 'float', half: 'float', int: 'int', uint: 'uint', bool: 'bool', char: 'float', uchar: 'float', fixed: 'float' };

/** GLSL type of a Brook scalar or vector type name (float4 -> vec4, char2 -> vec2), or undefined. */
/** `t` with the texts in `before`/`after` (by token index) tokenized and put around each token. */
export function spliceTokens(t: readonly Token[], before: ReadonlyMap<number, string[]>, after: ReadonlyMap<number, string[]>): Token[] {
  const out: Token[] = [];
  t.forEach((x, i) => {
    for (const s of before.get(i) ?? []) out.push(...tokenize(s));
    out.push(x);
    for (const s of after.get(i) ?? []) out.push(...tokenize(s));
  });
  return out;
}

export function glslValueType(t: string): string | undefined {
  const m = /^(float|half|int|uint|bool|char|uchar|fixed)([234]?)$/.exec(t);
  if (!m) return undefined;
  const kind = SCALAR_KIND[m[1]!]!;
  if (!m[2]) return kind;
  return `${kind === 'float' ? '' : kind === 'int' ? 'i' : kind === 'uint' ? 'u' : 'b'}vec${m[2]}`;
}

export const SWIZZLE = /^(?:[xyzw]{1,4}|[rgba]{1,4})$/;

export function nextSolid(tokens: Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j]!.kind !== 'space') return j;
  return undefined;
}

export function normalizeType(t: string, where: string): string {
  const glsl: Record<string, string> = { vec2: 'float2', vec3: 'float3', vec4: 'float4', ivec2: 'int2', ivec3: 'int3', ivec4: 'int4', uvec2: 'uint2', uvec3: 'uint3', uvec4: 'uint4', half: 'float', half2: 'float2', half3: 'float3', half4: 'float4', float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4' };
  const n = (glsl[t] ?? t).replace(/^(?:uchar|fixed)/, 'char');
  if (!/^(float|int|uint|char)[234]?$|^mat[234]$|^bool$/.test(n)) {
    throw new BrookError(`${where}: unknown type '${t}' (use float, float2-4, int, int2-4, uint, uint2-4, char, char2-4)`);
  }
  return n;
}

/**
 * The deepest nesting the front end takes: brackets of every kind, plus the `?:` and assignment
 * chains of one expression (its parsers recurse once a level). Real kernels stay far below.
 */
export const MAX_NESTING = 256;

/**
 * Refuses text nested deeper than MAX_NESTING with a BrookError naming the line, before any
 * parser recurses into it (deep input would otherwise overflow the stack). One pass, no RegExp.
 */
export function checkNesting(text: string, where = 'brook'): void {
  let depth = 0;
  let chain = 0; // ?: and = within one expression
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    if (c === ';' || c === ',' || c === '{' || c === '}') chain = 0;
    else if (c === '?' || (c === '=' && text[i + 1] !== '=' && !'=!<>'.includes(text[i - 1] ?? ''))) chain++;
    if (depth + chain > MAX_NESTING) {
      throw new BrookError(
        `${where}, line ${lineAt(text, i)}: nested more than ${MAX_NESTING} levels deep (brackets, ?: and chained assignments together); split the expression with local variables`,
      );
    }
  }
}

/** Line numbers of many offsets into one text: the newlines found once, then a binary search each. */
export function lineFinder(text: string): (offset: number) => number {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  return (offset) => {
    let lo = 0;
    let hi = newlines.length; // count the newlines before offset
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

export function lineAt(text: string, offset: number): number {
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

export function matching(text: string, open: number, a: string, b: string, where: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === a) depth++;
    else if (text[i] === b && --depth === 0) return i;
  }
  throw new BrookError(`${where}: unbalanced '${a}' starting on line ${lineAt(text, open)}`);
}
