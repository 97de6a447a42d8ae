// Radix sort, the scatter: the record carried by the point.
flat in uvec2 rec;
out uvec4 placed;

void main() {
  placed = uvec4(rec, 0u, 0u);
}
