// Scatter compaction (filter method 'scatter'): record i, when kept (flag 1), is drawn as a
// point on record rank(i) of the output, rank the exclusive scan of the flags.
// Gathers: flag (uint), rank (uint).
flat out int brook_src;

void main() {
  int i = gl_VertexID;
  brook_src = i;
  gl_Position = flag(i) == 1u ? brook_scatter(int(rank(i)), 0.0) : BROOK_NOWHERE;
  gl_PointSize = 1.0;
}
