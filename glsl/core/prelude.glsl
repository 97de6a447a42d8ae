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
