// Vertex-stage helpers of the pass runner (src/core/pass.ts): scatter a point to a record.
// brook_dims (prelude) is the layout of the pass's first colour target.

// Clip-space position of the centre of texel t in a target of `size` texels, at clip depth z.
vec4 brook_clip(ivec2 t, ivec2 size, float z) {
  return vec4((vec2(t) + 0.5) / vec2(size) * 2.0 - 1.0, z, 1.0);
}

// Clip-space position of record i of the first target (brook_texel of its layout).
vec4 brook_scatter(int i, float z) {
  return brook_clip(brook_texel(i, brook_dims), brook_dims.yw, z);
}

// A position no rasteriser draws (outside the clip volume): a vertex that scatters nothing.
const vec4 BROOK_NOWHERE = vec4(2.0, 2.0, 2.0, 1.0);
