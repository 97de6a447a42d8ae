// Node g of block b's pop as planned (p = plan(b)): the stack's top p.x nodes (the ring's
// positions just under bottom + stack size, top(b) being the block's pointers after popTop),
// then p.w from the plan's second source (the own deque's bottom, a claim on deque j, or the
// start list).
ivec2 lwsPopped(int b, ivec4 p, int g) {
  ivec4 s = top(b);
  int pos = g < p.x ? s.z + s.x - p.x + g : p.z + g - p.x;
  int src = g < p.x ? b : p.y;
  return (src == blocks ? start(pos) : deque((src < 0 ? b : src) * dequeCap + pos % dequeCap)).xy;
}
