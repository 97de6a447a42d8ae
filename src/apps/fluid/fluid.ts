/**
 * A 2D incompressible fluid with painted obstacles: the gpgpu_fluid example of Harris & Buck
 * (GPU Gems 2 ch. 34) built from the chapter's idioms, each switchable so a page can show what
 * it saves (the state it computes is the same either way; the tests check that).
 *
 * ```ts
 * const fluid = createFluid(ctx, { size: 256 });
 * fluid.paintObstacle(100, 128, 12);            // cells; rebuilds the offsets and the z mask
 * fluid.step(0.5, { splat: { x: 40, y: 128, fx: 30, fy: 0, dye: 1, radius: 6 } });
 * ```
 *
 * Per step (stable fluids, Stam 1999; velocities in cells per unit time): advect velocity and
 * dye (semi-Lagrangian, bilinear), divergence, `jacobi` Jacobi iterations for pressure, subtract
 * the pressure gradient. Obstacle cells hold zero velocity and dye.
 * - precomputation: an offset texture (one pass, only when obstacles change) gives each obstacle
 *   cell the direction of its fluid neighbours; the pressure pass copies the pressure from there
 *   (a pure Neumann boundary) instead of searching the neighbours every iteration;
 * - z-cull: cells whose four neighbours are all obstacles (Listing 34-1's test, "landlocked")
 *   are masked out of every pass; the mask is rebuilt only when obstacles change;
 * - static branch resolution: the interior kernels run on a quad over all but the one-cell
 *   border and the border kernels on lines over it (no-slip walls, Neumann pressure), instead
 *   of one kernel testing every cell.
 */
import SEARCH from '../../../glsl/apps/fluid/search.glsl';
import SPLAT from '../../../glsl/apps/fluid/splat.glsl';
import LANDLOCKED_BODY from '../../../glsl/apps/fluid/landlocked.glsl';
import SOLID from '../../../glsl/apps/fluid/solid.glsl';
import ADVECT_VELOCITY from '../../../glsl/apps/fluid/advect-velocity.glsl';
import ADVECT_DYE from '../../../glsl/apps/fluid/advect-dye.glsl';
import DIVERGENCE from '../../../glsl/apps/fluid/divergence.glsl';
import JACOBI from '../../../glsl/apps/fluid/jacobi.glsl';
import JACOBI_SEARCH from '../../../glsl/apps/fluid/jacobi-search.glsl';
import PROJECT from '../../../glsl/apps/fluid/project.glsl';
import OFFSETS from '../../../glsl/apps/fluid/offsets.glsl';
import BORDER_VELOCITY from '../../../glsl/apps/fluid/border-velocity.glsl';
import BORDER_PRESSURE from '../../../glsl/apps/fluid/border-pressure.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import { checkContext, checkInteger, checkNumber, checkOptions, checkRequired } from '../../core/validate';
import type { KernelSpec, RunOptions } from '../../core/kernelspec';
import type { KernelArgs } from '../../core/kernelargs';
import type { Stream } from '../../core/stream';
import type { ElementType } from '../../core/types';
import type { ZMask } from '../../core/zmask';

export interface FluidOptions {
  /** Cells per side (the grid is size x size); at least 8. */
  size: number;
  /** Jacobi iterations per step; default 40. */
  jacobi?: number;
  /** Velocity and dye kept per unit time (1 = no dissipation); default 0.999. */
  dissipation?: number;
}

export interface FluidIdioms {
  /** Skip landlocked cells with a z mask. */
  zcull: boolean;
  /** Interior quad + border lines instead of one kernel testing every cell. */
  staticBranches: boolean;
  /** Obstacle offsets from the precomputed texture instead of a neighbour search per pass. */
  precomputed: boolean;
}

export interface Splat {
  /** Centre, in cells. */
  x: number;
  y: number;
  /** Force added at the centre (cells per unit time per unit time). */
  fx: number;
  fy: number;
  /** Dye added at the centre. */
  dye: number;
  /** Gaussian radius in cells. */
  radius: number;
}

// ---- kernels ------------------------------------------------------------------------------------

