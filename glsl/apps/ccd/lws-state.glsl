// Pass E, over the claims matrix (B x (B + 1) records): every record stores this iteration's
// steal-round claim (b, j) (lwsFresh, from the snapshot pass P read: the next iteration's
// `claims`), and records b <= blocks the block's pointers after the iteration: the stack loses
// what was popped from it and gains the threads' excess; only when it would overflow (more than
// stackCap - 6 threads: an iteration's excess may be six nodes a thread) all but a full pop
// (pop x threads) of it, oldest first, go to the deque (pushWork, the lazy push: the deque's
// bottom moves up past them in the ring they share). Flags: bit 0 a ring would overwrite a live
// node (overflow: the traversal reruns with larger rings), bit 1 the block is a thief for the
// next steal round. Counters: nodes stepped, pushed to the deque, stolen (claimed from other
// blocks' deques), steal rounds that found work. top(b): the pointers after popTop (pass P),
// pnow(b): this iteration's pop, prefix: pass D's group prefixes (group totals in .y, nodes
// stepped in .z).
int r = brook_index;
int b0 = r / (blocks + 1);
claimOut = lwsFresh(b0, r - b0 * (blocks + 1), lwsThieves(b0));
stateOut = ivec4(0);
counters = counterIn;
if (r <= blocks) {
  ivec4 s = top(r);
  stateOut = s;
  if (r < blocks) {
    ivec4 p = pnow(r);
    int s1 = s.x - p.x;
    int bot = s.z - (p.y == -2 ? p.w : 0);
    int total = 0, stepped = 0;
    for (int g = 0; g < threads; g += group) {
      ivec4 q = prefix(r * threads + g);
      total += q.y;
      stepped += q.z;
    }
    int s2 = s1 + total;
    int m = s2 > stackCap - 6 * threads ? s2 - min(s2, pop * threads) : 0;
    // the ring's live range starts at the top or the oldest node claimed from it this round
    int live = s.y, stolen = 0, K = lwsThieves(blocks).y, k = 0;
    ivec2 tk = lwsThieves(r);
    bool stole = false, claimed = false;
    for (int x = 0; x <= blocks; x++) {
      if (x < blocks) {
        ivec4 c = lwsFresh(x, r, ivec2(k, K));
        if (lwsIsThief(x)) k++;
        if (c.y > 0) live = min(live, c.x);
      }
      ivec4 mine = lwsFresh(r, x, tk);
      if (mine.z == 1) { stole = true; if (x < blocks) stolen += mine.y; }
      if (mine.y - (p.y == x ? p.w : 0) > 0) claimed = true;
    }
    int flags = s.w & 1;
    if (bot + s2 - live > dequeCap) flags = 1;
    if (s2 - m == 0 && bot + m == s.y && !claimed) flags |= 2;
    stateOut = ivec4(s2 - m, s.y, bot + m, flags);
    counters = counterIn + ivec4(stepped, m, stolen, stole ? 1 : 0);
  }
}
