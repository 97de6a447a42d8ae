// The termination pass, drawn inside an occlusion query: a block with nothing on its stack,
// in its deque or claimed is finished and discarded, as is an emptied start list.
ivec4 s = bstate(brook_index);
bool live = s.x > 0 || s.z > s.y;
if (brook_index < blocks) {
  for (int j = 0; j <= blocks; j++) if (claims(brook_index * (blocks + 1) + j).y > 0) live = true;
}
if (!live) discard;
alive = 1;
