// Lazy work stealing (da Silva et al. 2014, Algorithms 1-4) as passes: shared helpers.
// State per block b < blocks: bstate(b) = (stack size, deque top, deque bottom, flags); record
// `blocks` is the start list (last frame's front or the root), a read-only deque nobody pushes
// to. A block's deque and stack share one ring of dequeCap slots, indexed by position %
// dequeCap: the deque is positions [top, bottom), the stack [bottom, bottom + stack size) above
// it, so the lazy push (the stack's oldest nodes to the deque) moves the bottom and no node.
// Positions only grow (the paper forbids resetting a deque, so lazy claims stay valid). Flags:
// bit 0 a ring would have overwritten a live node (overflow), bit 1 the block is a thief
// (nothing on its stack, nothing in its deque, no claim left to transfer), set by the pointers
// pass of the iteration before. claims(b * (blocks + 1) + j) = (start, size, new?, 0): block b's
// claim on deque j as the last steal round left it, taken lazily, lowest j first; plan(b) =
// (from the stack, source, first, count) is the pop that followed it (source j >= 0: a claim on
// deque j). A claim's current value is the stored one less what that pop transferred (the lazy
// transfer, applied where a claim is read: no pass of its own). The steal round has no pass of
// its own either: the pop (pass P) and the pointers (pass E) compute the claims they need from
// the same snapshot (bstate, claims, plan as the last iteration left them), and pass E stores
// them. The kernels declare gathers bstate, claims, plan and the uniforms blocks, threads, pop.

// Block b's claim on deque j after its last pop.
ivec4 lwsClaim(int b, int j) {
  ivec4 c = claims(b * (blocks + 1) + j);
  ivec4 p = plan(b);
  if (p.y == j) { c.x += p.w; c.y -= p.w; }
  return ivec4(c.xy, 0, 0);
}

bool lwsIsThief(int b) {
  return (bstate(b).w & 2) != 0;
}

// (k, K): block b's rank among the thieves (by index) and their number.
ivec2 lwsThieves(int b) {
  int K = 0, k = 0;
  for (int x = 0; x < blocks; x++) if (lwsIsThief(x)) { if (x < b) k++; K++; }
  return ivec2(k, K);
}

// The slice each of K thieves takes from deque j holding n nodes: ceil(n / (K + 1)) from a
// block's deque (its owner keeps a share), at most four pops (4 x pop x threads) from the start list.
int lwsSlice(int j, int n, int K) {
  return j == blocks ? min(4 * pop * threads, (n + K - 1) / K) : (n + K) / (K + 1);
}

// The steal round (Algorithm 4 without atomics): block b's claim on deque j after this round,
// with tk = lwsThieves(b). From one snapshot, every thief (the k-th of K, by index) claims the
// k-th slice of every deque with nodes, all at once, where CUDA's threads would race with
// atomicMin; claims carried over are kept, less what the last pop transferred (marked not new).
ivec4 lwsFresh(int b, int j, ivec2 tk) {
  if (!lwsIsThief(b)) return lwsClaim(b, j);
  ivec4 d = bstate(j);
  int n = d.z - d.y;
  if (n > 0) {
    int cj = lwsSlice(j, n, tk.y);
    int lo = min(tk.x * cj, n), hi = min((tk.x + 1) * cj, n);
    if (hi > lo) return ivec4(d.y + lo, hi - lo, 1, 0);
  }
  return ivec4(0);
}
