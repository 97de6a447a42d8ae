/**
 * Initial conditions: a Plummer sphere and two colliding disk galaxies (Figure 31-1), seeded so
 * tests and benchmarks are repeatable. Units: G = 1, total mass 1.
 */
import { seededRandom } from '../../core/random';

export interface Bodies {
  /** xyzm per body. */
  positions: Float32Array;
  /** xyz0 per body. */
  velocities: Float32Array;
}

function randomDirection(rand: () => number): [number, number, number] {
  const z = 2 * rand() - 1;
  const phi = 2 * Math.PI * rand();
  const s = Math.sqrt(1 - z * z);
  return [s * Math.cos(phi), s * Math.sin(phi), z];
}

/** Plummer sphere of n equal masses (Aarseth, Henon & Wielen 1974), scale radius 1, truncated at r = 10. */
export function plummer(n: number, seed = 1): Bodies {
  const rand = seededRandom(seed);
  const positions = new Float32Array(n * 4);
  const velocities = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    let r: number;
    do r = 1 / Math.sqrt(Math.pow(rand() * 0.999 + 1e-6, -2 / 3) - 1);
    while (r > 10);
    const [x, y, z] = randomDirection(rand);
    positions.set([r * x, r * y, r * z, 1 / n], i * 4);
    // speed: von Neumann rejection on g(q) = q^2 (1 - q^2)^3.5, escape speed sqrt(2) (1 + r^2)^-1/4
    let q = 0;
    for (;;) {
      q = rand();
      if (0.1 * rand() < q * q * Math.pow(1 - q * q, 3.5)) break;
    }
    const speed = q * Math.SQRT2 * Math.pow(1 + r * r, -0.25);
    const [vx, vy, vz] = randomDirection(rand);
    velocities.set([speed * vx, speed * vy, speed * vz, 0], i * 4);
  }
  removeDrift(positions, velocities);
  return { positions, velocities };
}

/**
 * Two disk galaxies on a collision course: each a heavy core (half the disk's mass) and light
 * bodies on circular orbits around it, the disks tilted against each other.
 */
export function collidingDisks(n: number, seed = 1): Bodies {
  const rand = seededRandom(seed);
  const positions = new Float32Array(n * 4);
  const velocities = new Float32Array(n * 4);
  const perDisk = [Math.ceil(n / 2), Math.floor(n / 2)];
  const centers = [[-3, -0.5, 0], [3, 0.5, 0]];
  const drifts = [[0.25, 0.05, 0], [-0.25, -0.05, 0]];
  const tilts = [0.3, -0.9];
  let i = 0;
  perDisk.forEach((count, d) => {
    if (count === 0) return;
    const diskMass = 0.5;
    const core = diskMass / 2;
    const starMass = count > 1 ? (diskMass - core) / (count - 1) : 0;
    const [cx, cy, cz] = centers[d]!;
    const [dx, dy, dz] = drifts[d]!;
    const ct = Math.cos(tilts[d]!), st = Math.sin(tilts[d]!);
    positions.set([cx, cy, cz, count > 1 ? core : diskMass], i * 4);
    velocities.set([dx, dy, dz, 0], i * 4);
    i++;
    for (let k = 1; k < count; k++, i++) {
      const r = 0.2 + 1.8 * Math.sqrt(rand());
      const phi = 2 * Math.PI * rand();
      const inner = core + starMass * (count - 1) * ((r - 0.2) / 1.8) ** 2; // mass inside r, roughly
      const v = Math.sqrt(inner / r);
      // in the disk plane, then tilted about the x axis
      const px = r * Math.cos(phi), py = r * Math.sin(phi), pz = 0.02 * (rand() - 0.5);
      const vx = -v * Math.sin(phi), vy = v * Math.cos(phi);
      positions.set([cx + px, cy + py * ct - pz * st, cz + py * st + pz * ct, starMass], i * 4);
      velocities.set([dx + vx, dy + vy * ct, dz + vy * st, 0], i * 4);
    }
  });
  return { positions, velocities };
}

/** Moves to the centre-of-mass frame. */
function removeDrift(positions: Float32Array, velocities: Float32Array): void {
  const n = positions.length / 4;
  const c = [0, 0, 0, 0, 0, 0];
  let m = 0;
  for (let i = 0; i < n; i++) {
    const w = positions[i * 4 + 3]!;
    m += w;
    for (let k = 0; k < 3; k++) {
      c[k] += w * positions[i * 4 + k]!;
      c[k + 3] += w * velocities[i * 4 + k]!;
    }
  }
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      positions[i * 4 + k] -= c[k]! / m;
      velocities[i * 4 + k] -= c[k + 3]! / m;
    }
}

export type NBodyPreset = 'plummer' | 'disks';

/** Initial conditions by name. */
export function nbodyPreset(name: NBodyPreset, n: number, seed = 1): Bodies {
  if (name === 'plummer') return plummer(n, seed);
  if (name === 'disks') return collidingDisks(n, seed);
  throw new Error(`(brookgl) unknown nbody preset '${String(name)}': use 'plummer' or 'disks'`);
}
