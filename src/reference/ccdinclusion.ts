/**
 * The conservative elementary CCD tests, as the GPU runs them (glsl/apps/ccd/elementary.glsl),
 * on the CPU: every float operation rounded to float32 with Math.fround (`precision: 'float32'`)
 * or kept in double (`'float64'`). Nothing here touches WebGL.
 *
 * A query is 8 points (24 numbers), as in Wang et al.'s data sets: rows 0-3 at t = 0, rows 4-7
 * at t = 1, vertices moving linearly in between. Vertex-face: v, f0, f1, f2; edge-edge: ea0,
 * ea1, eb0, eb1. With A(t), B(t), C(t) the linear vectors
 *   vertex-face: A = f1 - f0, B = f2 - f0, C = v - f0,
 *   edge-edge:   A = ea1 - ea0, B = eb1 - eb0, C = eb0 - ea0,
 * the features are coplanar where the cubic f(t) = (A x B) . C vanishes (Provot 1997).
 *
 * Features whose swept boxes (over both frames) are apart are dropped first: min, max and
 * comparisons are exact, so this is done only when every input is exact in the working precision.
 * Then, for exact inputs, the non-penetration filter below (1.) runs once without intervals, its
 * rounding error bounded instead (noCoplanarity: about a tenth of the interval filter's work).
 * The test is a branch and bound over t in [0, 1]. An interval T = [i, i + 1] / 2^d is dropped
 * when either
 * 1. the four Bernstein coefficients of f on T all have one strict sign (f has no root in T: the
 *    convex-hull property); at d = 0 this is Tang et al.'s (2010) non-penetration filter. f is
 *    trilinear in (A, B, C), so its Bernstein coefficients are sums of triple products of the
 *    vectors at T's ends (the polar form): b0 = f(a,a,a), 3 b1 = f(b,a,a) + f(a,b,a) + f(a,a,b),
 *    3 b2 = f(b,b,a) + f(b,a,b) + f(a,b,b), b3 = f(b,b,b);
 * 2. or the inside check fails everywhere on T: vertex-face, the three edge functions
 *    ((v_k+1 - v_k) x (v - v_k)) . n, n = A x B, cannot all be >= 0 (the point's projection cannot
 *    be in the closed triangle); edge-edge, the segment parameters s = ((C x B) . n) / |n|^2 and
 *    u = ((C x A) . n) / |n|^2 cannot both be in [0, 1] (numerators compared, no division).
 *    Both are evaluated over T with interval arithmetic on the vectors' ranges.
 * An interval that survives to depth MAX_DEPTH reports a collision, as does a query that needs
 * more than MAX_VISITS intervals. If the features touch at t*, the interval holding t* is never
 * dropped at any depth, provided every interval encloses the exact value: so the test never
 * misses a collision, and its false positives are near misses within 2^-MAX_DEPTH in time
 * (or queries that hit the visit cap, counted separately).
 *
 * Error bound. Values are midpoint-radius intervals (c, r). Every operation's midpoint is
 * computed in the working precision (unit roundoff u = 2^-24 for float32, 2^-53 for double),
 * so its rounding error is at most u |c|; the radius is computed from a few more rounded
 * operations, each off by at most u of a term no larger than |c| + r. Each operation therefore
 * adds SLACK (|c| + r) + TINY to the radius with SLACK = 16 u: four times the 4 u that the
 * midpoint and radius roundings of one product or sum need, the margin covering GPUs whose
 * float ops are not correctly rounded (GLSL ES 3.00 highp promises IEEE single range and about
 * 2^-24 relative precision) and contracted multiply-adds (a fused op rounds once, never more).
 * TINY = 2^-120 covers a result flushed to zero in the subnormal range (GPUs may flush
 * denormals). A coordinate that the working precision holds exactly enters with radius 0;
 * one it cannot hold is rounded to nearest, which moves it by at most u |x|, and enters with
 * radius u |x| + TINY, so the test stays conservative for the unrounded (double) query too
 * (the GPU kernel takes that radius as the uniform `inputUlp`: 0 for float32 geometry). t = i / 2^d is exact for d <= 24.
 */
