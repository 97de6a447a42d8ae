#version 300 es
// Radix sort, the scatter: one point per record, drawn at the record's place in the output.
// place = (records of smaller digits: a prefix of the totals at the pyramid's root)
//       + (records of the same digit in earlier groups of four: the down-swept prefix)
//       + (records of the same digit earlier in its own group: at most three looked at here).
// Equal digits keep their order, so each pass is stable and the sort is an LSD radix sort.
precision highp float;
precision highp int;
precision highp usampler2D;
uniform usampler2D src;      // uvec2 (sort key, original index) records, 1D layout
uniform usampler2D prefix;   // uvec4 per group of four: same-digit records in earlier groups
uniform usampler2D root;     // uvec4: records with each digit
uniform bool hasPrefix;
uniform int shift;
uniform int logW;            // log2 of the width of src and of the output (same layout)
uniform int prefixLogW;
uniform vec2 size;           // output texture size
flat out uvec2 rec;

ivec2 texelOf(int i, int logw) {
  return ivec2(i & ((1 << logw) - 1), i >> logw);
}

uint digitOf(uint key) {
  return (key >> uint(shift)) & 3u;
}

void main() {
  int i = gl_VertexID;
  rec = texelFetch(src, texelOf(i, logW), 0).xy;
  uint d = digitOf(rec.x);
  uvec4 total = texelFetch(root, ivec2(0), 0);
  uint place = (d > 0u ? total.x : 0u) + (d > 1u ? total.y : 0u) + (d > 2u ? total.z : 0u);
  int g = i >> 2;
  if (hasPrefix) place += texelFetch(prefix, texelOf(g, prefixLogW), 0)[int(d)];
  for (int m = g << 2; m < i; m++) {
    if (digitOf(texelFetch(src, texelOf(m, logW), 0).x) == d) place += 1u;
  }
  vec2 p = (vec2(texelOf(int(place), logW)) + 0.5) / size * 2.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
  gl_PointSize = 1.0;
}
