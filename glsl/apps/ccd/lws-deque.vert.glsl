// Pass G, pushWork to the deque, as a scatter: vertex i is element j = i % stackCap of block
// b = i / stackCap's push, drawn on its ring slot when it is pushed (j < push.z), nowhere
// otherwise — a pass writes the pushed nodes only, not the B x dequeCap ring.
uniform int stackCap;
uniform int dequeCap;
flat out ivec2 lws_bj;

void main() {
  int b = gl_VertexID / stackCap, j = gl_VertexID - b * stackCap;
  ivec4 u = push(b);
  lws_bj = ivec2(b, j);
  gl_Position = j < u.z ? brook_scatter(b * dequeCap + (u.w + j) % dequeCap, 0.0) : BROOK_NOWHERE;
  gl_PointSize = 1.0;
}
