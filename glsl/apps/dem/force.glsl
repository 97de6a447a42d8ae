// DEM force on particle x (velocity v) from the particles of its 27 neighbouring bins:
// Oat, Barczak & Shopf 2009, equations 1-5 (kernel DemForce in src/apps/dem/dem.ts).
vec3 f = vec3(0.0);
ivec3 c = binCell(x.xyz);
for (int k = 0; k < 27; k++) {
  ivec2 b;
  if (!binNeighbour(c, k, b)) continue;
  int load = binLoad(b);
  for (int s = 0; s < load; s++) {
    int j = binItem(b, s);
    if (j == brook_index) continue;
    vec3 r = pos(j).xyz - x.xyz;                                  // (1)
    float dist = length(r);
    if (dist >= diameter || dist == 0.0) continue;
    f += -spring * (diameter - dist) * r / dist;                  // (3)
    f += damping * (vel(j).xyz - v.xyz);                          // (4)
  }
}
force = vec4(f, 0.0);                                            // (5)
