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
import { filter, pyramidFilterPasses } from '../../idioms/filter';
import { CCD_CANDIDATE_VERDICTS, CCD_FRONT_SLOT, CCD_GATHER8, CCD_ORPHAN_TESTS, CCD_ORPHAN_TESTS_TOI, CCD_PAIR_TESTS_TOI, CCD_TICK_OF, CCD_PAIR_TESTS, CCD_REFIT, CCD_TRAVERSE } from './kernels';
import { traverseLws, type LwsOptions, type LwsStats } from './lws';
import { checkCcdArgs, checkLwsOptions, checkPositions, checkStepOptions } from './validate';
import { StageClock, type Balance, type CcdStats, type Stage } from './stages';
import { buildBvh, orphanSets, triangleCount, type Bvh, type CcdScene } from '../../geometry/bvh';

/** The default memoryBudget: 256 MiB. WebGL cannot ask how much memory a GPU has; a quarter of a
 * 1 GiB GPU is what integrated and mobile GPUs give a page without trouble (the scene's own
 * streams come on top), and on an 80 GB H100 it still runs the 92K-triangle cloth's frame in
 * one or two chunks per pass. */
export const CCD_MEMORY_BUDGET = 256 * 2 ** 20;

/** Bytes per record of the chunked passes, their filters' working streams included: a static
 * traversal step per work item (3 int4 children, the filter's flags and pyramid, the next list,
 * the front slot), the elementary tests per candidate (15 int4 hits and their filter's streams),
 * per orphan record, and the front compaction per record (gathered, flags, kept). */
/** Ticks of a time of impact: 2^16 a step (the elementary tests' deepest interval). */
const TICKS = 65536;

