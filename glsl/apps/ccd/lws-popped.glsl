// Node g of block b's pop as planned (p = plan(b)): the stack's top p.x nodes, then p.w from the
// plan's second source (the own deque's bottom, a claim on deque j, or the start list).
ivec2 lwsPopped(int b, ivec4 p, int g) {
  if (g < p.x) return stack(b * stackCap + top(b).x - p.x + g).xy;
  int pos = p.z + g - p.x;
  return (p.y == blocks ? start(pos) : deque((p.y < 0 ? b : p.y) * dequeCap + pos % dequeCap)).xy;
}
