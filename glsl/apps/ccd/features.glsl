// Feature records and their tests (the kernel also includes elementary.glsl and declares
// gathers tris (int4), x0, x1 (float4)). A record is vertex-face (v, face, -1, 0) or edge-edge
// (a0, a1, b0, b1), edges sorted, pairs sorted (featureKey in src/reference/ccd-bvh.ts).
ivec2 ccdEdge(ivec4 t, int k) {
  int a = k == 0 ? t.x : (k == 1 ? t.y : t.z);
  int b = k == 0 ? t.y : (k == 1 ? t.z : t.x);
  return a < b ? ivec2(a, b) : ivec2(b, a);
}

ivec4 ccdEdgePair(ivec2 e, ivec2 g) {
  return (e.x < g.x || (e.x == g.x && e.y < g.y)) ? ivec4(e, g) : ivec4(g, e);
}

// Slot s (0..14) of the triangle pair (ta, tb): 0-2 vertices of ta against face tb, 3-5
// vertices of tb against face ta, 6-14 edge i of ta against edge j of tb.
ivec4 ccdPairFeature(int ta, int tb, int s) {
  ivec4 A = tris(ta), B = tris(tb);
  if (s < 3) return ivec4(s == 0 ? A.x : (s == 1 ? A.y : A.z), tb, -1, 0);
  if (s < 6) return ivec4(s == 3 ? B.x : (s == 4 ? B.y : B.z), ta, -1, 0);
  return ccdEdgePair(ccdEdge(A, (s - 6) / 3), ccdEdge(B, (s - 6) - 3 * ((s - 6) / 3)));
}

// The record itself when its features may touch in the step, else (-1, -1, -1, -1); tick: the
// conservative time of impact in 2^-16 of the step (ccdTest; 65536 when none).
ivec4 ccdTestFeature(ivec4 r, out int tick) {
  bool vf = r.z == -1;
  ivec4 q = vf ? ivec4(r.x, tris(r.y).xyz) : r;
  ivec2 v = ccdTest(vf, x0(q.x).xyz, x0(q.y).xyz, x0(q.z).xyz, x0(q.w).xyz, x1(q.x).xyz, x1(q.y).xyz, x1(q.z).xyz, x1(q.w).xyz, tick);
  return v.x > 0 ? r : ivec4(-1);
}

// Edge k of the triangle whose three vertex ids are id[base..base + 2], as local indices into
// id[] ordered by vertex id (ccdEdge's order).
ivec2 ccdEdgeLocal(int id[6], int base, int k) {
  int a = base + k, b = base + (k == 2 ? 0 : k + 1);
  return id[a] < id[b] ? ivec2(a, b) : ivec2(b, a);
}

// The four points (local indices into ccdPairMask's id[], p[], q[]) of slot s of the pair:
// ccdTestFeature(ccdPairFeature(ta, tb, s))'s points in its order.
ivec4 ccdSlotPoints(int id[6], int s) {
  if (s < 3) return ivec4(s, 3, 4, 5);          // vertex s of A against face B
  if (s < 6) return ivec4(s, 0, 1, 2);          // vertex s - 3 of B against face A
  int i = (s - 6) / 3;
  ivec2 e = ccdEdgeLocal(id, 0, i), g = ccdEdgeLocal(id, 3, (s - 6) - 3 * i);
  return (id[e.x] < id[g.x] || (id[e.x] == id[g.x] && id[e.y] < id[g.y])) ? ivec4(e, g) : ivec4(g, e);
}

// The 15 feature tests of triangles A and B (vertex ids; ccdPairFeature's slots) with the six
// vertices' positions gathered once: bit s is slot s's verdict, each the ccdTest of the same four
// points in the same order as ccdTestFeature(ccdPairFeature(ta, tb, s)) gives. ccdTest's two
// cheap filters (swept boxes, the float32 non-penetration filter) run first over all the slots,
// and only the slots both keep get the branch and bound; each stage takes its slots lowest first,
// so the fragments of a group run their i-th remaining slots together whatever their numbers.
int ccdPairMask(ivec4 A, ivec4 B) {
  int id[6] = int[6](A.x, A.y, A.z, B.x, B.y, B.z);
  vec3 p[6], q[6];
  for (int k = 0; k < 6; k++) { p[k] = x0(id[k]).xyz; q[k] = x1(id[k]).xyz; }
  int live = 0;
  for (int s = 0; s < 15; s++) {
    ivec4 l = ccdSlotPoints(id, s);
    if (inputUlp != 0.0 || !ccdBoxesApart(s < 6, p[l.x], p[l.y], p[l.z], p[l.w], q[l.x], q[l.y], q[l.z], q[l.w])) live |= 1 << s;
  }
  int deep = 0;
  while (live != 0) {
    int low = live & -live;
    live -= low;
    int s = int(round(log2(float(low))));
    ivec4 l = ccdSlotPoints(id, s);
    if (inputUlp != 0.0 || !ccdNoCoplanarity(s < 6, p[l.x], p[l.y], p[l.z], p[l.w], q[l.x], q[l.y], q[l.z], q[l.w])) deep |= low;
  }
  int mask = 0;
  while (deep != 0) {
    int low = deep & -deep;
    deep -= low;
    int s = int(round(log2(float(low))));
    ivec4 l = ccdSlotPoints(id, s);
    int tick;
    ivec2 v = ccdTest(s < 6, p[l.x], p[l.y], p[l.z], p[l.w], q[l.x], q[l.y], q[l.z], q[l.w], tick);
    if (v.x > 0) mask |= low;
  }
  return mask;
}

