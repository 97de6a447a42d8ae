/**
 * Continuous collision detection on deforming meshes (da Silva, Esperança & Marroquim 2014) as
 * render-to-texture passes: every frame the swept-AABB hierarchy is refit level by level, the
 * bounding volume test tree (BVTT) is traversed from last frame's front (section 2.1), the
 * candidate triangle pairs and the orphan sets get the conservative elementary tests, and the
 * colliding vertex-face and edge-edge pairs come back.
 *
 * ```ts
 * const ccd = createCcd(ctx, scene);                 // scene: x0, x1, tris (see CcdScene)
 * const { pairs, stats } = await ccd.step();         // pairs: 'vf v f' / 'ee a0 a1 b0 b1'
 * ccd.setPositions(nextX0, nextX1);
 * await ccd.step({ balance: 'lws' });
 * ```
 *
 * The hierarchy and the orphan sets are built once on the CPU (src/geometry/bvh.ts, also
 * the plain reference of the whole step). Traversal balancing (`balance`):
 * - `'static'`: gProximity's policy as passes: one pass per traversal step over the whole work
 *   list, each BVTT node writing its up to three children to three slots, then brookgl's filter
 *   compacts the children into the next list — an even redistribution at every step, paid with
 *   one readback of the count per step.
 * - `'lws'`: lazy work stealing (./lws.ts): B blocks of T fragments with stacks and deques in
 *   textures, steals and lazy transfers as passes, ended by occlusion queries.
 * Both give the same front and the same pairs (tested).
 *
 * Front staleness: the front is rebuilt from the root when it has grown past `rebuildGrowth`
 * (default 1.5) times its size when last built from the root, or on request; otherwise each
 * frame starts from the last front (a front only deepens: nodes that separate again are not
 * merged back, which is why it goes stale).
 */
import type { BrookContext } from '../../core/context';
import { BrookError, check } from '../../core/errors';
import type { KernelArgs, KernelSpec } from '../../core/kernel';
import { runPass, type PassDesc } from '../../core/pass';
import type { Stream } from '../../core/stream';
import { filter, flagKernel, packedLevel, pyramidDescent, pyramidFilterPasses } from '../../idioms/filter';
import { CCD_CANDIDATE_VERDICTS, CCD_DEAD, CCD_FRONT_SLOT, CCD_ROOTS8, CCD_GATHER8, CCD_ORPHAN_GROUPS, CCD_ORPHAN_TESTS_TOI, CCD_PAIR_TESTS_TOI, CCD_TICK_OF, CCD_PAIR_TESTS, CCD_REFIT, CCD_TRAVERSE } from './kernels';
import { traverseLws, type LwsOptions, type LwsStats } from './lws';
import { checkCcdArgs, checkLwsOptions, checkPositions, checkStepOptions } from './validate';
import { StageClock, type Balance, type CcdStats, type Stage } from './stages';
import { buildBvh, canonicalEdges, edge, orphanSets, triangleCount, type Bvh, type CcdScene } from '../../geometry/bvh';

/** The default memoryBudget: 256 MiB. WebGL cannot ask how much memory a GPU has; a quarter of a
 * 1 GiB GPU is what integrated and mobile GPUs give a page without trouble (the scene's own
 * streams come on top), and on an 80 GB H100 it still runs the 92K-triangle cloth's frame in
 * one or two chunks per pass. */
export const CCD_MEMORY_BUDGET = 256 * 2 ** 20;

/** Ticks of a time of impact: 2^16 a step (the elementary tests' deepest interval). */
const TICKS = 65536;

/** Bytes per record of the chunked passes, their filters' working streams included: a static
 * traversal step per work item (3 int4 children, the filter's flags and pyramid, the next list,
 * the front slot), the elementary tests per candidate (its int4 hit mask 16, the filter's flags
 * and levels 5.3, the kept hits at most 16; with times, 15 int4 feature hits and their filter's
 * streams, the ticks on top), per orphan record (its hit and filter streams; without times a
 * hit record per 8: 2 + 0.7 + at most 2 kept), and the front compaction per record (gathered
 * 16, the front's and the candidates' flags and levels 2 x 5.3, the kept front and candidates
 * at most 2 x 16). */
const BYTES = { traverse: 144, candidate: 40, candidateToi: 15 * 24, orphan: 24, orphanGroup: 6, compact: 60 } as const;
/** @internal BYTES, for the spec that measures what each chunk allocates. */
export const CCD_BYTES = BYTES;

/** The kernels of a pyramid filter over int4 records, built once per predicate / level count. */
const FLAGS = new Map<string, KernelSpec>();
const DESCENTS = new Map<string, KernelSpec>();
function flagSpec(keep: string): KernelSpec {
  let k = FLAGS.get(keep);
  if (!k) FLAGS.set(keep, (k = flagKernel('int4', keep)));
  return k;
}
function descentSpec(levels: number, capped: boolean): KernelSpec {
  const key = `${levels} ${capped}`;
  let k = DESCENTS.get(key);
  if (!k) DESCENTS.set(key, (k = pyramidDescent('int4', levels, false, capped ? CCD_DEAD : undefined)));
  return k;
}

/** Static steps run ahead past the end of last frame's lists (4096 records each), in case this
 * frame's go on longer (a cloth settling on the ball: 20 steps, then 24). */
const AHEAD_PAST = 4;

/** A run-ahead list's size from last frame's count of it: LIST_GROWTH x that count + the slack,
 * rounded up to one of four sizes per octave (at most 25 % more), so that the next frame's lists,
 * sized from slightly different counts, have the same shapes and reuse this frame's pooled
 * textures. The 93,640-triangle cloth's lists from the front grow at most 1.26 x from one frame
 * to the next where they are long (the short ones more, within the slack). */
const LIST_GROWTH = 2;
const listSize = (last: number, slack: number): number => {
  const n = Math.ceil(LIST_GROWTH * last) + slack;
  if (n <= 8) return n;
  const step = 2 ** (Math.floor(Math.log2(n - 1)) - 2);
  return Math.ceil(n / step) * step;
};

/** Slot s (0-14) of the triangle pair (a, b) as a feature record, as ccdPairFeature
 * (glsl/apps/ccd/features.glsl) makes it: 0-2 a's vertices against face b, 3-5 b's against face
 * a, 6-14 edge (s - 6) / 3 of a against edge (s - 6) % 3 of b. */
function pairFeature(scene: CcdScene, a: number, b: number, s: number): number[] {
  if (s < 6) {
    const [p, f] = s < 3 ? [a, b] : [b, a];
    return [scene.tris[p * 3 + (s % 3)]!, f, -1, 0];
  }
  return canonicalEdges(edge(scene, a, Math.floor((s - 6) / 3)), edge(scene, b, (s - 6) % 3));
}

/** A feature record's key in the pairs: 'vf v f' or 'ee a0 a1 b0 b1'. */
const featureKey = (x: ArrayLike<number>): string => (x[2] === -1 ? `vf ${x[0]} ${x[1]}` : `ee ${x[0]} ${x[1]} ${x[2]} ${x[3]}`);

/** Pyramid levels: the flags first, the root (one texel: four counts) last. */
type Pyramid = Stream[];

/** A front compaction whose two counts (front, candidates) are not read yet: its front and
 * candidates were descended at sizes chosen from last frame's (aheadSize; CCD_DEAD past the
 * counts); its two pyramids' roots stay until the counts come back with the elementary tests'. */
interface PendingCompact {
  roots: Stream[];
  /** The counts were read (compact's `hold`): the roots only kept to the frame's end, so that
   * frames that read them hold the same targets at once as frames that run ahead (the pool then
   * has them). */
  settled?: boolean;
}

/** The size a frame's front or candidates are compacted into before their count is read: 5/4 of
 * last frame's + 64, rounded up by at most 25 % (to one of four sizes an octave, so that the
 * next frames' targets have the same shapes). */
