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
import type { BrookContext } from './context';
import type { Layout, Stream } from './stream';

export interface PassRecord {
  /** 0-based position in the trace. */
  pass: number;
  kernel: string;
  /** Records written and the texture size of the domain. */
  records: number;
  width: number;
  height: number;
  /** Streams read ("name: float4 stream of 1000 records") and written. */
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

  constructor(private readonly ctx: BrookContext) {}

  get active(): boolean {
    return this.on;
  }

  /** Starts recording (clears any previous record). */
  start(): void {
    this.records = [];
    this.timings = [];
    this.on = true;
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

  /** @internal */
  begin(kernel: string, domain: Layout, reads: Map<string, Stream>, outputs: Stream[]): PassRecord {
    const record: PassRecord = {
      pass: this.records.length,
      kernel,
      records: domain.length,
      width: domain.width,
      height: domain.height,
      inputs: [...reads].map(([name, s]) => `${name}: ${s.describe()}`),
      outputs: outputs.map((s) => s.describe()),
      gpuMs: null,
    };
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
