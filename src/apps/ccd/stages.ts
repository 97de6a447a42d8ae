/**
 * Table 1's breakdown inside a CCD frame: every pass the pipeline draws belongs to one stage —
 * refit, front update, traversal, balancing, elementary tests — and is counted there. With
 * `step({ profile: true })` the frame runs under `ctx.trace` (the caller's, if one is
 * recording; else one of its own), so each pass also carries its GPU time
 * (EXT_disjoint_timer_query_webgl2), summed per stage and per kernel.
 *
 * Which passes are balancing: the passes that manage nodes rather than test them. Static: the
 * filter compacting the children into the next work list (gProximity's redistribution). Lazy work
 * stealing: the pop (with its steal round), the block prefix sum, the pointer update (with the
 * claims matrix) and the push onto the blocks' rings; its traversal is evalCollision and the occlusion-query
 * termination pass. Front update: the chunks of front nodes gathered and compacted (and, from a
 * saved front, nothing else). Elementary: choosing the candidate pairs from the front, the 15
 * feature tests per pair, the orphan tests, and the compaction of the hits.
 */
import type { BrookContext } from '../../core/context';

export type Stage = 'refit' | 'front' | 'traversal' | 'balancing' | 'elementary';
export const CCD_STAGES: readonly Stage[] = ['refit', 'front', 'traversal', 'balancing', 'elementary'];

export interface StageStats {
  /** Passes drawn in the stage (counted from ctx.trace when profiled, else by the pipeline). */
  passes: number;
  /** Wall-clock ms, each stage ended by a fence (step({ fences: true }), the default of
   * profiled frames); null in a frame without fences, and where the stage's passes interleave
   * with another's (lazy work stealing's balancing runs inside its traversal loop: counted there). */
  wallMs: number | null;
  /** GPU ms: the sum of the stage's pass times; null unless profiled with the timer extension
   * (or when a pass's measurement was disjoint). */
  gpuMs: number | null;
}

/** GPU time of one kernel within one stage (profiled frames). */
export interface KernelTime {
  stage: Stage;
  kernel: string;
  passes: number;
  gpuMs: number | null;
}

const zeroes = (): Record<Stage, number> => ({ refit: 0, front: 0, traversal: 0, balancing: 0, elementary: 0 });

/** Counts the passes of one frame by stage and, when profiling, marks them in the trace. */
export class StageClock {
  private current: Stage = 'refit';
  private readonly counted = zeroes();
  private readonly marks: Array<{ at: number; stage: Stage }> = [];
  private readonly ownTrace: boolean;
  private readonly base: number;

  constructor(
    private readonly ctx: BrookContext,
    readonly profile: boolean,
  ) {
    this.ownTrace = profile && !ctx.trace.active;
    if (this.ownTrace) ctx.trace.start();
    this.base = profile ? ctx.trace.length : 0;
    this.set('refit');
  }

  get stage(): Stage {
    return this.current;
  }

  /** The passes drawn from now on belong to `stage`. */
  set(stage: Stage): void {
    this.current = stage;
    if (this.profile) this.marks.push({ at: this.ctx.trace.length, stage });
  }

  /** Counts `n` passes in the current stage. */
  count(n = 1): void {
    this.counted[this.current] += n;
  }

  get total(): number {
    return CCD_STAGES.reduce((a, s) => a + this.counted[s], 0);
  }

  /** Ends the frame: passes per stage (from the trace when profiled), GPU times, kernel table. */
  async finish(wall: Record<Stage, number | null>): Promise<{ stages: Record<Stage, StageStats>; kernels: KernelTime[]; gpuMs: number | null }> {
    const stages = {} as Record<Stage, StageStats>;
    for (const s of CCD_STAGES) stages[s] = { passes: this.counted[s], wallMs: wall[s], gpuMs: null };
    if (!this.profile) return { stages, kernels: [], gpuMs: null };
    const records = this.ownTrace ? await this.ctx.trace.stop() : await this.ctx.trace.settled();
    for (const s of CCD_STAGES) stages[s].passes = 0;
    const kernels = new Map<string, KernelTime>();
    let gpu: number | null = 0;
    const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    let m = 0;
    for (let i = this.base; i < records.length; i++) {
      while (m + 1 < this.marks.length && this.marks[m + 1]!.at <= i) m++;
      const stage = this.marks[m]!.stage, r = records[i]!;
      const st = stages[stage];
      st.passes++;
      st.gpuMs = st.passes === 1 ? r.gpuMs : add(st.gpuMs, r.gpuMs);
      gpu = add(gpu, r.gpuMs);
      const key = `${stage}\u0000${r.kernel}`;
      const k = kernels.get(key) ?? { stage, kernel: r.kernel, passes: 0, gpuMs: 0 };
      k.passes++;
      k.gpuMs = add(k.gpuMs, r.gpuMs);
      kernels.set(key, k);
    }
    return { stages, kernels: [...kernels.values()], gpuMs: records.length > this.base ? gpu : null };
  }

  /** Stops a trace this clock started (a frame that threw). */
  abort(): void {
    if (this.ownTrace && this.ctx.trace.active) void this.ctx.trace.stop();
  }
}
