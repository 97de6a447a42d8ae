/**
 * Continuous collision detection on the CPU in double precision, as Provot (1997) describes the
 * elementary tests: the coplanarity cubic f(t) = (A(t) x B(t)) . C(t) solved on [0, 1], each
 * root checked (vertex-face: the vertex inside the triangle; edge-edge: the closest points of
 * the two lines inside both segments), preceded by the non-penetration filter of Tang et al.
 * (2010): when the cubic's four Bernstein coefficients share one strict sign, the features are
 * never coplanar and the cubic is not solved. A, B, C as in ./ccdinclusion.ts.
 *
 * This is the classic method, with its known weaknesses (a tolerance on the checks, and a cubic
 * that vanishes identically for features moving in one plane, where it checks t = 0 and t = 1
 * only); the tests report how often it disagrees with the exact ground truth. The conservative
 * form that never misses is `ccdInclusion`.
 */
import type { CcdKind } from './ccdinclusion';

export * from './ccdinclusion';

import type { Vec3 as V } from './collide';
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const lerp = (a: V, b: V, t: number): V => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];

/** Relative tolerance of the root checks (barycentric and segment parameters). */
export const PROVOT_EPSILON = 1e-9;

function point(q: ArrayLike<number>, k: number): V {
  return [q[k * 3]!, q[k * 3 + 1]!, q[k * 3 + 2]!];
}

/** The query's four points at time t. */
function at(q: ArrayLike<number>, t: number): V[] {
  return [0, 1, 2, 3].map((k) => lerp(point(q, k), point(q, k + 4), t));
}

function abc(kind: CcdKind, p: V[]): [V, V, V] {
  return kind === 'vf' ? [sub(p[2]!, p[1]!), sub(p[3]!, p[1]!), sub(p[0]!, p[1]!)] : [sub(p[1]!, p[0]!), sub(p[3]!, p[2]!), sub(p[2]!, p[0]!)];
}

/** The Bernstein coefficients of the coplanarity cubic on [0, 1] (the polar form of a trilinear f). */
export function coplanarityBernstein(kind: CcdKind, q: ArrayLike<number>): [number, number, number, number] {
  const [a0, b0, c0] = abc(kind, at(q, 0));
  const [a1, b1, c1] = abc(kind, at(q, 1));
  const f = (a: V, b: V, c: V) => dot(cross(a, b), c);
  return [
    f(a0, b0, c0),
    (f(a1, b0, c0) + f(a0, b1, c0) + f(a0, b0, c1)) / 3,
    (f(a1, b1, c0) + f(a1, b0, c1) + f(a0, b1, c1)) / 3,
    f(a1, b1, c1),
  ];
}

/** Tang et al.'s non-penetration filter: true when the features can never be coplanar in [0, 1]. */
export function nonPenetrationFilter(kind: CcdKind, q: ArrayLike<number>): boolean {
  const b = coplanarityBernstein(kind, q);
  return b.every((x) => x > 0) || b.every((x) => x < 0);
}

/** The roots of the cubic with Bernstein coefficients b in [0, 1], by bisection between the extrema. */
export function cubicRoots01(b: readonly number[]): number[] {
  // power basis: f(t) = c0 + c1 t + c2 t^2 + c3 t^3
  const [b0, b1, b2, b3] = b as [number, number, number, number];
  const c0 = b0, c1 = 3 * (b1 - b0), c2 = 3 * (b2 - 2 * b1 + b0), c3 = b3 - 3 * b2 + 3 * b1 - b0;
  const f = (t: number) => ((c3 * t + c2) * t + c1) * t + c0;
  const scale = Math.max(Math.abs(b0), Math.abs(b1), Math.abs(b2), Math.abs(b3));
  if (scale === 0) return [0, 1];
  // extrema: roots of 3 c3 t^2 + 2 c2 t + c1 in (0, 1)
  const cuts = [0, 1];
  const qa = 3 * c3, qb = 2 * c2, qc = c1;
  if (Math.abs(qa) > 1e-14 * scale) {
    const disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) for (const s of [-1, 1]) cuts.push((-qb + s * Math.sqrt(disc)) / (2 * qa));
  } else if (Math.abs(qb) > 0) cuts.push(-qc / qb);
  const ts = cuts.filter((t) => t >= 0 && t <= 1).sort((x, y) => x - y);
  const roots: number[] = [];
  const tol = 1e-14 * scale;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    if (Math.abs(f(t)) <= tol) roots.push(t);
    if (k + 1 < ts.length) {
      let lo = t, hi = ts[k + 1]!;
      let flo = f(lo);
      const fhi = f(hi);
      if (flo * fhi < 0) {
        for (let it = 0; it < 100 && hi - lo > 1e-17; it++) {
          const mid = 0.5 * (lo + hi), fm = f(mid);
          if (fm * flo <= 0) hi = mid;
          else (lo = mid), (flo = fm);
        }
        roots.push(0.5 * (lo + hi));
      }
    }
  }
  return roots;
}

