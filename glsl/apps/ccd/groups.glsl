// Orphan-set records tested eight to a fragment (CCD_ORPHAN_GROUPS in src/apps/ccd/kernels.ts, which
// also includes elementary.glsl and features.glsl and declares the gathers rec, tris, x0, x1 and the
// uniform inputUlp).
const int CCD_GROUP = 8;

// The four vertices of feature record r (vertex-face: v and the face's three, in ccdTestFeature's order).
ivec4 ccdRecordVertices(ivec4 r) {
  return r.z == -1 ? ivec4(r.x, tris(r.y).xyz) : r;
}

// Records first .. min(first + CCD_GROUP, end) - 1 of the gather `rec`, each tested as
// ccdTestFeature tests it: bit j is record first + j's verdict. As ccdPairMask: the swept boxes
// of all the records first, then the float32 non-penetration filter on what they keep, then the
// branch and bound on what both keep, each stage taking its records lowest first.
int ccdGroupMask(int first, int end) {
  int live = 0;
  for (int j = 0; j < CCD_GROUP; j++) {
    int k = first + j;
    if (k >= end) break;
    ivec4 r = rec(k);
    ivec4 v = ccdRecordVertices(r);
    if (inputUlp != 0.0 || !ccdBoxesApart(r.z == -1, x0(v.x).xyz, x0(v.y).xyz, x0(v.z).xyz, x0(v.w).xyz, x1(v.x).xyz, x1(v.y).xyz, x1(v.z).xyz, x1(v.w).xyz)) live |= 1 << j;
  }
  int deep = 0;
  while (live != 0) {
    int low = live & -live;
    live -= low;
    ivec4 r = rec(first + int(round(log2(float(low)))));
    ivec4 v = ccdRecordVertices(r);
    if (inputUlp != 0.0 || !ccdNoCoplanarity(r.z == -1, x0(v.x).xyz, x0(v.y).xyz, x0(v.z).xyz, x0(v.w).xyz, x1(v.x).xyz, x1(v.y).xyz, x1(v.z).xyz, x1(v.w).xyz)) deep |= low;
  }
  int mask = 0;
  while (deep != 0) {
    int low = deep & -deep;
    deep -= low;
    int tick;
    if (ccdTestFeature(rec(first + int(round(log2(float(low))))), tick).x >= 0) mask |= low;
  }
  return mask;
}
