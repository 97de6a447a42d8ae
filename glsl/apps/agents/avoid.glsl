// One avoidance decision per agent (Oat et al. 2009, section 4.2): every one of AGENT_DIRECTIONS
// directions around the goal direction scored by the time to collision with the agents of the
// 27 neighbouring bins (equation 6), the best kept (equation 7). Kernel AgentAvoid in agents.ts.
vec2 g = goal - a.xy;
g = dot(g, g) > 0.0 ? normalize(g) : vec2(1.0, 0.0);
ivec3 c = binCell(vec3(a.xy, 0.0));
float best = -1e30; vec2 bestV = vec2(0.0); float bestT = 0.0;
for (int k = 0; k < AGENT_DIRECTIONS; k++) {
  float angle = 6.283185307 * float(k) / float(AGENT_DIRECTIONS);
  vec2 d = vec2(g.x * cos(angle) - g.y * sin(angle), g.x * sin(angle) + g.y * cos(angle));
  vec2 v = d * speed;
  float t = horizon;                                      // t(d): the nearest collision
  for (int n = 0; n < 27; n++) {
    ivec2 b;
    if (!binNeighbour(c, n, b)) continue;
    for (int s = 0; s < binLoad(b); s++) {
      int j = binItem(b, s);
      if (j == brook_index) continue;
      vec4 o = agents(j);
      t = min(t, timeToCollision(o.xy - a.xy, o.zw - v, 2.0 * radius, horizon));
    }
  }
  float fitness = weight * (t / horizon) + dot(g, d) * 0.5 + 0.5;   // (6)
  if (fitness > best) { best = fitness; bestV = v; bestT = t; }   // (7)
}
choice = vec4(bestV, best, bestT);
