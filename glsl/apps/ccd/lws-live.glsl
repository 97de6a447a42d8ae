// The termination pass, drawn inside an occlusion query: a block with nothing on its stack,
// in its deque or claimed is finished and discarded, as is an emptied start list.
ivec4 s = bstate(brook_index);
bool live = s.x > 0 || s.z > s.y;
if (brook_index < blocks && lwsHasClaims(brook_index)) live = true;
if (!live) discard;
alive = 1;
