/**
 * The matrix kernels of test/cpu/matrix.test.ts in plain TypeScript, as GLSL ES 3.00 defines
 * the operations (matrices fill and index by columns; `*` of matrices and of a matrix and a
 * vector the linear-algebra products). A matrix here is a function (row, column) -> number over
 * a flat array in column order. Computed in double and rounded to float32 once at the end: the
 * specs' inputs are small multiples of 1/8, for which every step is exact in float32.
 */
type M = { n: number; at: (row: number, col: number) => number };

const mat = (n: number, flat: readonly number[]): M => ({ n, at: (r, c) => flat[c * n + r]! });
const cols = (m: M): number[][] => Array.from({ length: m.n }, (_, c) => Array.from({ length: m.n }, (_, r) => m.at(r, c)));
const times = (a: M, b: M): M => {
  const flat: number[] = [];
  for (let c = 0; c < a.n; c++) for (let r = 0; r < a.n; r++) {
    let s = 0;
    for (let k = 0; k < a.n; k++) s += a.at(r, k) * b.at(k, c);
    flat.push(s);
  }
  return mat(a.n, flat);
};
const timesVec = (m: M, v: readonly number[]) => Array.from({ length: m.n }, (_, r) => v.reduce((s, x, k) => s + m.at(r, k) * x, 0));
const vecTimes = (v: readonly number[], m: M) => Array.from({ length: m.n }, (_, c) => v.reduce((s, x, k) => s + x * m.at(k, c), 0));
const each = (a: M, g: (x: number, r: number, c: number) => number): M => mat(a.n, cols(a).flatMap((col, c) => col.map((x, r) => g(x, r, c))));

/** The determinant by Laplace expansion along the first row. */
function det(m: M): number {
  if (m.n === 1) return m.at(0, 0);
  let s = 0;
  for (let c = 0; c < m.n; c++) s += (c % 2 ? -1 : 1) * m.at(0, c) * det(without(m, 0, c));
  return s;
}
function without(m: M, row: number, col: number): M {
  const n = m.n - 1;
  return { n, at: (r, c) => m.at(r < row ? r : r + 1, c < col ? c : c + 1) };
}
const inverse = (m: M): M => {
  const d = det(m);
  return { n: m.n, at: (r, c) => ((r + c) % 2 ? -1 : 1) * det(without(m, c, r)) / d };
};

/** The outputs of the spec's matrix kernels for one record (a, b float4; c float; u a float3x3 constant, column by column), each a float4. */
export function brookMatrixReference(kernel: 'ctor' | 'products' | 'components' | 'functions', a: readonly number[], b: readonly number[], c: number, u: readonly number[] = []): number[][] {
  const v4 = (...x: number[]) => x.map(Math.fround);
  switch (kernel) {
    case 'ctor': {
      // float4x4(a, b.xy, c, a.w, b.zyx, c, a.zw, b.xy); float2x2 of a float4x4; float4x4 of a float2x2; float3x3(c)
      const m = mat(4, [a[0]!, a[1]!, a[2]!, a[3]!, b[0]!, b[1]!, c, a[3]!, b[2]!, b[1]!, b[0]!, c, a[2]!, a[3]!, b[0]!, b[1]!]);
      const big = mat(4, [...a, ...b, ...[...a].reverse(), ...[...b].reverse()]);
      const g = { n: 4, at: (r: number, k: number) => (r < 2 && k < 2 ? [a[0]!, a[1]!, b[2]!, c][k * 2 + r]! : r === k ? 1 : 0) };
      const m4 = cols(m);
      return [...m4.map((x) => v4(...x)), v4(big.at(0, 0), big.at(1, 0), big.at(0, 1), big.at(1, 1)), v4(g.at(0, 1), g.at(1, 1), 2 * g.at(2, 2), 3 * g.at(3, 3)), v4(c, 2 * c, 3 * c, c)];
    }
    case 'products': {
      const m = mat(3, [a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!, a[3]!, b[3]!, c]);
      const n = mat(3, [b[2]!, b[0]!, b[1]!, a[1]!, a[2]!, a[0]!, c, 1, -a[0]!]);
      const p = cols(times(m, n));
      const q = mat(4, [...a, ...b, ...[...a].reverse(), b[1]!, b[0]!, b[3]!, b[2]!]);
      const w = [a[2]!, a[0]!, a[1]!];
      return [...p.map((x) => v4(...x, 0)), v4(...timesVec(m, w), 0), v4(...vecTimes(w, m), 0), v4(...timesVec(q, b)), v4(...vecTimes(b, q))];
    }
    case 'components': {
      const m = mat(2, [a[0]!, a[1]!, a[2]!, a[3]!]);
      const n = mat(2, [b[0]!, b[1]!, b[2]!, c]);
      const flat = (x: M) => cols(x).flat();
      const sum = each(m, (x, r, k) => x + n.at(r, k));
      const diff = each(m, (x, r, k) => x - n.at(r, k));
      const scaled = each(m, (x, r, k) => (x * 2 + 3 * x) / 4 - n.at(r, k)); // (m * 2.0 + 3.0 * m) / 4.0 - n
      const prod = each(m, (x, r, k) => x * n.at(r, k));
      let acc = each(m, (x, r, k) => x + n.at(r, k)); // m += n
      acc = times(acc, n); // then *= n
      const v = vecTimes([a[0]!, b[1]!], acc); // float2 v *= acc
      const neg = each(m, (x) => -x);
      return [v4(...flat(sum)), v4(...flat(diff)), v4(...flat(scaled)), v4(...flat(prod)), v4(...flat(acc)), v4(...v, ...flat(neg).slice(0, 2)), v4(...flat(each(m, (x) => 1 - x)))];
    }
    case 'functions': {
      const m = mat(3, [a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!, a[3]!, b[3]!, c]);
      const t = cols(mat(3, cols(m).flat())).map((_, k) => Array.from({ length: 3 }, (__, r) => m.at(k, r))); // transpose's columns: m's rows
      const uu = mat(3, [...u]);
      // m with column 1 set to a.xyz and its (row 2, column 0) to c
      const set = mat(3, [a[0]!, a[1]!, c, a[0]!, a[1]!, a[2]!, a[3]!, b[3]!, c]);
      const two = mat(2, [a[0]! + 4, a[1]!, b[0]!, b[1]! + 4]);
      const inv = cols(inverse(two)).flat();
      const m4 = mat(4, [...a, ...b, a[3]!, a[2]!, c, 1, 2, c, a[0]!, 3]);
      return [v4(...t[0]!, det(m)), v4(...t[2]!, det(m4)), v4(...cols(set)[0]!, set.at(2, 2)), v4(...inv), v4(...timesVec(uu, [a[0]!, a[1]!, a[2]!]), uu.at(2, 1)), v4(...cols(inverse(mat(3, cols(m).flat().map((x, i) => (i % 4 === 0 ? x + 8 : x)))))[1]!, 0)];
    }
  }
}
