// One BVTT node's step (mirrored by bvttStep in src/reference/ccd-bvh.ts). The kernel declares
// gathers nodes (int4: left, right, triangle, level), nodeObject (int), boxLo, boxHi (float4),
// tris (int4: three vertex ids, object) and the uniform int selfTest.
// Returns the number of children (0 to 3) written to c[], or 0 with *front set to the kind of
// front node the pair is: 2 separate (or not tested), 3 overlapping leaves (a candidate
// triangle pair), 4 overlapping leaves sharing a vertex (left to the orphan sets).
const int CCD_WORK = 1;
const int CCD_FRONT_SEPARATE = 2;
const int CCD_FRONT_LEAVES = 3;
const int CCD_FRONT_ADJACENT = 4;

bool ccdSharesVertex(ivec4 s, ivec4 t) {
  return s.x == t.x || s.x == t.y || s.x == t.z || s.y == t.x || s.y == t.y || s.y == t.z
      || s.z == t.x || s.z == t.y || s.z == t.z;
}

int bvttStep(int a, int b, out ivec2 c[3], out int front) {
  front = 0;
  ivec4 na = nodes(a), nb = nodes(b);
  int oa = nodeObject(a), ob = nodeObject(b);
  if (selfTest == 0 && oa >= 0 && oa == ob) { front = CCD_FRONT_SEPARATE; return 0; }
  bool leafA = na.z >= 0, leafB = nb.z >= 0;
  if (a == b) {
    if (leafA) { front = CCD_FRONT_SEPARATE; return 0; }
    c[0] = ivec2(na.x, na.x); c[1] = ivec2(na.y, na.y); c[2] = ivec2(na.x, na.y);
    return 3;
  }
  vec3 la = boxLo(a).xyz, ha = boxHi(a).xyz, lb = boxLo(b).xyz, hb = boxHi(b).xyz;
  if (any(greaterThan(la, hb)) || any(greaterThan(lb, ha))) { front = CCD_FRONT_SEPARATE; return 0; }
  if (leafA && leafB) {
    front = ccdSharesVertex(tris(na.z), tris(nb.z)) ? CCD_FRONT_ADJACENT : CCD_FRONT_LEAVES;
    return 0;
  }
  bool splitA = !leafA && (leafB || na.w <= nb.w);
  if (splitA) { c[0] = ivec2(na.x, b); c[1] = ivec2(na.y, b); }
  else { c[0] = ivec2(a, nb.x); c[1] = ivec2(a, nb.y); }
  c[2] = ivec2(-1);
  return 2;
}
