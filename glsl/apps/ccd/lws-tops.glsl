// Pass B: every deque's top moves past what the steal round claimed from it (popTop).
ivec4 d = bstate(brook_index);
stateOut = d;
int n = d.z - d.y;
if (n > 0) {
  int K = 0;
  for (int x = 0; x < blocks; x++) if (lwsIsThief(x)) K++;
  if (K > 0) stateOut.y = d.y + min(K * lwsSlice(brook_index, n, K), n);
}
