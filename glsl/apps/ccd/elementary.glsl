// Conservative elementary CCD tests in float32 (mirrored line by line by
// src/reference/ccd-inclusion.ts, whose header derives the error bound): a branch and bound over
// t in [0, 1] that drops an interval when the coplanarity cubic's Bernstein coefficients share
// one strict sign (Tang et al.'s non-penetration filter at depth 0) or when the inside check
// cannot hold anywhere on it, all in midpoint-radius interval arithmetic whose radii absorb
// every rounding error. Never misses a collision; a surviving interval at CCD_MAX_DEPTH, or a
// query over CCD_MAX_VISITS intervals, reports one. Features whose swept boxes are apart are
// dropped first (0 intervals visited), then those the non-penetration filter in plain float32
// with an error bound drops (ccdNoCoplanarity; 1 interval visited, as the interval filter at
// depth 0, which it stands in for). An interval the two filters keep is still dropped when a
// separation certificate (ccdApart) proves the features apart throughout it: a reported
// collision is a contact or a near miss within the distance bound of ccd-inclusion.ts.
// The kernel declares `uniform float inputUlp;` (0: the float32 coordinates are the geometry).

#define CCD_MAX_DEPTH 16
#define CCD_MAX_VISITS 2048
const float CCD_SLACK = 16.0 * 5.9604645e-8;   // 16 u, u = 2^-24
const float CCD_TINY = 7.5231638e-37;           // 2^-120: covers results flushed to zero

struct Iv3 { vec3 c; vec3 r; };

// scalar intervals are vec2(c, r)
vec2 ivPad(float c, float r) { return vec2(c, r + CCD_SLACK * (abs(c) + r) + CCD_TINY); }
vec3 ivPad3(vec3 c, vec3 r) { return r + CCD_SLACK * (abs(c) + r) + CCD_TINY; }
vec2 ivAdd(vec2 a, vec2 b) { return ivPad(a.x + b.x, a.y + b.y); }
vec2 ivSub(vec2 a, vec2 b) { return ivPad(a.x - b.x, a.y + b.y); }
Iv3 ivAdd3(Iv3 a, Iv3 b) { vec3 c = a.c + b.c; return Iv3(c, ivPad3(c, a.r + b.r)); }
Iv3 ivSub3(Iv3 a, Iv3 b) { vec3 c = a.c - b.c; return Iv3(c, ivPad3(c, a.r + b.r)); }
Iv3 ivMul3(Iv3 a, Iv3 b) {
  vec3 c = a.c * b.c;
  return Iv3(c, ivPad3(c, abs(a.c) * b.r + a.r * abs(b.c) + a.r * b.r));
}
Iv3 ivScale3(Iv3 a, float t) { vec3 c = a.c * t; return Iv3(c, ivPad3(c, a.r * t)); }
Iv3 ivHull3(Iv3 a, Iv3 b) {
  vec3 c = (a.c + b.c) * 0.5;
  return Iv3(c, ivPad3(c, abs(a.c - b.c) * 0.5 + max(a.r, b.r)));
}
Iv3 ivCross(Iv3 a, Iv3 b) {
  return ivSub3(ivMul3(Iv3(a.c.yzx, a.r.yzx), Iv3(b.c.zxy, b.r.zxy)), ivMul3(Iv3(a.c.zxy, a.r.zxy), Iv3(b.c.yzx, b.r.yzx)));
}
vec2 ivDot(Iv3 a, Iv3 b) {
  Iv3 p = ivMul3(a, b);
  return ivAdd(ivAdd(vec2(p.c.x, p.r.x), vec2(p.c.y, p.r.y)), vec2(p.c.z, p.r.z));
}
vec2 ivTriple(Iv3 a, Iv3 b, Iv3 c) { return ivDot(ivCross(a, b), c); }
float ivUpper(vec2 a) { return a.x + a.y; }
float ivLower(vec2 a) { return a.x - a.y; }