const BYTES = { traverse: 144, candidate: 15 * 24, orphan: 24, compact: 40 } as const;

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
  /** The saved front: (a, b, kind, 0) records, and its size when last built from the root. */
  private front: Stream | null = null;
  private frontCount = 0;
  private rootFrontCount = 0;
  /** The current frame's pass counter by stage (a fresh one each step). */
  private clock: StageClock;
  private roundTrips = 0;
  private disposed = false;
  readonly rebuildGrowth: number;
  readonly lwsOptions: LwsOptions;
  readonly memoryBudget: number;
  /** Chunks the last step's passes ran in (1 where nothing was split). */
  private chunkCount = 0;

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
    this.guarded(() => this.ctx.run(spec, args), `pass ${spec.name}`, Object.keys(spec.outputs).map((k) => args[k] as Stream));
    this.clock.count();
  }

  /** @internal Draws one runner pass (a scatter) and counts it. */
  pass(p: PassDesc): void {
    this.guarded(() => runPass(this.ctx, p), `pass ${p.name}`, (p.targets as Stream[]).filter((t) => t instanceof Object && 'length' in t));
    this.clock.count();
  }

  /** @internal A scratch stream of n records (its allocation guarded as run's targets are). */
  scratch(type: 'int4' | 'int2' | 'int', n: number, what: string): Stream {
    return this.guarded(() => this.ctx.scratch(type, n), what, [], [type, n]);
  }

  /** @internal Records per chunk of a pass using `bytes` a record (at least 1; within caps.maxRecords / per). */
  chunk(bytes: number, per = 1): number {
    return Math.max(1, Math.min(Math.floor(this.memoryBudget / bytes), Math.floor(this.ctx.caps.maxRecords / per)));
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
        ? `${alloc[1]} ${alloc[0]} records, ${mib(alloc[1] * (alloc[0] === 'int4' ? 16 : alloc[0] === 'int2' ? 8 : 4))}`
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

  /** The static method: one pass per step over the compacted work list, and one count readback
   * per step (the next list's). Each step's front records are copied out (one pass over its work
   * items, no readback) and the chunks joined and compacted once at the end. Wall: the filter's
   * count readback also waits for the step's traversal pass, so its wall time lands in balancing
   * (the GPU times of a profiled frame split them). */
  private async traverseStatic(start: Stream, count: number, timing: { balancing: number; front: number }): Promise<{ front: Stream | null; frontCount: number; iterations: number; nodes: number }> {
    const chunks: Array<{ stream: Stream; count: number }> = [];
    let work = start, w = count, iterations = 0, nodes = 0;
    const nexts: Array<{ stream: Stream; count: number }> = [];
    try {
      while (w > 0) {
        iterations++;
        nodes += w;
        // a step over more work items than the budget holds runs in slices of the work list
        const per = this.chunk(BYTES.traverse, 3);
        for (let a = 0; a < w; a += per) {
          const n = Math.min(per, w - a);
          if (n < w) this.split();
          this.stage('traversal');
          const out = this.scratch('int4', 3 * n, 'CcdTraverse\'s children');
          try {
            this.run(CCD_TRAVERSE, { work: n === w ? work : work.domain(a, a + n), ...this.bvttArgs(), child: out });
            this.stage('front');
            const fr = this.scratch('int4', n, "a step's front slots");
            chunks.push({ stream: fr, count: n });
            this.run(CCD_FRONT_SLOT, { child: out, fr });
            const t0 = performance.now();
            this.stage('balancing');
            const next = await this.filter(out, 'x.z == 1');
            timing.balancing += performance.now() - t0;
            if (next.stream) nexts.push({ stream: next.stream, count: next.count });
          } finally {
            out.dispose();
          }
        }
        if (work !== start) work.dispose();
        work = start;
        this.stage('balancing');
        const joined = this.concat(nexts.splice(0));
        if (!joined.stream) break;
        work = joined.stream;
        w = joined.count;
      }
    } catch (e) {
      if (work !== start) work.dispose();
      [...chunks, ...nexts].forEach((c) => c.stream.dispose());
      throw e;
    }
    const t1 = performance.now();
    this.stage('front');
    const f = await this.compact(chunks, 'x.z >= 2');
    timing.front += performance.now() - t1;
    return { front: f.stream, frontCount: f.count, iterations, nodes };
  }

  /** @internal Joins int4 chunks and keeps the records where `keep` holds, in batches the
   * memory budget holds (the chunks are disposed). */
  async compact(chunks: Array<{ stream: Stream; count: number }>, keep: string): Promise<{ stream: Stream | null; count: number }> {
    const per = this.chunk(BYTES.compact);
    const kept: Array<{ stream: Stream; count: number }> = [];
    try {
      while (chunks.length > 0) {
        const batch: Array<{ stream: Stream; count: number }> = [chunks.shift()!];
        let n = batch[0]!.count;
        while (chunks.length > 0 && n + chunks[0]!.count <= per) n += chunks[0]!.count, batch.push(chunks.shift()!);
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
    try {
      return await this.frame(balance, options);
    } catch (e) {
      this.clock.abort();
      throw e;
    }
  }

  private async frame(balance: Balance, options: StepOptions): Promise<StepResult> {
    const ctx = this.ctx;
    this.roundTrips = 0;
    this.chunkCount = 0;
    const fence = async () => {
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
    const t2 = performance.now();
    const timing = { balancing: 0, front: 0 };
    let lwsStats: LwsStats | undefined;
    let r: { front: Stream | null; frontCount: number; iterations: number; nodes: number; lanes?: number };
    try {
      if (balance === 'static') r = await this.traverseStatic(start, startCount, timing);
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

    // elementary tests: the candidates' 15 feature pairs and the orphan sets
    this.stage('elementary');
    const found = new Map<string, number>();
    let candidates = 0;
    const withToi = options.times === true || options.verdicts === true;
    const verdicts: Int32Array[] = [];
    // the kept hits (and, with times, their ticks: by the filter's indices) into `found`
    const collect = async (hits: Stream, ticks: Stream | null) => {
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
      for (let i = 0; i < kept.count; i++) {
        const x = recs.subarray(i * 4, i * 4 + 4);
        const key = x[2] === -1 ? `vf ${x[0]} ${x[1]}` : `ee ${x[0]} ${x[1]} ${x[2]} ${x[3]}`;
        const tick = t ? t[i]! : TICKS;
        found.set(key, Math.min(found.get(key) ?? TICKS, tick));
      }
    };
    if (this.front) {
      const cand = await this.filter(this.front, 'x.z == 3');
      if (cand.stream) {
        candidates = cand.count;
        try {
          const per = this.chunk(BYTES.candidate + (withToi ? 15 * 8 : 0), 15);
          for (let a = 0; a < cand.count; a += per) {
            const n = Math.min(per, cand.count - a);
            if (n < cand.count) this.split();
            const slice = n === cand.count ? cand.stream : cand.stream.domain(a, a + n);
            const hits = this.scratch('int4', 15 * n, "CcdPairTests' hits");
            const ticks = withToi ? this.scratch('int', 15 * n, "CcdPairTests' times") : null;
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
              await collect(hits, ticks);
            } finally {
              hits.dispose();
              ticks?.dispose();
            }
          }
        } finally {
          cand.stream.dispose();
        }
      }
    }
    if (this.orphans) {
      const per = this.chunk(BYTES.orphan + (withToi ? 8 : 0));
      for (let a = 0; a < this.orphanCount; a += per) {
        const n = Math.min(per, this.orphanCount - a);
        if (n < this.orphanCount) this.split();
        const hits = this.scratch('int4', n, "CcdOrphanTests' hits");
        const ticks = withToi ? this.scratch('int', n, "CcdOrphanTests' times") : null;
        try {
          const args = { rec: n === this.orphanCount ? this.orphans : this.orphans.domain(a, a + n), tris: this.tris, x0: this.x0, x1: this.x1, inputUlp: 0, hit: hits };
          if (ticks) this.run(CCD_ORPHAN_TESTS_TOI, { ...args, tick: ticks });
          else this.run(CCD_ORPHAN_TESTS, args);
          await collect(hits, ticks);
        } finally {
          hits.dispose();
          ticks?.dispose();
        }
      }
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
    const { stages, kernels, gpuMs } = await this.clock.finish(wall);
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
      iterations: r.iterations,
      nodesProcessed: r.nodes,
      utilisation: lanes > 0 ? r.nodes / (lanes * r.iterations) : r.iterations > 0 ? 1 : 0,
      frontStart: fromRoot ? 1 : startCount,
      frontSize: r.frontCount,
      fromRoot,
      candidates,
      orphans: this.orphanCount,
      tests: 15 * candidates + this.orphanCount,
      pairs: found.size,
      chunks: this.chunkCount,
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