const aheadSize = (last: number): number => {
  const n = last + (last >> 2) + 64;
  const step = 2 ** (Math.floor(Math.log2(n - 1)) - 2);
  return Math.ceil(n / step) * step;
};

/** Thrown inside a frame whose front or candidates outgrew the sizes they were compacted into
 * ahead of their counts: step() runs the frame again from the root. */
class Redo {}
const rootOf = (p: Pyramid): Stream => p[p.length - 1]!;

export interface CcdOptions {
  /** Rebuild the front from the root when it has grown past this factor. Default 1.5. */
  rebuildGrowth?: number;
  /** Bytes one chunk of a large pass may use (its targets and its filter's streams): the
   * traversal steps, the front compaction and the elementary tests run in as many chunks as
   * this needs. Default CCD_MEMORY_BUDGET (256 MiB). At least 4096 bytes. */
  memoryBudget?: number;
  /** Lazy work stealing parameters (blocks B, threads T, stack and deque sizes). */
  lws?: LwsOptions;
}

export interface StepOptions {
  balance?: Balance;
  /** Traverse from the root, ignoring the saved front. */
  fromRoot?: boolean;
  /** Lazy work stealing parameters for this step (over the ones given at creation). */
  lws?: LwsOptions;
  /** Report a conservative time of impact for each pair (`times`). Default false. */
  times?: boolean;
  /** Report every candidate triangle pair's verdict (`verdicts`). Default false. */
  verdicts?: boolean;
  /** Time every pass on the GPU (under ctx.trace: the caller's if recording, else its own) and
   * report the GPU ms per stage and kernel in `stats.stages` / `stats.kernels`. Each pass then
   * carries a timer query, which adds to the wall times. */
  profile?: boolean;
  /** End each stage with a fence, so that `stats.stages[s].wallMs` is the stage's wall time (two
   * more CPU round trips a frame). Default: as `profile`. Without fences the stages overlap on
   * the GPU and only `stats.totalMs` is a wall time (the stage wallMs are null). */
  fences?: boolean;
}

export interface StepResult {
  /** Colliding features, sorted: 'vf v f' and 'ee a0 a1 b0 b1' (featureKey). */
  pairs: string[];
  /** With `times: true`: pair k's conservative time of impact in [0, 1] (a multiple of 2^-16,
   * never after the features' first contact; the earliest over the candidates that found it). */
  times?: number[];
  /** With `verdicts: true`: every candidate triangle pair of the frame (triangles tris[2k],
   * tris[2k + 1]), whether any of its 15 feature tests reported contact, and the earliest such
   * time (1 where none). Orphan-set features are in pairs / times only. */
  verdicts?: { tris: Int32Array; hit: Uint8Array; toi: Float32Array };
  stats: CcdStats;
}


export class Ccd {
  readonly scene: CcdScene;
  readonly bvh: Bvh;
  readonly triangles: number;
  readonly orphanCount: number;
  /** Positions at t = 0 and t = 1 (float4, xyz). */
  readonly x0: Stream;
  readonly x1: Stream;
  readonly tris: Stream;
  readonly nodes: Stream;
  readonly nodeObject: Stream;
  boxLo: Stream;
  boxHi: Stream;
  private readonly orphans: Stream | null;
  /** The orphan-set records on the CPU too (the grouped tests' hit masks name them by index). */
  private readonly orphanRecords: Int32Array;
  /** The saved front: (a, b, kind, 0) records, and its size when last built from the root. */
  private front: Stream | null = null;
  private frontCount = 0;
  private rootFrontCount = 0;
  /** The current frame's pass counter by stage (a fresh one each step). */
  private clock: StageClock;
  private roundTrips = 0;
  /** Static steps run ahead whose list outgrew its size this frame (each redone). */
  private rollbacks = 0;
  private disposed = false;
  readonly rebuildGrowth: number;
  readonly lwsOptions: LwsOptions;
  readonly memoryBudget: number;
  /** Chunks the last step's passes ran in (1 where nothing was split). */
  private chunkCount = 0;
  /** The static traversal's list sizes (start list first) in the last frame from the saved
   * front and in the last from the root: the next such frame sizes its lists from them before
   * it reads their counts (see traverseStatic). */
  private readonly hints: { front: number[] | null; root: number[] | null } = { front: null, root: null };
  /** The most hits kept from one stream of elementary tests in the last frame (sizes the next
   * frame's read of them). */
  private lastHits = 0;
  /** Whether warmDescents ran. */
  private warmed = false;
  /** The front and candidate counts of the last static frame from the front (sizes the next
   * one's speculative compaction), and the sizes this frame may speculate with (null: read the
   * counts first). */
  private lastCompact: { front: number; cand: number } | null = null;
  private compactCaps: { front: number; cand: number } | null = null;

  constructor(
    readonly ctx: BrookContext,
    scene: CcdScene,
    options: CcdOptions = {},
  ) {
    checkCcdArgs(ctx, scene, options);
    this.clock = new StageClock(ctx, false);
    this.rebuildGrowth = options.rebuildGrowth ?? 1.5;
    this.memoryBudget = options.memoryBudget ?? CCD_MEMORY_BUDGET;
    this.lwsOptions = options.lws ?? {};
    const nv = scene.x0.length / 3;
    this.scene = { ...scene }; // setPositions replaces x0 and x1 in this copy, not in the caller's scene
    this.triangles = triangleCount(scene);
    this.bvh = buildBvh(scene);
    const tris = new Int32Array(this.triangles * 4);
    for (let t = 0; t < this.triangles; t++) tris.set([scene.tris[t * 3]!, scene.tris[t * 3 + 1]!, scene.tris[t * 3 + 2]!, scene.objects?.[t] ?? 0], t * 4);
    this.x0 = ctx.stream('float4', nv);
    this.x1 = ctx.stream('float4', nv);
    this.setPositions(scene.x0, scene.x1);
    this.tris = ctx.stream('int4', this.triangles, tris);
    this.nodes = ctx.stream('int4', this.bvh.count, this.bvh.nodes);
    this.nodeObject = ctx.stream('int', this.bvh.count, this.bvh.nodeObject);
    this.boxLo = ctx.stream('float4', this.bvh.count);
    this.boxHi = ctx.stream('float4', this.bvh.count);
    const orphans = orphanSets(scene);
    this.orphanCount = orphans.length / 4;
    this.orphans = this.orphanCount > 0 ? ctx.stream('int4', this.orphanCount, orphans) : null;
    this.orphanRecords = orphans;
  }

  /** New positions for the step (3 coordinates per vertex at t = 0 and at t = 1). */
  setPositions(x0: Float32Array, x1: Float32Array): void {
    check(!this.disposed, 'Ccd.setPositions: this Ccd was disposed');
    const nv = this.x0.length;
    checkPositions(x0, 'Ccd.setPositions: x0', nv * 3);
    checkPositions(x1, 'Ccd.setPositions: x1', nv * 3);
    const pad = (x: Float32Array) => {
      const out = new Float32Array(nv * 4);
      for (let i = 0; i < nv; i++) (out[i * 4] = x[i * 3]!), (out[i * 4 + 1] = x[i * 3 + 1]!), (out[i * 4 + 2] = x[i * 3 + 2]!);
      return out;
    };
    this.x0.write(pad(x0));
    this.x1.write(pad(x1));
    (this.scene as { x0: Float32Array }).x0 = x0;
    (this.scene as { x1: Float32Array }).x1 = x1;
  }

  /** @internal Runs one pass and counts it; a target the device cannot allocate or render into
   * is a BrookError naming the pass, its size and memoryBudget. */
  run(spec: KernelSpec, args: KernelArgs): void {
    this.guarded(() => this.ctx.runInternal(spec, args), `pass ${spec.name}`, Object.keys(spec.outputs).map((k) => args[k] as Stream));
    this.clock.count();
  }