Iv3 ccdInput(vec3 x) { return Iv3(x, inputUlp * abs(x) + (inputUlp > 0.0 ? CCD_TINY : 0.0)); }

bool ccdInsidePossible(bool vf, Iv3 A, Iv3 B, Iv3 C) {
  Iv3 n = ivCross(A, B);
  if (vf) {
    vec2 s0 = ivDot(ivCross(A, C), n);
    vec2 s1 = ivDot(ivCross(ivSub3(B, A), ivSub3(C, A)), n);
    vec2 s2 = ivDot(ivCross(B, ivSub3(B, C)), n);
    return ivUpper(s0) >= 0.0 && ivUpper(s1) >= 0.0 && ivUpper(s2) >= 0.0;
  }
  vec2 nn = ivDot(n, n);
  vec2 sn = ivDot(ivCross(C, B), n);
  vec2 un = ivDot(ivCross(C, A), n);
  return ivUpper(sn) >= 0.0 && ivUpper(ivSub(nn, sn)) >= 0.0 && ivUpper(un) >= 0.0 && ivUpper(ivSub(nn, un)) >= 0.0;
}

// The separation certificate (mirrored by separated() in src/reference/ccd-inclusion.ts): over
// T = [ta, tb] every point of a feature is a convex combination of its vertices at ta and tb
// (the corners), so for any direction u, min over A's corners of u.x - max over B's of u.y is a
// lower bound on the features' distance throughout T. u is tried from the features' closest
// points at T's middle and from their normal (the face's, or the edges' cross product); T is
// dropped when the bound exceeds the margin that covers the float32 rounding of corners, dots and
// normalisation (CCD_SEP_MARGIN times the largest coordinate, plus 4 inputUlp of it).
const float CCD_SEP_MARGIN = 1.52587890625e-5;   // 2^-16

vec3 ccdClosestOnSegment(vec3 p, vec3 a, vec3 b) {
  vec3 ab = b - a;
  float l = dot(ab, ab);
  return l > 0.0 ? a + ab * clamp(dot(p - a, ab) / l, 0.0, 1.0) : a;
}

// The point of triangle abc closest to p (by the Voronoi regions of its vertices and edges).
vec3 ccdClosestOnTriangle(vec3 p, vec3 a, vec3 b, vec3 c) {
  vec3 ab = b - a, ac = c - a, ap = p - a;
  float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  vec3 bp = p - b;
  float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return ccdClosestOnSegment(p, a, b);
  vec3 cp = p - c;
  float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return ccdClosestOnSegment(p, a, c);
  float va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) return ccdClosestOnSegment(p, b, c);
  float den = va + vb + vc;
  if (!(den > 0.0)) return ccdClosestOnSegment(p, a, b);
  return a + ab * (vb / den) + ac * (vc / den);
}

// min over A's corners of u.x - max over B's, u normalised (a zero u certifies nothing).
float ccdGap(vec3 u, vec3 ca[4], int na, vec3 cb[6], int nb) {
  float l = dot(u, u);
  if (!(l > 0.0)) return -1.0;
  u = u / sqrt(l);
  float lo = dot(u, ca[0]), hi = dot(u, cb[0]);
  for (int k = 1; k < 4; k++) if (k < na) lo = min(lo, dot(u, ca[k]));
  for (int k = 1; k < 6; k++) if (k < nb) hi = max(hi, dot(u, cb[k]));
  return lo - hi;
}

