import { expect } from 'chai';
import { BrookContext, createFluid, Fluid, reference } from '../../src/index';
import { expectArrayEqual, newContext } from '../helpers';

const N = 48;

/** A disc obstacle (with a landlocked core) and a bar touching it; the border is the wall. */
function obstacles(): Float32Array {
  const o = new Float32Array(N * N);
  for (let j = 1; j < N - 1; j++)
    for (let i = 1; i < N - 1; i++) {
      if ((i - 30) ** 2 + (j - 24) ** 2 <= 36) o[j * N + i] = 1;
      if (i >= 20 && i <= 22 && j >= 5 && j <= 20) o[j * N + i] = 1;
    }
  return o;
}

const SPLAT = { x: 10, y: 24, fx: 40, fy: 8, dye: 1, radius: 4 };

function run(ctx: BrookContext, idioms: Partial<Fluid['idioms']>, steps: number): { u: Float32Array; dye: Float32Array; p: Float32Array; fluid: Fluid } {
  const fluid = createFluid(ctx, { size: N, jacobi: 20, dissipation: 0.99 });
  Object.assign(fluid.idioms, idioms);
  fluid.setObstacles(obstacles());
  for (let s = 0; s < steps; s++) fluid.step(0.5, { splat: SPLAT });
  const f = fluid.fields;
  return { u: f.velocity.readSync() as Float32Array, dye: f.dye.readSync() as Float32Array, p: f.pressure.readSync() as Float32Array, fluid };
}

describe('apps/fluid (GPU Gems 2 ch. 34, gpgpu_fluid)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('matches the CPU reference step by step (float32 against float64)', () => {
    const o = obstacles();
    const cpu = reference.fluidState(N, o);
    const gpu = run(ctx, {}, 0).fluid;
    for (let s = 0; s < 5; s++) {
      reference.fluidStepReference(cpu, 0.5, 20, 0.99, SPLAT);
      gpu.step(0.5, { splat: SPLAT });
    }
    const u = gpu.fields.velocity.readSync();
    const dye = gpu.fields.dye.readSync();
    // float32 rounding through 5 steps of 20 Jacobi sweeps and bilinear advection: absolute
    // errors of a few 1e-5 on velocities of order 10; the bound is 1e-4 of the largest value.
    const scaleU = Math.max(...Array.from(cpu.u, Math.abs));
    const scaleD = Math.max(...Array.from(cpu.dye, Math.abs));
    expect(scaleU).to.be.greaterThan(1);
    cpu.u.forEach((v, k) => expect(Math.abs(u[k]! - v), `velocity component ${k}`).to.be.at.most(1e-4 * scaleU));
    cpu.dye.forEach((v, k) => expect(Math.abs(dye[k]! - v), `dye cell ${k}`).to.be.at.most(1e-4 * scaleD));
    gpu.dispose();
  });

  it('every idiom switched on or off gives bit-identical velocity and dye, and no fluid enters an obstacle', () => {
    const base = run(ctx, { zcull: false, staticBranches: false, precomputed: false }, 8);
    const o = obstacles();
    for (const idioms of [{ zcull: true }, { staticBranches: true }, { precomputed: true }, { zcull: true, staticBranches: true, precomputed: true }]) {
      const got = run(ctx, { zcull: false, staticBranches: false, precomputed: false, ...idioms }, 8);
      const label = JSON.stringify(idioms);
      expectArrayEqual(got.u, base.u, `${label} velocity`);
      expectArrayEqual(got.dye, base.dye, `${label} dye`);
      got.fluid.dispose();
    }
    let moving = 0;
    for (let k = 0; k < N * N; k++) {
      if (o[k]) {
        expect(base.u[k * 2], `velocity in obstacle cell ${k}`).to.equal(0);
        expect(base.dye[k], `dye in obstacle cell ${k}`).to.equal(0);
      } else if (Math.abs(base.u[k * 2]!) > 1e-3) moving++;
    }
    expect(moving).to.be.greaterThan(100);
    base.fluid.dispose();
  });

  it('rebuilds the offset texture and the z mask only when obstacles change, and zeroes newly covered fluid', () => {
    const fluid = createFluid(ctx, { size: N, jacobi: 10 });
    fluid.setObstacles(obstacles());
    for (let s = 0; s < 5; s++) fluid.step(0.5, { splat: SPLAT });
    expect(fluid.rebuilds).to.equal(1);
    fluid.paintObstacle(10, 24, 3); // right on the splat, where the dye is
    fluid.step(0.5);
    expect(fluid.rebuilds).to.equal(2);
    const dye = fluid.fields.dye.readSync();
    for (let k = 0; k < N * N; k++) if (fluid.obstacleCells[k]) expect(dye[k], `dye in obstacle cell ${k}`).to.equal(0);
    const before = ctx.stats().textures;
    for (let s = 0; s < 20; s++) fluid.step(0.5);
    expect(ctx.stats().textures).to.equal(before);
    fluid.dispose();
  });
});
