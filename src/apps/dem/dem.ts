/**
 * DEM particles with spatial binning (Oat, Barczak & Shopf 2009, section 4.1): every step the
 * particles are binned into a uniform grid of cells one diameter wide, each particle sums the
 * spring and damping forces (equations 1-5) of the particles in its 27 neighbouring bins, and a
 * semi-implicit Euler step moves it, with gravity, a user force and the walls of the box (the
 * floor y = 0 is the collision plane).
 *
 * ```ts
 * const dem = createDem(ctx, { count: 100000, diameter: 1 / 128 });
 * await dem.step(1 / 600, { push: [0, -20, 0] });
 * ```
 */
import FORCE_BODY from '../../../glsl/apps/dem/force.glsl';
import INTEGRATE_BODY from '../../../glsl/apps/dem/integrate.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import { checkContext, checkInteger, checkNumber, checkOptions, checkRequired, checkVector } from '../../core/validate';
import type { KernelSpec } from '../../core/kernelspec';
import type { Stream } from '../../core/stream';
import { BIN_QUERY_GLSL, BIN_UNIFORMS, binPoints, binUniforms, type BinGrid, type BinningStats, type Bins } from '../../idioms/binning/index';
import { seededRandom } from '../../core/random';

export interface DemOptions {
  count: number;
  /** Particle diameter d (also the cell size); the box is [0, 1]^3 and holds (1/d)^3 cells. */
  diameter: number;
  /** Spring coefficient k_s (eq. 3), damping coefficient eta (eq. 4); defaults 4000 and 8. */
  spring?: number;
  damping?: number;
  seed?: number;
}

export interface DemParams {
  spring: number;
  damping: number;
  diameter: number;
  gravity: number;
}

export interface DemParameterOptions {
  count: number;
  diameter: number;
  /** The largest acceleration the pile bears: gravity plus the user's push (default 9.8 + 20). */
  load?: number;
  /** Largest overlap of a settled contact as a fraction of the diameter (default 0.1). */
  overlap?: number;
  /** Damping as a fraction of one contact's critical damping 2√(k_s m) (default 0.3). */
  zeta?: number;
}

/**
 * Spring and damping coefficients and a stable time step for `count` particles of diameter d
 * (unit masses) piled in the unit box. Section 4.1 gives equations 3 and 4 but no coefficients;
 * these follow from two conditions:
 * - stiffness: the bottom particle of a settled pile (count·d²·1.2 layers deep: random packing
 *   holds about 1.2 particles per cell) carries the layers above at `load` with an overlap of
 *   at most `overlap`·d, so k_s = layers · load / (overlap · d). (A fixed k_s = 4000 lets a
 *   pile of 6 layers under 5 g sink through itself: overlap 0.075 against d = 0.038.)
 * - damping: η = 2ζ√k_s, ζ of a contact's critical damping, so impacts lose energy;
 * - time step: dt = 0.2 √(m / k_s), the usual DEM bound for explicit integration, which keeps
 *   ω dt < 2 for the stiffest mode of a 12-contact packing (ω ≈ √(12 k_s)) and 12 η dt < 2.
 */
export function demParameters(options: DemParameterOptions): { spring: number; damping: number; dt: number } {
  const { count, diameter: d, load = 9.8 + 20, overlap = 0.1, zeta = 0.3 } = options;
  check(Number.isInteger(count) && count >= 1, () => `demParameters: count must be a positive integer, got ${count}`);
  check(d > 0 && d <= 0.25, () => `demParameters: diameter must be in (0, 0.25], got ${d}`);
  check(load > 0 && overlap > 0 && overlap < 1 && zeta > 0, () => 'demParameters: load, overlap (< 1) and zeta must be positive');
  const layers = Math.max(1, count * d * d * 1.2);
  const spring = (layers * load) / (overlap * d);
  return { spring, damping: 2 * zeta * Math.sqrt(spring), dt: 0.2 / Math.sqrt(spring) };
}

/** The force on each particle (eqs. 1-5) from the particles of its 27 neighbouring bins (glsl/apps/dem/force.glsl). */
export const DEM_FORCE: KernelSpec = {
  name: 'DemForce',
  inputs: { x: 'float4', v: 'float4' },
  gathers: { binLoads: 'float', binSlots: 'float', pos: 'float4', vel: 'float4' },
  uniforms: { ...BIN_UNIFORMS, spring: 'float', damping: 'float', diameter: 'float' },
  outputs: { force: 'float4' },
  helpers: BIN_QUERY_GLSL,
  body: FORCE_BODY,
};

