// Passes G and H, pushWork: element j of block b's new sequence (what is left of its stack,
// then its threads' children in thread order). The kernels declare gathers stack, kidsA,
// kidsB, prefix, push and the uniforms threads, stackCap.
ivec4 lwsElement(int b, int j) {
  ivec4 u = push(b);
  if (j < u.x) return stack(b * stackCap + j);
  int c = j - u.x;
  // the last thread whose prefix is <= c holds child c (binary search over the block's threads)
  int lo = 0, hi = threads - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (prefix(b * threads + mid).x <= c) lo = mid; else hi = mid - 1;
  }
  int q = c - prefix(b * threads + lo).x;
  ivec4 A = kidsA(b * threads + lo);
  ivec2 node = q == 0 ? A.xy : (q == 1 ? A.zw : kidsB(b * threads + lo).xy);
  return ivec4(node, 1, 0);
}
