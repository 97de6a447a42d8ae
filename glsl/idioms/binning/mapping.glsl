// Where an item goes in a bin structure (Oat, Barczak & Shopf 2009, section 3) and its key.
// Shared by the binning vertex shaders and the kernels that test which items were binned;
// the uniforms it reads are in uniforms.glsl (stages) or BIN_UNIFORMS (kernels).
// Spatial mode: the item's position (xyz) picks a cell of a gx x gy x gz grid, laid out as a
// flat 3D texture (Harris et al. 2003): slice z of the grid is tile z, tiles in rows of
// bin_tilesX; the key is the item's id / 2^24 (exact in float32 and in a 32-bit float depth).
// Value mode (bucket sort): the item's integer value v in [0, 2^24) picks bin v >> bin_shift
// (2^(24 - bin_shift) bins, row by row), and the key is v / 2^24.

const float BIN_KEY_SCALE = 1.0 / 16777216.0;

ivec2 binPixelOf(ivec3 cell) {
  return ivec2((cell.z % bin_tilesX) * bin_grid.x + cell.x, (cell.z / bin_tilesX) * bin_grid.y + cell.y);
}

// Spatial mode: a position with a NaN coordinate has no cell and is left out of every bin
// (bins.stats.dropped counts them); far and infinite coordinates go to the nearest cell, clamped
// as floats before the conversion to int (int() of a float outside the int range is undefined).
bool binValid(vec4 item) {
  return bin_mode != 0 || !binNaN(item.xyz); // (nan.glsl comes first)
}

ivec2 binPixel(vec4 item) {
  if (bin_mode == 0) {
    vec3 c = clamp(floor((item.xyz - bin_origin) * bin_invCell), vec3(0.0), vec3(bin_grid - 1));
    return binPixelOf(ivec3(c));
  }
  int b = int(item.x) >> bin_shift;
  return ivec2(b % bin_size.x, b / bin_size.x);
}

float binKey(vec4 item, int id) {
  return bin_mode == 0 ? float(id) * BIN_KEY_SCALE : item.x * BIN_KEY_SCALE;
}
