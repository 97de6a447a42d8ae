// The termination pass, drawn inside an occlusion query: a finished block (a thief: nothing on
// its stack, in its deque or claimed, flag bit 1 as pass E left it) is discarded, as is an
// emptied start list; and every record once a ring has overflowed (flag bit 0: the traversal
// reruns with larger rings, so the loop stops at once instead of stepping overwritten nodes).
ivec4 s = bstate(brook_index);
bool live = brook_index < blocks ? (s.w & 2) == 0 : s.z > s.y;
for (int b = 0; b < blocks; b++) if ((bstate(b).w & 1) != 0) live = false;
if (!live) discard;
alive = 1;