import type { CcdKind } from '../geometry/bvh';

/** Depth of the bisection in t: surviving intervals are 2^-MAX_DEPTH wide. */
export const CCD_MAX_DEPTH = 16;
/** The separation certificate's margin in units of the working precision's roundoff u, times the
 * largest coordinate: 2^8 u (2^-16 in float32), four times what the corners, dot products and
 * normalisation need when correctly rounded. */
export const CCD_SEP_MARGIN_ULPS = 256;
/** Intervals visited before a query gives up and reports a (conservative) collision. */
export const CCD_MAX_VISITS = 2048;

export type { CcdKind } from '../geometry/bvh';

/** Result of one conservative test: the verdict and how it was reached. */
export interface InclusionResult {
  hit: boolean;
  /** Intervals visited. */
  visits: number;
  /** True when the visit cap, not a surviving interval, made the verdict a collision. */
  capped: boolean;
  /** True when the features' swept boxes or the depth-0 non-penetration filter rejected the query. */
  filtered: boolean;
  /** A conservative time of impact (a multiple of 2^-16, never after the first contact): the start
   * of the first interval reported, or of the one the visit cap stopped at; 1 when none. */
  toi: number;
}

type Round = (x: number) => number;

interface Iv {
  c: number;
  r: number;
}
type Iv3 = [Iv, Iv, Iv];

class Arith {
  readonly slack: number;
  readonly tiny = 2 ** -120;
  constructor(
    readonly rd: Round,
    readonly u: number,
  ) {
    this.slack = 16 * u;
  }
  pad(c: number, r: number): Iv {
    const rd = this.rd;
    return { c, r: rd(rd(r + rd(this.slack * rd(Math.abs(c) + r))) + this.tiny) };
  }
  input(x: number): Iv {
    const c = this.rd(x);
    // a coordinate the working precision holds exactly is the geometry itself
    return { c, r: c === x ? 0 : this.rd(this.rd(this.u * Math.abs(c)) + this.tiny) };
  }
  add(a: Iv, b: Iv): Iv {
    return this.pad(this.rd(a.c + b.c), this.rd(a.r + b.r));
  }
  sub(a: Iv, b: Iv): Iv {
    return this.pad(this.rd(a.c - b.c), this.rd(a.r + b.r));
  }
  mul(a: Iv, b: Iv): Iv {
    const rd = this.rd;
    const r = rd(rd(rd(Math.abs(a.c) * b.r) + rd(a.r * Math.abs(b.c))) + rd(a.r * b.r));
    return this.pad(rd(a.c * b.c), r);
  }
  /** x * t for an exact t in [0, 1]. */
  scale(a: Iv, t: number): Iv {
    return this.pad(this.rd(a.c * t), this.rd(a.r * t));
  }
  /** The hull of two intervals. */
  hull(a: Iv, b: Iv): Iv {
    const rd = this.rd;
    const c = rd(rd(a.c + b.c) * 0.5);
    const r = rd(rd(Math.abs(rd(a.c - b.c)) * 0.5) + Math.max(a.r, b.r));
    return this.pad(c, r);
  }
  sub3(a: Iv3, b: Iv3): Iv3 {
    return [this.sub(a[0], b[0]), this.sub(a[1], b[1]), this.sub(a[2], b[2])];
  }
  add3(a: Iv3, b: Iv3): Iv3 {
    return [this.add(a[0], b[0]), this.add(a[1], b[1]), this.add(a[2], b[2])];
  }
  scale3(a: Iv3, t: number): Iv3 {
    return [this.scale(a[0], t), this.scale(a[1], t), this.scale(a[2], t)];
  }
  hull3(a: Iv3, b: Iv3): Iv3 {
    return [this.hull(a[0], b[0]), this.hull(a[1], b[1]), this.hull(a[2], b[2])];
  }
  cross(a: Iv3, b: Iv3): Iv3 {
    return [
      this.sub(this.mul(a[1], b[2]), this.mul(a[2], b[1])),
      this.sub(this.mul(a[2], b[0]), this.mul(a[0], b[2])),
      this.sub(this.mul(a[0], b[1]), this.mul(a[1], b[0])),
    ];
  }
  dot(a: Iv3, b: Iv3): Iv {
    return this.add(this.add(this.mul(a[0], b[0]), this.mul(a[1], b[1])), this.mul(a[2], b[2]));
  }
  triple(a: Iv3, b: Iv3, c: Iv3): Iv {
    return this.dot(this.cross(a, b), c);
  }
  /** Upper end of an interval, rounded up enough for a sign test against 0. */
  upper(a: Iv): number {
    return a.c + a.r;
  }
  lower(a: Iv): number {
    return a.c - a.r;
  }
}

