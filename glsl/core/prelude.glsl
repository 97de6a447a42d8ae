// brookgl kernel prelude: the output domain and 1D-to-2D address translation.
// brook_dims: (length, width, log2(width) or -1, height) of the output stream's layout.
uniform ivec4 brook_dims;
// The output's extents as Brook's vectors order them (x the fastest dimension, 1 beyond the
// rank); for an output written through a domain, the domain's origin in its stream and the
// stream's extents. Its rank and whether it is a domain are compile-time (kernelsource.ts
// KernelVariant).
uniform ivec4 brook_shape;
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

// A gather's vector index (x first) on a stream of `rank` dimensions: the components past the
// rank dropped (0), as BrookGPU's textures ignored them.
ivec4 brook_in_rank(ivec4 c, int rank) {
  return ivec4(c.x, rank > 1 ? c.y : 0, rank > 2 ? c.z : 0, rank > 3 ? c.w : 0);
}

bool brook_inside4(ivec4 c, ivec4 e) {
  return all(greaterThanEqual(c, ivec4(0))) && all(lessThan(c, e));
}

// Texel of record i in a stream of layout `dims`: shifts when the width is a power of two
// (every 1D stream), integer division otherwise. Kernels choose the form when they are
// generated (kernelsource.ts texelOf): a software rasteriser computes both sides of this select.
ivec2 brook_texel_div(int i, ivec4 dims) {
  return ivec2(i % dims.y, i / dims.y);
}

ivec2 brook_texel(int i, ivec4 dims) {
  return dims.z >= 0 ? ivec2(i & (dims.y - 1), i >> dims.z) : brook_texel_div(i, dims);
}

// Whether record i exists in a stream of `dims` (out-of-range gathers read zero).
bool brook_inside(int i, ivec4 dims) {
  return i >= 0 && i < dims.x;
}

bool brook_inside2(ivec2 p, ivec4 dims) {
  return p.x >= 0 && p.y >= 0 && p.x < dims.y && p.y < dims.w;
}

// Per-dimension resampling of a 1D or 2D elementwise input (map = in cols, out cols, in rows,
// out rows; a 1D side is one row): the texel it reads for this record.
ivec2 brook_resample2(ivec4 map, ivec4 dims) {
  ivec2 p = ivec2(brook_pos.x * map.x / map.y, brook_pos.y * map.z / map.w);
  return map.z == 1 && dims.w >= 1 && dims.x == map.x ? brook_texel(p.x, dims) : p;
}
