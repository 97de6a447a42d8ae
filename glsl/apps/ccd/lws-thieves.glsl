// Lazy work stealing (da Silva et al. 2014, Algorithms 1-4) as passes: shared helpers.
// State per block b < blocks: bstate(b) = (stack size, deque top, deque bottom, flags); record
// `blocks` is the start list (last frame's front or the root), a read-only deque nobody pushes
// to. Deque positions only grow (the paper forbids resetting a deque, so lazy claims stay
// valid); a deque is a ring of dequeCap slots indexed by position % dequeCap. claims(b *
// (blocks + 1) + j) = (start, size, new?, 0): block b's claim on deque j, taken in a steal round
// and transferred lazily, lowest j first. The kernels declare gathers bstate, claims and the
// uniforms blocks, threads.

bool lwsHasClaims(int b) {
  for (int j = 0; j <= blocks; j++) if (claims(b * (blocks + 1) + j).y > 0) return true;
  return false;
}

// A thief: nothing on its stack, nothing in its deque, no claim left to transfer.
bool lwsIsThief(int b) {
  ivec4 s = bstate(b);
  return s.x == 0 && s.z == s.y && !lwsHasClaims(b);
}

// The slice each of K thieves takes from deque j holding n nodes: ceil(n / (K + 1)) from a
// block's deque (its owner keeps a share), at most `threads` from the start list.
int lwsSlice(int j, int n, int K) {
  return j == blocks ? min(threads, (n + K - 1) / K) : (n + K) / (K + 1);
}
