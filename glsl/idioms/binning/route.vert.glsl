// Stencil routing, both forms: each item as a point on its bin (pointSize texels wide) at
// depth (id + 1) / 2^24: above the cleared 0.0 for every id, so GREATER admits the smallest.
// Gathers: items (float4).
uniform float pointSize;
flat out float key;

void main() {
  int id = gl_VertexID;
  vec4 item = items(id);
  ivec2 pixel = binPixel(item);
  key = binKey(item, id);
  gl_Position = binValid(item) ? brook_clip(pixel, bin_size, (key + BIN_KEY_SCALE) * 2.0 - 1.0) : BROOK_NOWHERE; // a NaN position: in no bin
  gl_PointSize = pointSize;
}
