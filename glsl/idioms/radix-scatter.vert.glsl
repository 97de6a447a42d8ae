// Radix sort, the scatter: one point per record, drawn at the record's place in the output.
// place = (records of smaller digits: a prefix of the totals at the pyramid's root)
//       + (records of the same digit in earlier groups of four: the down-swept prefix)
//       + (records of the same digit earlier in its own group: at most three looked at here).
// Equal digits keep their order, so each pass is stable and the sort is an LSD radix sort.
// Gathers (pass stage, src/core/pass.ts): src (uint2 (sort key, original index) records),
// prefix (uint4 per group of four: same-digit records in earlier groups), root (uint4: records
// with each digit).
uniform bool hasPrefix;
uniform int shift;
flat out uvec2 rec;

uint digitOf(uint key) {
  return (key >> uint(shift)) & 3u;
}

void main() {
  int i = gl_VertexID;
  rec = src(i);
  uint d = digitOf(rec.x);
  uvec4 total = root(0);
  uint place = (d > 0u ? total.x : 0u) + (d > 1u ? total.y : 0u) + (d > 2u ? total.z : 0u);
  int g = i >> 2;
  if (hasPrefix) place += prefix(g)[int(d)];
  for (int m = g << 2; m < i; m++) {
    if (digitOf(src(m).x) == d) place += 1u;
  }
  gl_Position = brook_scatter(int(place), 0.0);
  gl_PointSize = 1.0;
}
