/**
 * Write queries: how many records the kernels run between `begin()` and `end()` wrote, that is,
 * did not `discard` (BrookGPU's `write_query`, which it built on occlusion queries).
 *
 * ```ts
 * const q = writeQuery(ctx);                // Brook: write_query q = write_query::create();
 * q.begin();                                 //        q.begin();
 * ctx.run(CopyBelow, { s, t: 100, o });      //        CopyBelow(s, 100, o);
 * q.end();                                   //        q.end();
 * const n = await q.count();                 //        n = q.count();   (countSync() blocks)
 * ```
 *
 * WebGL2's occlusion queries answer only ANY_SAMPLES_PASSED (whether any fragment passed), not
 * how many, so the count is built another way, exactly: while a query is open, every kernel run
 * of the user's (ctx.run, reduce kernels; not the passes of library calls, `ctx.runInternal`:
 * a read's packing, domain copies, sorts, filters, as a BrookGPU stream read drew nothing) gets one
 * more render target, a uint stream cleared to 0 into which each fragment that reaches the end
 * of the kernel writes 1 — a discarded record, a record masked off by a z mask or outside a
 * region writes nothing. The target is summed by the uint reduction (exact modulo 2^32 per run,
 * and one run writes at most MAX_RECORDS < 2^32 records); the runs' sums are added on the CPU
 * as exact integers (below 2^53). Costs: the extra target (a pass more when the kernel already
 * uses every draw buffer), a clear and log16(n) reduction passes per run. Z-mask builds
 * (`{ build }`, depth only) are not counted.
 *
 * On a CPU context (createContext({ backend: 'cpu' })) the context counts the records each of
 * the user's runs wrote as it runs them (src/cpu/masks.ts) and adds them here (`written`): the
 * same records, the same counts (a reduce kernel's as its GPU fold passes write them), and the
 * same API; count() is settled at once.
 */
import type { BrookContext } from '../core/context';
import { BrookError, check } from '../core/errors';
import { Kernel } from '../core/kernel';
import { KernelSpec, RunOptions } from '../core/kernelspec';
import { KernelArgs, bindArguments } from '../core/kernelargs';
import { runPass } from '../core/pass';
import { reduceStream } from '../core/reduce';
import { runKernel } from '../core/run';
import { Stream, type StreamShape } from '../core/stream';
import { StreamDomain } from '../core/domain';
import { StructDomain } from '../core/struct';
import { openQueryOn, setOpenQuery, useBrookKinds } from './lower';

/** The hidden output a counted kernel writes 1 into. */
export const WRITE_QUERY_OUTPUT = 'writequery_count';


/** A write query on `ctx` (see the module comment). */
export function writeQuery(ctx: BrookContext): WriteQuery {
  check(ctx && typeof ctx === 'object' && typeof (ctx as BrookContext).scratch === 'function', 'writeQuery(ctx): ctx must be a BrookContext (createContext())');
  return new WriteQuery(ctx);
}

/** The domain the kernel's first output is written through (a struct output's: its first field's), if any. */
function outputDomain(spec: KernelSpec, args: KernelArgs): StreamDomain | undefined {
  for (const name in spec.outputs) {
    const v = args[name];
    if (v !== undefined) return v instanceof StreamDomain ? v : undefined;
    break;
  }
  for (const [name, p] of Object.entries(spec.structParams ?? {})) {
    const v = p.role === 'outputs' ? args[name] : undefined;
    if (v instanceof StructDomain) return Object.values(v.fields)[0];
    if (v !== undefined) return undefined;
  }
  return undefined;
}

export class WriteQuery {
  private state: 'new' | 'open' | 'ended' | 'disposed' = 'new';
  /** One 1-record uint stream per counted run, summed by count(). */
  private partials: Stream[] = [];
  /** Kernel runs counted since begin(). */
  runs = 0;
  /** On a CPU context: the records counted since begin() (the context counts them as it runs; src/cpu/context.ts). */
  private cpuRecords = 0;

  constructor(readonly ctx: BrookContext) {
    useBrookKinds();
  }

