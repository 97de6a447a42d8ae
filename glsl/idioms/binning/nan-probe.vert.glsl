// Does binning drop any item? Every item with a NaN coordinate (binNaN, nan.glsl) is a
// point on the one-texel target; every other item is drawn nowhere. An occlusion query over
// this pass answers yes or no without a readback; only a yes is followed by an exact count.
// Gathers: items (float4).

void main() {
  gl_Position = binNaN(items(gl_VertexID).xyz) ? vec4(0.0, 0.0, 0.0, 1.0) : BROOK_NOWHERE;
  gl_PointSize = 1.0;
}