// Are the features certainly apart throughout [ta, tb]? (p: t = 0, q: t = 1; margin absolute)
bool ccdApart(bool vf, vec3 p0, vec3 p1, vec3 p2, vec3 p3, vec3 q0, vec3 q1, vec3 q2, vec3 q3, float ta, float tb, float margin) {
  vec3 ca[4], cb[6];
  float tm = (ta + tb) * 0.5;
  vec3 m0 = p0 + (q0 - p0) * tm, m1 = p1 + (q1 - p1) * tm, m2 = p2 + (q2 - p2) * tm, m3 = p3 + (q3 - p3) * tm;
  vec3 u1, u2;
  int na, nb;
  if (vf) {
    ca[0] = p0 + (q0 - p0) * ta; ca[1] = p0 + (q0 - p0) * tb; ca[2] = ca[0]; ca[3] = ca[0]; na = 2;
    cb[0] = p1 + (q1 - p1) * ta; cb[1] = p2 + (q2 - p2) * ta; cb[2] = p3 + (q3 - p3) * ta;
    cb[3] = p1 + (q1 - p1) * tb; cb[4] = p2 + (q2 - p2) * tb; cb[5] = p3 + (q3 - p3) * tb; nb = 6;
    u1 = m0 - ccdClosestOnTriangle(m0, m1, m2, m3);
    u2 = cross(m2 - m1, m3 - m1);
  } else {
    ca[0] = p0 + (q0 - p0) * ta; ca[1] = p1 + (q1 - p1) * ta; ca[2] = p0 + (q0 - p0) * tb; ca[3] = p1 + (q1 - p1) * tb; na = 4;
    cb[0] = p2 + (q2 - p2) * ta; cb[1] = p3 + (q3 - p3) * ta; cb[2] = p2 + (q2 - p2) * tb; cb[3] = p3 + (q3 - p3) * tb;
    cb[4] = cb[0]; cb[5] = cb[0]; nb = 4;
    // the closest of: each endpoint against the other segment, the lines' interior solution
    vec3 d1 = m1 - m0, d2 = m3 - m2, r = m0 - m2;
    u1 = m0 - ccdClosestOnSegment(m0, m2, m3);
    vec3 w = m1 - ccdClosestOnSegment(m1, m2, m3);
    if (dot(w, w) < dot(u1, u1)) u1 = w;
    w = ccdClosestOnSegment(m2, m0, m1) - m2;
    if (dot(w, w) < dot(u1, u1)) u1 = w;
    w = ccdClosestOnSegment(m3, m0, m1) - m3;
    if (dot(w, w) < dot(u1, u1)) u1 = w;
    float a = dot(d1, d1), b = dot(d1, d2), e = dot(d2, d2), c = dot(d1, r), f = dot(d2, r);
    float den = a * e - b * b;
    if (den > 0.0) {
      float s = (b * f - c * e) / den, t = (a * f - b * c) / den;
      if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) {
        w = (m0 + d1 * s) - (m2 + d2 * t);
        if (dot(w, w) < dot(u1, u1)) u1 = w;
      }
    }
    u2 = cross(d1, d2);
  }
  if (dot(u2, u1) < 0.0) u2 = -u2;
  return max(ccdGap(u1, ca, na, cb, nb), ccdGap(u2, ca, na, cb, nb)) > margin;
}

// The test of one query: p0..p3 at t = 0, q0..q3 at t = 1 (vertex-face: v, f0, f1, f2;
// edge-edge: ea0, ea1, eb0, eb1). Returns (verdict: 0 none, 1 collision, 2 collision by the
// visit cap; intervals visited). tick: a conservative time of impact in 2^-16 of the step (65536:
// none) — the start of the first interval reported (intervals are visited earliest first, and
// every earlier one was dropped: no contact before it), or of the interval the visit cap stopped at.
// Are the features' swept boxes apart? (min/max and compares: exact)
bool ccdBoxesApart(bool vf, vec3 p0, vec3 p1, vec3 p2, vec3 p3, vec3 q0, vec3 q1, vec3 q2, vec3 q3) {
  vec3 alo, ahi, blo, bhi;
  if (vf) {
    alo = min(p0, q0); ahi = max(p0, q0);
    blo = min(min(min(p1, p2), min(p3, q1)), min(q2, q3)); bhi = max(max(max(p1, p2), max(p3, q1)), max(q2, q3));
  } else {
    alo = min(min(p0, p1), min(q0, q1)); ahi = max(max(p0, p1), max(q0, q1));
    blo = min(min(p2, p3), min(q2, q3)); bhi = max(max(p2, p3), max(q2, q3));
  }
  return any(greaterThan(alo, bhi)) || any(greaterThan(blo, ahi));
}