  /** Starts counting: the records written by every kernel run until end(). Starting again restarts. */
  begin(): void {
    check(this.state !== 'disposed', 'write query: begin() after dispose()');
    const other = openQueryOn(this.ctx);
    check(!other || other === this, 'write query: another write query is open on this context; end() it first (queries do not nest)');
    check(this.state !== 'open', 'write query: begin() twice without end()');
    this.release();
    this.runs = 0;
    this.cpuRecords = 0;
    this.state = 'open';
    setOpenQuery(this.ctx, this);
  }

  /** Stops counting. */
  end(): void {
    check(this.state === 'open', () => `write query: end() without begin() (the query is ${this.state})`);
    this.state = 'ended';
    setOpenQuery(this.ctx, undefined);
  }

  /** The records written between begin() and end(), read without blocking. */
  async count(): Promise<number> {
    this.checkEnded('count()');
    let total = this.cpuRecords;
    for (const s of this.partials) total += (await s.read())[0]!;
    return total;
  }

  /** The same, blocking until the GPU is done (Brook's `q.count()`). */
  countSync(): number {
    this.checkEnded('countSync()');
    let total = this.cpuRecords;
    for (const s of this.partials) total += s.readSync()[0]!;
    return total;
  }

  /** Frees the per-run sums (also done by the next begin()); the query cannot be used after. */
  dispose(): void {
    if (this.state === 'open') setOpenQuery(this.ctx, undefined);
    this.release();
    this.state = 'disposed';
  }

  /** @internal A CPU context's run wrote `n` records (not discarded, not masked off) while this query was open. */
  written(n: number, runs = 1): void {
    this.cpuRecords += n;
    this.runs += runs;
  }

  /** Runs `given` with the counting target added, on core's plain run (lower.ts, while the query is open). */
  run(given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): void {
    const spec = given instanceof Kernel ? given.spec : given;
    // the usual errors first, for the kernel as the user wrote it
    const plain = !spec || typeof spec !== 'object' || !spec.outputs || typeof args !== 'object' || args === null;
    if (plain || (given instanceof Kernel && given.owner !== this.ctx)) return runKernel(this.ctx, given, args, options);
    if (WRITE_QUERY_OUTPUT in spec.outputs) throw new BrookError(`kernel ${spec.name}: an output named '${WRITE_QUERY_OUTPUT}' is reserved while a write query is open`);
    const { outputs } = bindArguments(this.ctx, { spec }, args);
    const counted: KernelSpec = {
      ...spec,
      outputs: { ...spec.outputs, [WRITE_QUERY_OUTPUT]: 'uint' },
      epilogue: [spec.epilogue, `  ${WRITE_QUERY_OUTPUT} = 1u;`].filter(Boolean).join('\n'),
    };
    const sh = outputs[0]!.shape;
    const marks = this.ctx.scratch('uint', (sh.length === 1 ? sh[0]! : sh) as StreamShape);
    try {
      runPass(this.ctx, { name: `${spec.name} [write query clear]`, kind: 'clear', targets: [marks], count: 0, clear: { color: [0, 0, 0, 0] } });
      // outputs written through a domain: the marks through the same domain (every output covers the same records)
      const through = outputDomain(spec, args);
      const rank = marks.layout.dims;
      const target = through ? marks.domain(through.origin.slice(0, rank), through.origin.slice(0, rank).map((o, k) => o + through.extents[k]!)) : marks;
      runKernel(this.ctx, counted, { ...args, [WRITE_QUERY_OUTPUT]: target }, options);
      this.partials.push(reduceStream(this.ctx, marks, 'sum'));
      this.runs++;
    } finally {
      marks.dispose();
    }
  }

  private checkEnded(what: string): void {
    check(this.state !== 'disposed', () => `write query: ${what} after dispose()`);
    check(this.state === 'ended', () => `write query: ${what} needs begin() and end() first (the query is ${this.state})`);
  }

  private release(): void {
    for (const s of this.partials) if (!s.disposed) s.dispose();
    this.partials = [];
  }
}
