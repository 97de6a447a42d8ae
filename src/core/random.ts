/**
 * Seeded random numbers for initial conditions, tests and benchmarks, so runs repeat: the
 * N-body presets, DEM and agent set-ups, and the test helpers all draw from it.
 */

/** A small seeded generator (mulberry32) returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
