// Pass D, compact (Algorithm 1, the block's prefix sum): where thread t's children go among
// its block's, and the block's total.
int b = brook_index / threads, t = brook_index - b * threads;
int pre = 0, tot = 0;
for (int u = 0; u < threads; u++) {
  int n = kidsB(b * threads + u).z;
  if (u < t) pre += n;
  tot += n;
}
prefix = ivec2(pre, tot);
