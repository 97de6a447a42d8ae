// Pass P, popWork (Algorithms 2-3): where block b's threads take this iteration's nodes from —
// level 1 its stack, level 2 the bottom of its own deque, level 3 its lowest-indexed claim
// (the lazy transfer). plan = (level, source deque or -1 for the stack, first position, count).
ivec4 s = bstate(brook_index);
plan = ivec4(0, -1, 0, 0);
if (s.x > 0) {
  int cnt = min(threads, s.x);
  plan = ivec4(1, -1, s.x - cnt, cnt);
} else if (s.z > s.y) {
  int cnt = min(threads, s.z - s.y);
  plan = ivec4(2, brook_index, s.z - cnt, cnt);
} else {
  for (int j = 0; j <= blocks; j++) {
    ivec4 c = claims(brook_index * (blocks + 1) + j);
    if (c.y > 0) { plan = ivec4(3, j, c.x, min(threads, c.y)); break; }
  }
}
