// Radix sort, level 1 of the digit-count pyramid: how many of the four records 4i..4i+3 have
// each 2-bit digit (bits shift, shift + 1 of the sort key) — x for digit 0, ... w for digit 3.
// Records past the end (index >= n) count for no digit.
int first = brook_index * 4;
for (int m = first; m < first + 4 && m < n; m++) {
  uint d = (src(m).x >> uint(shift)) & 3u;
  counts[int(d)] += 1u;
}
