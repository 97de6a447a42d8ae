// Pass A, the steal round (Algorithm 4 without atomics): from one snapshot, every thief b
// (the k-th of K, by index) claims the k-th slice of every other deque with nodes, all at once.
// Record (b, j) of the claims matrix. Claims carried over are kept, less what the last pop
// transferred (marked not new).
int b = brook_index / (blocks + 1), j = brook_index - b * (blocks + 1);
claimOut = lwsClaim(b, j);
if (lwsIsThief(b)) {
  int K = 0, k = 0;
  for (int x = 0; x < blocks; x++) if (lwsIsThief(x)) { if (x < b) k++; K++; }
  ivec4 d = bstate(j);
  int n = d.z - d.y;
  if (n > 0) {
    int cj = lwsSlice(j, n, K);
    int lo = min(k * cj, n), hi = min((k + 1) * cj, n);
    if (hi > lo) claimOut = ivec4(d.y + lo, hi - lo, 1, 0);
  }
}
