// Pass R, pushWork as a scatter: vertex i is excess node q = i % 6 of thread t of block b
// (pass C's kids0-kids2, two nodes each; cnt(b T + t).x of them are real), drawn on its ring
// slot: the block's stack grows past what is left of it after the pop (top(b), pnow(b)), the
// threads' excess in thread order (pass D's group prefixes), or nowhere. The stack and the
// deque share the ring, so the lazy push to the deque (pass E) moves no node: this pass writes
// the excess only, not the B x dequeCap ring, nor the stack.
uniform int threads;
uniform int group;
uniform int dequeCap;
flat out ivec2 lws_node;

void main() {
  int i = gl_VertexID / 6, q = gl_VertexID - i * 6;
  int b = i / threads, t = i - b * threads;
  gl_PointSize = 1.0;
  lws_node = ivec2(-1);
  if (q >= cnt(i).x) { gl_Position = BROOK_NOWHERE; return; }
  ivec4 s = top(b), p = pnow(b);
  int pos = s.z - (p.y == -2 ? p.w : 0) + s.x - p.x + prefix(i).x + q;
  for (int g = 0; g < t - t % group; g += group) pos += prefix(b * threads + g).y;
  ivec4 A = q < 2 ? kids0(i) : (q < 4 ? kids1(i) : kids2(i));
  lws_node = (q & 1) == 0 ? A.xy : A.zw;
  gl_Position = brook_scatter(b * dequeCap + pos % dequeCap, 0.0);
}
