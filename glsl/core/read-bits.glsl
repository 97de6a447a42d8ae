// Component c of a record as its 32-bit pattern (helpers of read-pack.glsl).
uint brook_bits(float v, int c) { return floatBitsToUint(v); }
uint brook_bits(vec2 v, int c) { return floatBitsToUint(v[c]); }
uint brook_bits(vec3 v, int c) { return floatBitsToUint(v[c]); }
uint brook_bits(int v, int c) { return uint(v); }
uint brook_bits(ivec2 v, int c) { return uint(v[c]); }
uint brook_bits(ivec3 v, int c) { return uint(v[c]); }
uint brook_bits(uint v, int c) { return v; }
uint brook_bits(uvec2 v, int c) { return v[c]; }
uint brook_bits(uvec3 v, int c) { return v[c]; }
