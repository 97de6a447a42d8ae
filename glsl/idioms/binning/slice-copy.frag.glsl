// Copies one layer of a slice array into a float colour stream (at texel offset `offset`), so
// kernels and readbacks can use it: 1.0 where the slice is empty.
uniform highp sampler2DArray slices;
uniform int layer;
uniform ivec2 offset;
out vec4 key;

void main() { key = vec4(texelFetch(slices, ivec3(ivec2(gl_FragCoord.xy) - offset, layer), 0).r); }
