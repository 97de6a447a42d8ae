/**
 * A CCD frame's measurements (Table 1's breakdown and the balancing counters), and how a frame's
 * counters, wall times and stage clock become them. The stage names and the clock are in
 * ./stages.ts.
 */
import type { LwsStats } from './lws';
import type { KernelTime, Stage, StageClock, StageStats } from './stages';
import type { TraversalResult } from './traverse';

export type Balance = 'static' | 'lws';

/** Per-frame measurements (Table 1's breakdown and the balancing counters). */
export interface CcdStats {
  balance: Balance;
  /** Milliseconds by stage: wall clock with step({ fences: true }); without fences, the CPU's
   * time from the stage's start to its last readback (the GPU may still run its passes later). */
  refitMs: number;
  /** Front update: assembling the new front from the nodes where the traversal ended (static:
   * each step's front slots copied out, joined and compacted once; lws: gathering the per-iteration chunks
   * and compacting). */
  frontMs: number;
  /** Static: the traversal passes. lws: the whole loop, balancing included. */
  traversalMs: number;
  /** Compaction and redistribution (static: the filters between steps). 0 for lws, whose
   * balancing passes run inside the traversal loop (see `stages` for their GPU time). */
  balancingMs: number;
  elementaryMs: number;
  totalMs: number;
  /** Per stage: passes, wall ms, GPU ms (profiled frames). Passes add up to `passes`. */
  stages: Record<Stage, StageStats>;
  /** Profiled frames: GPU time per kernel per stage, in order of first use; else empty. */
  kernels: KernelTime[];
  /** Profiled frames: the sum of every pass's GPU time (null when not profiled or disjoint). */
  gpuMs: number | null;
  /** Passes drawn and CPU round trips (count readbacks, query answers, result reads). */
  passes: number;
  roundTrips: number;
  /** Static: groups of steps run ahead from last frame's list sizes in which a list outgrew its
   * size, so the step was redone with its count read (results unchanged). 0 for lws. */
  rollbacks: number;
  /** Traversal iterations until the work was gone. */
  iterations: number;
  /** BVTT nodes processed, and nodes processed / (lanes x iterations). */
  nodesProcessed: number;
  utilisation: number;
  /** Front nodes at the start and at the end of the frame; whether it started from the root. */
  frontStart: number;
  frontSize: number;
  fromRoot: boolean;
  candidates: number;
  orphans: number;
  /** Feature tests run (15 per candidate, plus the orphans). */
  tests: number;
  pairs: number;
  /** Chunks the frame's split passes ran in, beyond one per pass (0: nothing was split by the
   * memory budget). */
  chunks: number;
  /** The most bytes the frame's working streams held at once (records x bytes a record, as
   * memoryBudget counts them): the saved front it starts from, the traversal's lists, front
   * slots, children and filter pyramids, the compaction's, the hits; not the scene's own streams
   * (positions, triangles, hierarchy, boxes, orphan sets). */
  peakBytes: number;
  /** lws only: nodes pushed to deques, nodes stolen, steal rounds, extra iterations. */
  lws?: LwsStats;
}

/** Wall ms of a frame: its stage boundaries (performance.now()) and the traversal's own split. */
export interface FrameTimes {
  t0: number;
  /** Refit done, traversal started, traversal (and front compaction) done, narrow phase done. */
  t1: number;
  t2: number;
  t3: number;
  t4: number;
  /** Inside the traversal: count readbacks (static) and the front compaction. */
  balancing: number;
  front: number;
}

/** What else a frame's stats are made of. */
export interface FrameCounts {
  balance: Balance;
  fenced: boolean;
  traversal: TraversalResult;
  lws?: LwsStats;
  fromRoot: boolean;
  startCount: number;
  frontSize: number;
  candidates: number;
  orphans: number;
  pairs: number;
  roundTrips: number;
  rollbacks: number;
  chunks: number;
  peakBytes: number;
}

/** The frame's CcdStats: wall ms per stage, passes (and GPU ms when profiled) from `clock`. */
export async function frameStats(clock: StageClock, t: FrameTimes, c: FrameCounts): Promise<CcdStats> {
  const r = c.traversal;
  const wall = {
    refit: t.t1 - t.t0,
    front: t.t2 - t.t1 + t.front,
    traversal: t.t3 - t.t2 - t.balancing - t.front,
    balancing: c.balance === 'static' ? t.balancing : null,
    elementary: t.t4 - t.t3,
  };
  const passes = clock.total;
  // unfenced, the stages overlap on the GPU: no stage has a wall time of its own
  const { stages, kernels, gpuMs } = await clock.finish(c.fenced ? wall : { refit: null, front: null, traversal: null, balancing: null, elementary: null });
  const lanes = r.lanes ?? 0;
  return {
    balance: c.balance,
    refitMs: wall.refit,
    frontMs: wall.front,
    traversalMs: wall.traversal,
    balancingMs: wall.balancing ?? 0,
    elementaryMs: wall.elementary,
    totalMs: t.t4 - t.t0,
    stages,
    kernels,
    gpuMs,
    passes,
    roundTrips: c.roundTrips,
    rollbacks: c.rollbacks,
    iterations: r.iterations,
    nodesProcessed: r.nodes,
    utilisation: lanes > 0 ? r.nodes / (lanes * r.iterations) : r.iterations > 0 ? 1 : 0,
    frontStart: c.fromRoot ? 1 : c.startCount,
    frontSize: c.frontSize,
    fromRoot: c.fromRoot,
    candidates: c.candidates,
    orphans: c.orphans,
    tests: 15 * c.candidates + c.orphans,
    pairs: c.pairs,
    chunks: c.chunks,
    peakBytes: c.peakBytes,
    ...(c.lws ? { lws: c.lws } : {}),
  };
}
