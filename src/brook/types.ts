/**
 * Brook's (Cg's) types and the table of Cg's rules the checker reads: what a type name means,
 * which conversions are implicit, the result type of each operator. The checker (check.ts)
 * applies them; no generator decides a type.
 */

export type Base = 'float' | 'int' | 'uint' | 'bool';

export type Type =
  /** A scalar (n 1) or vector (n 2..4); `lit`: an integer literal not yet given a type. */
  | { k: 'num'; base: Base; n: number; lit?: boolean }
  /** A square float matrix, n x n. */
  | { k: 'mat'; n: number }
  | { k: 'struct'; name: string }
  | { k: 'array'; elem: Type; len: number }
  | { k: 'void' };

export const num = (base: Base, n = 1): Type => ({ k: 'num', base, n });
export const FLOAT = num('float');
export const INT = num('int');
export const UINT = num('uint');
export const BOOL = num('bool');
export const FLOAT4 = num('float', 4);
export const VOID: Type = { k: 'void' };
export const INT_LITERAL: Type = { k: 'num', base: 'int', n: 1, lit: true };

/** The type a name spells (Brook's and GLSL's), or undefined: float4, int2, bool3, half, fixed, char, double, vec3, mat2, float2x2, unsigned int. */
export function typeOfName(name: string): Type | undefined {
  if (name === 'void') return VOID;
  if (name === 'unsigned' || name === 'unsigned int') return UINT;
  const s = name.replace(/^unsigned /, 'u');
  let m = /^(float|half|double|fixed|int|uint|bool|char|uchar)([234])?$/.exec(s);
  if (m) return num(BASE_OF[m[1]!]!, m[2] ? Number(m[2]) : 1);
  m = /^(b|i|u)?vec([234])$/.exec(s);
  if (m) return num(m[1] === 'b' ? 'bool' : m[1] === 'i' ? 'int' : m[1] === 'u' ? 'uint' : 'float', Number(m[2]));
  m = /^(?:float|half|double)([234])x([234])$/.exec(s) ?? /^mat([234])(?:x([234]))?$/.exec(s);
  if (m) return m[2] === undefined || m[1] === m[2] ? { k: 'mat', n: Number(m[1]) } : undefined;
  return undefined;
}

const BASE_OF: Record<string, Base> = { float: 'float', half: 'float', double: 'float', fixed: 'float', char: 'float', uchar: 'float', int: 'int', uint: 'uint', bool: 'bool' };

/** A type in Brook's words, for messages: float3, int2, bool2, float2x2, Tri, float[3]. */
export function typeName(t: Type): string {
  switch (t.k) {
    case 'num': return t.lit ? 'int' : `${t.base}${t.n > 1 ? t.n : ''}`;
    case 'mat': return `float${t.n}x${t.n}`;
    case 'struct': return t.name;
    case 'array': return `${typeName(t.elem)}[${t.len}]`;
    case 'void': return 'void';
  }
}

/** The GLSL ES 3.00 spelling of a type (arrays: their element's; the size goes after the name). */
export function glslType(t: Type): string {
  switch (t.k) {
    case 'num':
      if (t.n === 1) return t.base;
      return `${{ float: '', int: 'i', uint: 'u', bool: 'b' }[t.base]}vec${t.n}`;
    case 'mat': return `mat${t.n}`;
    case 'struct': return t.name;
    case 'array': return glslType(t.elem);
    case 'void': return 'void';
  }
}

export function sameType(a: Type, b: Type): boolean {
  if (a.k !== b.k) return false;
  if (a.k === 'num' && b.k === 'num') return a.base === b.base && a.n === b.n;
  if (a.k === 'mat' && b.k === 'mat') return a.n === b.n;
  if (a.k === 'struct' && b.k === 'struct') return a.name === b.name;
  if (a.k === 'array' && b.k === 'array') return a.len === b.len && sameType(a.elem, b.elem);
  return a.k === 'void';
}

export const isNum = (t: Type | undefined): t is Type & { k: 'num' } => t?.k === 'num';
export const isScalar = (t: Type | undefined): boolean => t?.k === 'num' && t.n === 1;
export const isIntegral = (t: Type | undefined): boolean => t?.k === 'num' && (t.base === 'int' || t.base === 'uint');

