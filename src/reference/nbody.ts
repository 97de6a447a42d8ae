/** CPU references for the all-pairs N-body system, in float64. */

/**
 * Accelerations a_i = sum_j m_j r_ij / (|r_ij|^2 + eps2)^(3/2) (G = 1), with positions and masses
 * as xyzm records. Also returns, per body and component, the sum of the terms' magnitudes
 * (the scale a float32 sum's rounding error is proportional to).
 */
export function nbodyAccelerations(bodies: ArrayLike<number>, eps2: number): { acc: Float64Array; scale: Float64Array } {
  const n = bodies.length / 4;
  const acc = new Float64Array(n * 3);
  const scale = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const xi = bodies[i * 4]!, yi = bodies[i * 4 + 1]!, zi = bodies[i * 4 + 2]!;
    for (let j = 0; j < n; j++) {
      const rx = bodies[j * 4]! - xi, ry = bodies[j * 4 + 1]! - yi, rz = bodies[j * 4 + 2]! - zi;
      const d2 = rx * rx + ry * ry + rz * rz + eps2;
      const s = bodies[j * 4 + 3]! / (d2 * Math.sqrt(d2));
      acc[i * 3] += rx * s; acc[i * 3 + 1] += ry * s; acc[i * 3 + 2] += rz * s;
      scale[i * 3] += Math.abs(rx * s); scale[i * 3 + 1] += Math.abs(ry * s); scale[i * 3 + 2] += Math.abs(rz * s);
    }
  }
  return { acc, scale };
}

/** Total energy (kinetic + softened potential) of xyzm positions and xyz(w) velocities. */
export function nbodyEnergy(bodies: ArrayLike<number>, velocities: ArrayLike<number>, eps2: number, vstride = 4): number {
  const n = bodies.length / 4;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const m = bodies[i * 4 + 3]!;
    const vx = velocities[i * vstride]!, vy = velocities[i * vstride + 1]!, vz = velocities[i * vstride + 2]!;
    e += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    for (let j = i + 1; j < n; j++) {
      const rx = bodies[j * 4]! - bodies[i * 4]!, ry = bodies[j * 4 + 1]! - bodies[i * 4 + 1]!, rz = bodies[j * 4 + 2]! - bodies[i * 4 + 2]!;
      e -= (m * bodies[j * 4 + 3]!) / Math.sqrt(rx * rx + ry * ry + rz * rz + eps2);
    }
  }
  return e;
}

/** Total momentum sum_i m_i v_i. */
export function nbodyMomentum(bodies: ArrayLike<number>, velocities: ArrayLike<number>, vstride = 4): [number, number, number] {
  const p: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < bodies.length / 4; i++) {
    const m = bodies[i * 4 + 3]!;
    for (let k = 0; k < 3; k++) p[k] += m * velocities[i * vstride + k]!;
  }
  return p;
}
