// Passes G and H, pushWork: element j of block b's new sequence (what is left of its stack,
// then its threads' excess nodes in thread order). The kernels declare gathers stack, kids0,
// kids1, kids2, prefix (pass D's group prefixes), push and the uniforms threads, stackCap, group.
ivec4 lwsElement(int b, int j) {
  ivec4 u = push(b);
  if (j < u.x) return stack(b * stackCap + j);
  int c = j - u.x, base = b * threads, g0 = 0;
  // the group holding excess node c: past the totals of the groups before it
  for (int g = 0; g < threads; g += group) {
    int gt = prefix(base + g).y;
    if (c < gt) { g0 = g; break; }
    c -= gt;
  }
  // the last thread of the group whose prefix is <= c holds it (binary search)
  int lo = g0, hi = min(g0 + group, threads) - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (prefix(base + mid).x <= c) lo = mid; else hi = mid - 1;
  }
  int q = c - prefix(base + lo).x;
  ivec4 A = q < 2 ? kids0(base + lo) : (q < 4 ? kids1(base + lo) : kids2(base + lo));
  ivec2 node = (q & 1) == 0 ? A.xy : A.zw;
  return ivec4(node, 1, 0);
}
