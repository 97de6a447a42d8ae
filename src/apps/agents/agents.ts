/**
 * Agent avoidance with spatial binning (Oat, Barczak & Shopf 2009, section 4.2; Shopf et al.
 * 2008): agents walk between goals; each step they are binned into a 2D grid, and every agent
 * evaluates DIRECTIONS fixed directions around its goal direction against the agents in its own
 * and adjacent bins with a swept circle-circle time to collision, scores each direction with
 * the fitness of equation 6, takes the best (equation 7) and moves at its speed or less
 * (equation 8).
 *
 * ```ts
 * const crowd = createAgents(ctx, { count: 4096, radius: 0.004 });
 * await crowd.step(1 / 60);
 * ```
 */
import COLLISION from '../../../glsl/apps/agents/collision.glsl';
import AVOID_BODY from '../../../glsl/apps/agents/avoid.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import { checkContext, checkInteger, checkNumber, checkRequired } from '../../core/validate';
import type { KernelSpec } from '../../core/kernelspec';
import type { Stream } from '../../core/stream';
import { BIN_QUERY_GLSL, BIN_UNIFORMS, binPoints, binUniforms, type BinGrid, type Bins } from '../../idioms/binning/index';
import { seededRandom } from '../../core/random';

/** Directions evaluated per agent (the set V of equation 7), evenly spread around the goal direction. */
export const DIRECTIONS = 16;

export interface AgentOptions {
  count: number;
  /** Radius of an agent's bounding circle; the world is [0, 1]^2. Default 0.005. */
  radius?: number;
  /** Speed s_a (world units per second). Default 0.08. */
  speed?: number;
  /** Look-ahead horizon for the time to collision, seconds. Default 0.25. */
  horizon?: number;
  seed?: number;
}

/** The GLSL shared by the kernel and mirrored by src/reference/agents.ts. */
const AVOID_HELPERS = `${BIN_QUERY_GLSL}\nconst int AGENT_DIRECTIONS = ${DIRECTIONS};\n${COLLISION}`;

/** One avoidance decision per agent: the best direction's velocity (xy) and its fitness (z). */
export const AVOID: KernelSpec = {
  name: 'AgentAvoid',
  inputs: { a: 'float4', goal: 'float2' },
  gathers: { binLoads: 'float', binSlots: 'float', agents: 'float4' },
  uniforms: { ...BIN_UNIFORMS, radius: 'float', speed: 'float', horizon: 'float', weight: 'float' },
  outputs: { choice: 'float4' },
  helpers: AVOID_HELPERS,
  body: AVOID_BODY,
};

/** The agents as 3D points (z = 0) for binning. */
const POINTS: KernelSpec = { name: 'AgentPoints', inputs: { a: 'float4' }, outputs: { p: 'float4' }, body: 'p = vec4(a.xy, 0.0, 1.0);' };

/** Equation 8 and the move: speed limited to what reaches the collision no sooner than dt. */
const MOVE: KernelSpec = {
  name: 'AgentMove',
  inputs: { a: 'float4', choice: 'float4', goal: 'float2', home: 'float2' },
  uniforms: { dt: 'float', radius: 'float' },
  outputs: { an: 'float4', gn: 'float2', hn: 'float2' },
  body: [
    'vec2 v = choice.xy * min(1.0, choice.w / dt);          // (8)',
    'vec2 p = clamp(a.xy + v * dt, vec2(0.0), vec2(1.0));',
    'an = vec4(p, v);',
    '// at the goal: turn round',
    'bool arrived = distance(p, goal) < 4.0 * radius;',
    'gn = arrived ? home : goal;',
    'hn = arrived ? goal : home;',
  ].join('\n'),
};

export class Agents {
  readonly count: number;
  /** xy position, zw velocity. */
  readonly state: Stream;
  readonly goals: Stream;
  readonly homes: Stream;
  readonly radius: number;
  readonly speed: number;
  /** The horizon and speed are fixed at creation: the grid's cells are sized from them. */
  readonly horizon: number;
  /** w_i of equation 6: how much an agent prefers open space over its goal direction. */
  weight = 1;
  readonly grid: BinGrid;
  private readonly choice: Stream;
  /** The bin structure, rebuilt in place every step. */
  private bins: Bins | null = null;

