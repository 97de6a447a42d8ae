/**
 * Tracing: a pass-by-pass account of the work, for demos, the benchmark page and students
 * checking that a technique runs the passes its paper says.
 *
 * ```ts
 * ctx.trace.start();
 * ... run kernels, reductions, techniques ...
 * const passes = await ctx.trace.stop();   // GPU times filled in where the timer extension exists
 * console.table(passes);
 * ```
 */
import type { Queries } from './queries';

export interface PassRecord {
  /** 0-based position in the trace. */
  pass: number;
  /** What the pass is: 'kernel', 'mask' (a z-mask build), 'copy', 'clear', 'scatter', 'peel', 'route', 'draw', ... */
  kind: string;
  /** The kernel's or pass's name. */
  kernel: string;
  /** Records written and the texture size of the domain. */
  records: number;
  width: number;
  height: number;
  /** 'triangles', 'lines', 'points', or 'none' (clears and copies), and the vertices drawn. */
  primitive: string;
  vertices: number;
  /** Streams read ("name: float4 stream of 1000 records") and the targets written (streams, array layers, depth). */
  inputs: string[];
  outputs: string[];
  /** GPU milliseconds (EXT_disjoint_timer_query_webgl2); null when unavailable or disjoint. */
  gpuMs: number | null;
}

export class Tracer {
  private on = false;
  private records: PassRecord[] = [];
  private timings: Promise<unknown>[] = [];
  private timer: WebGLQuery | null = null;

  constructor(private readonly ctx: { readonly gl: WebGL2RenderingContext; readonly queries: Queries }) {}

  get active(): boolean {
    return this.on;
  }

  /** Starts recording (clears any previous record). */
  start(): void {
    this.records = [];
    this.timings = [];
    this.on = true;
  }

  /** Passes recorded since `start()` (0 when never started). */
  get length(): number {
    return this.records.length;
  }

  /**
   * The passes recorded so far, once their GPU times are in, while recording goes on (a copy;
   * for code that times its own stages inside a caller's trace).
   */
  async settled(): Promise<PassRecord[]> {
    await Promise.all(this.timings);
    return this.records.map((r) => ({ ...r }));
  }

  /** Stops recording and resolves with the passes once their GPU times are in. */
  async stop(): Promise<PassRecord[]> {
    this.on = false;
    await Promise.all(this.timings);
    const out = this.records;
    this.records = [];
    this.timings = [];
    return out;
  }

  /** @internal Records a pass (pass.ts calls it). */
  begin(pass: Omit<PassRecord, 'pass' | 'gpuMs'>): PassRecord {
    const record: PassRecord = { pass: this.records.length, ...pass, gpuMs: null };
    this.records.push(record);
    this.timer = this.ctx.queries.beginTimer();
    return record;
  }

  /** @internal */
  end(record: PassRecord): void {
    const query = this.timer;
    this.timer = null;
    if (!query) return;
    this.ctx.gl.endQuery(0x88bf /* TIME_ELAPSED_EXT */);
    this.timings.push(this.ctx.queries.timerResult(query).then((ms) => (record.gpuMs = ms), () => undefined));
  }
}
