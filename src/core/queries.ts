/**
 * Occlusion queries, timer queries and fences, all polled without blocking.
 *
 * WebGL2 gives occlusion queries only as "any samples passed" (a boolean, no count), and a
 * query's result becomes available only after the page returns to its event loop — in Chrome a
 * frame or more after it was issued. So every method here returns a Promise that a shared
 * poller settles; nothing waits on the GPU inside a call.
 *
 * ```ts
 * const anyLeft = await ctx.queries.occlusion(() => ctx.run(terminate, { ... }));
 * const ms = await ctx.queries.time(() => ctx.run(step, { ... }));   // null if unavailable or disjoint
 * await ctx.queries.fence();                                         // GPU has finished what came before
 * ```
 */
import { BrookError } from './errors';
import { checkFunction } from './checks';
import type { Capabilities } from './caps';
import type { Resources } from './resources';

const TIME_ELAPSED_EXT = 0x88bf;
const GPU_DISJOINT_EXT = 0x8fbb;
/** Event-loop turns polled without a timer's clamp before falling back to setTimeout. */
const FAST_TURNS = 200;

interface Waiter {
  /** Polls once: true when settled. */
  step: () => boolean;
  /** Rejects with `error` and releases the GL object (context disposed). */
  fail: (error: Error) => void;
}

/**
 * What queries need of a context: its GL, capabilities, resource registry and liveness. Every
 * Device (a BrookContext) is one; it is declared here so that device.ts, which names Queries,
 * is not imported back.
 */
export interface QueryHost {
  readonly gl: WebGL2RenderingContext;
  readonly caps: Capabilities;
  readonly resources: Resources;
  readonly isLost: boolean;
  /** Throws a BrookError if the context was lost or disposed. */
  guard(): void;
}

export class Queries {
  private readonly waiting: Waiter[] = [];
  private scheduled = false;
  private turns = 0;
  private channel: MessageChannel | null = null;

  constructor(private readonly ctx: QueryHost) {}

  /** Resolves once the GPU has executed every command issued before this call. */
  fence(): Promise<void> {
    this.ctx.guard();
    const gl = this.ctx.gl;
    const sync = this.ctx.resources.sync();
    gl.flush();
    return this.poll(
      () => gl.clientWaitSync(sync, 0, 0) !== gl.TIMEOUT_EXPIRED,
      () => undefined,
      () => this.release(sync),
    );
  }

  /**
   * Runs `draw` inside an ANY_SAMPLES_PASSED query; resolves true when any fragment of it passed
   * the depth test (and was not discarded). The boolean is all WebGL2 reports.
   */
  occlusion(draw: () => void): Promise<boolean> {
    this.ctx.guard();
    checkFunction(draw, 'queries.occlusion: draw', '() => ctx.run(kernel, args)');
    const gl = this.ctx.gl;
    const query = this.ctx.resources.query();
    gl.beginQuery(gl.ANY_SAMPLES_PASSED, query);
    try {
      draw();
    } catch (e) {
      this.abandon(query, gl.ANY_SAMPLES_PASSED);
      throw e;
    }
    gl.endQuery(gl.ANY_SAMPLES_PASSED);
    gl.flush();
    return this.settleQuery(query, () => Boolean(gl.getQueryParameter(query, gl.QUERY_RESULT)));
  }

  /**
   * GPU milliseconds spent in `draw` (EXT_disjoint_timer_query_webgl2); resolves null when the
   * extension is missing or the measurement was disjoint (clock change, context switch) and so
   * was discarded.
   */
  time(draw: () => void): Promise<number | null> {
    this.ctx.guard();
    checkFunction(draw, 'queries.time: draw', '() => ctx.run(kernel, args)');
    const query = this.beginTimer();
    try {
      draw();
    } catch (e) {
      if (query) this.abandon(query, TIME_ELAPSED_EXT);
      throw e;
    }
    if (query) this.ctx.gl.endQuery(TIME_ELAPSED_EXT);
    return query ? this.timerResult(query) : Promise.resolve(null);
  }

  /** Ends and deletes a query whose draw threw (nothing will wait for it). */
  private abandon(query: WebGLQuery, target: number): void {
    if (!this.ctx.isLost) this.ctx.gl.endQuery(target);
    this.release(query);
  }

  /** @internal Starts a TIME_ELAPSED query (null when the extension is missing). */
  beginTimer(): WebGLQuery | null {
    if (!this.ctx.caps.timerQuery) return null;
    const query = this.ctx.resources.query();
    this.ctx.gl.beginQuery(TIME_ELAPSED_EXT, query);
    return query;
  }

  /** @internal The result of a timer query ended by the caller, in ms, or null if disjoint. */
  timerResult(query: WebGLQuery): Promise<number | null> {
    const gl = this.ctx.gl;
    gl.flush();
    return this.settleQuery(query, () => {
      if (gl.getParameter(GPU_DISJOINT_EXT)) return null;
      return (gl.getQueryParameter(query, gl.QUERY_RESULT) as number) / 1e6;
    });
  }

