// Conservative elementary CCD tests in float32 (mirrored line by line by
// src/reference/ccd-inclusion.ts, whose header derives the error bound): a branch and bound over
// t in [0, 1] that drops an interval when the coplanarity cubic's Bernstein coefficients share
// one strict sign (Tang et al.'s non-penetration filter at depth 0) or when the inside check
// cannot hold anywhere on it, all in midpoint-radius interval arithmetic whose radii absorb
// every rounding error. Never misses a collision; a surviving interval at CCD_MAX_DEPTH, or a
// query over CCD_MAX_VISITS intervals, reports one. Features whose swept boxes are apart are
// dropped first (0 intervals visited).
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

// The test of one query: p0..p3 at t = 0, q0..q3 at t = 1 (vertex-face: v, f0, f1, f2;
// edge-edge: ea0, ea1, eb0, eb1). Returns (verdict: 0 none, 1 collision, 2 collision by the
// visit cap; intervals visited).
ivec2 ccdTest(bool vf, vec3 p0, vec3 p1, vec3 p2, vec3 p3, vec3 q0, vec3 q1, vec3 q2, vec3 q3) {
  // the features' swept boxes first (min/max and compares: exact), when the inputs are exact
  if (inputUlp == 0.0) {
    vec3 alo, ahi, blo, bhi;
    if (vf) {
      alo = min(p0, q0); ahi = max(p0, q0);
      blo = min(min(min(p1, p2), min(p3, q1)), min(q2, q3)); bhi = max(max(max(p1, p2), max(p3, q1)), max(q2, q3));
    } else {
      alo = min(min(p0, p1), min(q0, q1)); ahi = max(max(p0, p1), max(q0, q1));
      blo = min(min(p2, p3), min(q2, q3)); bhi = max(max(p2, p3), max(q2, q3));
    }
    if (any(greaterThan(alo, bhi)) || any(greaterThan(blo, ahi))) return ivec2(0, 0);
  }
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
  int sd[CCD_MAX_DEPTH + 2];
  int si[CCD_MAX_DEPTH + 2];
  int top = 1;
  sd[0] = 0; si[0] = 0;
  int visits = 0;
  while (top > 0) {
    top--;
    int d = sd[top], i = si[top];
    visits++;
    if (visits > CCD_MAX_VISITS) return ivec2(2, visits);
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
    if (d == CCD_MAX_DEPTH) return ivec2(1, visits);
    sd[top] = d + 1; si[top] = 2 * i + 1; top++;
    sd[top] = d + 1; si[top] = 2 * i; top++;
  }
  return ivec2(0, visits);
}