/** Bilinear interpolation of gather `name` (generated per field name and type). */
const BILERP = (name: string, t: string) => `${t} ${name}At(vec2 q) {
  q = clamp(q, vec2(0.0), vec2(${name}_size() - 1) - 0.001);
  ivec2 i = ivec2(floor(q));
  vec2 f = q - vec2(i);
  ${t} a = mix(${name}_texel(i), ${name}_texel(i + ivec2(1, 0)), f.x);
  ${t} b = mix(${name}_texel(i + ivec2(0, 1)), ${name}_texel(i + ivec2(1, 1)), f.x);
  return mix(a, b, f.y);
}`;

const ZERO: Partial<Record<ElementType, string>> = { float: '0.0', float2: 'vec2(0.0)', float4: 'vec4(0.0)' };

/** A stage: one kernel body for the interior (glsl/apps/fluid/) and one for the one-cell border. */
interface Stage {
  name: string;
  gathers: Record<string, ElementType>;
  uniforms?: KernelSpec['uniforms'];
  output: [string, ElementType];
  helpers: string;
  interior: string;
  /** The border's body; default: the output is zero there. */
  border?: string;
}

const STAGES: Record<string, Stage> = {
  advectVelocity: {
    name: 'AdvectVelocity',
    gathers: { u: 'float2', obst: 'float' },
    uniforms: { dt: 'float', keep: 'float', splat: 'float4', force: 'float2' },
    output: ['un', 'float2'],
    helpers: [SOLID, BILERP('u', 'vec2'), SPLAT].join('\n'),
    interior: ADVECT_VELOCITY,
    border: BORDER_VELOCITY,
  },
  advectDye: {
    name: 'AdvectDye',
    gathers: { dye: 'float', u: 'float2', obst: 'float' },
    uniforms: { dt: 'float', keep: 'float', splat: 'float4', amount: 'float' },
    output: ['dn', 'float'],
    helpers: [SOLID, BILERP('dye', 'float'), SPLAT].join('\n'),
    interior: ADVECT_DYE,
  },
  divergence: { name: 'Divergence', gathers: { u: 'float2' }, output: ['dv', 'float'], helpers: '', interior: DIVERGENCE },
  jacobiPrecomputed: {
    name: 'Jacobi',
    gathers: { p: 'float', dv: 'float', obst: 'float', offsets: 'float4' },
    output: ['pn', 'float'],
    helpers: SOLID,
    interior: JACOBI,
    border: BORDER_PRESSURE,
  },
  jacobiSearch: {
    name: 'JacobiSearch',
    gathers: { p: 'float', dv: 'float', obst: 'float' },
    output: ['pn', 'float'],
    helpers: [SOLID, SEARCH].join('\n'),
    interior: JACOBI_SEARCH,
    border: BORDER_PRESSURE,
  },
  project: {
    name: 'Project',
    gathers: { u: 'float2', p: 'float', obst: 'float' },
    output: ['un', 'float2'],
    helpers: SOLID,
    interior: PROJECT,
    border: BORDER_VELOCITY,
  },
  offsets: { name: 'ObstacleOffsets', gathers: { obst: 'float' }, output: ['o', 'float4'], helpers: [SOLID, SEARCH].join('\n'), interior: OFFSETS },
};

/** Zeroes a field inside obstacles (run on both buffers when obstacles change, so masked cells start clean). */
const clearSolid = (type: 'float' | 'float2'): KernelSpec => ({
  name: `ClearSolid<${type}>`,
  inputs: { a: type },
  gathers: { obst: 'float' },
  outputs: { b: type },
  body: `b = obst(brook_pos) > 0.5 ? ${type === 'float' ? '0.0' : 'vec2(0.0)'} : a;`,
});
const CLEAR_SOLID = { float: clearSolid('float'), float2: clearSolid('float2') };

/** Listing 34-1 in GLSL: sums the four neighbours' obstacle values and discards cells that are not landlocked. */
export const LANDLOCKED: KernelSpec = {
  name: 'Obstacles (Listing 34-1)',
  gathers: { obstacleGrid: 'float' },
  outputs: { unused: 'float' },
  body: LANDLOCKED_BODY,
};

