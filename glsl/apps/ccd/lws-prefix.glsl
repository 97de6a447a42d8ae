// Pass D, compact (Algorithm 1, the block's prefix sum) in groups of `group` threads: where
// thread t's children go within its group, and the group's total — group reads a fragment
// (about sqrt T), where the block's whole prefix took T. Readers add the groups before
// (lwsElement, pass E): T / group reads.
int b = brook_index / threads, t = brook_index - b * threads;
int g0 = t - t % group;
int pre = 0, tot = 0;
for (int u = 0; u < group; u++) {
  int tt = g0 + u;
  if (tt >= threads) break;
  int n = kidsB(b * threads + tt).z;
  if (tt < t) pre += n;
  tot += n;
}
prefix = ivec2(pre, tot);
