/**
 * CPU reference of the fluid step in src/apps/fluid (float64, same stencils, same order):
 * advect dye, advect velocity, divergence, Jacobi iterations with Neumann obstacle boundaries
 * (an obstacle cell copies the pressure of the cell its fluid neighbours point to), projection;
 * border cells are no-slip walls with Neumann pressure.
 */
export interface FluidState {
  n: number;
  /** 2 per cell (x, y velocity), row-major, y up. */
  u: Float64Array;
  dye: Float64Array;
  p: Float64Array;
  obstacles: ArrayLike<number>;
}

export interface FluidSplat {
  x: number;
  y: number;
  fx: number;
  fy: number;
  dye: number;
  radius: number;
}

export function fluidState(n: number, obstacles: ArrayLike<number>): FluidState {
  return { n, u: new Float64Array(n * n * 2), dye: new Float64Array(n * n), p: new Float64Array(n * n), obstacles };
}

/** The direction from obstacle cell (i, j) to its fluid neighbours, each component -1, 0 or 1. */
export function fluidDirection(obstacles: ArrayLike<number>, n: number, i: number, j: number): [number, number] {
  const solid = (a: number, b: number) => a >= 0 && b >= 0 && a < n && b < n && obstacles[b * n + a]! > 0.5;
  let dx = 0, dy = 0;
  if (!solid(i + 1, j)) dx += 1;
  if (!solid(i - 1, j)) dx -= 1;
  if (!solid(i, j + 1)) dy += 1;
  if (!solid(i, j - 1)) dy -= 1;
  return [Math.sign(dx), Math.sign(dy)];
}

export function fluidStepReference(s: FluidState, dt: number, jacobi: number, dissipation: number, splat?: FluidSplat): void {
  const { n, obstacles } = s;
  const keep = Math.pow(dissipation, dt);
  const at = (i: number, j: number) => j * n + i;
  const solid = (i: number, j: number) => obstacles[at(i, j)]! > 0.5;
  const border = (i: number, j: number) => i === 0 || j === 0 || i === n - 1 || j === n - 1;
  const inner = (i: number, j: number): [number, number] => [Math.min(Math.max(i, 1), n - 2), Math.min(Math.max(j, 1), n - 2)];
  const weight = (i: number, j: number) => (splat ? Math.exp(-((i - splat.x) ** 2 + (j - splat.y) ** 2) / Math.max(splat.radius, 1e-3) ** 2) : 0);
  const bilerp = (field: Float64Array, comps: number, k: number, qx: number, qy: number) => {
    qx = Math.min(Math.max(qx, 0), n - 1 - 0.001);
    qy = Math.min(Math.max(qy, 0), n - 1 - 0.001);
    const i = Math.floor(qx), j = Math.floor(qy), fx = qx - i, fy = qy - j;
    const v = (a: number, b: number) => field[at(a, b) * comps + k]!;
    const a = v(i, j) + (v(i + 1, j) - v(i, j)) * fx;
    const b = v(i, j + 1) + (v(i + 1, j + 1) - v(i, j + 1)) * fx;
    return a + (b - a) * fy;
  };
  // advect dye
  const dye = new Float64Array(n * n);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      if (border(i, j) || solid(i, j)) continue;
      const k = at(i, j);
      dye[k] = bilerp(s.dye, 1, 0, i - dt * s.u[k * 2]!, j - dt * s.u[k * 2 + 1]!) * keep + (splat ? splat.dye : 0) * weight(i, j);
    }
  s.dye = dye;
  // advect velocity
  const u = new Float64Array(n * n * 2);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const k = at(i, j);
      if (border(i, j)) continue;
      if (solid(i, j)) continue;
      for (let c = 0; c < 2; c++) {
        const force = splat ? (c === 0 ? splat.fx : splat.fy) : 0;
        u[k * 2 + c] = bilerp(s.u, 2, c, i - dt * s.u[k * 2]!, j - dt * s.u[k * 2 + 1]!) * keep + force * weight(i, j) * dt;
      }
    }
  walls(u, s.u);
  s.u = u;
  // divergence
  const div = new Float64Array(n * n);
  for (let j = 1; j < n - 1; j++)
    for (let i = 1; i < n - 1; i++) div[at(i, j)] = 0.5 * (u[at(i + 1, j) * 2]! - u[at(i - 1, j) * 2]! + (u[at(i, j + 1) * 2 + 1]! - u[at(i, j - 1) * 2 + 1]!));
  // pressure
  for (let it = 0; it < jacobi; it++) {
    const p = s.p, q = new Float64Array(n * n);
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        if (border(i, j)) {
          const [a, b] = inner(i, j);
          q[at(i, j)] = p[at(a, b)]!;
        } else if (solid(i, j)) {
          const [dx, dy] = fluidDirection(obstacles, n, i, j);
          q[at(i, j)] = p[at(i + dx, j + dy)]!;
        } else {
          q[at(i, j)] = 0.25 * (p[at(i + 1, j)]! + p[at(i - 1, j)]! + p[at(i, j + 1)]! + p[at(i, j - 1)]! - div[at(i, j)]!);
        }
      }
    s.p = q;
  }
  // projection
  const p = s.p, v = new Float64Array(n * n * 2);
  for (let j = 1; j < n - 1; j++)
    for (let i = 1; i < n - 1; i++) {
      if (solid(i, j)) continue;
      const k = at(i, j);
      v[k * 2] = u[k * 2]! - 0.5 * (p[at(i + 1, j)]! - p[at(i - 1, j)]!);
      v[k * 2 + 1] = u[k * 2 + 1]! - 0.5 * (p[at(i, j + 1)]! - p[at(i, j - 1)]!);
    }
  walls(v, u);
  s.u = v;

  /** No-slip border: each border cell the negated velocity of its inner neighbour in `src`. */
  function walls(f: Float64Array, src: Float64Array) {
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        if (!border(i, j)) continue;
        const [a, b] = inner(i, j);
        f[at(i, j) * 2] = -src[at(a, b) * 2]!;
        f[at(i, j) * 2 + 1] = -src[at(a, b) * 2 + 1]!;
      }
  }
}
