// One compare-exchange step: record i pairs with i ^ j inside blocks of size k; blocks with
// (i & k) == 0 sort ascending, the others descending.
int partner = brook_index ^ j;
uvec2 mine = src(brook_index);
uvec2 other = src(partner);
bool ascending = (brook_index & k) == 0;
bool lower = brook_index < partner;
bool takeSmaller = lower == ascending;
bool otherFirst = brook_before(other, mine);
sorted = (takeSmaller == otherFirst) ? other : mine;