function stageSpec(stage: Stage, part: 'interior' | 'border' | 'single'): KernelSpec {
  const edge = 'brook_pos.x == 0 || brook_pos.y == 0 || brook_pos.x == brook_dims.y - 1 || brook_pos.y == brook_dims.w - 1';
  const border = stage.border ?? `${stage.output[0]} = ${ZERO[stage.output[1]]};`;
  const body = part === 'single' ? `if (${edge}) {\n${border}\n} else {\n${stage.interior}\n}` : part === 'border' ? border : stage.interior;
  return {
    name: `${stage.name}<${part}>`,
    gathers: stage.gathers,
    uniforms: stage.uniforms,
    outputs: { [stage.output[0]]: stage.output[1] },
    helpers: stage.helpers,
    body,
  };
}

/** Two streams used alternately: read one, write the other (no ping-pong copies under a mask). */
class Pair {
  constructor(
    public read: Stream,
    public write: Stream,
  ) {}
  swap(): void {
    [this.read, this.write] = [this.write, this.read];
  }
  dispose(): void {
    this.read.dispose();
    this.write.dispose();
  }
}

export class Fluid {
  readonly size: number;
  jacobi: number;
  dissipation: number;
  readonly idioms: FluidIdioms = { zcull: true, staticBranches: true, precomputed: true };
  /** Obstacle grid on the CPU (1 = solid), row-major, y up. */
  readonly obstacleCells: Float32Array;
  readonly obstacles: Stream;
  readonly offsets: Stream;
  private readonly u: Pair;
  private readonly dye: Pair;
  private readonly p: Pair;
  private readonly div: Stream;
  private readonly mask: ZMask;
  private readonly unused: Stream;
  private dirty = true;
  /** Times the offsets and the mask were rebuilt (once per obstacle change). */
  rebuilds = 0;

  constructor(
    private readonly ctx: BrookContext,
    options: FluidOptions,
  ) {
    checkContext(ctx, 'createFluid');
    options = checkRequired(options, 'createFluid: options', '{ size, jacobi? }');
    checkInteger(options.size, 'createFluid: options.size', 8, ctx.caps.maxTextureSize);
    if (options.jacobi !== undefined) checkInteger(options.jacobi, 'createFluid: options.jacobi (Jacobi iterations per step)', 1, 10_000);
    if (options.dissipation !== undefined) checkNumber(options.dissipation, 'createFluid: options.dissipation', 0, 1);
    const n = options.size;
    check(Number.isInteger(n) && n >= 8, () => `fluid: size must be an integer >= 8, got ${n}`);
    this.size = n;
    this.jacobi = options.jacobi ?? 40;
    this.dissipation = options.dissipation ?? 0.999;
    const shape: [number, number] = [n, n];
    const zeros = (type: ElementType) => ctx.stream(type, shape);
    this.u = new Pair(zeros('float2'), zeros('float2'));
    this.dye = new Pair(zeros('float'), zeros('float'));
    this.p = new Pair(zeros('float'), zeros('float'));
    this.div = zeros('float');
    this.obstacleCells = new Float32Array(n * n);
    this.obstacles = ctx.stream('float', shape, this.obstacleCells);
    this.offsets = zeros('float4');
    this.unused = zeros('float');
    this.mask = ctx.zmask(this.div);
  }

  /** Sets (or with `solid = false` clears) the obstacle cells within `radius` of (x, y). */
  paintObstacle(x: number, y: number, radius: number, solid = true): void {
    const n = this.size;
    for (let j = Math.max(1, Math.floor(y - radius)); j <= Math.min(n - 2, Math.ceil(y + radius)); j++)
      for (let i = Math.max(1, Math.floor(x - radius)); i <= Math.min(n - 2, Math.ceil(x + radius)); i++)
        if ((i - x) ** 2 + (j - y) ** 2 <= radius * radius) this.obstacleCells[j * n + i] = solid ? 1 : 0;
    this.setObstacles(this.obstacleCells);
  }

  /** Replaces the obstacle grid (size² values, 1 = solid; the outer border is always a wall). */
  setObstacles(cells: ArrayLike<number>): void {
    check(cells.length === this.size * this.size, () => `fluid: the obstacle grid needs ${this.size * this.size} values, got ${cells.length}`);
    if (cells !== this.obstacleCells) this.obstacleCells.set(cells);
    this.obstacles.write(this.obstacleCells);
    this.dirty = true;
  }

