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

/** Depth of the bisection in t: surviving intervals are 2^-MAX_DEPTH wide. */
export const CCD_MAX_DEPTH = 16;
/** Intervals visited before a query gives up and reports a (conservative) collision. */
export const CCD_MAX_VISITS = 2048;

export type CcdKind = 'vf' | 'ee';

/** Result of one conservative test: the verdict and how it was reached. */
export interface InclusionResult {
  hit: boolean;
  /** Intervals visited. */
  visits: number;
  /** True when the visit cap, not a surviving interval, made the verdict a collision. */
  capped: boolean;
  /** True when the features' swept boxes or the depth-0 non-penetration filter rejected the query. */
  filtered: boolean;
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

/**
 * The conservative test of one query (24 coordinates, see the module header). Never reports
 * false for touching features; its `hit` may be a near miss.
 */
export function ccdInclusion(kind: CcdKind, query: ArrayLike<number>, precision: 'float32' | 'float64' = 'float32'): InclusionResult {
  const m = ARITH[precision];
  // the features' swept boxes first (min/max and compares: exact), when the inputs are exact
  if (Array.prototype.every.call(query, (x: number) => m.rd(x) === x) && boxesApart(kind, query)) return { hit: false, visits: 0, capped: false, filtered: true };
  const { x0, dx } = vectors(m, kind, query);
  const at = (t: number): Iv3[] => x0.map((v, k) => m.add3(v, m.scale3(dx[k]!, t)));
  const stack: Array<[number, number]> = [[0, 0]];
  let visits = 0;
  while (stack.length > 0) {
    const [d, i] = stack.pop()!;
    if (++visits > CCD_MAX_VISITS) return { hit: true, visits, capped: true, filtered: false };
    const ta = i * 2 ** -d, tb = (i + 1) * 2 ** -d;
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
      if (d === 0) return { hit: false, visits, capped: false, filtered: true };
      continue;
    }
    if (!insidePossible(m, kind, m.hull3(a0, b0), m.hull3(a1, b1), m.hull3(a2, b2))) continue;
    if (d === CCD_MAX_DEPTH) return { hit: true, visits, capped: false, filtered: false };
    stack.push([d + 1, 2 * i + 1], [d + 1, 2 * i]);
  }
  return { hit: false, visits, capped: false, filtered: false };
}
