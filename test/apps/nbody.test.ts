import { expect } from 'chai';
import { BrookContext, BrookError, NBodyMethod, createNBody, nbodyPreset, reference } from '../../src/index';
import { newContext } from '../helpers';

const U = 2 ** -24; // float32 unit roundoff

/**
 * The float32 error bound for an acceleration component: every term m_j r s carries a relative
 * error of a few ulps (one rounding each for r, the squared distance, inversesqrt (2 ulp in
 * GLSL ES 3.00), the cube and the products: under 16u in all), and a float32 sum of n terms
 * in any order adds at most (n - 1)u times the sum of the terms' magnitudes (Higham, ch. 4).
 * So |gpu - exact| <= (n + 16) u * sum_j |term_j|, whatever the summation order a variant uses.
 */
function expectWithinBound(got: Float32Array, bodies: Float32Array, eps2: number, what: string): void {
  const n = bodies.length / 4;
  const { acc, scale } = reference.nbodyAccelerations(bodies, eps2);
  let worst = 0;
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      const err = Math.abs(got[i * 4 + k]! - acc[i * 3 + k]!);
      const bound = (n + 16) * U * scale[i * 3 + k]! + 1e-30;
      worst = Math.max(worst, err / bound);
      if (!(err <= bound)) {
        expect.fail(`${what}: body ${i} component ${k}: got ${got[i * 4 + k]}, float64 ${acc[i * 3 + k]}, error ${err.toExponential(2)} > bound ${bound.toExponential(2)}`);
      }
    }
  expect(worst).to.be.lessThan(1);
}

const VARIANTS: NBodyMethod[] = [
  { p: 1, u: 1, q: 1, b: 1 },
  { p: 16, u: 4, q: 1, b: 1 },
  { p: 8, u: 8, q: 4, b: 1 },
  { p: 16, u: 4, q: 1, b: 4 },
  { p: 32, u: 2, q: 2, b: 8 },
  { p: 64, u: 16, q: 3, b: 3 },
  'nxn',
  'points',
];
const label = (m: NBodyMethod) => (m === 'nxn' ? 'N x N force texture' : m === 'points' ? 'vertex-shader points' : `p=${m.p} u=${m.u} q=${m.q} b=${m.b}`);