const ARITH = {
  float32: new Arith(Math.fround, 2 ** -24),
  float64: new Arith((x) => x, 2 ** -53),
};

/** The linear vectors A, B, C of a query at t = 0 and their change over [0, 1]. */
function vectors(m: Arith, kind: CcdKind, q: ArrayLike<number>): { x0: Iv3[]; dx: Iv3[] } {
  const pt = (k: number): Iv3 => [m.input(q[k * 3]!), m.input(q[k * 3 + 1]!), m.input(q[k * 3 + 2]!)];
  const at = (o: number): Iv3[] => {
    const p = [pt(o), pt(o + 1), pt(o + 2), pt(o + 3)] as const;
    return kind === 'vf'
      ? [m.sub3(p[2], p[1]), m.sub3(p[3], p[1]), m.sub3(p[0], p[1])]
      : [m.sub3(p[1], p[0]), m.sub3(p[3], p[2]), m.sub3(p[2], p[0])];
  };
  const x0 = at(0), x1 = at(4);
  return { x0, dx: [m.sub3(x1[0]!, x0[0]!), m.sub3(x1[1]!, x0[1]!), m.sub3(x1[2]!, x0[2]!)] };
}

/** The float32 non-penetration filter's bound factor (glsl/apps/ccd/elementary.glsl CCD_NP_K): 2^-16. */
export const CCD_NP_K = 2 ** -16;

/**
 * Tang et al.'s non-penetration filter at depth 0 without intervals (ccdNoCoplanarity in
 * glsl/apps/ccd/elementary.glsl, operation for operation): true when the coplanarity cubic keeps
 * one strict sign on [0, 1], so the features are never coplanar and cannot touch. Exact inputs
 * only. The vectors A, B, C at t = 0 (a) and t = 1 (b) are differences of exact coordinates,
 * each rounded once; the Bernstein coefficients (times 3) are f(a,a,a), f(b,a,a) + f(a,b,a) +
 * f(a,a,b), f(b,b,a) + f(b,a,b) + f(a,b,b), f(b,b,b) with f(a, b, c) = a . (b x c), a sum of six
 * signed products a_i b_j c_k, and S is the sum of the same products' magnitudes. Each product
 * of rounded vectors is within (1 + u)^3 - 1 of the exact one (relative), and evaluating the
 * sums adds at most 8 more roundings relative to S (two in each cross-product term, three in the
 * dot product, two for the three polar terms): the computed coefficient is within about 11 u S
 * of the exact one, S itself within 8 u. A coefficient counts as signed only past
 * CCD_NP_K S + TINY, 2^-16 = 256 u: over twenty times that error (room for GPU ops a few ulps
 * off, and contracted multiply-adds, which round less), TINY covering products flushed to zero.
 * Overflow or NaN makes a comparison false: not dropped. So a query this drops has no root of
 * the exact cubic in [0, 1], which the interval filter would also conclude at depth 0 (on a
 * draped cloth's 78K box-overlapping features the two drop the same ones, but for one).
 */