// Tang et al.'s non-penetration filter at depth 0 in plain float32, with an error bound instead
// of interval radii (mirrored by noCoplanarity() in src/reference/ccd-inclusion.ts, whose header
// derives it): the four Bernstein coefficients of the coplanarity cubic on [0, 1] (times 3: the
// triple products of the edge vectors at t = 0 and t = 1 in polar form) each computed with the
// sum of its terms' magnitudes S; when all exceed CCD_NP_K S + CCD_TINY with one sign, the cubic
// keeps that sign on [0, 1] and the features are never coplanar. For exact inputs only.
const float CCD_NP_K = 1.52587890625e-5;   // 2^-16 = 256 u

// (a . (b x c), the sum of its six terms' magnitudes)
vec2 ccdTripleAbs(vec3 a, vec3 b, vec3 c) {
  vec3 m1 = b.yzx * c.zxy, m2 = b.zxy * c.yzx;
  vec3 k = m1 - m2, s = abs(m1) + abs(m2);
  vec3 v = a * k, w = abs(a) * s;
  return vec2((v.x + v.y) + v.z, (w.x + w.y) + w.z);
}

bool ccdNoCoplanarity(bool vf, vec3 p0, vec3 p1, vec3 p2, vec3 p3, vec3 q0, vec3 q1, vec3 q2, vec3 q3) {
  vec3 xa, xb, xc, ya, yb, yc;
  if (vf) {
    xa = p2 - p1; xb = p3 - p1; xc = p0 - p1;
    ya = q2 - q1; yb = q3 - q1; yc = q0 - q1;
  } else {
    xa = p1 - p0; xb = p3 - p2; xc = p2 - p0;
    ya = q1 - q0; yb = q3 - q2; yc = q2 - q0;
  }
  vec2 f0 = ccdTripleAbs(xa, xb, xc), f3 = ccdTripleAbs(ya, yb, yc);
  vec2 g1 = ccdTripleAbs(ya, xb, xc), g2 = ccdTripleAbs(xa, yb, xc), g3 = ccdTripleAbs(xa, xb, yc);
  vec2 h1 = ccdTripleAbs(ya, yb, xc), h2 = ccdTripleAbs(ya, xb, yc), h3 = ccdTripleAbs(xa, yb, yc);
  vec4 v = vec4(f0.x, (g1.x + g2.x) + g3.x, (h1.x + h2.x) + h3.x, f3.x);
  vec4 e = CCD_NP_K * vec4(f0.y, (g1.y + g2.y) + g3.y, (h1.y + h2.y) + h3.y, f3.y) + CCD_TINY;
  return all(greaterThan(v, e)) || all(lessThan(v, -e));
}

