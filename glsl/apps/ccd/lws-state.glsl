// Pass E, the block's pointers after the iteration: the stack loses what was popped from it and
// gains the threads' excess; only when it would overflow (more than stackCap - 6 threads: an
// iteration's excess may be six nodes a thread) all but a full pop (pop x threads) of it, oldest
// first, are pushed to the bottom of the deque (pushWork: the lazy push). push = (stack left
// after the pop, excess, nodes pushed to the deque, deque bottom before the push).
// Counters: nodes stepped, pushed to the deque, stolen (claimed from other blocks' deques),
// steal rounds that found work. Flag 1: a deque ring would overwrite a live node (overflow).
ivec4 s = bstate(brook_index);
stateOut = s;
push = ivec4(0);
counters = counterIn;
if (brook_index < blocks) {
  ivec4 p = plan(brook_index);
  int s1 = s.x - p.x;
  int bot = s.z - (p.y == -2 ? p.w : 0);
  int total = 0, stepped = 0;
  for (int g = 0; g < threads; g += group) {
    ivec4 q = prefix(brook_index * threads + g);
    total += q.y;
    stepped += q.z;
  }
  int s2 = s1 + total;
  int m = s2 > stackCap - 6 * threads ? s2 - min(s2, pop * threads) : 0;
  int live = s.y;
  int stolen = 0;
  bool stole = false;
  for (int x = 0; x <= blocks; x++) {
    ivec4 c = claims(x * (blocks + 1) + brook_index);
    if (x < blocks && c.y > 0) live = min(live, c.x);
    ivec4 mine = claims(brook_index * (blocks + 1) + x);
    if (mine.z == 1) { stole = true; if (x < blocks) stolen += mine.y; }
  }
  int flags = s.w;
  if (bot + m - live > dequeCap) flags = 1;
  stateOut = ivec4(s2 - m, s.y, bot + m, flags);
  push = ivec4(s1, total, m, bot);
  counters = counterIn + ivec4(stepped, m, stolen, stole ? 1 : 0);
}
