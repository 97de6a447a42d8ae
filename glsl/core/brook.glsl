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
