#version 300 es
// The geometry of a pass, from gl_VertexID with no vertex buffers.
// - Default: one full-screen triangle, vertices at (-1,-1), (3,-1), (-1,3) (three vertices).
// - brook_lines: the four one-texel-wide edges of the output as lines through the edge texels'
//   centres (eight vertices, drawn as LINES): static branch resolution's boundary pass.
// brook_clip_z is the clip-space depth of the geometry: 0.0 (window depth 0.5, the z = 0.5 quad
// of Listing 34-2) for kernel passes, -1.0 (window depth 0.0) for the pass that writes a z mask.
uniform bool brook_lines;
uniform vec2 brook_size;
uniform float brook_clip_z;

void main() {
  vec2 p;
  if (brook_lines) {
    int edge = gl_VertexID >> 1;
    float end = float(gl_VertexID & 1);
    vec2 s = brook_size;
    // bottom, top, left, right, in texel units, each line running past both corners
    if (edge == 0) p = vec2(end * s.x, 0.5);
    else if (edge == 1) p = vec2(end * s.x, s.y - 0.5);
    else if (edge == 2) p = vec2(0.5, end * s.y);
    else p = vec2(s.x - 0.5, end * s.y);
    p = p / s * 2.0 - 1.0;
  } else {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    p = corner * 2.0 - 1.0;
  }
  gl_Position = vec4(p, brook_clip_z, 1.0);
}
