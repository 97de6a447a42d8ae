/**
 * CPU reference of one agent-avoidance decision (Oat et al. 2009, section 4.2), by brute force
 * over all agents in float64: the fitness (equation 6) of each of `directions` directions
 * evenly spread around the goal direction, using the swept circle-circle time to collision.
 */
export function agentTimeToCollision(px: number, py: number, wx: number, wy: number, r: number, horizon: number): number {
  const c = px * px + py * py - r * r;
  if (c < 0) return 0;
  const a = wx * wx + wy * wy;
  const b = px * wx + py * wy;
  if (b >= 0 || a === 0) return horizon;
  const disc = b * b - a * c;
  if (disc < 0) return horizon;
  return Math.min((-b - Math.sqrt(disc)) / a, horizon);
}

/** Fitness of moving agent i in direction (dx, dy); state is xy position, zw velocity per agent. */
export function agentFitness(
  state: ArrayLike<number>,
  goals: ArrayLike<number>,
  i: number,
  dx: number,
  dy: number,
  o: { radius: number; speed: number; horizon: number; weight: number },
): number {
  const n = state.length / 4;
  let gx = goals[i * 2]! - state[i * 4]!, gy = goals[i * 2 + 1]! - state[i * 4 + 1]!;
  const gl = Math.hypot(gx, gy);
  if (gl > 0) { gx /= gl; gy /= gl; } else { gx = 1; gy = 0; }
  let t = o.horizon;
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    t = Math.min(t, agentTimeToCollision(state[j * 4]! - state[i * 4]!, state[j * 4 + 1]! - state[i * 4 + 1]!, state[j * 4 + 2]! - dx * o.speed, state[j * 4 + 3]! - dy * o.speed, 2 * o.radius, o.horizon));
  }
  return o.weight * (t / o.horizon) + (gx * dx + gy * dy) * 0.5 + 0.5;
}

/** The best fitness over the directions around agent i's goal direction (equation 7). */
export function agentBestFitness(
  state: ArrayLike<number>,
  goals: ArrayLike<number>,
  i: number,
  directions: number,
  o: { radius: number; speed: number; horizon: number; weight: number },
): number {
  let gx = goals[i * 2]! - state[i * 4]!, gy = goals[i * 2 + 1]! - state[i * 4 + 1]!;
  const gl = Math.hypot(gx, gy);
  if (gl > 0) { gx /= gl; gy /= gl; } else { gx = 1; gy = 0; }
  let best = -Infinity;
  for (let k = 0; k < directions; k++) {
    const a = (2 * Math.PI * k) / directions;
    const dx = gx * Math.cos(a) - gy * Math.sin(a), dy = gx * Math.sin(a) + gy * Math.cos(a);
    best = Math.max(best, agentFitness(state, goals, i, dx, dy, o));
  }
  return best;
}
