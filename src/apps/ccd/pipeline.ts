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
 * The stages, one file each, all behind one seam (CcdHost, ./host.ts; ./runner.ts implements
 * it): ./refit.ts, ./traverse.ts (static), ./lws.ts, ./compact.ts (front compaction),
 * ./filter.ts (the deferred pyramid filter), ./narrow.ts (candidate and orphan tests) and
 * ./stats.ts; `frame` below is the paper's pipeline: refit -> traverse -> compact -> narrow ->
 * stats.
 *
 * Front staleness: the front is rebuilt from the root when it has grown past `rebuildGrowth`
 * (default 1.5) times its size when last built from the root, or on request; otherwise each
 * frame starts from the last front (a front only deepens: nodes that separate again are not
 * merged back, which is why it goes stale).
 */
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import type { Stream } from '../../core/stream';
import { buildBvh, orphanSets, triangleCount, type Bvh, type CcdScene } from '../../geometry/bvh';
import { aheadSize, warmCompact, type PendingCompact } from './compact';
import type { BvttStreams } from './host';
import { traverseLws, type LwsOptions, type LwsStats } from './lws';
import { NarrowPhase, TICKS, type AheadCounts, type NarrowResult } from './narrow';
import { refit } from './refit';
import { CcdRunner } from './runner';
import { frameStats, type Balance, type CcdStats } from './stats';
import { StaticTraversal, type TraversalResult, type TraversalTiming } from './traverse';
import { checkCcdArgs, checkLwsOptions, checkPositions, checkStepOptions } from './validate';

/** The default memoryBudget: 256 MiB. WebGL cannot ask how much memory a GPU has; a quarter of a
 * 1 GiB GPU is what integrated and mobile GPUs give a page without trouble (the scene's own
 * streams come on top), and on an 80 GB H100 it still runs the 92K-triangle cloth's frame in
 * one or two chunks per pass. */
export const CCD_MEMORY_BUDGET = 256 * 2 ** 20;

/** Thrown inside a frame whose front or candidates outgrew the sizes they were compacted into
 * ahead of their counts: step() runs the frame again from the root. */
