// Cg/Brook intrinsics that GLSL ES spells differently, for kernels written in Brook syntax.
float saturate(float x) { return clamp(x, 0.0, 1.0); }
vec2 saturate(vec2 x) { return clamp(x, 0.0, 1.0); }
vec3 saturate(vec3 x) { return clamp(x, 0.0, 1.0); }
vec4 saturate(vec4 x) { return clamp(x, 0.0, 1.0); }
// Cg's fmod truncates toward zero (C semantics); GLSL's mod floors.
float fmod(float a, float b) { return a - b * trunc(a / b); }
vec2 fmod(vec2 a, vec2 b) { return a - b * trunc(a / b); }
vec3 fmod(vec3 a, vec3 b) { return a - b * trunc(a / b); }
vec4 fmod(vec4 a, vec4 b) { return a - b * trunc(a / b); }
// Brook's indexof(s): the position of the record being written, as a float4: (index, 0, 0, 0)
// over a 1D domain, (column, row, 0, 0) over a 2D one, (x, y, z, w) over 3D and 4D ones, x the
// fastest (last) dimension, counted from a domain's start (elementwise inputs share the output's).
vec4 brook_indexof() { return vec4(brook_coord); }
// indexof(a) of an elementwise input a of extents e (x first): its record's own position, which
// differs from the output's where a is resampled (BrookGPU, prog/tests at_indexof_stream): the
// same record index when the lengths match, else each dimension scaled as floor(i * in / out).
vec4 brook_indexof_in(ivec4 e) {
  bool same = e.x * e.y * e.z * e.w == brook_shape.x * brook_shape.y * brook_shape.z * brook_shape.w;
  return vec4(same ? brook_unflatten(brook_index, e) : brook_coord * e / brook_shape);
}
// Cg's isfinite: neither infinite nor NaN.
bool isfinite(float x) { return !(isinf(x) || isnan(x)); }
bvec2 isfinite(vec2 x) { return equal(ivec2(isinf(x)) + ivec2(isnan(x)), ivec2(0)); }
bvec3 isfinite(vec3 x) { return equal(ivec3(isinf(x)) + ivec3(isnan(x)), ivec3(0)); }
bvec4 isfinite(vec4 x) { return equal(ivec4(isinf(x)) + ivec4(isnan(x)), ivec4(0)); }