/** Semi-implicit Euler with gravity, the user's push and spring-damper walls at the box faces. */
const INTEGRATE: KernelSpec = {
  name: 'DemIntegrate',
  inputs: { x: 'float4', v: 'float4', force: 'float4' },
  uniforms: { dt: 'float', gravity: 'float', push: 'float3', spring: 'float', damping: 'float', radius: 'float' },
  outputs: { xn: 'float4', vn: 'float4' },
  body: INTEGRATE_BODY,
};

export class Dem {
  readonly count: number;
  readonly positions: Stream;
  readonly velocities: Stream;
  readonly params: DemParams;
  readonly grid: BinGrid;
  /** Binning statistics of the last step. */
  lastBinning: BinningStats | null = null;
  private readonly forces: Stream;
  /** The bin structure, rebuilt in place every step. */
  private bins: Bins | null = null;

  constructor(
    private readonly ctx: BrookContext,
    options: DemOptions,
  ) {
    checkContext(ctx, 'createDem');
    options = checkRequired(options, 'createDem: options', '{ count, diameter }');
    checkInteger(options.count, 'createDem: options.count', 1, 2 ** 24 - 1);
    checkNumber(options.diameter, 'createDem: options.diameter');
    if (options.spring !== undefined) checkNumber(options.spring, 'createDem: options.spring', 0);
    if (options.damping !== undefined) checkNumber(options.damping, 'createDem: options.damping', 0);
    if (options.seed !== undefined) checkNumber(options.seed, 'createDem: options.seed');
    const n = options.count;
    check(Number.isInteger(n) && n >= 1 && n < 2 ** 24, () => `dem: count must be an integer in [1, 2^24), got ${n}`);
    check(options.diameter > 0 && options.diameter <= 0.25, () => `dem: diameter must be in (0, 0.25], got ${options.diameter}`);
    const cells = Math.floor(1 / options.diameter);
    this.count = n;
    this.grid = { cells: [cells, cells, cells], origin: [0, 0, 0], cellSize: 1 / cells };
    this.params = { spring: options.spring ?? 4000, damping: options.damping ?? 8, diameter: options.diameter, gravity: 9.8 };
    // a loose block of particles above the floor
    const rand = seededRandom(options.seed ?? 1);
    const pos = new Float32Array(n * 4);
    const side = Math.ceil(Math.cbrt(n));
    const gap = Math.min(options.diameter * 1.05, 0.9 / side);
    for (let i = 0; i < n; i++) {
      const a = i % side, b = Math.floor(i / side) % side, c = Math.floor(i / (side * side));
      pos.set([0.05 + a * gap + rand() * 1e-3, 0.3 + c * gap, 0.05 + b * gap + rand() * 1e-3, 1], i * 4);
    }
    this.positions = ctx.stream('float4', n, pos);
    this.velocities = ctx.stream('float4', n);
    this.forces = ctx.stream('float4', n);
  }

  /** Computes the collision forces of the current state into `out` (for tests), binning first. */
  async computeForces(out: Stream = this.forces): Promise<Stream> {
    const ctx = this.ctx;
    const bins = (this.bins = await binPoints(ctx, this.positions, this.grid, { capacity: 8, method: 'delayed', into: this.bins ?? undefined }));
    const slots = bins.pack();
    try {
      ctx.runInternal(DEM_FORCE, {
        x: this.positions,
        v: this.velocities,
        binLoads: bins.loads,
        binSlots: slots,
        pos: this.positions,
        vel: this.velocities,
        spring: this.params.spring,
        damping: this.params.damping,
        diameter: this.params.diameter,
        force: out,
        ...binUniforms(bins, this.grid),
      });
      this.lastBinning = bins.stats;
    } finally {
      slots.dispose();
    }
    return out;
  }

  /** One step: bin, forces, integrate. `push` is the user's acceleration (e.g. toward the floor). */
  async step(dt: number, options: { push?: [number, number, number] } = {}): Promise<void> {
    check(typeof dt === 'number' && Number.isFinite(dt) && dt > 0, () => `dem step: dt must be a positive number, got ${dt}`);
    options = checkOptions(options, 'dem step: options');
    if (options.push !== undefined) checkVector(options.push, 3, 'dem step: options.push');
    await this.computeForces();
    const p = this.params;
    this.ctx.runInternal(INTEGRATE, {
      x: this.positions,
      v: this.velocities,
      force: this.forces,
      xn: this.positions,
      vn: this.velocities,
      dt,
      gravity: p.gravity,
      push: options.push ?? [0, 0, 0],
      spring: p.spring,
      damping: p.damping,
      radius: p.diameter / 2,
    });
  }

  dispose(): void {
    [this.positions, this.velocities, this.forces].forEach((s) => s.dispose());
    this.bins?.dispose();
  }
}

export function createDem(ctx: BrookContext, options: DemOptions): Dem {
  return new Dem(ctx, options);
}
