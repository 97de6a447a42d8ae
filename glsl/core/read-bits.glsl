// A record's components as their 32-bit patterns (helpers of the read-pack bodies): floats
// through floatBitsToUint (NaN payloads, -0 and denormals kept), ints reinterpreted.
uint brook_bits(float v) { return floatBitsToUint(v); }
uvec2 brook_bits(vec2 v) { return floatBitsToUint(v); }
uvec3 brook_bits(vec3 v) { return floatBitsToUint(v); }
uint brook_bits(int v) { return uint(v); }
uvec2 brook_bits(ivec2 v) { return uvec2(v); }
uvec3 brook_bits(ivec3 v) { return uvec3(v); }
uint brook_bits(uint v) { return v; }
uvec2 brook_bits(uvec2 v) { return v; }
uvec3 brook_bits(uvec3 v) { return v; }
