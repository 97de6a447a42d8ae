/**
 * The CcdHost a Ccd hands its stages: it draws their passes through the pass runner, guards
 * their allocations (a refused one is a BrookError naming the pass, its size and the memory
 * budget), counts passes by stage (./stages.ts), round trips, chunks and rollbacks per frame, and
 * owns the deferred pyramid filter.
 */
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import type { KernelArgs } from '../../core/kernelargs';
import { runPass, type PassDesc } from '../../core/pass';
import type { Stream } from '../../core/stream';
import { DeferredFilter } from './filter';
import type { CcdFilter, CcdHost, ScratchType } from './host';
import { StageClock, type Stage } from './stages';

const mib = (b: number): string => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(0)} MiB` : `${(b / 1024).toFixed(1)} KiB`);
const recordBytes = (type: string): number => (type.endsWith('4') ? 16 : type === 'int2' ? 8 : 4);

export class CcdRunner implements CcdHost {
  readonly filter: CcdFilter;
  /** The current frame's pass counter by stage (a fresh one each frame: begin). */
  clock: StageClock;
  /** This frame's CPU round trips, chunks beyond one per pass, and static rollbacks. */
  roundTrips = 0;
  chunks = 0;
  rollbacks = 0;

  constructor(
    readonly ctx: BrookContext,
    readonly memoryBudget: number,
  ) {
    this.clock = new StageClock(ctx, false);
    this.filter = new DeferredFilter(this);
  }

  /** A fresh stage clock (profiled: under ctx.trace) for the next frame. */
  begin(profile: boolean): void {
    this.clock = new StageClock(this.ctx, profile);
  }

  /** Zeroes the frame's counters (round trips, chunks, rollbacks). */
  resetCounters(): void {
    this.roundTrips = 0;
    this.chunks = 0;
    this.rollbacks = 0;
  }

  run(spec: KernelSpec, args: KernelArgs): void {
    this.guarded(() => this.ctx.runInternal(spec, args), `pass ${spec.name}`, Object.keys(spec.outputs).map((k) => args[k] as Stream));
    this.clock.count();
  }

  pass(p: PassDesc): void {
    this.guarded(() => runPass(this.ctx, p), `pass ${p.name}`, (p.targets as Stream[]).filter((t) => t instanceof Object && 'length' in t));
    this.clock.count();
  }

  scratch(type: ScratchType, n: number, what: string): Stream {
    return this.guarded(() => this.ctx.scratch(type, n), what, [], [type, n]);
  }

  chunk(bytes: number, per = 1, budget = this.memoryBudget): number {
    return Math.max(1, Math.min(Math.floor(budget / bytes), Math.floor(this.ctx.caps.maxRecords / per)));
  }

  chunkBeside(bytes: number, per: number, held: number): number {
    return this.chunk(bytes, per, Math.max(this.memoryBudget - held, Math.floor(this.memoryBudget / 4)));
  }

  split(): void {
    this.chunks++;
  }

  stage(stage: Stage): void {
    this.clock.set(stage);
  }

  get currentStage(): Stage {
    return this.clock.stage;
  }

  count(n: number): void {
    this.clock.count(n);
  }

  roundTrip(n = 1): void {
    this.roundTrips += n;
  }

  rollback(): void {
    this.rollbacks++;
  }

  private guarded<T>(f: () => T, what: string, targets: Stream[], alloc?: [string, number]): T {
    try {
      return f();
    } catch (e) {
      const size = alloc ? `${alloc[1]} ${alloc[0]} records, ${mib(alloc[1] * recordBytes(alloc[0]))}` : targets.map((t) => `${t.length} ${t.type} records, ${mib(t.length * t.info.texelBytes)}`).join(' + ');
      throw this.renamed(e, what, size);
    }
  }

  renamed(e: unknown, what: string, size: string): unknown {
    const m = (e instanceof Error ? e.message : String(e)).replace(/^\(brookgl\) /, '');
    if (!/cannot render into these targets|out of GPU memory|GL_OUT_OF_MEMORY/i.test(m) || m.startsWith('ccd ')) return e;
    return new BrookError(
      `ccd ${this.clock.stage} stage, ${what} (${size}): ${m}. The traversal steps, front compaction and elementary tests run in chunks of ` +
        `createCcd's memoryBudget (${mib(this.memoryBudget)} now): pass a smaller one, e.g. createCcd(ctx, scene, { memoryBudget: ${Math.max(4096, Math.floor(this.memoryBudget / 4))} })`,
    );
  }
}