describe('apps/nbody (GPU Gems 3 ch. 31)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const n of [1000, 777]) {
    it(`every variant's accelerations are within the float32 bound of a float64 reference (N = ${n}, not a multiple of p or of the texture width)`, async () => {
      const { positions, velocities } = nbodyPreset('plummer', n, 3);
      const sys = createNBody(ctx, { positions, velocities, softening: 0.05 });
      expect(sys.padded % 16 === 0 && n % 16 !== 0).to.equal(true);
      for (const method of VARIANTS) {
        sys.method = method;
        expectWithinBound(await sys.readAccelerations(), positions, sys.eps2, label(method));
      }
      sys.dispose();
    });
  }

  it('one body feels nothing; two bodies pull each other equally and oppositely', async () => {
    const one = createNBody(ctx, { positions: [1, 2, 3, 5], softening: 0.1 });
    expect(Array.from(await one.readAccelerations())).to.deep.equal([0, 0, 0, 0]);
    one.dispose();
    const two = createNBody(ctx, { positions: [0, 0, 0, 2, 3, 4, 0, 1], softening: 0.1 });
    const a = await two.readAccelerations();
    expectWithinBound(a, new Float32Array([0, 0, 0, 2, 3, 4, 0, 1]), two.eps2, 'two bodies');
    expect(a[0]! * 2 + a[4]! * 1).to.be.closeTo(0, 1e-7);
    two.dispose();
  });

  it('a two-body circular orbit returns to its start after one period', async () => {
    // m = 1/2 each, separation 1: angular velocity sqrt(M / d^3) = 1, period 2 pi, speed 1/2.
    // Leapfrog's phase error after a period is about 2 pi (w dt)^2 / 24 = 1e-5 for 1000 steps,
    // float32 rounding of 1000 position updates about 1000 * 6e-8; softening 1e-4 changes the
    // force by 1e-8. Bound: 1e-3.
    const sys = createNBody(ctx, { positions: [0.5, 0, 0, 0.5, -0.5, 0, 0, 0.5], velocities: [0, 0.5, 0, 0, -0.5, 0], softening: 1e-4 });
    const steps = 1000;
    sys.step((2 * Math.PI) / steps, steps);
    const { positions, velocities } = await sys.read();
    const start = [0.5, 0, 0, -0.5, 0, 0];
    const now = [positions[0]!, positions[1]!, positions[2]!, positions[4]!, positions[5]!, positions[6]!];
    now.forEach((x, k) => expect(x, `position component ${k}`).to.be.closeTo(start[k]!, 1e-3));
    expect(velocities[1]).to.be.closeTo(0.5, 1e-3);
    sys.dispose();
  });

  it('conserves momentum and bounds the energy drift of a small cluster over many steps', async () => {
    // Plummer sphere of 64 bodies, eps = 0.1, dt = 0.005, 400 steps (2 time units, about one
    // crossing time). Leapfrog's energy error stays bounded (it is symplectic) at about
    // (dt / t_min)^2 with t_min ~ eps / v ~ 0.1: 2.5e-3 at worst; the bound is 5e-3.
    // Momentum starts at zero; float32 forces are not exactly antisymmetric, so it wanders by
    // rounding only: bound 1e-5 (velocities are O(1), masses 1/64).
    const { positions, velocities } = nbodyPreset('plummer', 64, 9);
    const eps2 = 0.01;
    const e0 = reference.nbodyEnergy(positions, velocities, eps2);
    const sys = createNBody(ctx, { positions, velocities, softening: 0.1 });
    sys.step(0.005, 400);
    const end = await sys.read();
    const e1 = reference.nbodyEnergy(end.positions, end.velocities, eps2);
    expect(Math.abs((e1 - e0) / e0), `energy ${e0} -> ${e1}`).to.be.lessThan(5e-3);
    const p = reference.nbodyMomentum(end.positions, end.velocities);
    for (const c of p) expect(Math.abs(c)).to.be.lessThan(1e-5);
    // and the bodies did move
    expect(Math.abs(end.positions[0]! - positions[0]!)).to.be.greaterThan(1e-3);
    sys.dispose();
  });

  it('every variant steps the same trajectory (within rounding) as the default', async () => {
    const { positions, velocities } = nbodyPreset('disks', 300, 5);
    const results: Float32Array[] = [];
    for (const method of [VARIANTS[0]!, VARIANTS[4]!, 'nxn' as const]) {
      const sys = createNBody(ctx, { positions, velocities, softening: 0.05, method });
      sys.step(0.01, 5);
      results.push((await sys.read()).positions);
      sys.dispose();
    }
    for (const r of results.slice(1)) r.forEach((x, i) => expect(x, `record component ${i}`).to.be.closeTo(results[0]![i]!, 1e-4));
  });

  it('keeps the live texture count flat over many steps', async () => {
    const sys = createNBody(ctx, { ...nbodyPreset('plummer', 100, 1), softening: 0.1, method: { b: 2, q: 2 } });
    const both = (steps: number) => {
      sys.method = { b: 2, q: 2 };
      sys.step(0.01, steps);
      sys.method = 'nxn';
      sys.step(0.01, steps);
    };
    both(2); // the pool now holds one texture of every shape the two methods use
    const before = ctx.stats().textures;
    both(100);
    await ctx.queries.fence();
    expect(ctx.stats().textures).to.equal(before);
    sys.dispose();
  });

  it('refuses bad input with clear errors', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).to.be.instanceOf(BrookError);
        return (e as Error).message;
      }
      return expect.fail('no error');
    };
    expect(err(() => createNBody(ctx, { positions: [0, 0, 0], softening: 0.1 }))).to.match(/4 numbers \(x, y, z, mass\)/);
    expect(err(() => createNBody(ctx, { positions: [0, 0, 0, 1], softening: 0 }))).to.match(/softening must be a positive number/);
    expect(err(() => createNBody(ctx, { positions: [0, 0, 0, 1], softening: 0.1, method: { p: 3 } }))).to.match(/powers of two/);
    expect(err(() => createNBody(ctx, { positions: [0, 0, 0, 1], softening: 0.1, method: { b: 99 } }))).to.match(/draw buffers/);
    const big = createNBody(ctx, { positions: new Float32Array(10000 * 4), softening: 0.1 });
    expect(err(() => (big.method = 'nxn'))).to.match(/force texture/);
    expect(err(() => big.step(NaN))).to.match(/dt must be a finite number/);
    big.dispose();
  });
});