  constructor(
    private readonly ctx: BrookContext,
    options: AgentOptions,
  ) {
    checkContext(ctx, 'createAgents');
    options = checkRequired(options, 'createAgents: options', '{ count, radius?, speed?, horizon? }');
    checkInteger(options.count, 'createAgents: options.count', 1, 2 ** 24 - 1);
    for (const k of ['radius', 'speed', 'horizon', 'seed'] as const) if (options[k] !== undefined) checkNumber(options[k], `createAgents: options.${k}`, k === 'seed' ? -Infinity : 0);
    const n = options.count;
    check(Number.isInteger(n) && n >= 1 && n < 2 ** 24, () => `agents: count must be an integer in [1, 2^24), got ${n}`);
    this.count = n;
    this.radius = options.radius ?? 0.005;
    this.speed = options.speed ?? 0.08;
    this.horizon = options.horizon ?? 0.25;
    check(this.radius > 0 && this.radius < 0.05, () => `agents: radius must be in (0, 0.05), got ${this.radius}`);
    // cells at least as wide as two agents can close in the horizon plus their radii, so the
    // 3 x 3 bins around an agent hold every agent it could meet
    const reach = 2 * this.speed * this.horizon + 2 * this.radius;
    const cells = Math.max(1, Math.min(256, Math.floor(1 / reach)));
    this.grid = { cells: [cells, cells, 1], origin: [0, 0, 0], cellSize: 1 / cells };
    // four groups crossing: left <-> right and bottom <-> top
    const rand = seededRandom(options.seed ?? 1);
    const state = new Float32Array(n * 4), goals = new Float32Array(n * 2), homes = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const group = i % 4;
      const u = 0.2 + 0.6 * rand(), w = 0.05 + 0.1 * rand();
      const start = [[w, u], [1 - w, u], [u, w], [u, 1 - w]][group]!;
      const goal = [[1 - w, u], [w, u], [u, 1 - w], [u, w]][group]!;
      state.set([start[0]!, start[1]!, 0, 0], i * 4);
      goals.set(goal, i * 2);
      homes.set(start, i * 2);
    }
    this.state = ctx.stream('float4', n, state);
    this.goals = ctx.stream('float2', n, goals);
    this.homes = ctx.stream('float2', n, homes);
    this.choice = ctx.stream('float4', n);
  }

  /** Bins the agents and lets each choose a direction; returns the choices (velocity xy, fitness, time to collision). */
  async decide(): Promise<Stream> {
    const ctx = this.ctx;
    const positions = ctx.scratch('float4', this.count);
    ctx.runInternal(POINTS, { a: this.state, p: positions });
    const bins = (this.bins = await binPoints(ctx, positions, this.grid, { capacity: 8, method: 'delayed', into: this.bins ?? undefined }));
    const slots = bins.pack();
    try {
      ctx.runInternal(AVOID, {
        a: this.state,
        goal: this.goals,
        binLoads: bins.loads,
        binSlots: slots,
        agents: this.state,
        radius: this.radius,
        speed: this.speed,
        horizon: this.horizon,
        weight: this.weight,
        choice: this.choice,
        ...binUniforms(bins, this.grid),
      });
    } finally {
      slots.dispose();
      positions.dispose();
    }
    return this.choice;
  }

  async step(dt: number): Promise<void> {
    check(typeof dt === 'number' && Number.isFinite(dt) && dt > 0, () => `agents step: dt must be a positive number, got ${dt}`);
    await this.decide();
    this.ctx.runInternal(MOVE, { a: this.state, choice: this.choice, goal: this.goals, home: this.homes, dt, radius: this.radius, an: this.state, gn: this.goals, hn: this.homes });
  }

  dispose(): void {
    [this.state, this.goals, this.homes, this.choice].forEach((s) => s.dispose());
    this.bins?.dispose();
  }
}

export function createAgents(ctx: BrookContext, options: AgentOptions): Agents {
  return new Agents(ctx, options);
}