/**
 * Cg's implicit conversions (an assignment, an initialiser, an argument, a return):
 * - between float, int, uint and bool, every way (a bool is 0 or 1; a number is true when nonzero);
 * - a scalar to a vector (each component), a vector to a shorter vector or a scalar (its first
 *   components: Cg truncates, with a warning);
 * - never a vector to a longer one, nor anything to or from a matrix, struct or array of
 *   another type.
 * Returns whether `from` may be converted to `to` implicitly.
 */
export function implicitlyConverts(from: Type, to: Type): boolean {
  if (sameType(from, to)) return true;
  if (from.k === 'num' && to.k === 'num') return from.n === 1 || to.n <= from.n;
  return false;
}

/** Cg's explicit conversions (a cast `(float3)(v)`): the implicit ones (a cast widens no vector either: `(float4)(a float2)` is refused, as by Cg). */
export function explicitlyConverts(from: Type, to: Type): boolean {
  return implicitlyConverts(from, to);
}

/** The base of arithmetic between two bases (Cg): float over uint over int; bool counts as int. */
export function arithmeticBase(a: Base, b: Base): Base {
  if (a === 'float' || b === 'float') return 'float';
  if (a === 'uint' || b === 'uint') return 'uint';
  return 'int';
}

/**
 * Cg's binary operators, by class: the operand bases each takes and what it gives.
 * - arithmetic (+ - * /): numbers, componentwise, scalars widened to the vector: the arithmetic base;
 * - '%': integers (C), or floats (Cg's fmod, truncating);
 * - bitwise and shifts: integers only;
 * - comparisons: numbers, componentwise: bool of the operands' size (`float2 >= float2` is bool2);
 * - logical && ||: bools (a number is converted: nonzero is true), componentwise: bool of the size.
 */
export const OPERATOR_CLASS: Record<string, 'arith' | 'mod' | 'bits' | 'shift' | 'compare' | 'equal' | 'logical'> = {
  '+': 'arith', '-': 'arith', '*': 'arith', '/': 'arith', '%': 'mod',
  '&': 'bits', '|': 'bits', '^': 'bits', '<<': 'shift', '>>': 'shift',
  '<': 'compare', '>': 'compare', '<=': 'compare', '>=': 'compare', '==': 'equal', '!=': 'equal',
  '&&': 'logical', '||': 'logical',
};

/** GLSL's componentwise comparison functions, for Cg's comparisons of vectors. */
export const VECTOR_COMPARE: Record<string, string> = {
  '<': 'lessThan', '>': 'greaterThan', '<=': 'lessThanEqual', '>=': 'greaterThanEqual', '==': 'equal', '!=': 'notEqual',
};

/** The components a swizzle names (xyzw or rgba), or undefined. */
export function swizzleComponents(f: string): number[] | undefined {
  if (f.length < 1 || f.length > 4) return undefined;
  const set = /^[xyzw]+$/.test(f) ? 'xyzw' : /^[rgba]+$/.test(f) ? 'rgba' : undefined;
  return set ? [...f].map((c) => set.indexOf(c)) : undefined;
}

/**
 * Cg's built-in functions the checker knows, by name: how each types its arguments.
 * - 'float': float of the argument's shape (ints converted): sin, sqrt, floor, normalize, ...;
 * - 'same': the arguments unified (float if any is, else int), scalars widened to the longest: min, max, pow, lerp, ...;
 * - 'scalar': a float from float vectors: length, distance, dot;
 * - 'bool': bool of the argument's shape: isinf, isnan, isfinite;
 * - 'reduce': any, all: a bool from a vector (numbers: nonzero);
 * - 'bits': GLSL's bit casts, fixed types;
 * - 'cross': float3.
 * `glsl` renames Cg's names GLSL spells otherwise.
 */
