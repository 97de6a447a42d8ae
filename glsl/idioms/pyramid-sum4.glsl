// One level of the histogram pyramid (Ziegler et al. 2006), linear form: each record sums
// four consecutive records of the level below (beyond the end reads zero).
int first = brook_index * 4;
count = below(first) + below(first + 1) + below(first + 2) + below(first + 3);
