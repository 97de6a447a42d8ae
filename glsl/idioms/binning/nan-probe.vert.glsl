// Does binning drop any item? Every item with a NaN coordinate (the bit test of binValid) is a
// point on the one-texel target; every other item is drawn nowhere. An occlusion query over
// this pass answers yes or no without a readback; only a yes is followed by an exact count.
// Gathers: items (float4).

void main() {
  vec4 item = items(gl_VertexID);
  bool nan = any(greaterThan(floatBitsToUint(item.xyz) & 0x7fffffffu, uvec3(0x7f800000u)));
  gl_Position = nan ? vec4(0.0, 0.0, 0.0, 1.0) : BROOK_NOWHERE;
  gl_PointSize = 1.0;
}
