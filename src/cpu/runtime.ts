/**
 * What the CPU backend's generated JavaScript (src/brook/js.ts) calls: vectors componentwise,
 * C's integer division, Cg's and GLSL's built-ins in float32 (`Math.fround` after each step, as
 * a float32 GPU rounds each operation). JavaScript's Math is correctly rounded or close to it in
 * double precision, so the float32 result is at least as accurate as GLSL ES 3.00 requires (its
 * bounds: 2.5 ulp for exp/log/pow-style functions, 3 ulp for sqrt-derived ones, absolute 2^-11 for
 * sin/cos); the GPU may be further off, and compare.ts states the tolerance.
 */
import { BrookError } from '../core/errors';
import { MATRIX } from './matrix';

const f = Math.fround;
type V = number | boolean;
type Vec = V[];
type X = V | Vec;

/** Thrown by `discard` inside a function (the record loop catches it). */
export const DISCARD = { discard: true };

const each1 = (x: X, g: (a: number) => V): X => (Array.isArray(x) ? x.map((a) => g(a as number)) : g(x as number));
const each2 = (x: X, y: X, g: (a: number, b: number) => V): X =>
  Array.isArray(x) ? x.map((a, k) => g(a as number, (Array.isArray(y) ? y[k] : y) as number)) : g(x as number, y as number);
const each3 = (x: X, y: X, z: X, g: (a: number, b: number, c: number) => V): X =>
  Array.isArray(x)
    ? x.map((a, k) => g(a as number, (Array.isArray(y) ? y[k] : y) as number, (Array.isArray(z) ? z[k] : z) as number))
    : g(x as number, y as number, z as number);
const fl = (g: (a: number) => number) => (x: X) => each1(x, (a) => f(g(a)));

