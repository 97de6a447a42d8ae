// Lazy work stealing (da Silva et al. 2014, Algorithms 1-4) as passes: shared helpers.
// State per block b < blocks: bstate(b) = (stack size, deque top, deque bottom, flags); record
// `blocks` is the start list (last frame's front or the root), a read-only deque nobody pushes
// to. Deque positions only grow (the paper forbids resetting a deque, so lazy claims stay
// valid); a deque is a ring of dequeCap slots indexed by position % dequeCap. claims(b *
// (blocks + 1) + j) = (start, size, new?, 0): block b's claim on deque j as the last steal round
// left it, taken lazily, lowest j first; plan(b) = (from the stack, source, first, count) is the
// pop that followed it (source j >= 0: a claim on deque j). A claim's current value is the stored one less what that pop transferred (the
// lazy transfer, applied where a claim is read: no pass of its own). The kernels declare gathers
// bstate, claims, plan and the uniforms blocks, threads.

// Block b's claim on deque j after its last pop.
ivec4 lwsClaim(int b, int j) {
  ivec4 c = claims(b * (blocks + 1) + j);
  ivec4 p = plan(b);
  if (p.y == j) { c.x += p.w; c.y -= p.w; }
  return ivec4(c.xy, 0, 0);
}

bool lwsHasClaims(int b) {
  ivec4 p = plan(b);
  for (int j = 0; j <= blocks; j++) {
    int n = claims(b * (blocks + 1) + j).y;
    if (p.y == j) n -= p.w;
    if (n > 0) return true;
  }
  return false;
}

// A thief: nothing on its stack, nothing in its deque, no claim left to transfer.
bool lwsIsThief(int b) {
  ivec4 s = bstate(b);
  return s.x == 0 && s.z == s.y && !lwsHasClaims(b);
}

// The slice each of K thieves takes from deque j holding n nodes: ceil(n / (K + 1)) from a
// block's deque (its owner keeps a share), at most four pops (4 x pop x threads) from the start list.
int lwsSlice(int j, int n, int K) {
  return j == blocks ? min(4 * pop * threads, (n + K - 1) / K) : (n + K) / (K + 1);
}
