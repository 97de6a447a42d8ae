// Pass P: the steal round, popTop, then popWork (Algorithms 2-4). Every deque's top moves past
// what this round's thieves claim from it (the thieves counted from the snapshot); then block b
// pops up to pop x T nodes for its T threads (pop each) by level: first its stack (level 1),
// then, for what is left, the bottom of its own deque (level 2) or else its lowest-indexed claim
// (lwsFresh: this round's claims, computed here from the snapshot as pass E stores them; the
// lazy transfer, level 3). CUDA threads left without a node idle until the next pop; here a pop
// is a whole iteration of passes, so the levels top each other up.
// planOut = (nodes from the stack's top, then source: -1 none, -2 own deque, j >= 0 the claim
// on deque j; its first position; its count). Record `blocks` (the start list) plans nothing.
ivec4 d = bstate(brook_index);
stateOut = d;
int n = d.z - d.y;
ivec2 tk = lwsThieves(brook_index);
if (n > 0 && tk.y > 0) stateOut.y = d.y + min(tk.y * lwsSlice(brook_index, n, tk.y), n);
ivec4 s = stateOut;
planOut = ivec4(0, -1, 0, 0);
if (brook_index < blocks) {
  int want = pop * threads;
  int c1 = min(want, s.x), rem = want - c1;
  planOut = ivec4(c1, -1, 0, 0);
  if (rem > 0) {
    if (s.z > s.y) {
      int c2 = min(rem, s.z - s.y);
      planOut = ivec4(c1, -2, s.z - c2, c2);
    } else {
      for (int j = 0; j <= blocks; j++) {
        ivec4 c = lwsFresh(brook_index, j, tk);
        if (c.y > 0) { planOut = ivec4(c1, j, c.x, min(rem, c.y)); break; }
      }
    }
  }
}
