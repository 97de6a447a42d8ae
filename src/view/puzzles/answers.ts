/**
 * CPU answers of the puzzle book (src/view/puzzles, demos/puzzles/): one plain function per
 * puzzle, computing what the student's kernel and the puzzle's fixed host script must produce
 * (the checker compares the GPU with them; `reference.puzzle*` re-exports them for reading).
 * float32 results are rounded as the GPU rounds them (Math.fround after each operation) where
 * the puzzle compares them exactly; the N-body tile is computed in float64 and compared within a
 * tolerance.
 */

const f = Math.fround;

/** Puzzle 1 (map): o = a * a. */
export function puzzleSquare(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(a, (v) => f(v * v));
}

/** Puzzle 2 (zip with a uniform): o = alpha * x + y (Brook's saxpy). */
export function puzzleSaxpy(x: ArrayLike<number>, y: ArrayLike<number>, alpha: number): Float32Array {
  return Float32Array.from(x, (v, i) => f(f(f(alpha) * v) + y[i]!));
}

/** Puzzle 3 (gather a neighbour): o[i] = a[i] - a[i - 1], with nothing (0) left of record 0. */
export function puzzleLeftDifference(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(a, (v, i) => f(v - (i > 0 ? a[i - 1]! : 0)));
}

/**
 * Puzzle 4 (2D stencil): the mean of the four neighbours (up, down, left, right) of each cell
 * of an h x w grid (row-major), a neighbour outside the grid read as the nearest cell (Brook's
 * clamped gather). Inputs are small integers, so every sum is exact in any order.
 */
export function puzzleNeighbourMean(g: ArrayLike<number>, h: number, w: number): Float32Array {
  const at = (y: number, x: number) => g[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  const out = new Float32Array(h * w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = (at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1)) / 4;
  return out;
}

/** Puzzle 5 (iterators): a checkerboard of `square` x `square` records over h x w, 1 on the squares whose column + row of squares is odd. */
export function puzzleCheckerboard(h: number, w: number, square: number): Float32Array {
  const out = new Float32Array(h * w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = (Math.floor(x / square) + Math.floor(y / square)) % 2;
  return out;
}

/** Puzzle 6 (a reduce kernel): the largest record. */
export function puzzleMax(a: ArrayLike<number>): Float32Array {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) m = Math.max(m, a[i]!);
  return Float32Array.of(m);
}

/** Puzzle 7 (scan): inclusive running sums (inputs are small integers: exact in any order). */
export function puzzleInclusiveScan(a: ArrayLike<number>): Float32Array {
  const out = new Float32Array(a.length);
  let s = 0;
  for (let i = 0; i < a.length; i++) out[i] = s += a[i]!;
  return out;
}

/** Puzzle 8 (compaction): the finite records in their order (Horn's null records, x = +infinity, dropped). */
export function puzzleCompact(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(Array.from(a).filter((v) => Number.isFinite(v)));
}

/** Puzzle 9 (bitonic merge steps): the records in increasing order. */
export function puzzleSorted(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(a).sort();
}

/**
 * Puzzle 10 (z-cull): 1 for each cell of an h x w obstacle grid that a masked pass must still
 * process, 0 for the landlocked ones that it skips: a cell is landlocked when its four
 * neighbours are obstacles (> 0.5), a neighbour outside the grid read as the nearest cell
 * (Harris & Buck's Listing 34-1, whose texRECT reads clamp).
 */
export function puzzleProcessed(obstacles: ArrayLike<number>, h: number, w: number): Float32Array {
  const at = (y: number, x: number) => obstacles[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  const out = new Float32Array(h * w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const walls = [at(y, x - 1), at(y, x + 1), at(y - 1, x), at(y + 1, x)].filter((v) => v > 0.5).length;
      out[y * w + x] = walls === 4 ? 0 : 1;
    }
  return out;
}

/**
 * Puzzle 11 (occlusion-query loop): x halved while x >= 1, the halvings counted: records
 * (x, halvings) with x < 1 at the end. Halving is exact in float32.
 */
export function puzzleHalvings(x: ArrayLike<number>): Float32Array {
  const out = new Float32Array(x.length * 2);
  for (let i = 0; i < x.length; i++) {
    let v = x[i]!;
    let k = 0;
    while (v >= 1) {
      v /= 2;
      k++;
    }
    out[i * 2] = v;
    out[i * 2 + 1] = k;
  }
  return out;
}

/** Puzzle 12 (scatter): the even-numbered records first, then the odd-numbered, each in order. */
export function puzzleDeinterleave(a: ArrayLike<number>): Float32Array {
  const out = new Float32Array(a.length);
  let k = 0;
  for (let i = 0; i < a.length; i += 2) out[k++] = a[i]!;
  for (let i = 1; i < a.length; i += 2) out[k++] = a[i]!;
  return out;
}

/**
 * Puzzle 13 (binning): for each cell of a cells x cells grid over the unit square (row y,
 * column x), the sum of the ids (record numbers) of the points in it; a point on or past an
 * edge goes to the nearest cell.
 */
export function puzzleCellIdSums(points: ArrayLike<number>, cells: number): Float32Array {
  const out = new Float32Array(cells * cells);
  const cell = (v: number) => Math.min(cells - 1, Math.max(0, Math.floor(v * cells)));
  for (let i = 0; i < points.length / 4; i++) out[cell(points[i * 4 + 1]!) * cells + cell(points[i * 4]!)]! += i;
  return out;
}

/**
 * Puzzle 14 (N-body tile): accelerations (G = 1) from all bodies, xyzm records, with softening
 * eps2, in float64 (Nyland, Harris & Prins, GPU Gems 3 ch. 31, Listing 31-1's interaction).
 */
export function puzzleAccelerations(bodies: ArrayLike<number>, eps2: number): Float64Array {
  const n = bodies.length / 4;
  const acc = new Float64Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const rx = bodies[j * 4]! - bodies[i * 4]!, ry = bodies[j * 4 + 1]! - bodies[i * 4 + 1]!, rz = bodies[j * 4 + 2]! - bodies[i * 4 + 2]!;
      const d2 = rx * rx + ry * ry + rz * rz + eps2;
      const s = bodies[j * 4 + 3]! / (d2 * Math.sqrt(d2));
      acc[i * 3] += rx * s;
      acc[i * 3 + 1] += ry * s;
      acc[i * 3 + 2] += rz * s;
    }
  return acc;
}

/**
 * Puzzle 15 (struct stream): particles (pos float2, vel float2, interleaved) moved by vel * dt in
 * the unit box; one that leaves it through a wall is reflected back in and that velocity
 * component flipped.
 */
export function puzzleParticleStep(particles: ArrayLike<number>, dt: number): Float32Array {
  const out = new Float32Array(particles.length);
  for (let i = 0; i < particles.length; i += 4) {
    for (let k = 0; k < 2; k++) {
      let p = f(particles[i + k]! + f(particles[i + 2 + k]! * f(dt)));
      let v = particles[i + 2 + k]!;
      if (p < 0) {
        p = -p;
        v = -v;
      } else if (p > 1) {
        p = f(2 - p);
        v = -v;
      }
      out[i + k] = p;
      out[i + 2 + k] = v;
    }
  }
  return out;
}

/** Puzzle 16 (exact counts): the total of integer counts, exact (a float64 sum of integers stays exact below 2^53). */
export function puzzleTotal(counts: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < counts.length; i++) s += counts[i]!;
  return s;
}