  /** @internal Draws one runner pass (a scatter) and counts it. */
  pass(p: PassDesc): void {
    this.guarded(() => runPass(this.ctx, p), `pass ${p.name}`, (p.targets as Stream[]).filter((t) => t instanceof Object && 'length' in t));
    this.clock.count();
  }

  /** @internal A scratch stream of n records (its allocation guarded as run's targets are). */
  scratch(type: 'int4' | 'int2' | 'int' | 'uint4', n: number, what: string): Stream {
    return this.guarded(() => this.ctx.scratch(type, n), what, [], [type, n]);
  }

  /** @internal Records per chunk of a pass using `bytes` a record (at least 1; within caps.maxRecords / per). */
  chunk(bytes: number, per = 1, budget = this.memoryBudget): number {
    return Math.max(1, Math.min(Math.floor(budget / bytes), Math.floor(this.ctx.caps.maxRecords / per)));
  }

  /** @internal Records per chunk of a pass using `bytes` a record beside `held` bytes the frame
   * holds already (the saved front, earlier front slots, lists, kept records): from what the
   * budget leaves, at least a quarter of it (so that a chunk always makes progress; a frame that
   * holds more than the budget alone goes past it). */
  chunkBeside(bytes: number, per: number, held: number): number {
    return this.chunk(bytes, per, Math.max(this.memoryBudget - held, Math.floor(this.memoryBudget / 4)));
  }

  /** @internal Counts one more chunk of a split pass. */
  split(): void {
    this.chunkCount++;
  }

