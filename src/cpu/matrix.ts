/**
 * Matrices on the CPU backend (src/brook/js.ts prints calls of these as `R.m*`): a floatNxN is a
 * JS array of its N columns, each a float array of N, as GLSL's matN holds it (`m[i]` is column i),
 * and like vectors it is never changed in place. The operations are GLSL ES 3.00's, which the
 * GPU path prints unchanged (src/brook/glsl.ts): constructors fill columns (a scalar alone makes
 * a diagonal, a matrix alone is resized over the identity), `*` of two matrices and of a matrix
 * and a vector is the linear-algebra product (m * v sums the columns, v * m takes dots with
 * them), the other operators work on components. Every step is rounded to float32.
 */
import { BrookError } from '../core/errors';

const f = Math.fround;
/** A matrix: its columns. */
export type Mat = number[][];

/** The sum of products a[k] * b[k], rounded after each step as a float32 GPU rounds them. */
function dotN(n: number, a: (k: number) => number, b: (k: number) => number): number {
  let s = 0;
  for (let k = 0; k < n; k++) s = f(s + f(a(k) * b(k)));
  return s;
}

function det3(m: Mat): number {
  const [a, b, c] = m as [number[], number[], number[]];
  const t0 = f(f(b[1]! * c[2]!) - f(c[1]! * b[2]!));
  const t1 = f(f(b[0]! * c[2]!) - f(c[0]! * b[2]!));
  const t2 = f(f(b[0]! * c[1]!) - f(c[0]! * b[1]!));
  return f(f(f(a[0]! * t0) - f(a[1]! * t1)) + f(a[2]! * t2));
}

/** The n-1 matrix of `m` without column `col` and row `row`. */
function minor(m: Mat, col: number, row: number): Mat {
  return m.filter((_, i) => i !== col).map((c) => c.filter((_, j) => j !== row));
}

function det(m: Mat): number {
  const n = m.length;
  if (n === 2) return f(f(m[0]![0]! * m[1]![1]!) - f(m[1]![0]! * m[0]![1]!));
  if (n === 3) return det3(m);
  // 4x4: along the first column, by its 3x3 minors
  let s = 0;
  for (let i = 0; i < 4; i++) {
    const t = f(m[0]![i]! * det3(minor(m, 0, i)));
    s = i % 2 ? f(s - t) : f(s + t);
  }
  return s;
}

/** The runtime's matrix functions (merged into R, src/cpu/runtime.ts). */
export const MATRIX = {
  zeroMat(n: number): Mat {
    return Array.from({ length: n }, () => new Array<number>(n).fill(0));
  },
  /** GLSL's matN(s): s on the diagonal. */
  mdiag(n: number, s: number): Mat {
    return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? s : 0)));
  },
  /** GLSL's matN(m): m's components where it has them, the identity's elsewhere. */
  mresize(n: number, m: Mat): Mat {
    return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i < m.length && j < m.length ? m[i]![j]! : i === j ? 1 : 0)));
  },
  /** GLSL's matN(a, b, ...) of scalars and vectors: their components fill the columns in order. */
  mctor(n: number, parts: Array<number | number[]>): Mat {
    const flat = parts.flatMap((x) => (Array.isArray(x) ? x : [x]));
    return Array.from({ length: n }, (_, i) => flat.slice(i * n, i * n + n));
  },
  /** A componentwise operation of matrices, or of a matrix and a scalar (either side). */
  mcw(a: Mat | number, b: Mat | number, g: (x: number, y: number) => number): Mat {
    const m = (Array.isArray(a) ? a : b) as Mat;
    return m.map((c, i) => c.map((_, j) => g(Array.isArray(a) ? a[i]![j]! : a, Array.isArray(b) ? b[i]![j]! : b)));
  },
  mneg(m: Mat): Mat {
    return m.map((c) => c.map((x) => -x));
  },
  /** a * b: column j of the product is a times column j of b. */
  mmul(a: Mat, b: Mat): Mat {
    const n = a.length;
    return b.map((col) => Array.from({ length: n }, (_, i) => dotN(n, (k) => a[k]![i]!, (k) => col[k]!)));
  },
  /** m * v: the columns of m weighted by v's components. */
  mvmul(m: Mat, v: number[]): number[] {
    const n = m.length;
    return Array.from({ length: n }, (_, i) => dotN(n, (k) => m[k]![i]!, (k) => v[k]!));
  },
  /** v * m: v's dot product with each column. */
  vmmul(v: number[], m: Mat): number[] {
    return m.map((col) => dotN(col.length, (k) => v[k]!, (k) => col[k]!));
  },
  b_transpose(m: Mat): Mat {
    return m.map((_, i) => m.map((c) => c[i]!));
  },
  b_matrixCompMult(a: Mat, b: Mat): Mat {
    return a.map((c, i) => c.map((x, j) => f(x * b[i]![j]!)));
  },
  b_determinant(m: Mat): number {
    return det(m);
  },
  /** The adjugate times 1 / determinant (a singular matrix gives infinities and NaNs, as GLSL leaves it undefined). */
  b_inverse(m: Mat): Mat {
    const n = m.length;
    const r = f(1 / det(m));
    return Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => {
        // entry (row j, column i) of the inverse: the cofactor of m's row i, column j
        const c = n === 2 ? m[1 - j]![1 - i]! : det(minor(m, j, i));
        return f(((i + j) % 2 ? -c : c) * r);
      }),
    );
  },
};

/** A matrix constant's value: `n * n` numbers in column order (as twgl uploads a matN uniform) as columns. */
export function matrixUniform(what: string, n: number, v: unknown): Mat {
  const xs = Array.isArray(v) || ArrayBuffer.isView(v) ? Array.from(v as ArrayLike<unknown>) : null;
  if (!xs || xs.length !== n * n || xs.some((x) => typeof x !== 'number')) {
    throw new BrookError(`${what}: a float${n}x${n} constant takes ${n * n} numbers, column by column (as a GLSL mat${n}), got ${Array.isArray(v) ? `${xs!.length} values` : typeof v}`);
  }
  return Array.from({ length: n }, (_, i) => (xs as number[]).slice(i * n, i * n + n).map(f));
}