function roundEven(a: number): number {
  const r = Math.round(a);
  return Math.abs(a % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
function dot(a: X, b: X): number {
  if (!Array.isArray(a)) return f((a as number) * (b as number));
  let s = 0;
  for (let k = 0; k < a.length; k++) s = f(s + f((a[k] as number) * ((b as Vec)[k] as number)));
  return s;
}
const gpuOnly = (name: string) => () => {
  throw new BrookError(`brook: ${name} (a derivative across neighbouring fragments) has no meaning on the CPU backend, which runs one record at a time; run this kernel on a GPU context`);
};
const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
const u32 = new Uint32Array(f32.buffer);

/** The runtime object the generated kernels see as `R`. */
export const R = {
  // matrices (floatNxN as arrays of columns): constructors, products, transpose, determinant, inverse
  ...MATRIX,
  /** An 8-bit store: saturating (fixed) or wrapping modulo 256 (char, uchar). */
  charStore(x: number, saturate: boolean): number {
    return saturate ? Math.round(Math.min(Math.max(x, 0), 1) * 255) : Math.round(x * 255) & 255;
  },
  discard(): never {
    throw DISCARD;
  },
  /** An index of a local array or vector, clamped into it (GLSL leaves an index outside undefined). */
  ci(i: number, len: number): number {
    return i < 0 ? 0 : i >= len ? len - 1 : i | 0;
  },
  splat(x: V, n: number): Vec {
    return n === 2 ? [x, x] : n === 3 ? [x, x, x] : [x, x, x, x];
  },
  swz(v: Vec, comps: number[]): Vec {
    return comps.map((c) => v[c]!);
  },
  set(v: Vec, k: number, x: V): Vec {
    const w = v.slice();
    w[k] = x;
    return w;
  },
  setSwz(v: Vec, comps: number[], x: X): Vec {
    const w = v.slice();
    comps.forEach((c, k) => (w[c] = Array.isArray(x) ? x[k]! : x));
    return w;
  },
  map(v: Vec, g: (a: never) => V): Vec {
    return v.map(g as (a: V) => V);
  },
  map2(v: Vec, w: Vec, g: (a: never, b: never) => V): Vec {
    return v.map((a, k) => (g as (a: V, b: V) => V)(a, w[k]!));
  },
  select(c: Vec, a: Vec, b: Vec): Vec {
    return c.map((x, k) => (x ? a[k]! : b[k]!));
  },
  clone<T>(x: T): T {
    if (Array.isArray(x)) return x.map((y) => R.clone(y)) as T;
    if (x !== null && typeof x === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x)) o[k] = R.clone(y);
      return o as T;
    }
    return x;
  },
  equal(a: unknown, b: unknown): boolean {
    if (Array.isArray(a)) return a.every((x, k) => R.equal(x, (b as unknown[])[k]));
    if (a !== null && typeof a === 'object') return Object.keys(a).every((k) => R.equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
    return a === b;
  },
  // C's (and GLSL's) integer division truncates; by zero GLSL leaves it undefined: 0 here
  idiv(a: number, b: number): number {
    return b === 0 ? 0 : (a / b) | 0;
  },
  udiv(a: number, b: number): number {
    return b === 0 ? 0 : Math.trunc(a / b) >>> 0;
  },
  imod(a: number, b: number): number {
    return b === 0 ? 0 : (a % b) | 0;
  },
  umod(a: number, b: number): number {
    return b === 0 ? 0 : (a % b) >>> 0;
  },
  fmod(a: number, b: number): number {
    return f(a - f(b * Math.trunc(f(a / b))));
  },
  /** float -> int as GLSL's int(): toward zero; outside int's range GLSL leaves it undefined (saturated here). */
  f2i(a: number): number {
    return Number.isNaN(a) ? 0 : a >= 2147483647 ? 2147483647 : a <= -2147483648 ? -2147483648 : Math.trunc(a);
  },
  f2u(a: number): number {
    return Number.isNaN(a) || a <= 0 ? 0 : a >= 4294967295 ? 4294967295 : Math.trunc(a);
  },

  // ---- built-ins, componentwise (the name is GLSL's: the checker's `glsl`)
  b_sin: fl(Math.sin), b_cos: fl(Math.cos), b_tan: fl(Math.tan), b_asin: fl(Math.asin), b_acos: fl(Math.acos),
  b_sinh: fl(Math.sinh), b_cosh: fl(Math.cosh), b_tanh: fl(Math.tanh), b_asinh: fl(Math.asinh), b_acosh: fl(Math.acosh), b_atanh: fl(Math.atanh),
  b_exp: fl(Math.exp), b_exp2: fl((a) => 2 ** a), b_log: fl(Math.log), b_log2: fl(Math.log2), b_sqrt: fl(Math.sqrt),
  b_inversesqrt: fl((a) => 1 / Math.sqrt(a)),
  b_floor: fl(Math.floor), b_ceil: fl(Math.ceil), b_fract: fl((a) => a - Math.floor(a)), b_trunc: fl(Math.trunc),
  // GLSL's round leaves halves to the implementation; roundEven's choice, which GPUs make
  b_round: fl(roundEven), b_roundEven: fl(roundEven),
  b_radians: fl((a) => a * (Math.PI / 180)), b_degrees: fl((a) => a * (180 / Math.PI)),
  b_saturate: fl((a) => Math.min(Math.max(a, 0), 1)),
  b_dFdx: gpuOnly('ddx'), b_dFdy: gpuOnly('ddy'), b_fwidth: gpuOnly('fwidth'),
  b_atan(y: X, x?: X): X {
    return x === undefined ? each1(y, (a) => f(Math.atan(a))) : each2(y, x, (a, b) => f(Math.atan2(a, b)));
  },
  b_pow: (a: X, b: X) => each2(a, b, (x, y) => f(x ** y)),
  b_fmod: (a: X, b: X) => each2(a, b, (x, y) => R.fmod(x, y)),
  b_mod: (a: X, b: X) => each2(a, b, (x, y) => f(x - f(y * Math.floor(f(x / y))))),
  b_step: (e: X, x: X) => each2(e, x, (a, b) => (b < a ? 0 : 1)),
  b_smoothstep: (e0: X, e1: X, x: X) =>
    each3(e0, e1, x, (a, b, c) => {
      const t = f(Math.min(Math.max(f(f(c - a) / f(b - a)), 0), 1));
      return f(f(t * t) * f(3 - f(2 * t)));
    }),
  b_mix: (a: X, b: X, t: X) => each3(a, b, t, (x, y, s) => f(x + f(f(y - x) * s))),
  b_min: (a: X, b: X) => each2(a, b, (x, y) => (y < x ? y : x)),
  b_max: (a: X, b: X) => each2(a, b, (x, y) => (x < y ? y : x)),
  b_clamp: (x: X, lo: X, hi: X) => each3(x, lo, hi, (a, l, h) => Math.min(Math.max(a, l), h)),
  b_abs: (x: X, base?: string) => each1(x, (a) => (base === 'int' ? Math.abs(a) | 0 : Math.abs(a))),
  b_sign: (x: X) => each1(x, (a) => (a > 0 ? 1 : a < 0 ? -1 : a)),
  b_dot: dot,
  b_length: (a: X) => f(Math.sqrt(dot(a, a))),
  b_distance: (a: X, b: X) => {
    const d = each2(a, b, (x, y) => f(x - y));
    return f(Math.sqrt(dot(d, d)));
  },
  b_normalize: (a: X) => {
    const l = f(Math.sqrt(dot(a, a)));
    return each1(a, (x) => f(x / l));
  },
  b_cross: (a: Vec, b: Vec) => {
    const [a0, a1, a2] = a as number[];
    const [b0, b1, b2] = b as number[];
    return [f(f(a1! * b2!) - f(b1! * a2!)), f(f(a2! * b0!) - f(b2! * a0!)), f(f(a0! * b1!) - f(b0! * a1!))];
  },
  b_reflect: (i: X, n: X) => {
    const d = f(2 * dot(n, i));
    return each2(i, n, (x, y) => f(x - f(d * y)));
  },
  b_refract: (i: X, n: X, eta: number) => {
    const d = dot(n, i);
    const k = f(1 - f(f(eta * eta) * f(1 - f(d * d))));
    if (k < 0) return each1(i, () => 0);
    const s = f(f(eta * d) + f(Math.sqrt(k)));
    return each2(i, n, (x, y) => f(f(eta * x) - f(s * y)));
  },
  b_faceforward: (n: X, i: X, nref: X) => (dot(nref, i) < 0 ? n : each1(n, (x) => -x)),
  b_isinf: (x: X) => each1(x, (a) => a === Infinity || a === -Infinity),
  b_isnan: (x: X) => each1(x, (a) => Number.isNaN(a)),
  b_isfinite: (x: X) => each1(x, (a) => Number.isFinite(a)),
  b_any: (x: Vec) => x.some((a) => a),
  b_all: (x: Vec) => x.every((a) => a),
  b_not: (x: Vec) => x.map((a) => !a),
  b_floatBitsToInt: (x: X) => each1(x, (a) => ((f32[0] = a), i32[0]!)),
  b_floatBitsToUint: (x: X) => each1(x, (a) => ((f32[0] = a), u32[0]!)),
  b_intBitsToFloat: (x: X) => each1(x, (a) => ((i32[0] = a), f32[0]!)),
  b_uintBitsToFloat: (x: X) => each1(x, (a) => ((u32[0] = a), f32[0]!)),
};

export type Runtime = typeof R;
