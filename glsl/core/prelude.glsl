// brookgl kernel prelude: the output domain and 1D-to-2D address translation.
// brook_dims: (length, width, log2(width) or -1, height) of the output stream's layout.
uniform ivec4 brook_dims;
// Whether the output domain is 2D ([height, width]) rather than 1D; its rank (1 to 4).
uniform bool brook_2d;
uniform int brook_rank;
// The output's extents as Brook's vectors order them (x the fastest dimension, 1 beyond the
// rank); for an output written through a domain (brook_domain), the domain's origin in its stream
// and the stream's extents.
uniform ivec4 brook_shape;
uniform bool brook_domain;
uniform ivec4 brook_origin;
uniform ivec4 brook_full;

// The index of the record this fragment writes, its 2D position, and its position in every
// dimension, x fastest (Brook's indexof); all counted from the domain's start.
int brook_index;
ivec2 brook_pos;
ivec4 brook_coord;

// Position (x fastest) of record i in row-major extents e, and back.
ivec4 brook_unflatten(int i, ivec4 e) {
  ivec4 c;
  c.x = i % e.x; i /= e.x;
  c.y = i % e.y; i /= e.y;
  c.z = i % e.z;
  c.w = i / e.z;
  return c;
}

int brook_flatten(ivec4 c, ivec4 e) {
  return ((c.w * e.z + c.z) * e.y + c.y) * e.x + c.x;
}

bool brook_inside4(ivec4 c, ivec4 e) {
  return all(greaterThanEqual(c, ivec4(0))) && all(lessThan(c, e));
}

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
// kernelargs.ts inputMapping): 0 the same texel, 1 the same index, 2 per-dimension resampling
// (map = in cols, out cols, in rows, out rows; a 1D side is one row), 3 index / k,
// 4 index * k, 5 index * in / out; through a domain or in 3D/4D (map = the input's extents,
// x first; origin its offset in a stream of extents full): 6 per-dimension resampling,
// 7 the same index.
ivec2 brook_input_texel(ivec2 here, int mode, ivec4 map, ivec4 dims, ivec4 origin, ivec4 full) {
  if (mode == 0) return here;
  if (mode == 1) return brook_texel(brook_index, dims);
  if (mode >= 6) {
    ivec4 c = mode == 6 ? brook_coord * map / brook_shape : brook_unflatten(brook_index, map);
    return brook_texel(brook_flatten(c + origin, full), dims);
  }
  if (mode == 2) {
    ivec2 p = ivec2(brook_pos.x * map.x / map.y, brook_pos.y * map.z / map.w);
    return map.z == 1 && dims.w >= 1 && dims.x == map.x ? brook_texel(p.x, dims) : p;
  }
  int i = mode == 3 ? brook_index / map.x : mode == 4 ? brook_index * map.x : brook_index * map.x / map.y;
  return brook_texel(i, dims);
}