function noCoplanarity(m: Arith, kind: CcdKind, q: ArrayLike<number>): boolean {
  const rd = m.rd;
  const pt = (k: number): V3 => [q[k * 3]!, q[k * 3 + 1]!, q[k * 3 + 2]!];
  const sub = (a: V3, b: V3): V3 => [rd(a[0] - b[0]), rd(a[1] - b[1]), rd(a[2] - b[2])];
  const vecs = (o: number): V3[] => {
    const p = [pt(o), pt(o + 1), pt(o + 2), pt(o + 3)] as const;
    return kind === 'vf' ? [sub(p[2], p[1]), sub(p[3], p[1]), sub(p[0], p[1])] : [sub(p[1], p[0]), sub(p[3], p[2]), sub(p[2], p[0])];
  };
  const [xa, xb, xc] = vecs(0) as [V3, V3, V3];
  const [ya, yb, yc] = vecs(4) as [V3, V3, V3];
  // (a . (b x c), the sum of its six terms' magnitudes), as ccdTripleAbs
  const triple = (a: V3, b: V3, c: V3): [number, number] => {
    const m1 = [rd(b[1] * c[2]), rd(b[2] * c[0]), rd(b[0] * c[1])];
    const m2 = [rd(b[2] * c[1]), rd(b[0] * c[2]), rd(b[1] * c[0])];
    const k = [0, 1, 2].map((i) => rd(m1[i]! - m2[i]!));
    const s = [0, 1, 2].map((i) => rd(Math.abs(m1[i]!) + Math.abs(m2[i]!)));
    const v = [0, 1, 2].map((i) => rd(a[i]! * k[i]!));
    const w = [0, 1, 2].map((i) => rd(Math.abs(a[i]!) * s[i]!));
    return [rd(rd(v[0]! + v[1]!) + v[2]!), rd(rd(w[0]! + w[1]!) + w[2]!)];
  };
  const f0 = triple(xa, xb, xc), f3 = triple(ya, yb, yc);
  const g1 = triple(ya, xb, xc), g2 = triple(xa, yb, xc), g3 = triple(xa, xb, yc);
  const h1 = triple(ya, yb, xc), h2 = triple(ya, xb, yc), h3 = triple(xa, yb, yc);
  const v = [f0[0], rd(rd(g1[0] + g2[0]) + g3[0]), rd(rd(h1[0] + h2[0]) + h3[0]), f3[0]];
  const e = [f0[1], rd(rd(g1[1] + g2[1]) + g3[1]), rd(rd(h1[1] + h2[1]) + h3[1]), f3[1]].map((x) => rd(rd(CCD_NP_K * x) + m.tiny));
  return v.every((x, i) => x > e[i]!) || v.every((x, i) => x < -e[i]!);
}

/** The non-penetration filter without intervals on its own (ccdInclusion runs it after the box
 * test): true when it proves the features never coplanar in [0, 1]; false for inputs the working
 * precision does not hold exactly (it is not run on those). */
export function ccdNoCoplanarity(kind: CcdKind, query: ArrayLike<number>, precision: 'float32' | 'float64' = 'float32'): boolean {
  const m = ARITH[precision];
  return Array.prototype.every.call(query, (x: number) => m.rd(x) === x) && noCoplanarity(m, kind, query);
}

/** Are the swept boxes of the two features (vertex and face, or the two edges) apart? */
function boxesApart(kind: CcdKind, q: ArrayLike<number>): boolean {
  const a = kind === 'vf' ? [0, 4] : [0, 1, 4, 5], b = kind === 'vf' ? [1, 2, 3, 5, 6, 7] : [2, 3, 6, 7];
  for (let c = 0; c < 3; c++) {
    const lo = (ps: number[]) => Math.min(...ps.map((k) => q[k * 3 + c]!)), hi = (ps: number[]) => Math.max(...ps.map((k) => q[k * 3 + c]!));
    if (lo(a) > hi(b) || lo(b) > hi(a)) return true;
  }
  return false;
}

/** Can the inside check (closed triangle / both segments) hold somewhere over the ranges A, B, C? */
function insidePossible(m: Arith, kind: CcdKind, A: Iv3, B: Iv3, C: Iv3): boolean {
  const n = m.cross(A, B);
  if (kind === 'vf') {
    const s0 = m.dot(m.cross(A, C), n);
    const s1 = m.dot(m.cross(m.sub3(B, A), m.sub3(C, A)), n);
    const s2 = m.dot(m.cross(B, m.sub3(B, C)), n); // (a - c) x (p - c) = (-B) x (C - B) = B x (B - C)
    return m.upper(s0) >= 0 && m.upper(s1) >= 0 && m.upper(s2) >= 0;
  }
  const nn = m.dot(n, n);
  const sn = m.dot(m.cross(C, B), n);
  const un = m.dot(m.cross(C, A), n);
  return m.upper(sn) >= 0 && m.upper(m.sub(nn, sn)) >= 0 && m.upper(un) >= 0 && m.upper(m.sub(nn, un)) >= 0;
}