  private guarded<T>(f: () => T, what: string, targets: Stream[], alloc?: [string, number]): T {
    try {
      return f();
    } catch (e) {
      const mib = (b: number) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(0)} MiB` : `${(b / 1024).toFixed(1)} KiB`);
      const size = alloc
        ? `${alloc[1]} ${alloc[0]} records, ${mib(alloc[1] * (alloc[0].endsWith('4') ? 16 : alloc[0] === 'int2' ? 8 : 4))}`
        : targets.map((t) => `${t.length} ${t.type} records, ${mib(t.length * t.info.texelBytes)}`).join(' + ');
      throw this.renamed(e, what, size);
    }
  }

  /** A failed allocation or framebuffer as a BrookError naming the pass, its size and the budget (other errors as they are). */
  private renamed(e: unknown, what: string, size: string): unknown {
    {
      const m = (e instanceof Error ? e.message : String(e)).replace(/^\(brookgl\) /, '');
      if (!/cannot render into these targets|out of GPU memory|GL_OUT_OF_MEMORY/i.test(m) || m.startsWith('ccd ')) return e;
      const mib = (b: number) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(0)} MiB` : `${(b / 1024).toFixed(1)} KiB`);
      return new BrookError(
        `ccd ${this.clock.stage} stage, ${what} (${size}): ${m}. The traversal steps, front compaction and elementary tests run in chunks of ` +
          `createCcd's memoryBudget (${mib(this.memoryBudget)} now): pass a smaller one, e.g. createCcd(ctx, scene, { memoryBudget: ${Math.max(4096, Math.floor(this.memoryBudget / 4))} })`,
      );
    }
  }

  /** @internal The passes drawn from now on belong to `stage` (Table 1's breakdown). */
  stage(stage: Stage): void {
    this.clock.set(stage);
  }

  /** @internal A filter (counted: its passes and the readback of its count). */
  async filter(s: Stream, keep: string, indices = false): Promise<{ stream: Stream | null; count: number; indices?: Stream | null }> {
    this.roundTrips++;
    let r;
    try {
      r = await filter(this.ctx, s, { keep, ...(indices ? { indices } : {}) });
    } catch (e) {
      throw this.renamed(e, `a filter (${keep})`, `of ${s.length} ${s.type} records, ${((s.length * s.info.texelBytes) / 2 ** 20).toFixed(1)} MiB`);
    }
    this.clock.count(pyramidFilterPasses(s.length, r.count));
    return { stream: r.stream, count: r.count, ...(indices ? { indices: r.indices } : {}) };
  }

  /** @internal The first half of a pyramid filter of int4 records (brookgl's filter, split so that
   * its count need not be read at once): the flags and levels up to the root, no readback. */
  pyramid(s: Stream, keep: string): Stream[] {
    const levels: Pyramid = [];
    try {
      levels.push(this.scratch('uint4', Math.ceil(s.length / 4), `a filter's flags (${keep})`));
      this.run(flagSpec(keep), { src: s, n: s.length, flags: levels[0]! });
      while (rootOf(levels).length > 1) {
        const below = rootOf(levels);
        levels.push(this.scratch('uint4', Math.ceil(below.length / 4), `a filter's pyramid level (${keep})`));
        this.run(packedLevel, { below, lenBelow: below.length, counts: rootOf(levels) });
      }
      return levels;
    } catch (e) {
      levels.forEach((l) => l.dispose());
      throw e;
    }
  }

  /** @internal The counts of several pyramids (and any other streams to read with them): one
   * CPU round trip, the reads waiting together. */
  async counts(pyramids: Stream[][], also: Stream[] = [], gather = pyramids.length > 2): Promise<{ counts: number[]; data: Array<Int32Array | Float32Array | Uint32Array> }> {
    if (pyramids.length + also.length === 0) return { counts: [], data: [] };
    // the roots eight to a stream (a pass each), so a group of 24 steps reads 3 streams, not 24
    // (`gather` false: each root read on its own)
    const roots = pyramids.map(rootOf);
    const side: Stream[] = [];
    try {
      if (gather) {
        for (let a = 0; a < roots.length; a += 8) {
          const group = roots.slice(a, a + 8);
          side.push(this.scratch('uint4', group.length, 'the counts of a group of steps'));
          const args: KernelArgs = { c: side[side.length - 1]! };
          for (let k = 0; k < 8; k++) args[`r${k}`] = group[Math.min(k, group.length - 1)]!;
          this.run(CCD_ROOTS8, args);
        }
      }
      this.roundTrips++;
      const all = (await Promise.all([...(side.length ? side : roots), ...also].map((s) => s.read()))) as Array<Int32Array | Float32Array | Uint32Array>;
      const texels = side.length ? all.slice(0, side.length).flatMap((r) => Array.from({ length: r.length / 4 }, (_, i) => r.subarray(4 * i, 4 * i + 4))) : all.slice(0, roots.length);
      const counts = texels.map((r) => r[0]! + r[1]! + r[2]! + r[3]!);
      return { counts, data: all.slice(side.length ? side.length : roots.length) };
    } finally {
      side.forEach((s) => s.dispose());
    }
  }

  /** @internal The second half: the kept records of `s` into a new stream of `length` records —
   * the count, or (capped) more than it, sized before the count was read: the records past the
   * count are then CCD_DEAD, and a count above `length` loses the rest (the caller checks). */
  descend(s: Stream, levels: Stream[], length: number, capped: boolean): Stream {
    if (levels.length + 1 > this.ctx.caps.maxTextureImageUnits) {
      throw new BrookError(`the pyramid over ${s.length} records has ${levels.length} levels, more than this device's ${this.ctx.caps.maxTextureImageUnits - 1} texture units allow`);
    }
    const kept = this.scratch('int4', length, 'the kept records of a filter');
    try {
      const args: KernelArgs = { value: s, kept };
      levels.forEach((l, i) => (args[`lv${i}`] = l));
      this.run(descentSpec(levels.length, capped), args);
    } catch (e) {
      kept.dispose();
      throw e;
    }
    return kept;
  }

  /** The pyramid descents (capped and exact) of every level count this Ccd's lists, front and
   * hits can need, and CCD_ROOTS8 (built and drawn once per context, one fragment each), so that
   * later frames do not compile them inside their timed steps (an H100 through Chrome: ~10 ms
   * each; a front rebuilt from the root, or more hits than last frame's, met new level counts). */
  private warmDescents(): void {
    if (this.warmed) return;
    this.warmed = true;
    const levels = (n: number) => {
      let l = 1;
      for (let len = Math.ceil(n / 4); len > 1; len = Math.ceil(len / 4)) l++;
      return l;
    };
    const most = Math.max(3 * this.chunk(BYTES.traverse, 3), this.chunk(BYTES.candidate), this.chunk(BYTES.orphan));
    const top = Math.min(levels(most), this.ctx.caps.maxTextureImageUnits - 1);
    const made: Stream[] = [];
    const make = (type: 'int4' | 'uint4') => (made.push(this.scratch(type, 1, 'a warm-up record')), made[made.length - 1]!);
    try {
      const zero = make('uint4'), one = make('int4'), kept = make('int4'), one2 = make('uint4');
      zero.write(new Uint32Array(4));
      for (let k = 1; k <= top; k++) {
        const args: KernelArgs = { value: one, kept };
        for (let l = 0; l < k; l++) args[`lv${l}`] = zero;
        this.run(descentSpec(k, true), args);
        this.run(descentSpec(k, false), args);
      }
      // and the pass that puts a group's counts side by side
      const roots: KernelArgs = { c: one2 };
      for (let k = 0; k < 8; k++) roots[`r${k}`] = zero;
      this.run(CCD_ROOTS8, roots);
    } finally {
      made.forEach((s) => s.dispose());
    }
  }

  /** Makes (and gives back to the texture pool) the targets the next static frame of the same
   * kind will run ahead in — a step's children, front slots, filter pyramid and list, each as
   * sized there from `count` (its start list) and `hint` (this frame's list sizes), all held at
   * once as there — so that the first frame run ahead does not create them inside its timed
   * steps (SwiftShader, a 24 x 24 cloth: 40 textures and framebuffers made in that frame).
   * Only an optimisation: whatever fails in it (a refused allocation) is swallowed, everything
   * it made is given back on every path, and the frame goes on with its front. */
  private warmLists(count: number, hint: number[], beside = 0): void {
    const per = this.chunk(BYTES.traverse, 3);
    const slack = this.ctx.caps.software ? 256 : 4096;
    const held: Stream[] = [];
    // each with its framebuffer (made on a texture's first draw, and kept with it in the pool);
    // held from the moment it exists, so that a throw anywhere disposes it
    const make = (type: 'int4' | 'uint4', n: number, what: string) => {
      const t = this.scratch(type, n, what);
      held.push(t);
      this.ctx.framebufferFor([t.texture]);
      return t;
    };
    const drop = (s: Stream) => {
      held.splice(held.indexOf(s), 1);
      s.dispose();
    };
    try {
      // held as a group of the next frame holds them, ending where its group would (memoryBudget)
      let size = count, groupBytes = beside;
      for (let j = 0; j < hint.length + AHEAD_PAST - 1 && size > 0 && size <= per && (j === 0 || groupBytes + BYTES.traverse * size <= this.memoryBudget); j++) {
        const out = make('int4', 3 * size, 'a warm-up target (children)');
        make('int4', size, 'a warm-up target (front slots)');
        const levels: Stream[] = [];
        for (let len = Math.ceil((3 * size) / 4); ; len = Math.ceil(len / 4)) {
          levels.push(make('uint4', len, 'a warm-up target (pyramid level)'));
          if (len <= 1) break;
        }
        const next = Math.max(1, Math.min(3 * size, per, listSize(hint[j + 1] ?? 0, slack)));
        make('int4', next, 'a warm-up target (list)');
        levels.pop(); // the root, held as there
        groupBytes += 16 * (next + size + 1);
        levels.forEach(drop);
        drop(out);
        size = next;
      }
    } catch {
      // the next frame makes what it lacks itself
    } finally {
      held.splice(0).forEach((s) => s.dispose());
    }
  }

  /** Makes (and gives back to the pool) the targets a frame that compacts its front ahead will
   * draw into, as sized there from `last` (the capped front, the capped candidates, their hits
   * and the hits' pyramid, held at once), so that it does not create them inside its timed steps. Only an
   * optimisation, as warmLists: a refused allocation is swallowed, nothing is left behind. */
  private warmCompact(last: { front: number; cand: number }): void {
    const held: Stream[] = [];
    const cand = aheadSize(last.cand);
    // (beside the saved front, within the budget: else the next frame makes them itself)
    if (16 * ((this.front?.length ?? 0) + Math.max(aheadSize(last.front), 2.4 * cand)) > this.memoryBudget) return;
    try {
      const make = (type: 'int4' | 'uint4', n: number) => {
        const t = this.scratch(type, n, 'a warm-up target (compaction)');
        held.push(t);
        this.ctx.framebufferFor([t.texture]);
      };
      // the front alone (a shape of its own), then the candidates, their hits and the hits' pyramid at once
      make('int4', aheadSize(last.front));
      held.splice(0).forEach((t) => t.dispose());
      make('int4', cand);
      make('int4', cand);
      for (let len = Math.ceil(cand / 4); ; len = Math.ceil(len / 4)) {
        make('uint4', len);
        if (len <= 1) break;
      }
    } catch {
      // the next frame makes what it lacks itself
    } finally {
      held.forEach((t) => t.dispose());
    }
  }

  /** @internal The BVTT gathers and uniforms every traversal kernel takes. */
  bvttArgs(): KernelArgs {
    return { nodes: this.nodes, nodeObject: this.nodeObject, boxLo: this.boxLo, boxHi: this.boxHi, tris: this.tris, selfTest: this.scene.self === false ? 0 : 1 };
  }

  /** Refits the boxes bottom-up, one pass per level. */
  refit(): void {
    for (let level = this.bvh.depth - 1; level >= 0; level--) {
      const lo = this.boxLo, hi = this.boxHi;
      this.run(CCD_REFIT, { node: this.nodes, loIn: lo, hiIn: hi, boxLo: lo, boxHi: hi, tris: this.tris, x0: this.x0, x1: this.x1, level, lo, hi });
    }
  }

  /** @internal Concatenates int4 chunks into one stream (the chunks are disposed): eight at a
   * time, so every record is copied once per ceil(log8 chunks) levels. */
  concat(chunks: Array<{ stream: Stream; count: number }>): { stream: Stream | null; count: number } {
    if (chunks.length === 0) return { stream: null, count: 0 };
    let level = chunks;
    while (level.length > 1) {
      const next: Array<{ stream: Stream; count: number }> = [];
      for (let i = 0; i < level.length; i += 8) {
        const group = level.slice(i, i + 8);
        if (group.length === 1) {
          next.push(group[0]!);
          continue;
        }
        const starts: number[] = [];
        let total = 0;
        for (const c of group) starts.push(total), (total += c.count);
        while (starts.length < 8) starts.push(total);
        let out: Stream | null = null;
        try {
          out = this.ctx.scratch('int4', total);
          const args: KernelArgs = { lo: starts.slice(0, 4), hi: starts.slice(4, 8), joined: out };
          for (let k = 0; k < 8; k++) args[`c${k}`] = group[Math.min(k, group.length - 1)]!.stream;
          this.run(CCD_GATHER8, args);
        } catch (e) {
          // the chunks are ours: none is left behind (dispose is idempotent)
          out?.dispose();
          [...next, ...level.slice(i)].forEach((c) => c.stream.dispose());
          throw e;
        }
        group.forEach((c) => c.stream.dispose());
        next.push({ stream: out, count: total });
      }
      level = next;
    }
    return level[0]!;
  }

  /** The static method: one pass per step over the compacted work list (gProximity's policy).
   * Each step's front records are copied out (one pass over its work items, no readback) and the
   * chunks joined and compacted once at the end, with the candidates.
   *
   * The next list's size is its count, which lives on the GPU. A step whose count is read at
   * once costs a CPU round trip (on an H100 through Chrome, several ms: most of a 24-step
   * frame). So when the last frame of the same kind (from the front, or from the root) left its
   * list sizes (`hints`), the steps run ahead in a group: each next list is given a size before
   * its count is read — min(3 x this list's size, the budget's chunk, listSize: 2 x last frame's
   * + 4096 (256 on a software renderer), rounded up by at most 25 %: the long lists of a cloth
   * on a ball grow up to 1.26 x from one frame to the next, the short deep ones up to 17 x,
   * within the slack) —
   * the records past the count are CCD_DEAD (no children, no front record), and the group's
   * counts come back in one round trip, AHEAD_PAST steps after last frame's lists ended, or
   * earlier: a group ends before a step whose chunk (BYTES.traverse a record) would take what
   * the group holds (each step's next list, front slots and root), with what the traversal held
   * before it (the start list, earlier front slots, this list), past memoryBudget. A count above its
   * list's size (the list lost records) rolls back: the front slots from that step on are
   * dropped and the step is redone with its count read; results are the same either way. A
   * list longer than one chunk of the budget is stepped with its count read (in chunks). Wall:
   * the count readbacks also wait for the traversal passes, so their wall time lands in
   * balancing (the GPU times of a profiled frame split them). */
  private async traverseStatic(
    start: Stream,
    count: number,
    fromRoot: boolean,
    timing: { balancing: number; front: number },
  ): Promise<{ front: Stream | null; frontCount: number; cand?: { stream: Stream | null; count: number }; pending?: PendingCompact; iterations: number; nodes: number }> {
    const chunks: Array<{ stream: Stream; count: number }> = [];
    const hint = fromRoot ? this.hints.root : this.hints.front;
    const sizes = [count]; // sizes[i]: list i's count (list 0: the start list); every list here was stepped
    const per = this.chunk(BYTES.traverse, 3);
    // records a list may hold beyond 2 x last frame's: dead records cost a GPU next to nothing, a
    // software renderer more than a round trip
    const slack = this.ctx.caps.software ? 256 : 4096;
    // exact: the next step reads its count (after a rollback); trusted: last frame's sizes hold
    // (after a rollback the rest of the frame sizes each list at 3 x the one before: never outgrown)
    let work = start, w = count, exact = false, trusted = true;
    const nexts: Array<{ stream: Stream; count: number }> = [];
    const group: Array<{ list: Stream; size: number; root: Stream; chunk: number }> = [];
    try {
      while (w > 0) {
        const at = sizes.length - 1; // list `work` is list `at`
        // what the traversal holds before this step: the start list, the front slots of the steps
        // before, this list, and the next lists of its chunks stepped so far
        const holding = () => 16 * (start.length + chunks.reduce((a, c) => a + c.stream.length, 0) + (work !== start ? work.length : 0) + nexts.reduce((a, c) => a + c.stream.length, 0));
        // (a group's first step holds this list's children, 48 bytes a record, its front slots and
        // pyramid, 16 each, and the next list, at most 3 x as long: 128 at most; entered where that
        // fits beside what is held, or in a quarter of the budget)
        if (hint && !exact && w <= Math.min(per, this.chunkBeside(128, 1, holding()))) {
          // a group of steps run ahead, their counts read together: up to AHEAD_PAST lists past
          // where last frame's ended (or past this list, if that was already passed)
          const end = trusted ? Math.max(hint.length, at + 1) + AHEAD_PAST - 1 : at + AHEAD_PAST;
          // the bytes the group holds until its counts are read (each step's next list, front
          // slots and root), beside what the traversal holds already (the start list, the front
          // slots of the steps before, this list): the group ends before a step whose own chunk
          // would take them past the budget
          const before = holding();
          let list = work, size = w, groupBytes = before;
          for (let j = at; ; j++) {
            this.stage('traversal');
            const out = this.scratch('int4', 3 * size, "CcdTraverse's children");
            try {
              this.run(CCD_TRAVERSE, { work: list, ...this.bvttArgs(), child: out });
              this.stage('front');
              const fr = this.scratch('int4', size, "a step's front slots");
              chunks.push({ stream: fr, count: size });
              this.run(CCD_FRONT_SLOT, { child: out, fr });
              this.stage('balancing');
              // past the end of last frame's lists: the slack alone
              const next = Math.max(1, Math.min(3 * size, per, trusted ? listSize(hint[j + 1] ?? 0, slack) : 3 * size));
              const levels = this.pyramid(out, 'x.z == 1');
              const root = rootOf(levels);
              try {
                group.push({ list: this.descend(out, levels, next, true), size: next, root, chunk: chunks.length - 1 });
              } catch (e) {
                root.dispose();
                throw e;
              } finally {
                levels.slice(0, -1).forEach((l) => l.dispose());
              }
              groupBytes += 16 * (next + size + 1);
              if (j + 1 >= end || group.length >= 64 || groupBytes + BYTES.traverse * next > this.memoryBudget) break;
            } finally {
              out.dispose();
            }
            list = group[group.length - 1]!.list;
            size = group[group.length - 1]!.size;
          }
          const t0 = performance.now();
          const { counts } = await this.counts(group.map((g) => [g.root]));
          timing.balancing += performance.now() - t0;
          let k = 0, overflow = false;
          for (; k < group.length; k++) {
            const c = counts[k]!;
            if (c > group[k]!.size) {
              overflow = true;
              break;
            }
            if (c === 0) break;
            sizes.push(c);
          }
          let keep: Stream | null;
          if (overflow) {
            // list k + 1 lost records: drop the front slots of the steps from list k on and redo
            // list k's step with its count read
            keep = k === 0 ? work : group[k - 1]!.list;
            w = k === 0 ? w : counts[k - 1]!;
            chunks.splice(group[k]!.chunk).forEach((c) => c.stream.dispose());
            exact = true;
            trusted = false;
            this.rollbacks++;
          } else if (k < group.length) {
            keep = null;
            w = 0;
          } else {
            keep = group[group.length - 1]!.list;
            w = counts[k - 1]!;
          }
          for (const g of group.splice(0)) {
            g.root.dispose();
            if (g.list !== keep) g.list.dispose();
          }
          if (keep !== work) {
            if (work !== start) work.dispose();
            work = keep ?? start;
          }
          continue;
        }
        // a step with its count read: in one chunk through a filter where it fits beside what is
        // held (its children, 48 bytes a record, front slots and pyramid, 16 each, and next list, at
        // most 48: 128), else in chunks whose pyramids are held until their counts are read
        // together, one round trip for as many as fit beside what is held (each held record 80
        // bytes, and the next list of the one descended, at most 48 a record of its chunk)
        exact = false;
        const held: Array<{ out: Stream; levels: Stream[] }> = [];
        try {
          const whole = w <= Math.min(per, this.chunkBeside(128, 3, holding()));
          for (let a = 0; a < w; ) {
            const room = Math.max(this.memoryBudget - holding(), Math.floor(this.memoryBudget / 4));
            // (a flush of m records in chunks of at most m / 4: 80 m + 48 m / 4 = 92 m at most)
            const most = whole ? w : Math.max(1, Math.floor(room / 92));
            const q = whole ? w : Math.min(per, Math.ceil(Math.min(most, w - a) / 4));
            for (const end = Math.min(w, a + most); a < end; ) {
              const n = Math.min(q, end - a);
              if (n < w) this.split();
              this.stage('traversal');
              const out = this.scratch('int4', 3 * n, "CcdTraverse's children");
              let kept = false;
              try {
                this.run(CCD_TRAVERSE, { work: n === w ? work : work.domain(a, a + n), ...this.bvttArgs(), child: out });
                this.stage('front');
                const fr = this.scratch('int4', n, "a step's front slots");
                chunks.push({ stream: fr, count: n });
                this.run(CCD_FRONT_SLOT, { child: out, fr });
                this.stage('balancing');
                if (!whole) {
                  held.push({ out, levels: this.pyramid(out, 'x.z == 1') });
                  kept = true;
                } else {
                  const t0 = performance.now();
                  const next = await this.filter(out, 'x.z == 1');
                  timing.balancing += performance.now() - t0;
                  if (next.stream) nexts.push({ stream: next.stream, count: next.count });
                }
              } finally {
                if (!kept) out.dispose();
              }
              a += n;
            }
            if (held.length > 0) {
              const t0 = performance.now();
              const { counts } = await this.counts(held.map((h) => h.levels));
              timing.balancing += performance.now() - t0;
              // (each chunk's children and pyramid go once its next list is out)
              for (const [i, h] of held.splice(0).entries()) {
                try {
                  if (counts[i]! > 0) nexts.push({ stream: this.descend(h.out, h.levels, counts[i]!, false), count: counts[i]! });
                } finally {
                  h.out.dispose(), h.levels.forEach((l) => l.dispose());
                }
              }
            }
          }
        } finally {
          for (const h of held) h.out.dispose(), h.levels.forEach((l) => l.dispose());
        }
        if (work !== start) work.dispose();
        work = start;
        this.stage('balancing');
        const joined = this.concat(nexts.splice(0));
        if (!joined.stream) break;
        work = joined.stream;
        w = joined.count;
        sizes.push(w);
      }
      // a frame that read its counts step by step compiles the capped descents the next one will use
      if (!hint) this.warmDescents();
    } catch (e) {
      if (work !== start) work.dispose();
      for (const g of group) g.list.dispose(), g.root.dispose();
      [...chunks, ...nexts].forEach((c) => c.stream.dispose());
      throw e;
    }
    if (work !== start) work.dispose();
    if (fromRoot) this.hints.root = sizes;
    else this.hints.front = sizes;
    // the start list (last frame's front) is not needed any more: it goes before the compaction
    // (frame() disposes it again, a no-op)
    start.dispose();
    const t1 = performance.now();
    this.stage('front');
    // (a frame that runs ahead compacts the front and the candidates at sizes from last frame's too)
    const f = await this.compact(chunks, 'x.z >= 2', 'x.z == 3', hint ? (this.compactCaps ?? undefined) : undefined, !fromRoot);
    timing.front += performance.now() - t1;
    // a frame that read its counts step by step puts the next frame's run-ahead lists in the pool
    // (within the budget beside the front just compacted)
    if (!hint) this.warmLists(fromRoot ? 1 : f.count, sizes, 16 * (f.stream?.length ?? 0));
    return { front: f.stream, frontCount: f.count, ...(f.also ? { cand: f.also } : {}), ...(f.pending ? { pending: f.pending } : {}), iterations: sizes.length, nodes: sizes.reduce((a, b) => a + b, 0) };
  }

  /** @internal Joins int4 chunks and keeps the records where `keep` holds, in batches the
   * memory budget holds (the chunks are disposed). With `also` (the candidates' predicate) and
   * one batch, the records where `also` holds come back too (`also`, in stage elementary), both
   * counts read in one round trip; else `also` is left to the caller. With `caps` too, nothing
   * is read: the kept records are descended into streams of at most caps.front and caps.cand
   * records (CCD_DEAD past the counts), the counts -1 and `pending` left to the caller (frame()
   * reads them with the elementary tests' and settles). */
  async compact(
    chunks: Array<{ stream: Stream; count: number }>,
    keep: string,
    also?: string,
    caps?: { front: number; cand: number },
    hold = false,
  ): Promise<{ stream: Stream | null; count: number; also?: { stream: Stream | null; count: number }; pending?: { roots: Stream[]; settled?: boolean } }> {
    const per = this.chunk(BYTES.compact);
    if (also !== undefined && chunks.length > 0 && chunks.reduce((a, c) => a + c.count, 0) <= per) {
      const all = this.concat(chunks.splice(0));
      const pyramids: Pyramid[] = [];
      const kept: Stream[] = [];
      try {
        const stage = this.clock.stage;
        pyramids.push(this.pyramid(all.stream!, keep));
        this.stage('elementary');
        pyramids.push(this.pyramid(all.stream!, also));
        this.stage(stage);
        if (caps) {
          const front = this.descend(all.stream!, pyramids[0]!, Math.max(1, Math.min(all.stream!.length, caps.front)), true);
          kept.push(front);
          this.stage('elementary');
          const cand = this.descend(all.stream!, pyramids[1]!, Math.max(1, Math.min(all.stream!.length, caps.cand)), true);
          this.stage(stage);
          // the roots alone stay (the joined records and the other levels go now)
          return { stream: front, count: -1, also: { stream: cand, count: -1 }, pending: { roots: pyramids.map((p) => p.pop()!) } };
        }
        const { counts } = await this.counts(pyramids);
        const [nk, na] = counts as [number, number];
        const front = nk > 0 ? this.descend(all.stream!, pyramids[0]!, nk, false) : null;
        if (front) kept.push(front);
        this.stage('elementary');
        const cand = na > 0 ? this.descend(all.stream!, pyramids[1]!, na, false) : null;
        this.stage(stage);
        return { stream: front, count: nk, also: { stream: cand, count: na }, ...(hold ? { pending: { roots: pyramids.map((p) => p.pop()!), settled: true } } : {}) };
      } catch (e) {
        kept.forEach((s) => s.dispose());
        throw e;
      } finally {
        pyramids.forEach((p) => p.forEach((l) => l.dispose()));
        all.stream!.dispose();
      }
    }
    const kept: Array<{ stream: Stream; count: number }> = [];
    try {
      while (chunks.length > 0) {
        // a batch of n records holds BYTES.compact a record, beside the chunks after it and the
        // records kept so far (16 bytes a record each): n from what the budget leaves
        const rest = 16 * (chunks.reduce((a, c) => a + c.stream.length, 0) + kept.reduce((a, c) => a + c.stream.length, 0));
        const most = Math.max(Math.floor((this.memoryBudget - rest) / (BYTES.compact - 16)), this.chunk(BYTES.compact, 1, Math.floor(this.memoryBudget / 4)));
        const batch: Array<{ stream: Stream; count: number }> = [chunks.shift()!];
        let n = batch[0]!.count;
        while (chunks.length > 0 && n + chunks[0]!.count <= Math.min(per, most)) n += chunks[0]!.count, batch.push(chunks.shift()!);
        if (chunks.length > 0 || kept.length > 0) this.split();
        const all = this.concat(batch);
        try {
          const k = await this.filter(all.stream!, keep);
          if (k.stream) kept.push({ stream: k.stream, count: k.count });
        } finally {
          all.stream!.dispose();
        }
      }
      return this.concat(kept);
    } catch (e) {
      [...chunks, ...kept].forEach((c) => c.stream.dispose());
      throw e;
    }
  }

  /** One frame: refit, traversal from the front (or the root), elementary tests. */
  async step(options: StepOptions = {}): Promise<StepResult> {
    check(!this.disposed, 'Ccd.step: this Ccd was disposed');
    checkStepOptions(options);
    options = options ?? {};
    if (options.lws) checkLwsOptions({ ...this.lwsOptions, ...options.lws }, 'Ccd.step: options.lws');
    const balance = options.balance ?? 'static';
    this.clock = new StageClock(this.ctx, options.profile === true);
    // every scratch stream the frame makes, and the saved front it starts from (stats.peakBytes)
    const watch = this.ctx.watchScratch(this.front ? [this.front] : []);
    try {
      try {
        return await this.frame(balance, options, watch);
      } catch (e) {
        if (!(e instanceof Redo)) throw e;
        // the front or the candidates outgrew the sizes compacted into ahead: the frame from the root
        this.clock.abort();
        this.resetFront();
        this.clock = new StageClock(this.ctx, options.profile === true);
        const r = await this.frame(balance, { ...options, fromRoot: true }, watch);
        r.stats.rollbacks++;
        return r;
      }
    } catch (e) {
      this.clock.abort();
      throw e;
    } finally {
      watch.end();
    }
  }

  private async frame(balance: Balance, options: StepOptions, watch: { readonly peak: number }): Promise<StepResult> {
    const ctx = this.ctx;
    this.roundTrips = 0;
    this.rollbacks = 0;
    this.chunkCount = 0;
    // the stage fences (profiled frames, or on request): each stage's wall time on its own
    const fenced = options.fences ?? options.profile === true;
    const fence = async () => {
      if (!fenced) return;
      await ctx.queries.fence();
      this.roundTrips++;
    };
    const t0 = performance.now();
    this.stage('refit');
    this.refit();
    await fence();
    const t1 = performance.now();

    // start list: the saved front, unless stale or absent
    const fromRoot = options.fromRoot === true || !this.front || this.frontCount > this.rebuildGrowth * this.rootFrontCount;
    let start: Stream, startCount: number;
    if (fromRoot) {
      start = ctx.scratch('int4', 1);
      start.write(new Int32Array([0, 0, 1, 0]));
      startCount = 1;
      this.front?.dispose();
    } else {
      start = this.front!;
      startCount = this.frontCount;
    }
    this.front = null;
    const withToi = options.times === true || options.verdicts === true;
    // a static frame from the front that runs ahead compacts its front and candidates at sizes
    // from last frame's counts (aheadSize: 5/4 of them and a little more), their counts read with the
    // elementary tests' (one round trip fewer); not with times or verdicts, nor after a frame
    // without candidates (whose pair tests and hit filter may not be compiled yet)
    const last = this.lastCompact;
    this.compactCaps = !withToi && !fromRoot && balance === 'static' && last && last.cand > 0 ? { front: aheadSize(last.front), cand: aheadSize(last.cand) } : null;
    const t2 = performance.now();
    const timing = { balancing: 0, front: 0 };
    let lwsStats: LwsStats | undefined;
    let r: { front: Stream | null; frontCount: number; cand?: { stream: Stream | null; count: number }; pending?: PendingCompact; iterations: number; nodes: number; lanes?: number };
    try {
      if (balance === 'static') r = await this.traverseStatic(start, startCount, fromRoot, timing);
      else {
        const l = await traverseLws(this, start, startCount, { ...this.lwsOptions, ...options.lws });
        this.roundTrips += l.roundTrips;
        lwsStats = l.stats;
        timing.front += l.frontMs;
        r = l;
      }
    } finally {
      start.dispose(); // the start list (the root's, or last frame's front) on a failure too
    }
    await fence();
    const t3 = performance.now();
    this.front = r.front;
    this.frontCount = r.frontCount;
    if (fromRoot) this.rootFrontCount = r.frontCount;
    // a compaction run ahead: its counts come with the elementary tests' (settle, below)
    let pend = r.pending && !r.pending.settled ? r.pending : null;
    if (pend) this.frontCount = 0; // (until settled: a failure before leaves no front to start from)
    const heldCompact = r.pending?.settled ? r.pending : null;
    const ranAhead = pend !== null;

    // elementary tests: the candidates' 15 feature pairs and the orphan sets
    this.stage('elementary');
    const found = new Map<string, number>();
    let candidates = 0;
    const verdicts: Int32Array[] = [];
    // kept records: feature records ('features'), candidates' (triangle a, triangle b, mask of
    // their 15 slots: 'pairs') or orphan groups' (first record, mask of the 8 from it: 'groups')
    type Kept = 'features' | 'pairs' | 'groups';
    const add = (recs: Int32Array, count: number, t: Int32Array | null, kind: Kept = 'features') => {
      for (let i = 0; i < count; i++) {
        const x = recs.subarray(i * 4, i * 4 + 4);
        if (kind === 'pairs') {
          for (let s = 0; s < 15; s++) if ((x[2]! >> s) & 1) found.set(featureKey(pairFeature(this.scene, x[0]!, x[1]!, s)), TICKS);
          continue;
        }
        if (kind === 'groups') {
          for (let j = 0; j < 8; j++) if ((x[1]! >> j) & 1) found.set(featureKey(this.orphanRecords.subarray((x[0]! + j) * 4, (x[0]! + j) * 4 + 4)), TICKS);
          continue;
        }
        const key = featureKey(x);
        const tick = t ? t[i]! : TICKS;
        found.set(key, Math.min(found.get(key) ?? TICKS, tick));
      }
    };
    // the kept hits (and, with times, their ticks: by the filter's indices) into `found`
    const collect = async (hits: Stream, ticks: Stream | null, kind: Kept = 'features') => {
      const kept = await this.filter(hits, 'x.x >= 0', ticks !== null);
      let t: Int32Array | null = null;
      let recs: Int32Array;
      try {
        if (!kept.stream) return;
        if (ticks && kept.indices) {
          const at = this.scratch('int', kept.count, 'the kept hits\' ticks');
          try {
            this.run(CCD_TICK_OF, { idx: kept.indices, tick: ticks, t: at });
            t = (await at.read()) as Int32Array;
          } finally {
            at.dispose();
          }
          this.roundTrips++;
        }
        recs = (await kept.stream.read()) as Int32Array;
        this.roundTrips++;
      } finally {
        kept.stream?.dispose();
        kept.indices?.dispose();
      }
      add(recs, kept.count, t, kind);
    };
    // Without times, and where the candidates' and the orphans' hits fit the budget together, the
    // hits are compacted without reading their counts first: the kept records go into a stream
    // sized from last frame's (2 x + 64 records), read with the counts in one round trip (a
    // count above that size is compacted again at its size and read: one more).
    const cand = r.cand ?? (this.front ? await this.filter(this.front, 'x.z == 3') : { stream: null, count: 0 });
    // The counts of a compaction run ahead, once known: the front and candidates descended again at
    // their counts where the sizes chosen were short (the candidates past the size then tested
    // here, their hits read at once: results as without running ahead).
    const tested = pend ? (cand.stream?.length ?? 0) : cand.count; // candidates the loop below tests
    const settle = (nk: number, na: number) => {
      const p = pend!;
      pend = null;
      p.roots.forEach((r) => r.dispose());
      if (nk > this.front!.length || na > tested) {
        // a size was short (the records past it are lost): the frame again from the root
        this.lastCompact = { front: nk, cand: na };
        throw new Redo();
      }
      if (nk === 0) this.front?.dispose(), (this.front = null);
      this.frontCount = nk;
      cand.count = na;
    };
    // (the saved front and the candidates are held beside the elementary tests' chunks)
    const room = Math.max(4096, this.memoryBudget - 16 * ((this.front?.length ?? 0) + (cand.stream?.length ?? 0)));
    const deferred = !withToi && tested * BYTES.candidate + this.orphanCount * BYTES.orphanGroup <= room;
    const pending: Array<{ hits: Stream; levels: Pyramid; kind: Kept }> = [];
    const hold = (hits: Stream, kind: Kept) => {
      try {
        pending.push({ hits, levels: this.pyramid(hits, 'x.x >= 0'), kind });
      } catch (e) {
        hits.dispose();
        throw e;
      }
    };
    try {
      if (pend && !deferred) {
        const { counts } = await this.counts(pend.roots.map((r) => [r]));
        settle(counts[0]!, counts[1]!);
      }
      if (cand.stream) {
        // without times, a candidate's 15 tests in one fragment (its hit mask); with times, a
        // fragment per feature test (its record and its tick)
        const per = withToi ? this.chunk(BYTES.candidateToi + 15 * 8, 15, room) : this.chunk(BYTES.candidate, 1, room);
        const all = pend ? tested : cand.count;
        for (let a = 0; a < all; a += per) {
          const n = Math.min(per, all - a);
          if (n < all) this.split();
          const slice = n === cand.stream.length ? cand.stream : cand.stream.domain(a, a + n);
          const hits = this.scratch('int4', withToi ? 15 * n : n, "CcdPairTests' hits");
          const ticks = withToi ? this.scratch('int', 15 * n, "CcdPairTests' times") : null;
          let held = false;
          try {
            const args = { cand: slice, nodes: this.nodes, tris: this.tris, x0: this.x0, x1: this.x1, inputUlp: 0, hit: hits };
            if (ticks) this.run(CCD_PAIR_TESTS_TOI, { ...args, tick: ticks });
            else this.run(CCD_PAIR_TESTS, args);
            if (options.verdicts && ticks) {
              const v = this.scratch('int4', n, 'the candidates\' verdicts');
              try {
                this.run(CCD_CANDIDATE_VERDICTS, { cand: slice, nodes: this.nodes, hit: hits, tick: ticks, v });
                verdicts.push((await v.read()) as Int32Array);
              } finally {
                v.dispose();
              }
              this.roundTrips++;
            }
            if (deferred) (held = true), hold(hits, 'pairs');
            else await collect(hits, ticks, withToi ? 'features' : 'pairs');
          } finally {
            if (!held) hits.dispose();
            ticks?.dispose();
          }
        }
      }
      if (this.orphans) {
        // without times eight records a fragment (a hit mask each eight), with times one (its record and tick)
        const per = withToi ? this.chunk(BYTES.orphan + 8, 1, room) : Math.max(8, 8 * Math.floor(this.chunk(BYTES.orphanGroup, 1, room) / 8));
        for (let a = 0; a < this.orphanCount; a += per) {
          const n = Math.min(per, this.orphanCount - a);
          if (n < this.orphanCount) this.split();
          const hits = this.scratch('int4', withToi ? n : Math.ceil(n / 8), "CcdOrphanTests' hits");
          const ticks = withToi ? this.scratch('int', n, "CcdOrphanTests' times") : null;
          let held = false;
          try {
            const common = { tris: this.tris, x0: this.x0, x1: this.x1, inputUlp: 0, hit: hits };
            if (ticks) this.run(CCD_ORPHAN_TESTS_TOI, { ...common, rec: n === this.orphanCount ? this.orphans : this.orphans.domain(a, a + n), tick: ticks });
            else this.run(CCD_ORPHAN_GROUPS, { ...common, rec: this.orphans, first: a, end: a + n });
            if (deferred) (held = true), hold(hits, withToi ? 'features' : 'groups');
            else await collect(hits, ticks, withToi ? 'features' : 'groups');
          } finally {
            if (!held) hits.dispose();
            ticks?.dispose();
          }
        }
      }
      if (pending.length > 0 || pend) {
        const size = pending.map((p) => Math.min(p.hits.length, 2 * this.lastHits + 64));
        const kept: Stream[] = [];
        try {
          pending.forEach((p, i) => kept.push(this.descend(p.hits, p.levels, size[i]!, true)));
          // (with a compaction run ahead, its two counts first)
          const ahead = pend ? pend.roots.map((r) => [r]) : [];
          // (the few roots read as they are: no stream of them, whose shape the frames that read
          // their compaction's counts first never make)
          const read = await this.counts([...ahead, ...pending.map((p) => p.levels)], kept, ahead.length + pending.length > 4);
          const counts = read.counts.slice(ahead.length), data = read.data;
          if (pend) settle(read.counts[0]!, read.counts[1]!);
          const again: number[] = [];
          counts.forEach((c, i) => (c <= size[i]! ? add(data[i] as Int32Array, c, null, pending[i]!.kind) : again.push(i)));
          this.lastHits = Math.max(0, ...counts);
          if (again.length > 0) {
            const whole = again.map((i) => this.descend(pending[i]!.hits, pending[i]!.levels, counts[i]!, false));
            kept.push(...whole);
            const { data: recs } = await this.counts([], whole);
            again.forEach((i, j) => add(recs[j] as Int32Array, counts[i]!, null, pending[i]!.kind));
          }
        } finally {
          kept.forEach((s) => s.dispose());
        }
      }
    } finally {
      cand.stream?.dispose();
      for (const p of pending) p.hits.dispose(), p.levels.forEach((l) => l.dispose());
      heldCompact?.roots.forEach((x) => x.dispose());
      if (pend) {
        // a failure before the counts came back: no front to start the next frame from
        pend.roots.forEach((x) => x.dispose());
        this.resetFront();
      }
    }
    candidates = cand.count;
    if (balance === 'static' && !fromRoot) {
      this.lastCompact = { front: this.frontCount, cand: cand.count };
      // a frame that did not run its compaction ahead puts the next one's targets in the pool
      if (!ranAhead && !withToi) this.warmCompact(this.lastCompact);
    }
    const t4 = performance.now();
    const lanes = r.lanes ?? 0;
    const wall = {
      refit: t1 - t0,
      front: t2 - t1 + timing.front,
      traversal: t3 - t2 - timing.balancing - timing.front,
      balancing: balance === 'static' ? timing.balancing : null,
      elementary: t4 - t3,
    };
    const passes = this.clock.total;
    // unfenced, the stages overlap on the GPU: no stage has a wall time of its own
    const { stages, kernels, gpuMs } = await this.clock.finish(fenced ? wall : { refit: null, front: null, traversal: null, balancing: null, elementary: null });
    const stats: CcdStats = {
      balance,
      refitMs: wall.refit,
      frontMs: wall.front,
      traversalMs: wall.traversal,
      balancingMs: wall.balancing ?? 0,
      elementaryMs: wall.elementary,
      totalMs: t4 - t0,
      stages,
      kernels,
      gpuMs,
      passes,
      roundTrips: this.roundTrips,
      rollbacks: this.rollbacks,
      iterations: r.iterations,
      nodesProcessed: r.nodes,
      utilisation: lanes > 0 ? r.nodes / (lanes * r.iterations) : r.iterations > 0 ? 1 : 0,
      frontStart: fromRoot ? 1 : startCount,
      frontSize: this.frontCount,
      fromRoot,
      candidates,
      orphans: this.orphanCount,
      tests: 15 * candidates + this.orphanCount,
      pairs: found.size,
      chunks: this.chunkCount,
      peakBytes: watch.peak,
      ...(lwsStats ? { lws: lwsStats } : {}),
    };
    const pairs = [...found.keys()].sort();
    const result: StepResult = { pairs, stats };
    if (options.times) result.times = pairs.map((k) => found.get(k)! / TICKS);
    if (options.verdicts) {
      const tris = new Int32Array(2 * candidates), hit = new Uint8Array(candidates), toi = new Float32Array(candidates);
      let k = 0;
      for (const v of verdicts) {
        for (let i = 0; i < v.length / 4; i++, k++) {
          (tris[2 * k] = v[4 * i]!), (tris[2 * k + 1] = v[4 * i + 1]!), (hit[k] = v[4 * i + 2]!), (toi[k] = v[4 * i + 3]! / TICKS);
        }
      }
      result.verdicts = { tris, hit, toi };
    }
    return result;
  }

  /** The saved front as (a, b, kind) triples (a readback, for tests and demos). */
  async readFront(): Promise<Int32Array> {
    if (!this.front) return new Int32Array(0);
    const recs = (await this.front.read()) as Int32Array;
    const out = new Int32Array(this.frontCount * 3);
    for (let i = 0; i < this.frontCount; i++) out.set(recs.subarray(i * 4, i * 4 + 3), i * 3);
    return out;
  }

  /** Forgets the saved front: the next step traverses from the root. */
  resetFront(): void {
    this.front?.dispose();
    this.front = null;
    this.frontCount = 0;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of [this.x0, this.x1, this.tris, this.nodes, this.nodeObject, this.boxLo, this.boxHi, this.orphans, this.front]) s?.dispose();
    this.front = null;
  }
}

/** A CCD pipeline for a deforming scene; see the module comment. */
export function createCcd(ctx: BrookContext, scene: CcdScene, options?: CcdOptions): Ccd {
  return new Ccd(ctx, scene, options);
}
