// Down-sweep of the work-efficient scan over a 4-way pyramid: the running sum at this node of
// `level` is its left siblings within its group of four (and itself when `inclusive`) plus the
// exclusive prefix of its parent (the sum of every node left of the parent's group, one level
// up; none at the root), added last so that it goes through one addition per level. At the
// bottom level this is the scan itself; above it, the prefixes the level below starts from.
for (int m = brook_index & ~3; m < brook_index; m++) sum += level(m);
if (inclusive) sum += level(brook_index);
if (!root) sum += parent(brook_index >> 2);
