// Pass P: popTop, then popWork (Algorithms 2-3). Every deque's top moves past what the steal
// round claimed from it (the thieves counted from the same snapshot as pass A); then block b's
// source this iteration — level 1 its stack, level 2 the bottom of its own deque, level 3 its
// lowest-indexed claim in `fresh` (pass A's claims: the lazy transfer). planOut = (level, source
// deque or -1 for the stack, first position, count); record `blocks` (the start list) plans nothing.
ivec4 d = bstate(brook_index);
stateOut = d;
int n = d.z - d.y;
if (n > 0) {
  int K = 0;
  for (int x = 0; x < blocks; x++) if (lwsIsThief(x)) K++;
  if (K > 0) stateOut.y = d.y + min(K * lwsSlice(brook_index, n, K), n);
}
ivec4 s = stateOut;
planOut = ivec4(0, -1, 0, 0);
if (brook_index < blocks) {
  if (s.x > 0) {
    int cnt = min(threads, s.x);
    planOut = ivec4(1, -1, s.x - cnt, cnt);
  } else if (s.z > s.y) {
    int cnt = min(threads, s.z - s.y);
    planOut = ivec4(2, brook_index, s.z - cnt, cnt);
  } else {
    for (int j = 0; j <= blocks; j++) {
      ivec4 c = fresh(brook_index * (blocks + 1) + j);
      if (c.y > 0) { planOut = ivec4(3, j, c.x, min(threads, c.y)); break; }
    }
  }
}
