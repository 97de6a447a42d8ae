// Readback packing: the stream's scalars (`components` per record, 1-3) four to a uvec4 texel,
// in record order, as their 32-bit patterns, so read() moves n x components x 4 bytes instead
// of a whole RGBA texel per record. Scalar f of the packed array is component f % components of
// record f / components; past the last record the gather reads zero. Bits, not values: a float
// goes through floatBitsToUint, so NaN payloads, -0 and denormals come back as written.
uvec4 bits4 = uvec4(0u);
uint first = uint(brook_index) * 4u;
for (int k = 0; k < 4; k++) {
  uint f = first + uint(k);
  uint rec = f / uint(components);
  bits4[k] = brook_bits(src(int(rec)), int(f - rec * uint(components)));
}
texels = bits4;