/** Provot's check at a root t: is the vertex in the triangle, or do the edges cross? */
function checkAt(kind: CcdKind, q: ArrayLike<number>, t: number): boolean {
  const p = at(q, t);
  const [A, B, C] = abc(kind, p);
  const n = cross(A, B);
  const nn = dot(n, n);
  const eps = PROVOT_EPSILON;
  if (kind === 'vf') {
    if (nn === 0) return false; // a degenerate triangle
    const s0 = dot(cross(A, C), n) / nn, s1 = dot(cross(sub(B, A), sub(C, A)), n) / nn, s2 = dot(cross(B, sub(B, C)), n) / nn;
    return s0 >= -eps && s1 >= -eps && s2 >= -eps;
  }
  const scale = dot(A, A) * dot(B, B);
  if (nn <= 1e-24 * scale || scale === 0) {
    // parallel edges: the distance between the segments decides
    return segmentDistance(p[0]!, p[1]!, p[2]!, p[3]!) <= eps * Math.sqrt(Math.max(dot(A, A), dot(B, B)));
  }
  const s = dot(cross(C, B), n) / nn, u = dot(cross(C, A), n) / nn;
  return s >= -eps && s <= 1 + eps && u >= -eps && u <= 1 + eps;
}

/** The distance between segments p0p1 and q0q1. */
export function segmentDistance(p0: V, p1: V, q0: V, q1: V): number {
  const d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
  const a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  let s = 0, t = 0;
  if (a === 0 && e === 0) return Math.sqrt(dot(r, r));
  if (a === 0) t = Math.min(1, Math.max(0, f / e));
  else {
    const c = dot(d1, r);
    if (e === 0) s = Math.min(1, Math.max(0, -c / a));
    else {
      const b = dot(d1, d2), den = a * e - b * b;
      s = den !== 0 ? Math.min(1, Math.max(0, (b * f - c * e) / den)) : 0;
      t = (b * s + f) / e;
      if (t < 0) (t = 0), (s = Math.min(1, Math.max(0, -c / a)));
      else if (t > 1) (t = 1), (s = Math.min(1, Math.max(0, (b - c) / a)));
    }
  }
  const c1 = lerp(p0, p1, s), c2 = lerp(q0, q1, t);
  const w = sub(c1, c2);
  return Math.sqrt(dot(w, w));
}

/** The time of first contact in double precision (Provot's roots in order, the first whose
 * check holds), or null when the features do not touch in [0, 1]. */
export function ccdProvotTime(kind: CcdKind, query: ArrayLike<number>): number | null {
  if (nonPenetrationFilter(kind, query)) return null;
  return cubicRoots01(coplanarityBernstein(kind, query)).find((t) => checkAt(kind, query, t)) ?? null;
}

/** Provot's elementary test in double precision: true when the features touch in [0, 1]. */
export function ccdProvot(kind: CcdKind, query: ArrayLike<number>): boolean {
  if (nonPenetrationFilter(kind, query)) return false;
  return cubicRoots01(coplanarityBernstein(kind, query)).some((t) => checkAt(kind, query, t));
}

/**
 * Parses one of Wang et al.'s query files: 8 rows per query of `x_num,x_den,y_num,y_den,z_num,
 * z_den[,truth]` (exact rationals with power-of-two denominators). Returns the coordinates in
 * double (24 per query) and the truth column when present.
 */
export function parseCcdQueries(csv: string): { coords: Float64Array; truth: boolean[] | null; count: number } {
  const rows = csv.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  const count = Math.floor(rows.length / 8);
  const coords = new Float64Array(count * 24);
  let truth: boolean[] | null = null;
  rows.forEach((row, r) => {
    const f = row.split(',');
    for (let k = 0; k < 3; k++) coords[r * 3 + k] = Number(BigInt(f[2 * k]!)) / Number(BigInt(f[2 * k + 1]!));
    if (f.length > 6) {
      truth ??= new Array<boolean>(count).fill(false);
      if (r % 8 === 0) truth[r / 8] = f[6] === '1';
    }
  });
  return { coords, truth, count };
}
