#version 300 es
// One full-screen triangle from gl_VertexID, no vertex buffers: a kernel pass is one draw of
// three vertices into the output stream's framebuffer (vertices at (-1,-1), (3,-1), (-1,3)).
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
