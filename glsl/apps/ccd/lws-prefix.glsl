// Pass D, compact (Algorithm 1, the block's prefix sum) in groups of `group` threads: where
// thread t's excess nodes go within its group, the group's total, and the nodes the group
// stepped — group reads a fragment (about sqrt T), where the block's whole prefix took T.
// Readers add the groups before (passes R and E): T / group reads.
int b = brook_index / threads, t = brook_index - b * threads;
int g0 = t - t % group;
int pre = 0, tot = 0, stepped = 0;
for (int u = 0; u < group; u++) {
  int tt = g0 + u;
  if (tt >= threads) break;
  ivec4 c = cnt(b * threads + tt);
  if (tt < t) pre += c.x;
  tot += c.x;
  stepped += c.y;
}
prefix = ivec4(pre, tot, stepped, 0);
