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