type V3 = [number, number, number];

/** The separation certificate (glsl/apps/ccd/elementary.glsl ccdApart, operation for operation). */
class Separation {
  constructor(readonly rd: Round) {}
  sub(a: V3, b: V3): V3 {
    const rd = this.rd;
    return [rd(a[0] - b[0]), rd(a[1] - b[1]), rd(a[2] - b[2])];
  }
  add(a: V3, b: V3): V3 {
    const rd = this.rd;
    return [rd(a[0] + b[0]), rd(a[1] + b[1]), rd(a[2] + b[2])];
  }
  scale(a: V3, t: number): V3 {
    const rd = this.rd;
    return [rd(a[0] * t), rd(a[1] * t), rd(a[2] * t)];
  }
  dot(a: V3, b: V3): number {
    const rd = this.rd;
    return rd(rd(rd(a[0] * b[0]) + rd(a[1] * b[1])) + rd(a[2] * b[2]));
  }
  cross(a: V3, b: V3): V3 {
    const rd = this.rd;
    return [rd(rd(a[1] * b[2]) - rd(a[2] * b[1])), rd(rd(a[2] * b[0]) - rd(a[0] * b[2])), rd(rd(a[0] * b[1]) - rd(a[1] * b[0]))];
  }
  /** p + (q - p) t */
  at(p: V3, q: V3, t: number): V3 {
    return this.add(p, this.scale(this.sub(q, p), t));
  }
  onSegment(p: V3, a: V3, b: V3): V3 {
    const ab = this.sub(b, a);
    const l = this.dot(ab, ab);
    return l > 0 ? this.add(a, this.scale(ab, Math.min(Math.max(this.rd(this.dot(this.sub(p, a), ab) / l), 0), 1))) : a;
  }
  onTriangle(p: V3, a: V3, b: V3, c: V3): V3 {
    const rd = this.rd;
    const ab = this.sub(b, a), ac = this.sub(c, a), ap = this.sub(p, a);
    const d1 = this.dot(ab, ap), d2 = this.dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    const bp = this.sub(p, b);
    const d3 = this.dot(ab, bp), d4 = this.dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    const vc = rd(rd(d1 * d4) - rd(d3 * d2));
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return this.onSegment(p, a, b);
    const cp = this.sub(p, c);
    const d5 = this.dot(ab, cp), d6 = this.dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    const vb = rd(rd(d5 * d2) - rd(d1 * d6));
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return this.onSegment(p, a, c);
    const va = rd(rd(d3 * d6) - rd(d5 * d4));
    if (va <= 0 && rd(d4 - d3) >= 0 && rd(d5 - d6) >= 0) return this.onSegment(p, b, c);
    const den = rd(rd(va + vb) + vc);
    if (!(den > 0)) return this.onSegment(p, a, b);
    return this.add(this.add(a, this.scale(ab, rd(vb / den))), this.scale(ac, rd(vc / den)));
  }
  gap(u: V3, ca: V3[], cb: V3[]): number {
    const l = this.dot(u, u);
    if (!(l > 0)) return -1;
    const s = this.rd(Math.sqrt(l));
    const n: V3 = [this.rd(u[0] / s), this.rd(u[1] / s), this.rd(u[2] / s)];
    let lo = this.dot(n, ca[0]!), hi = this.dot(n, cb[0]!);
    for (let k = 1; k < ca.length; k++) lo = Math.min(lo, this.dot(n, ca[k]!));
    for (let k = 1; k < cb.length; k++) hi = Math.max(hi, this.dot(n, cb[k]!));
    return this.rd(lo - hi);
  }
  /** Are the features (p: t = 0, q: t = 1) certainly apart throughout [ta, tb]? */
  apart(kind: CcdKind, p: V3[], q: V3[], ta: number, tb: number, margin: number): boolean {
    const tm = this.rd(this.rd(ta + tb) * 0.5);
    const m = p.map((x, k) => this.at(x, q[k]!, tm)) as [V3, V3, V3, V3];
    let u1: V3, u2: V3, ca: V3[], cb: V3[];
    if (kind === 'vf') {
      ca = [this.at(p[0]!, q[0]!, ta), this.at(p[0]!, q[0]!, tb)];
      cb = [1, 2, 3].map((k) => this.at(p[k]!, q[k]!, ta)).concat([1, 2, 3].map((k) => this.at(p[k]!, q[k]!, tb)));
      u1 = this.sub(m[0], this.onTriangle(m[0], m[1], m[2], m[3]));
      u2 = this.cross(this.sub(m[2], m[1]), this.sub(m[3], m[1]));
    } else {
      ca = [this.at(p[0]!, q[0]!, ta), this.at(p[1]!, q[1]!, ta), this.at(p[0]!, q[0]!, tb), this.at(p[1]!, q[1]!, tb)];
      cb = [this.at(p[2]!, q[2]!, ta), this.at(p[3]!, q[3]!, ta), this.at(p[2]!, q[2]!, tb), this.at(p[3]!, q[3]!, tb)];
      const d1 = this.sub(m[1], m[0]), d2 = this.sub(m[3], m[2]), r = this.sub(m[0], m[2]);
      u1 = this.sub(m[0], this.onSegment(m[0], m[2], m[3]));
      const closer = (w: V3) => {
        if (this.dot(w, w) < this.dot(u1, u1)) u1 = w;
      };
      closer(this.sub(m[1], this.onSegment(m[1], m[2], m[3])));
      closer(this.sub(this.onSegment(m[2], m[0], m[1]), m[2]));
      closer(this.sub(this.onSegment(m[3], m[0], m[1]), m[3]));
      const rd = this.rd;
      const a = this.dot(d1, d1), b = this.dot(d1, d2), e = this.dot(d2, d2), c = this.dot(d1, r), f = this.dot(d2, r);
      const den = rd(rd(a * e) - rd(b * b));
      if (den > 0) {
        const s = rd(rd(rd(b * f) - rd(c * e)) / den), t = rd(rd(rd(a * f) - rd(b * c)) / den);
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) closer(this.sub(this.add(m[0], this.scale(d1, s)), this.add(m[2], this.scale(d2, t))));
      }
      u2 = this.cross(d1, d2);
    }
    if (this.dot(u2, u1) < 0) u2 = [-u2[0], -u2[1], -u2[2]];
    return Math.max(this.gap(u1, ca, cb), this.gap(u2, ca, cb)) > margin;
  }
}

