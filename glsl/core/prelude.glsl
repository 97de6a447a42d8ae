// brookgl kernel prelude: the output domain and 1D-to-2D address translation.
// brook_dims: (length, width, log2(width) or -1, height) of the output stream's layout.
uniform ivec4 brook_dims;
// Whether the output domain is 2D ([height, width]) rather than 1D.
uniform bool brook_2d;

// The index of the record this fragment writes (Brook's indexof), and its 2D position.
int brook_index;
ivec2 brook_pos;

// Texel of record i in a stream of layout `dims`: shifts when the width is a power of two
// (every 1D stream), integer division otherwise.
ivec2 brook_texel(int i, ivec4 dims) {
  return dims.z >= 0 ? ivec2(i & (dims.y - 1), i >> dims.z) : ivec2(i % dims.y, i / dims.y);
}

// Whether record i exists in a stream of `dims` (out-of-range gathers read zero).
bool brook_inside(int i, ivec4 dims) {
  return i >= 0 && i < dims.x;
}

bool brook_inside2(ivec2 p, ivec4 dims) {
  return p.x >= 0 && p.y >= 0 && p.x < dims.y && p.y < dims.w;
}

// The texel of an elementwise input for the record being written (mode and map from
// kernel.ts inputMapping): 0 the same texel, 1 the same index, 2 per-dimension resampling
// (map = in cols, out cols, in rows, out rows; a 1D side is one row), 3 index / k,
// 4 index * k, 5 index * in / out.
ivec2 brook_input_texel(ivec2 here, int mode, ivec4 map, ivec4 dims) {
  if (mode == 0) return here;
  if (mode == 1) return brook_texel(brook_index, dims);
  if (mode == 2) {
    ivec2 out_pos = brook_2d ? here : ivec2(brook_index, 0);
    ivec2 p = ivec2(out_pos.x * map.x / map.y, out_pos.y * map.z / map.w);
    return map.z == 1 && dims.w >= 1 && dims.x == map.x ? brook_texel(p.x, dims) : p;
  }
  int i = mode == 3 ? brook_index / map.x : mode == 4 ? brook_index * map.x : brook_index * map.x / map.y;
  return brook_texel(i, dims);
}