  /**
   * @internal Resolves after the poller's next turn, in which every waiter issued before it is
   * polled once (never rejects: a disposed or lost context resolves it too). For a caller about
   * to stall on the GPU that wants the answers already due first, without waiting for the rest.
   */
  turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push({
        step: () => {
          resolve();
          return true;
        },
        fail: () => resolve(),
      });
      this.schedule();
    });
  }

  /** @internal Rejects everything waiting with a BrookError and releases its GL objects (on dispose). */
  dispose(): void {
    const error = new BrookError('the brookgl context was disposed while a read, fence or query was pending: its result is gone');
    for (const w of this.waiting.splice(0)) w.fail(error);
    this.channel?.port1.close();
    this.channel = null;
  }

  /** Releases a query or sync unless the context's dispose already did. */
  private release(obj: object): void {
    if (this.ctx.resources.owns(obj)) this.ctx.resources.release(obj);
  }

  private settleQuery<T>(query: WebGLQuery, result: () => T): Promise<T> {
    const gl = this.ctx.gl;
    return this.poll(
      () => gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE) as boolean,
      result,
      () => this.release(query),
    );
  }

  /** Polls `ready` once per event-loop turn; then resolves with `value()`. `cleanup` always runs. */
  private poll<T>(ready: () => boolean, value: () => T, cleanup: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        step: () => {
          try {
            if (this.ctx.isLost) throw new BrookError('the WebGL context was lost while waiting for the GPU: create a new context');
            if (!ready()) return false;
            const v = value();
            cleanup();
            resolve(v);
          } catch (e) {
            cleanup();
            reject(e);
          }
          return true;
        },
        fail: (e) => {
          cleanup();
          reject(e);
        },
      });
      this.schedule();
    });
  }

  /**
   * Polls on the next event-loop turn. The first turns after a wait begins go through a
   * MessageChannel, which the browser runs at once; after FAST_TURNS of them it falls back to
   * setTimeout, which nested timers clamp to >= 4 ms. (Polling with setTimeout only made every
   * readback and fence cost at least 4.5 ms, even on an H100 that had finished in 0.1 ms.)
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const turn = () => {
      this.scheduled = false;
      const items = this.waiting.splice(0);
      for (const item of items) if (!item.step()) this.waiting.push(item);
      if (this.waiting.length) this.schedule();
      else this.turns = 0;
    };
    if (this.turns++ < FAST_TURNS) {
      this.channel ??= new MessageChannel();
      this.channel.port1.onmessage = turn;
      this.channel.port2.postMessage(null);
    } else {
      setTimeout(turn, 0);
    }
  }
}

/** Occlusion queries left unanswered by default: 8 on a GPU, 2 on a software renderer (bench 'binning'). */
export function defaultInFlight(ctx: QueryHost): number {
  return ctx.caps.software ? 2 : 8;
}

/**
 * A window of unanswered occlusion queries, for loops that decide on the GPU's answers without
 * stalling on each (predicated binning and routing, section 34.3's loop). WebGL2 has no
 * predicated rendering and answers a frame or more later, so up to `inFlight` passes are issued
 * before the oldest answer is awaited; the answers are read in issue order.
 *
 * ```ts
 * const win = new OcclusionWindow(ctx);                  // defaultInFlight(ctx)
 * for (let i = 0; i < max && !win.done; i++) {
 *   win.add(runPass(ctx, { ...pass(i), occlusion: true })!);
 *   await win.throttle();                                // fewer than inFlight unanswered
 * }
 * await win.drain();                                     // win.firstEmpty: the first pass that drew nothing
 * ```
 */
export class OcclusionWindow {
  private readonly pending: Array<{ index: number; answer: Promise<boolean> }> = [];
  private issued = 0;
  /** Issue index (0-based) of the first query answered "no sample passed", or -1. */
  firstEmpty = -1;
  readonly inFlight: number;

  constructor(ctx: QueryHost, inFlight?: number) {
    this.inFlight = inFlight ?? defaultInFlight(ctx);
    if (!Number.isInteger(this.inFlight) || this.inFlight < 1) throw new BrookError(`inFlight must be a positive integer, got ${this.inFlight}`);
  }

  /** Tracks the answer of a query just issued. */
  add(answer: Promise<boolean>): void {
    answer.catch(() => {}); // (a loop that fails before waiting for it must not leave it unhandled)
    this.pending.push({ index: this.issued++, answer });
  }

  /** Tracks the answer of a query just issued, then waits until fewer than inFlight are unanswered. */
  async admit(answer: Promise<boolean>): Promise<void> {
    this.add(answer);
    await this.throttle();
  }

  /** Unanswered queries. */
  get size(): number {
    return this.pending.length;
  }

  /** Whether some answered query saw no sample pass. */
  get done(): boolean {
    return this.firstEmpty >= 0;
  }

  /** Waits for the oldest unanswered query and returns its answer. */
  async next(): Promise<boolean> {
    const { index, answer } = this.pending.shift()!;
    const any = await answer;
    if (!any && this.firstEmpty < 0) this.firstEmpty = index;
    return any;
  }

  /** Waits until fewer than inFlight queries are unanswered. */
  async throttle(): Promise<void> {
    while (this.pending.length >= this.inFlight) await this.next();
  }

  /** Waits for every answer. */
  async drain(): Promise<void> {
    while (this.pending.length) await this.next();
  }

  /** Waits for every answer, whatever it is (a failed loop releases its queries before it rejects). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.pending.splice(0).map((p) => p.answer));
  }

  /** Stops waiting for the answers still pending (their queries are still released). */
  abandon(): void {
    for (const p of this.pending.splice(0)) p.answer.catch(() => {});
  }
}