const SEPARATION = { float32: new Separation(Math.fround), float64: new Separation((x) => x) };

/**
 * The conservative test of one query (24 coordinates, see the module header). Never reports
 * false for touching features; its `hit` may be a near miss.
 */
export function ccdInclusion(kind: CcdKind, query: ArrayLike<number>, precision: 'float32' | 'float64' = 'float32'): InclusionResult {
  const m = ARITH[precision];
  // the features' swept boxes first (min/max and compares: exact), when the inputs are exact
  if (Array.prototype.every.call(query, (x: number) => m.rd(x) === x) && boxesApart(kind, query)) return { hit: false, visits: 0, capped: false, filtered: true, toi: 1 };
  // then the non-penetration filter without intervals (a tenth of the work of the interval one
  // at depth 0, which it stands in for: counted as that visit)
  if (Array.prototype.every.call(query, (x: number) => m.rd(x) === x) && noCoplanarity(m, kind, query)) return { hit: false, visits: 1, capped: false, filtered: true, toi: 1 };
  const { x0, dx } = vectors(m, kind, query);
  // the certificate's points (rounded to the working precision) and margin
  const sep = SEPARATION[precision];
  const pts = Array.from({ length: 8 }, (_, k) => [m.rd(query[k * 3]!), m.rd(query[k * 3 + 1]!), m.rd(query[k * 3 + 2]!)] as V3);
  const M = Math.max(...pts.flat().map(Math.abs));
  const exact = Array.prototype.every.call(query, (x: number) => m.rd(x) === x);
  const margin = m.rd(m.rd(m.rd(CCD_SEP_MARGIN_ULPS * m.u + (exact ? 0 : 4 * m.u)) * M) + m.tiny);
  const at = (t: number): Iv3[] => x0.map((v, k) => m.add3(v, m.scale3(dx[k]!, t)));
  const stack: Array<[number, number]> = [[0, 0]];
  let visits = 0;
  while (stack.length > 0) {
    const [d, i] = stack.pop()!;
    const ta = i * 2 ** -d, tb = (i + 1) * 2 ** -d;
    if (++visits > CCD_MAX_VISITS) return { hit: true, visits, capped: true, filtered: false, toi: ta };
    const [a0, a1, a2] = at(ta) as [Iv3, Iv3, Iv3];
    const [b0, b1, b2] = at(tb) as [Iv3, Iv3, Iv3];
    // Bernstein coefficients of f on [ta, tb], times 3
    const three = (x: Iv): Iv => m.add(m.add(x, x), x);
    const beta = [
      three(m.triple(a0, a1, a2)),
      m.add(m.add(m.triple(b0, a1, a2), m.triple(a0, b1, a2)), m.triple(a0, a1, b2)),
      m.add(m.add(m.triple(b0, b1, a2), m.triple(b0, a1, b2)), m.triple(a0, b1, b2)),
      three(m.triple(b0, b1, b2)),
    ];
    if (beta.every((b) => m.lower(b) > 0) || beta.every((b) => m.upper(b) < 0)) {
      if (d === 0) return { hit: false, visits, capped: false, filtered: true, toi: 1 };
      continue;
    }
    if (!insidePossible(m, kind, m.hull3(a0, b0), m.hull3(a1, b1), m.hull3(a2, b2))) continue;
    // every fourth level (and the last), as the GPU: on a draped 40 x 40 cloth's 193K queries as many
    // visits as at every level (51K), 54 near misses the test without it reported gone
    if (d % 4 === 0 && sep.apart(kind, pts.slice(0, 4), pts.slice(4), ta, tb, margin)) continue;
    if (d === CCD_MAX_DEPTH) return { hit: true, visits, capped: false, filtered: false, toi: ta };
    stack.push([d + 1, 2 * i + 1], [d + 1, 2 * i]);
  }
  return { hit: false, visits, capped: false, filtered: false, toi: 1 };
}

