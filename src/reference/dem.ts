import { seededRandom } from '../core/random';

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

/**
 * A tight random clump of `n` particles (float4 positions in a 0.25-wide cube, velocities in
 * ±0.5 per component), seeded: with a diameter of 1/16, many contacts and several particles per
 * cell — the case that needs several binning passes.
 */
export function demClump(n: number, seed: number): { positions: Float32Array; velocities: Float32Array } {
  const r = seededRandom(seed);
  const positions = new Float32Array(n * 4);
  const velocities = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    positions.set([0.3 + 0.25 * r(), 0.2 + 0.25 * r(), 0.4 + 0.25 * r(), 1], i * 4);
    velocities.set([r() - 0.5, r() - 0.5, r() - 0.5, 0], i * 4);
  }
  return { positions, velocities };
}

/**
 * How far a GPU force component (float32 terms of a few ulp each, summed in bin order) may be
 * from `demForces`' float64 sum whose magnitudes add up to `scale`: (terms + 16) ulp of the
 * scale for up to 64 contacts per particle.
 */
export function demForceTolerance(scale: number): number {
  return 80 * 2 ** -24 * scale + 1e-6;
}
