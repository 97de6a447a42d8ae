// One level of the bottom-up refit (body of CcdRefit): nodes of level `level` take the swept
// box of their triangle (three vertices at t = 0 and t = 1) or the union of their children's
// boxes; every other node keeps its box. min/max only, so the boxes are exact in float32.
lo = loIn;
hi = hiIn;
if (node.w == level) {
  if (node.z >= 0) {
    ivec4 t = tris(node.z);
    vec3 a = x0(t.x).xyz, b = x0(t.y).xyz, c = x0(t.z).xyz;
    vec3 d = x1(t.x).xyz, e = x1(t.y).xyz, f = x1(t.z).xyz;
    lo = vec4(min(min(min(a, b), min(c, d)), min(e, f)), 0.0);
    hi = vec4(max(max(max(a, b), max(c, d)), max(e, f)), 0.0);
  } else {
    lo = vec4(min(boxLo(node.x).xyz, boxLo(node.y).xyz), 0.0);
    hi = vec4(max(boxHi(node.x).xyz, boxHi(node.y).xyz), 0.0);
  }
}