/**
 * The distance within which every reported collision's features come (ccdInclusion, float32, not
 * capped; the GPU kernel likewise): D = 2^-16 V + 2^-11 l + 2^-15 M, with V the largest
 * displacement of the query's four points over the step, l the longest edge of the features (at
 * either end of the step), M the largest coordinate magnitude. The terms: a reported interval is
 * 2^-16 of the step wide (the features move at most 2^-16 V in it); the certificate's direction
 * is exact for closest points inside both features and off by at most ~2^-12 l where the lines
 * are within 2^-12 of parallel or the triangle is a sliver (its closest points then come from the
 * edges' endpoints); the float32 rounding of the certificate stays under its 2^-16 M margin.
 * Queries whose features stay farther apart than D throughout the step are never reported.
 */
export function ccdReportBound(kind: CcdKind, q: ArrayLike<number>): number {
  let V = 0, M = 0, l = 0;
  const p = (k: number): V3 => [q[k * 3]!, q[k * 3 + 1]!, q[k * 3 + 2]!];
  const len = (a: V3, b: V3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  for (let k = 0; k < 4; k++) V = Math.max(V, len(p(k), p(k + 4)));
  for (let i = 0; i < 24; i++) M = Math.max(M, Math.abs(q[i]!));
  const edges = kind === 'vf' ? [[1, 2], [2, 3], [3, 1]] : [[0, 1], [2, 3]];
  for (const o of [0, 4]) for (const [a, b] of edges) l = Math.max(l, len(p(a! + o), p(b! + o)));
  return 2 ** -16 * V + 2 ** -11 * l + 2 ** -15 * M;
}

/** Double-precision distance between two segments (closest points, clamped). */
function segmentDistance(a0: V3, a1: V3, b0: V3, b1: V3): number {
  const d1 = [a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]], d2 = [b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]], r = [a0[0] - b0[0], a0[1] - b0[1], a0[2] - b0[2]];
  const dot = (x: number[], y: number[]) => x[0]! * y[0]! + x[1]! * y[1]! + x[2]! * y[2]!;
  const at = (p: V3, d: number[], s: number): V3 => [p[0] + d[0]! * s, p[1] + d[1]! * s, p[2] + d[2]! * s];
  const dist = (x: V3, y: V3) => Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
  const proj = (x: V3, p: V3, d: number[]) => {
    const l = dot(d, d);
    return l > 0 ? Math.min(1, Math.max(0, dot([x[0] - p[0], x[1] - p[1], x[2] - p[2]], d) / l)) : 0;
  };
  let best = Math.min(dist(a0, at(b0, d2, proj(a0, b0, d2))), dist(a1, at(b0, d2, proj(a1, b0, d2))), dist(b0, at(a0, d1, proj(b0, a0, d1))), dist(b1, at(a0, d1, proj(b1, a0, d1))));
  const a = dot(d1, d1), b = dot(d1, d2), e = dot(d2, d2), c = dot(d1, r), f = dot(d2, r), den = a * e - b * b;
  if (den > 1e-300) {
    const s = (b * f - c * e) / den, t = (a * f - b * c) / den;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = Math.min(best, dist(at(a0, d1, s), at(b0, d2, t)));
  }
  return best;
}

