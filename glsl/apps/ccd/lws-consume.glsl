// Pass F: a level-3 pop consumes the front of the claim it transferred from.
int b = brook_index / (blocks + 1), j = brook_index - b * (blocks + 1);
ivec4 c = claims(brook_index);
claimOut = ivec4(c.xy, 0, 0);
if (b < blocks) {
  ivec4 p = plan(b);
  if (p.x == 3 && p.y == j) claimOut = ivec4(c.x + p.w, c.y - p.w, 0, 0);
}