  /** The precomputation and the mask: run only when the obstacles changed. */
  private rebuild(): void {
    this.run(STAGES.offsets!, { obst: this.obstacles, o: this.offsets }, false);
    this.ctx.buildMask(this.mask, LANDLOCKED, { obstacleGrid: this.obstacles, unused: this.unused });
    for (const s of [this.u.read, this.u.write]) this.ctx.runInternal(CLEAR_SOLID.float2, { a: s, obst: this.obstacles, b: s });
    for (const s of [this.dye.read, this.dye.write]) this.ctx.runInternal(CLEAR_SOLID.float, { a: s, obst: this.obstacles, b: s });
    this.dirty = false;
    this.rebuilds++;
  }

  /** One stage over the grid: interior quad + border lines, or one testing kernel; masked or not. */
  private run(stage: Stage, args: KernelArgs, masked = true): void {
    const options: RunOptions = masked && this.idioms.zcull ? { mask: this.mask } : {};
    if (this.idioms.staticBranches) {
      this.ctx.runInternal(stageSpec(stage, 'interior'), args, { ...options, region: 'interior' });
      this.ctx.runInternal(stageSpec(stage, 'border'), args, { ...options, region: 'boundary' });
    } else {
      this.ctx.runInternal(stageSpec(stage, 'single'), args, options);
    }
  }

  /** Advances the fluid by dt, adding an optional splat of force and dye. */
  step(dt: number, options: { splat?: Splat } = {}): void {
    check(typeof dt === 'number' && Number.isFinite(dt) && dt >= 0, () => `fluid step: dt must be a finite number >= 0, got ${dt}`);
    options = checkOptions(options, 'fluid step: options');
    if (options.splat !== undefined) {
      const s = checkRequired(options.splat, 'fluid step: options.splat', '{ x, y, fx, fy, dye, radius }');
      for (const k of ['x', 'y', 'fx', 'fy', 'dye', 'radius'] as const) checkNumber(s[k], `fluid step: options.splat.${k}`);
    }
    if (this.dirty) this.rebuild();
    const s = options.splat;
    const splat = s ? [s.x, s.y, Math.max(s.radius, 1e-3), 0] : [0, 0, 1, 0];
    const keep = Math.pow(this.dissipation, dt);
    const obst = this.obstacles;
    this.run(STAGES.advectDye!, { dye: this.dye.read, u: this.u.read, obst, dn: this.dye.write, dt, keep, splat, amount: s ? s.dye : 0 });
    this.dye.swap();
    this.run(STAGES.advectVelocity!, { u: this.u.read, obst, un: this.u.write, dt, keep, splat, force: s ? [s.fx, s.fy] : [0, 0] });
    this.u.swap();
    this.run(STAGES.divergence!, { u: this.u.read, dv: this.div });
    const jacobi = this.idioms.precomputed ? STAGES.jacobiPrecomputed! : STAGES.jacobiSearch!;
    for (let k = 0; k < this.jacobi; k++) {
      const args: KernelArgs = { p: this.p.read, dv: this.div, obst, pn: this.p.write };
      if (this.idioms.precomputed) args.offsets = this.offsets;
      this.run(jacobi, args);
      this.p.swap();
    }
    this.run(STAGES.project!, { u: this.u.read, p: this.p.read, obst, un: this.u.write });
    this.u.swap();
  }

  /** The current fields (velocity float2, dye, pressure), for drawing or reading. */
  get fields(): { velocity: Stream; dye: Stream; pressure: Stream; divergence: Stream } {
    return { velocity: this.u.read, dye: this.dye.read, pressure: this.p.read, divergence: this.div };
  }

  /** Passes one step takes with the current idioms. */
  get passesPerStep(): number {
    return (4 + this.jacobi) * (this.idioms.staticBranches ? 2 : 1);
  }

  dispose(): void {
    [this.u, this.dye, this.p].forEach((x) => x.dispose());
    [this.div, this.obstacles, this.offsets, this.unused].forEach((x) => x.dispose());
    this.mask.dispose();
  }
}

export function createFluid(ctx: BrookContext, options: FluidOptions): Fluid {
  return new Fluid(ctx, options);
}