class Redo {}

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
  /** The swept boxes of the hierarchy's nodes (refit every frame). */
  readonly boxLo: Stream;
  readonly boxHi: Stream;
  readonly rebuildGrowth: number;
  readonly lwsOptions: LwsOptions;
  readonly memoryBudget: number;
  private readonly ctx: BrookContext;
  private readonly orphans: Stream | null;
  /** The seam the stages take (passes, scratch, chunks, stage clock, counters, the filter). */
  private readonly host: CcdRunner;
  private readonly bvtt: BvttStreams;
  private readonly traversal: StaticTraversal;
  private readonly narrow: NarrowPhase;
  /** The saved front: (a, b, kind, 0) records, and its size when last built from the root. */
  private front: Stream | null = null;
  private frontCount = 0;
  private rootFrontCount = 0;
  /** The front and candidate counts of the last static frame from the front (sizes the next
   * one's compaction run ahead). */
  private lastCompact: { front: number; cand: number } | null = null;
  private disposed = false;

  constructor(ctx: BrookContext, scene: CcdScene, options: CcdOptions = {}) {
    checkCcdArgs(ctx, scene, options);
    this.ctx = ctx;
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
    this.host = new CcdRunner(ctx, this.memoryBudget);
    this.bvtt = { nodes: this.nodes, nodeObject: this.nodeObject, boxLo: this.boxLo, boxHi: this.boxHi, tris: this.tris, selfTest: this.scene.self === false ? 0 : 1 };
    this.traversal = new StaticTraversal(this.host, this.bvtt);
    const s = { scene: this.scene, nodes: this.nodes, tris: this.tris, x0: this.x0, x1: this.x1 };
    this.narrow = new NarrowPhase(this.host, { ...s, orphans: this.orphans, orphanRecords: orphans, orphanCount: this.orphanCount });
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

  /** Refits the boxes bottom-up, one pass per level. */
  refit(): void {
    refit(this.host, { nodes: this.nodes, tris: this.tris, x0: this.x0, x1: this.x1, boxLo: this.boxLo, boxHi: this.boxHi, depth: this.bvh.depth });
  }

  /** One frame: refit, traversal from the front (or the root), elementary tests. */
  async step(options: StepOptions = {}): Promise<StepResult> {
    check(!this.disposed, 'Ccd.step: this Ccd was disposed');
    checkStepOptions(options);
    options = options ?? {};
    if (options.lws) checkLwsOptions({ ...this.lwsOptions, ...options.lws }, 'Ccd.step: options.lws');
    const balance = options.balance ?? 'static';
    const profile = options.profile === true;
    this.host.begin(profile);
    // every scratch stream the frame makes, and the saved front it starts from (stats.peakBytes)
    const watch = this.ctx.watchScratch(this.front ? [this.front] : []);
    try {
      try {
        return await this.frame(balance, options, watch);
      } catch (e) {
        if (!(e instanceof Redo)) throw e;
        // the front or the candidates outgrew the sizes compacted into ahead: the frame from the root
        this.host.clock.abort();
        this.resetFront();
        this.host.begin(profile);
        const r = await this.frame(balance, { ...options, fromRoot: true }, watch);
        r.stats.rollbacks++;
        return r;
      }
    } catch (e) {
      this.host.clock.abort();
      throw e;
    } finally {
      watch.end();
    }
  }

  /** The paper's pipeline: refit -> traverse (the front compacted at its end) -> narrow -> stats. */
  private async frame(balance: Balance, options: StepOptions, watch: { readonly peak: number }): Promise<StepResult> {
    const host = this.host;
    host.resetCounters();
    // the stage fences (profiled frames, or on request): each stage's wall time on its own
    const fenced = options.fences ?? options.profile === true;
    const fence = async () => {
      if (!fenced) return;
      await this.ctx.queries.fence();
      host.roundTrip();
    };
    const withToi = options.times === true || options.verdicts === true;
    const t0 = performance.now();
    this.refit();
    await fence();
    const t1 = performance.now();
    const { start, startCount, fromRoot } = this.startList(options.fromRoot === true);
    const t2 = performance.now();
    const timing: TraversalTiming = { balancing: 0, front: 0 };
    const r = await this.traverse(balance, options, start, startCount, fromRoot, withToi, timing);
    await fence();
    const t3 = performance.now();
    const narrow = await this.narrowPhase(r, balance, fromRoot, withToi, options.verdicts === true);
    const t4 = performance.now();
    const stats = await frameStats(host.clock, { t0, t1, t2, t3, t4, ...timing }, {
      balance, fenced, traversal: r, ...(r.lws ? { lws: r.lws } : {}), fromRoot, startCount, frontSize: this.frontCount,
      candidates: narrow.candidates, orphans: this.orphanCount, pairs: narrow.found.size,
      roundTrips: host.roundTrips, rollbacks: host.rollbacks, chunks: host.chunks, peakBytes: watch.peak,
    });
    return result(narrow, stats, options);
  }

  /** The start list: the saved front, unless stale or absent (then the root's). The saved front
   * is the traversal's now (it disposes it). */
  private startList(fromRootAsked: boolean): { start: Stream; startCount: number; fromRoot: boolean } {
    const fromRoot = fromRootAsked || !this.front || this.frontCount > this.rebuildGrowth * this.rootFrontCount;
    let start: Stream, startCount: number;
    if (fromRoot) {
      start = this.ctx.scratch('int4', 1);
      start.write(new Int32Array([0, 0, 1, 0]));
      startCount = 1;
      this.front?.dispose();
    } else {
      start = this.front!;
      startCount = this.frontCount;
    }
    this.front = null;
    return { start, startCount, fromRoot };
  }

  /** The traversal by `balance`, its front compacted at its end (the start list disposed). A
   * static frame from the front that runs ahead compacts its front and candidates at sizes from
   * last frame's counts (aheadSize: 5/4 of them and a little more), their counts read with the
   * elementary tests' (one round trip fewer); not with times or verdicts, nor after a frame
   * without candidates (whose pair tests and hit filter may not be compiled yet). */
  private async traverse(balance: Balance, options: StepOptions, start: Stream, startCount: number, fromRoot: boolean, withToi: boolean, timing: TraversalTiming): Promise<TraversalResult & { lws?: LwsStats }> {
    try {
      if (balance === 'static') {
        const last = this.lastCompact;
        const caps = !withToi && !fromRoot && last && last.cand > 0 ? { front: aheadSize(last.front), cand: aheadSize(last.cand) } : null;
        return await this.traversal.traverse(start, startCount, fromRoot, timing, caps);
      }
      const l = await traverseLws(this.host, this.bvtt, start, startCount, { ...this.lwsOptions, ...options.lws });
      this.host.roundTrip(l.roundTrips);
      timing.front += l.frontMs;
      return { front: l.front, frontCount: l.frontCount, ...(l.cand ? { cand: l.cand } : {}), iterations: l.iterations, nodes: l.nodes, lanes: l.lanes, lws: l.stats };
    } finally {
      start.dispose(); // the start list (the root's, or last frame's front) on a failure too
    }
  }

  /** The new front saved, and the narrow phase on its candidates (a compaction run ahead settled
   * with the tests' counts); the next static frame's compaction sizes from this one's. */
  private async narrowPhase(r: TraversalResult, balance: Balance, fromRoot: boolean, withToi: boolean, verdicts: boolean): Promise<NarrowResult> {
    this.front = r.front;
    this.frontCount = r.frontCount;
    if (fromRoot) this.rootFrontCount = r.frontCount;
    const pend: PendingCompact | null = r.pending && !r.pending.settled ? r.pending : null;
    if (pend) this.frontCount = 0; // (until settled: a failure before leaves no front to start from)
    const heldCompact = r.pending?.settled ? r.pending : null;
    this.host.stage('elementary');
    let settled = false;
    const ahead: AheadCounts | null = pend && { roots: pend.roots, settle: (nk, na, tested) => ((settled = true), this.settleAhead(nk, na, tested)) };
    let n: NarrowResult;
    try {
      const cand = r.cand ?? (this.front ? await this.host.filter.filter(this.front, 'x.z == 3') : { stream: null, count: 0 });
      // (the saved front and the candidates are held beside the elementary tests' chunks)
      const held = 16 * ((this.front?.length ?? 0) + (cand.stream?.length ?? 0));
      n = await this.narrow.run({ cand, ahead, withToi, verdicts, held });
    } catch (e) {
      // a failure before a compaction's counts came back: no front to start the next frame from
      if (pend && !settled) this.resetFront();
      throw e;
    } finally {
      heldCompact?.roots.forEach((x) => x.dispose());
    }
    if (balance === 'static' && !fromRoot) {
      this.lastCompact = { front: this.frontCount, cand: n.candidates };
      // a frame that did not run its compaction ahead puts the next one's targets in the pool
      if (!pend && !withToi) warmCompact(this.host, this.lastCompact, this.front?.length ?? 0);
    }
    return n;
  }

  /** A compaction run ahead, its counts read: a size found short (records past it lost) runs the
   * frame again from the root; else the front's count is known. */
  private settleAhead(nk: number, na: number, tested: number): void {
    if (nk > this.front!.length || na > tested) {
      this.lastCompact = { front: nk, cand: na };
      throw new Redo();
    }
    if (nk === 0) this.front?.dispose(), (this.front = null);
    this.frontCount = nk;
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

/** The frame's result: the pairs sorted, their times and the candidates' verdicts when asked. */
function result(n: NarrowResult, stats: CcdStats, options: StepOptions): StepResult {
  const pairs = [...n.found.keys()].sort();
  const out: StepResult = { pairs, stats };
  if (options.times) out.times = pairs.map((k) => n.found.get(k)! / TICKS);
  if (options.verdicts) {
    const c = n.candidates;
    const tris = new Int32Array(2 * c), hit = new Uint8Array(c), toi = new Float32Array(c);
    let k = 0;
    for (const v of n.verdicts) {
      for (let i = 0; i < v.length / 4; i++, k++) {
        (tris[2 * k] = v[4 * i]!), (tris[2 * k + 1] = v[4 * i + 1]!), (hit[k] = v[4 * i + 2]!), (toi[k] = v[4 * i + 3]! / TICKS);
      }
    }
    out.verdicts = { tris, hit, toi };
  }
  return out;
}

/** A CCD pipeline for a deforming scene; see the module comment. */
export function createCcd(ctx: BrookContext, scene: CcdScene, options?: CcdOptions): Ccd {
  return new Ccd(ctx, scene, options);
}