export const BUILTINS: Record<string, { rule: 'float' | 'same' | 'samefloat' | 'scalar' | 'bool' | 'reduce' | 'bits' | 'cross' | 'matrix' | 'compare' | 'not'; args: number | [number, number]; glsl?: string; from?: Base; to?: Base }> = {
  sin: { rule: 'float', args: 1 }, cos: { rule: 'float', args: 1 }, tan: { rule: 'float', args: 1 },
  asin: { rule: 'float', args: 1 }, acos: { rule: 'float', args: 1 }, sinh: { rule: 'float', args: 1 },
  cosh: { rule: 'float', args: 1 }, tanh: { rule: 'float', args: 1 }, asinh: { rule: 'float', args: 1 },
  acosh: { rule: 'float', args: 1 }, atanh: { rule: 'float', args: 1 },
  exp: { rule: 'float', args: 1 }, exp2: { rule: 'float', args: 1 }, log: { rule: 'float', args: 1 }, log2: { rule: 'float', args: 1 },
  sqrt: { rule: 'float', args: 1 }, rsqrt: { rule: 'float', args: 1, glsl: 'inversesqrt' }, inversesqrt: { rule: 'float', args: 1 },
  floor: { rule: 'float', args: 1 }, ceil: { rule: 'float', args: 1 }, frac: { rule: 'float', args: 1, glsl: 'fract' },
  fract: { rule: 'float', args: 1 }, round: { rule: 'float', args: 1 }, roundEven: { rule: 'float', args: 1 }, trunc: { rule: 'float', args: 1 },
  radians: { rule: 'float', args: 1 }, degrees: { rule: 'float', args: 1 }, normalize: { rule: 'float', args: 1 },
  saturate: { rule: 'float', args: 1 }, ddx: { rule: 'float', args: 1, glsl: 'dFdx' }, ddy: { rule: 'float', args: 1, glsl: 'dFdy' },
  dFdx: { rule: 'float', args: 1 }, dFdy: { rule: 'float', args: 1 }, fwidth: { rule: 'float', args: 1 },
  atan: { rule: 'samefloat', args: [1, 2] }, atan2: { rule: 'samefloat', args: 2, glsl: 'atan' },
  pow: { rule: 'samefloat', args: 2 }, fmod: { rule: 'samefloat', args: 2 }, mod: { rule: 'samefloat', args: 2 },
  step: { rule: 'samefloat', args: 2 }, smoothstep: { rule: 'samefloat', args: 3 }, lerp: { rule: 'samefloat', args: 3, glsl: 'mix' },
  mix: { rule: 'samefloat', args: 3 }, reflect: { rule: 'samefloat', args: 2 }, refract: { rule: 'samefloat', args: 3 },
  faceforward: { rule: 'samefloat', args: 3 },
  min: { rule: 'same', args: 2 }, max: { rule: 'same', args: 2 }, clamp: { rule: 'same', args: 3 },
  abs: { rule: 'same', args: 1 }, sign: { rule: 'same', args: 1 },
  length: { rule: 'scalar', args: 1 }, distance: { rule: 'scalar', args: 2 }, dot: { rule: 'scalar', args: 2 },
  cross: { rule: 'cross', args: 2 },
  isinf: { rule: 'bool', args: 1 }, isnan: { rule: 'bool', args: 1 }, isfinite: { rule: 'bool', args: 1 },
  any: { rule: 'reduce', args: 1 }, all: { rule: 'reduce', args: 1 },
  not: { rule: 'not', args: 1 },
  lessThan: { rule: 'compare', args: 2 }, lessThanEqual: { rule: 'compare', args: 2 }, greaterThan: { rule: 'compare', args: 2 },
  greaterThanEqual: { rule: 'compare', args: 2 }, equal: { rule: 'compare', args: 2 }, notEqual: { rule: 'compare', args: 2 },
  floatBitsToInt: { rule: 'bits', args: 1, from: 'float', to: 'int' }, floatBitsToUint: { rule: 'bits', args: 1, from: 'float', to: 'uint' },
  intBitsToFloat: { rule: 'bits', args: 1, from: 'int', to: 'float' }, uintBitsToFloat: { rule: 'bits', args: 1, from: 'uint', to: 'float' },
  transpose: { rule: 'matrix', args: 1 }, determinant: { rule: 'matrix', args: 1 }, inverse: { rule: 'matrix', args: 1 },
  matrixCompMult: { rule: 'matrix', args: 2 },
};
