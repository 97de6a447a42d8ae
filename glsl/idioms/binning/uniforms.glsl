// The uniforms of glsl/idioms/binning/mapping.glsl (values: mappingUniforms in src/idioms/binning/bins.ts).
// Pass stages include this file; kernels declare the same uniforms as BIN_UNIFORMS instead.
uniform int bin_mode;
uniform vec3 bin_origin;
uniform vec3 bin_invCell;
uniform ivec3 bin_grid;
uniform int bin_tilesX;
uniform ivec2 bin_size;
uniform int bin_shift;
