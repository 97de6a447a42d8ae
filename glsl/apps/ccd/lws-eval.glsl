// Pass C, evalCollision: thread t of block b takes its node as planned (the stack's top p.x
// nodes, then p.w from the plan's second source) and steps it; children go to kidsA (first
// two) and kidsB (third, and the count in z), a front node to fr. top(b): the block's pointers
// after popTop (its stack size).
int b = brook_index / threads, t = brook_index - b * threads;
ivec4 p = plan(b);
kidsA = ivec4(-1);
kidsB = ivec4(-1, -1, 0, 0);
fr = ivec4(-1, -1, 0, 0);
if (t < p.x + p.w) {
  ivec4 node;
  if (t < p.x) node = stack(b * stackCap + top(b).x - p.x + t);
  else {
    int pos = p.z + t - p.x;
    node = p.y == blocks ? start(pos) : deque((p.y < 0 ? b : p.y) * dequeCap + pos % dequeCap);
  }
  ivec2 c[3];
  int front;
  int n = bvttStep(node.x, node.y, c, front);
  if (n > 0) { kidsA = ivec4(c[0], c[1]); kidsB = ivec4(c[2], n, 0); }
  else fr = ivec4(node.xy, front, 0);
}