/** Double-precision distance between a point and a triangle. */
function pointTriangleDistance(p: V3, a: V3, b: V3, c: V3): number {
  const sub = (x: V3, y: V3): V3 => [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  const dot = (x: V3, y: V3) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const ab = sub(b, a), ac = sub(c, a), n: V3 = [ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]];
  const nn = dot(n, n);
  const edges = Math.min(segmentDistance(p, p, a, b), segmentDistance(p, p, b, c), segmentDistance(p, p, c, a));
  if (!(nn > 0)) return edges;
  // the projection inside the triangle: barycentric signs
  const ap = sub(p, a), h = dot(ap, n) / nn;
  const x = sub(p, [n[0] * h, n[1] * h, n[2] * h]);
  const inside = [[a, b], [b, c], [c, a]].every(([u, v]) => {
    const e = sub(v!, u!), w = sub(x, u!);
    return dot([e[1] * w[2] - e[2] * w[1], e[2] * w[0] - e[0] * w[2], e[0] * w[1] - e[1] * w[0]], n) >= 0;
  });
  return inside ? Math.min(edges, Math.abs(h) * Math.sqrt(nn)) : edges;
}

/** The features' distance at time t of the step, in double. */
export function ccdDistanceAt(kind: CcdKind, q: ArrayLike<number>, t: number): number {
  const x = (k: number): V3 => [0, 1, 2].map((c) => q[k * 3 + c]! + (q[(k + 4) * 3 + c]! - q[k * 3 + c]!) * t) as V3;
  return kind === 'vf' ? pointTriangleDistance(x(0), x(1), x(2), x(3)) : segmentDistance(x(0), x(1), x(2), x(3));
}

/** The features' smallest distance over the step, in double: sampled at `samples` + 1 times, then
 * 64 times finer around the three closest samples (an upper bound of the true minimum, within
 * 1 / (64 samples) of the step times the largest relative speed where the minimum is near one
 * of those samples). */
export function ccdMinDistance(kind: CcdKind, q: ArrayLike<number>, samples = 4096): number {
  const at = (t: number) => ccdDistanceAt(kind, q, t);
  const coarse = Array.from({ length: samples + 1 }, (_, i) => [at(i / samples), i] as [number, number]);
  let best = Math.min(...coarse.map((c) => c[0]));
  for (const [, i] of coarse.sort((x, y) => x[0] - y[0]).slice(0, 3)) {
    for (let k = -64; k <= 64; k++) {
      const t = (i + k / 64) / samples;
      if (t >= 0 && t <= 1) best = Math.min(best, at(t));
    }
  }
  return best;
}
