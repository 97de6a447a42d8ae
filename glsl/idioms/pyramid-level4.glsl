// One level of the packed histogram pyramid (filter method 'pyramid'): record j holds the kept
// counts of its four children, the texels 4j .. 4j+3 of the level below, whose own four
// components are their children's counts (beyond the end reads zero).
for (int c = 0; c < 4; c++) {
  int child = brook_index * 4 + c;
  uvec4 v = child < lenBelow ? below(child) : uvec4(0u);
  counts[c] = v.x + v.y + v.z + v.w;
}
