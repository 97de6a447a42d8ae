#version 300 es
// Radix sort, the scatter: the record carried by the point.
precision highp float;
precision highp int;
flat in uvec2 rec;
out uvec4 placed;
void main() {
  placed = uvec4(rec, 0u, 0u);
}
