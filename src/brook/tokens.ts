/**
 * Text-level helpers of the Brook front end that run before the parser (lex.ts): the nesting
 * bound, comment blanking (kept as a public helper), and the element types of kernel parameters.
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

