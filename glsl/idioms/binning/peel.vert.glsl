// Depth peeling, pass i (section 3): every item of the working set as a point on its bin's
// texel at depth = key. Items whose key is not above slice i-1 at their bin are clipped: the
// dual-depth test (slice i-1 is sampled from the other array: see bins.ts). The depth test LESS
// into slice i keeps the smallest remaining key per bin.
// Gathers: items (float4, all items), working (float2 (id, 1) records of the working set).
uniform bool reduced;  // draw the working set's ids rather than every item
uniform bool first;
uniform highp sampler2DArray previous;
uniform int previousLayer;

void main() {
  int id = reduced ? int(working(gl_VertexID).x) : gl_VertexID;
  vec4 item = items(id);
  ivec2 pixel = binPixel(item);
  float key = binKey(item, id);
  float z = key * 2.0 - 1.0;
  if (!first && key <= texelFetch(previous, ivec3(pixel, previousLayer), 0).r) z = 2.0;
  if (!binValid(item)) z = 2.0; // a NaN position: in no bin
  gl_Position = brook_clip(pixel, bin_size, z);
  gl_PointSize = 1.0;
}