const int CCD_TICKS = 65536;
ivec2 ccdTest(bool vf, vec3 p0, vec3 p1, vec3 p2, vec3 p3, vec3 q0, vec3 q1, vec3 q2, vec3 q3, out int tick) {
  tick = CCD_TICKS;
  // the features' swept boxes first (min/max and compares: exact), when the inputs are exact
  if (inputUlp == 0.0 && ccdBoxesApart(vf, p0, p1, p2, p3, q0, q1, q2, q3)) return ivec2(0, 0);
  // then the non-penetration filter in plain float32 (what the interval one drops at depth 0, a
  // tenth of its work), when the inputs are exact
  if (inputUlp == 0.0 && ccdNoCoplanarity(vf, p0, p1, p2, p3, q0, q1, q2, q3)) return ivec2(0, 1);
  Iv3 P0 = ccdInput(p0), P1 = ccdInput(p1), P2 = ccdInput(p2), P3 = ccdInput(p3);
  Iv3 Q0 = ccdInput(q0), Q1 = ccdInput(q1), Q2 = ccdInput(q2), Q3 = ccdInput(q3);
  Iv3 xa, xb, xc, ya, yb, yc;
  if (vf) {
    xa = ivSub3(P2, P1); xb = ivSub3(P3, P1); xc = ivSub3(P0, P1);
    ya = ivSub3(Q2, Q1); yb = ivSub3(Q3, Q1); yc = ivSub3(Q0, Q1);
  } else {
    xa = ivSub3(P1, P0); xb = ivSub3(P3, P2); xc = ivSub3(P2, P0);
    ya = ivSub3(Q1, Q0); yb = ivSub3(Q3, Q2); yc = ivSub3(Q2, Q0);
  }
  Iv3 da = ivSub3(ya, xa), db = ivSub3(yb, xb), dc = ivSub3(yc, xc);
  vec3 big = max(max(max(abs(p0), abs(p1)), max(abs(p2), abs(p3))), max(max(abs(q0), abs(q1)), max(abs(q2), abs(q3))));
  float M = max(max(big.x, big.y), big.z);
  float margin = (CCD_SEP_MARGIN + 4.0 * inputUlp) * M + CCD_TINY;
  int sd[CCD_MAX_DEPTH + 2];
  int si[CCD_MAX_DEPTH + 2];
  int top = 1;
  sd[0] = 0; si[0] = 0;
  int visits = 0;
  while (top > 0) {
    top--;
    int d = sd[top], i = si[top];
    visits++;
    if (visits > CCD_MAX_VISITS) { tick = i << (CCD_MAX_DEPTH - d); return ivec2(2, visits); }
    float w = exp2(-float(d));
    float ta = float(i) * w, tb = float(i + 1) * w;
    Iv3 a0 = ivAdd3(xa, ivScale3(da, ta)), a1 = ivAdd3(xb, ivScale3(db, ta)), a2 = ivAdd3(xc, ivScale3(dc, ta));
    Iv3 b0 = ivAdd3(xa, ivScale3(da, tb)), b1 = ivAdd3(xb, ivScale3(db, tb)), b2 = ivAdd3(xc, ivScale3(dc, tb));
    vec2 f0 = ivTriple(a0, a1, a2), f3 = ivTriple(b0, b1, b2);
    vec2 be0 = ivAdd(ivAdd(f0, f0), f0);
    vec2 be1 = ivAdd(ivAdd(ivTriple(b0, a1, a2), ivTriple(a0, b1, a2)), ivTriple(a0, a1, b2));
    vec2 be2 = ivAdd(ivAdd(ivTriple(b0, b1, a2), ivTriple(b0, a1, b2)), ivTriple(a0, b1, b2));
    vec2 be3 = ivAdd(ivAdd(f3, f3), f3);
    bool positive = ivLower(be0) > 0.0 && ivLower(be1) > 0.0 && ivLower(be2) > 0.0 && ivLower(be3) > 0.0;
    bool negative = ivUpper(be0) < 0.0 && ivUpper(be1) < 0.0 && ivUpper(be2) < 0.0 && ivUpper(be3) < 0.0;
    if (positive || negative) continue;
    if (!ccdInsidePossible(vf, ivHull3(a0, b0), ivHull3(a1, b1), ivHull3(a2, b2))) continue;
    // the certificate every fourth level (and at the last): about as many intervals pruned as at every level
    if ((d & 3) == 0 && ccdApart(vf, p0, p1, p2, p3, q0, q1, q2, q3, ta, tb, margin)) continue;
    if (d == CCD_MAX_DEPTH) { tick = i; return ivec2(1, visits); }
    sd[top] = d + 1; si[top] = 2 * i + 1; top++;
    sd[top] = d + 1; si[top] = 2 * i; top++;
  }
  return ivec2(0, visits);
}
