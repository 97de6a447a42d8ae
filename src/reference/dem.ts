/**
 * CPU reference of the DEM collision force (Oat et al. 2009, equations 1-5), by brute force
 * over all pairs closer than the diameter, in float64. Also returns the sum of the terms'
 * magnitudes per component (the scale of the float32 rounding error).
 */
export function demForces(positions: ArrayLike<number>, velocities: ArrayLike<number>, spring: number, damping: number, diameter: number): { force: Float64Array; scale: Float64Array } {
  const n = positions.length / 4;
  const force = new Float64Array(n * 3);
  const scale = new Float64Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const r = [0, 1, 2].map((k) => positions[j * 4 + k]! - positions[i * 4 + k]!); // (1)
      const dist = Math.hypot(r[0]!, r[1]!, r[2]!);
      if (dist >= diameter || dist === 0) continue;
      for (let k = 0; k < 3; k++) {
        const spr = (-spring * (diameter - dist) * r[k]!) / dist; // (3)
        const damp = damping * (velocities[j * 4 + k]! - velocities[i * 4 + k]!); // (4)
        force[i * 3 + k] += spr + damp; // (2), (5)
        scale[i * 3 + k] += Math.abs(spr) + Math.abs(damp);
      }
    }
  return { force, scale };
}
