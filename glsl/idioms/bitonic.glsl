// Bitonic sort helpers (Buck & Purcell, "A Toolkit for Computation on GPUs", GPU Gems ch. 37).
// Records are uvec2(order key, original index): comparing them lexicographically makes the sort
// total and stable.

// Float bits mapped to an unsigned key with the same order: negative floats flipped, positive
// ones offset above them. -0 sorts just before +0; every NaN maps to the top (after +inf).
uint brook_sortable(float f) {
  uint bits = floatBitsToUint(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

bool brook_before(uvec2 a, uvec2 b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}
