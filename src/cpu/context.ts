/**
 * brookgl's CPU backend, as BrookGPU's `BRT_RUNTIME=cpu`: the same streams and Brook host API
 * with no GPU, in Node (>= 20) and in a page.
 *
 * ```ts
 * import { createContext, brook } from 'brookgl';
 * const ctx = createContext({ backend: 'cpu' });
 * const { saxpy } = brook`kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }`;
 * const x = ctx.stream('float', 4, [1, 2, 3, 4]), y = ctx.stream('float', 4, [1, 1, 1, 1]), r = ctx.stream('float', 4);
 * ctx.run(saxpy, { a: 2, x, y, r });
 * r.readSync();                                // Float32Array [3, 5, 7, 9]
 * ```
 *
 * Streams are typed arrays (stream.ts); a Brook kernel is JavaScript generated from the same
 * typed tree as its GLSL (src/brook/js.ts) and run record by record (kernel.ts), float32
 * arithmetic rounded with Math.fround. Where BrookGPU's CPU backend and its GPU backends
 * differed, the CPU backend is followed: 8-bit (char) outputs wrap modulo 256 as C's unsigned
 * char arithmetic did (sum_uchar's gold), where a GPU texture saturates at 255.
 *
 * What runs: write/read, domains, struct streams, iterators, indexof, gathers with the edge
 * clamp, reduce kernels (ctx.run into a stream, reduceValue), vout kernels (voutRun, vout.ts),
 * matrices (matrix.ts), the host API (streamDecl, streamRead/Write), streamGatherOp/ScatterOp,
 * and ctx.reduce, filter, scan and sortStream through src/reference; z-cull masks (ctx.zmask,
 * buildMask, run's mask and invert), regions, Brook's write masks and write queries, and
 * ctx.queries' occlusion queries, as the depth test, scissor and fragment count of a GPU pass
 * played record by record (masks.ts). What does not (a BrookError names it): kernels written as
 * GLSL descriptions rather than Brook, the GPU techniques (binning, routing) and the apps
 * (docs/brook.md, "CPU backend").
 */
import { BrookError, check } from '../core/errors';
import { compileError } from './csp';
import type { Capabilities } from '../core/caps';
import type { Stats } from '../core/context';
import type { Kernel } from '../core/kernel';
import type { KernelSpec, RunOptions } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import { Stream, layoutFor, type StreamShape } from '../core/stream';
import type { Layout } from '../core/layout';
import { StreamDomain } from '../core/domain';
import type { ElementType } from '../core/types';
import { typeInfo } from '../core/types';
import { reduceReference } from '../reference/reduce';
import { CpuStream } from './stream';
import { kernelSource, runCpuKernel, runCpuReduce } from './kernel';
import { checkFunction, checkOptions, describeValue } from '../core/checks';
import { cpuGatherOp, cpuScatterOp, cpuScatterReduce } from './ops';
import { cpuFilter, cpuScan, cpuSort } from './idioms';
import { CpuDepth, planRun, type RunGate, type RunTarget } from './masks';
import type { ZMask } from '../core/zmask';
import { REDUCE_FACTOR } from '../core/reduce';
import { boundMaskOn, maskedOutput, openQueryOn } from '../brt/lower';

/** `ctx.caps.renderer` of a CPU context. */
export const CPU_RENDERER = 'brookgl CPU (JavaScript)';

/** Options of `createContext({ backend: 'cpu' })`. */
export interface CpuContextOptions {
  backend: 'cpu';
}

const MAX_SIDE = 16384;

export class CpuContext {
  /** Which backend this context is: 'cpu'. */
  readonly backend = 'cpu' as const;
  readonly caps: Capabilities = {
    renderer: CPU_RENDERER, vendor: 'brookgl', version: 'JavaScript', maxTextureSize: MAX_SIDE, maxDrawBuffers: Infinity,
    maxTextureImageUnits: Infinity, maxArrayTextureLayers: 0, maxPointSize: 0, maxRecords: MAX_SIDE * MAX_SIDE, extensions: [],
    floatBlend: false, timerQuery: false, floatLinear: false, software: true,
  };
  readonly debug = false;
  private readonly streams = new Set<Stream>();
  private readonly masks = new Set<CpuDepth>();
  /** Occlusion queries open now (queries.occlusion): each adds the records every run writes. */
  private readonly occlusions: Array<{ written: number }> = [];
  private disposed = false;

  /**
   * Occlusion queries, timer queries and fences as a GPU context's `ctx.queries` offers them
   * (core/queries.ts), with the same Promise shape: on the CPU every answer is known when the
   * call returns, so each Promise is already settled. `occlusion(draw)` resolves true when a run
   * inside `draw` wrote a record (not discarded, not masked off), as ANY_SAMPLES_PASSED; `time`
   * resolves null, as on a GPU without EXT_disjoint_timer_query (caps.timerQuery is false).
   */
  readonly queries = {
    fence: (): Promise<void> => {
      this.guard();
      return Promise.resolve();
    },
    occlusion: (draw: () => void): Promise<boolean> => {
      this.guard();
      checkFunction(draw, 'queries.occlusion: draw', '() => ctx.run(kernel, args)');
      const counter = { written: 0 };
      this.occlusions.push(counter);
      try {
        draw();
      } finally {
        this.occlusions.splice(this.occlusions.indexOf(counter), 1);
      }
      return Promise.resolve(counter.written > 0);
    },
    time: (draw: () => void): Promise<number | null> => {
      this.guard();
      checkFunction(draw, 'queries.time: draw', '() => ctx.run(kernel, args)');
      draw();
      return Promise.resolve(null);
    },
    /** @internal */
    turn: (): Promise<void> => Promise.resolve(),
  };

  get isLost(): boolean {
    return this.disposed;
  }

  guard(): void {
    if (this.disposed) throw new BrookError('this CPU context was disposed: make a new one with createContext({ backend: \'cpu\' })');
  }

  /** A new stream of `type` records (a typed array): `length` for 1D, `[height, width]` for 2D, 3D and 4D as arrays. */
  stream(type: ElementType, shape: StreamShape, data?: ArrayLike<number>): Stream {
    this.guard();
    typeInfo(type); // a BrookError for an unknown type
    const s = new CpuStream(this as never, type, shape);
    if (data !== undefined) {
      try {
        s.write(data);
      } catch (e) {
        s.dispose();
        throw e;
      }
    }
    return s;
  }

  /** A temporary stream (on the CPU, the same as `stream`). */
  scratch(type: ElementType, shape: StreamShape): Stream {
    return this.stream(type, shape);
  }

  layout(shape: StreamShape): Layout {
    return layoutFor(shape, MAX_SIDE);
  }

  /**
   * A kernel compiled for this context: its JavaScript generated and parsed now (a BrookError
   * for a description the CPU cannot run), as a GPU context's `kernel` links its program.
   */
  kernel(spec: KernelSpec): Kernel {
    this.guard();
    check(spec !== null && typeof spec === 'object' && typeof spec.name === 'string', () => `kernel(spec): expected a kernel description (from the brook tag), got ${describeValue(spec)}`);
    const source = kernelSource(spec);
    try {
      new Function('R', 'DISCARD', source);
    } catch (e) {
      throw compileError(e, spec.name); // (a Content-Security-Policy without 'unsafe-eval' says so: csp.ts)
    }
    return { spec } as unknown as Kernel;
  }

  /**
   * Runs a Brook kernel over its output streams: `ctx.run(kernel, { param: stream | value })`,
   * as on a GPU context. Reduce kernels reduce into their result stream.
   */
  run(kernel: Kernel | KernelSpec, args: KernelArgs, options: RunOptions = {}): void {
    this.guard();
    const spec = kernelSpec(kernel);
    const o = checkOptions(options, `kernel ${spec.name}: run options`) as RunOptions;
    // what counts this run's records: an open write query (the user's runs, not mask builds), open occlusion queries (every run)
    const query = o.build || o.internal ? undefined : openQueryOn(this as never);
    const counters = this.occlusions.length > 0 || query?.written !== undefined;
    const add = (n: number, runs = 1) => {
      if (n < 0) return;
      for (const c of this.occlusions) c.written += n;
      query?.written?.(n, runs);
    };
    if (spec.brook?.reduce) {
      check(!o.mask && !o.region, () => `reduce kernel ${spec.name}: masks and regions do not apply to reductions`);
      runCpuReduce(spec, args);
      if (counters) add(...reducePassRecords(spec, args));
      return;
    }
    // Brook's bound write mask (src/brt/writemask.ts) applies to the user's runs, as src/brt/lower.ts applies it on a GPU context
    let opts = o;
    const bound = o.internal || o.build || o.mask || o.writeMask ? undefined : boundMaskOn(this as never);
    if (bound && !bound.disposed && (bound.testing || bound.setting) && args !== null && typeof args === 'object' && spec.outputs) {
      const found = maskedOutput(spec, args);
      const out = found?.stream;
      const depth = bound.depth as unknown as CpuDepth;
      if (out && !out.disposed) {
        const { width, height } = out.layout;
        if (width !== depth.width || height !== depth.height) {
          throw new BrookError(
            `kernel ${spec.name}: a write mask of ${depth.height}x${depth.width} (rows x columns) is bound with its ${[bound.testing && 'test', bound.setting && 'set'].filter(Boolean).join(' and ')} enabled, but output '${found.name}' (${out.describe()}) has a ${height}x${width} texture; ` +
              'create the mask with the output\'s size, or unbind it (or disable its test and set) around this run',
          );
        }
        opts = { ...o, writeMask: { mask: bound.depth, test: bound.testing, set: bound.setting } };
      }
    }
    const plain = !opts.mask && !opts.build && !opts.writeMask && (opts.region ?? 'all') === 'all' && opts.invert === undefined;
    const gateFor = plain && !counters ? undefined : (t: RunTarget): RunGate => planRun(spec.name, t, opts, counters);
    add(runCpuKernel(spec, args, gateFor));
  }

  /**
   * @internal voutRun on the CPU (src/idioms/vout.ts): a vout kernel run once over its input's
   * records, their pushes kept in order with their count within the record, `cap` a record at most.
   */
  voutPushes(kernel: Kernel | KernelSpec, args: KernelArgs, cap: number): { vals: Array<number | number[]>; ks: number[] } {
    this.guard();
    const collect = { cap, vals: [] as Array<number | number[]>, ks: [] as number[] };
    runCpuKernel(kernelSpec(kernel), args, undefined, collect);
    return collect;
  }

  /** @internal A library call's own pass (domain copies, idioms): as run, marked internal (a bound write mask and a write query leave it alone). */
  runInternal(kernel: Kernel | KernelSpec, args: KernelArgs, options: RunOptions = {}): void {
    this.run(kernel, args, { ...options, internal: true });
  }

  /** A z mask (core/zmask.ts, masks.ts) for streams laid out like `like` (the same texture size). */
  zmask(like: Stream): ZMask {
    this.guard();
    check(like instanceof CpuStream, () => `zmask: like: expected a stream of this CPU context, got ${describeValue(like)}`);
    check(!like.disposed, () => `zmask: like: the ${like.describe()} was disposed: pass a live stream`);
    check(like.ctx === (this as never), () => `zmask: like: the ${like.describe()} belongs to another context`);
    return this.depthBuffer(like.layout.width, like.layout.height);
  }

  /**
   * Builds `mask` with `builder`, a kernel that `discard`s the records that should run (Listing
   * 34-1): every record it keeps is skipped by later runs with `{ mask }`. Its outputs are bound
   * as usual but not written.
   */
  buildMask(mask: ZMask, builder: Kernel | KernelSpec, args: KernelArgs): void {
    this.guard();
    check(mask instanceof CpuDepth, () => `buildMask: mask must be a z mask of this CPU context (ctx.zmask(stream)), got ${describeValue(mask)}`);
    check((mask.ctx as unknown) === this, 'buildMask: mask: the z mask belongs to another context');
    this.run(builder, args, { build: mask });
    mask.builds++;
  }

  /** @internal A depth buffer of width x height texels, cleared to 1.0 (a z mask's, a write mask's). */
  depthBuffer(width: number, height: number): ZMask {
    this.guard();
    const d = new CpuDepth(this, width, height);
    this.masks.add(d);
    return d as unknown as ZMask;
  }

  /** @internal A depth buffer's dispose() tells its context (src/cpu/masks.ts). */
  forgetDepth(d: object): void {
    this.masks.delete(d as CpuDepth);
  }

  /** @internal streamGatherOp on the CPU (src/idioms/gatherop.ts calls it for a CPU context). */
  gatherOp(spec: KernelSpec, t: Stream, index: Stream, s: Stream, args: KernelArgs): void {
    this.guard();
    cpuGatherOp(spec, t, index, s, args);
  }

  /** @internal streamScatterOp on the CPU. */
  scatterOp(spec: KernelSpec, a: Stream, b: Stream, c: Stream, args: KernelArgs): void {
    this.guard();
    cpuScatterOp(spec, a, b, c, args);
  }

  /** @internal scatterReduce on the CPU (src/idioms/scatterop.ts calls it for a CPU context, after its checks). */
  scatterReduceOp(spec: KernelSpec, s: Stream, index: Stream, t: Stream, args: KernelArgs): void {
    this.guard();
    cpuScatterReduce(spec, s, index, t, args);
  }

  /** @internal filter, scan and sortStream on the CPU (src/idioms calls them for a CPU context; src/cpu/idioms.ts). */
  filterRecords(stream: Stream, keep: string | undefined, indices: boolean): { stream: Stream | null; count: number; indices: Stream | null } {
    this.guard();
    return cpuFilter(this, stream, keep, indices);
  }
  /** @internal */
  scanRecords(stream: Stream, exclusive: boolean): Stream {
    this.guard();
    return cpuScan(this, stream, exclusive);
  }
  /** @internal */
  sortRecords(keys: Stream, payload?: Stream): { keys: Stream; payload?: Stream; order: Stream } {
    this.guard();
    return cpuSort(this, keys, payload);
  }

  /** Reduces a whole stream to one record with 'sum', 'min' or 'max' (src/reference's reduceReference, in record order). */
  async reduce(stream: Stream, op: 'sum' | 'min' | 'max'): Promise<number[]> {
    return this.reduceSync(stream, op);
  }

  reduceSync(stream: Stream, op: 'sum' | 'min' | 'max'): number[] {
    this.guard();
    check(stream instanceof CpuStream && !stream.disposed, () => `reduce: stream: expected a live stream of this CPU context, got ${describeValue(stream)}`);
    check(op === 'sum' || op === 'min' || op === 'max', () => `reduce: the CPU backend reduces with 'sum', 'min' or 'max' (a GLSL { op } runs on a GPU context), got ${describeValue(op)}`);
    return reduceReference(stream.data, stream.info.components, op);
  }

  /**
   * A GPU context's Stats (src/core/context.ts), every key a number, so checks written for one
   * compare numbers on the other: there are no GL objects, pool or read spares on the CPU, so
   * those counts are 0. Beside them: live streams, z masks, and the bytes of their arrays.
   */
  stats(): Stats & { streams: number; bytes: number; masks: number } {
    let bytes = 0;
    for (const s of this.streams) bytes += (s as CpuStream).data.byteLength;
    for (const m of this.masks) bytes += m.depth!.byteLength;
    return {
      textures: 0,
      textureBytes: 0,
      renderbuffers: 0,
      renderbufferBytes: 0,
      framebuffers: 0,
      programs: 0,
      vertexArrays: 0,
      buffers: 0,
      queries: 0,
      syncs: 0,
      pooledTextures: 0,
      readSpares: 0,
      readSpareBytes: 0,
      streams: this.streams.size,
      bytes,
      masks: this.masks.size,
    };
  }

  /** Releases every stream. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    for (const s of [...this.streams]) s.dispose();
    for (const m of [...this.masks]) m.dispose();
    this.disposed = true;
  }

  // ---- what Stream's constructor asks of its context
  /** @internal */
  adopt(stream: Stream): void {
    this.streams.add(stream);
  }
  /** @internal */
  forget(stream: Stream): void {
    this.streams.delete(stream);
  }
  /** @internal Streams hold no texture here: a placeholder their constructor keeps. */
  createTexture(): WebGLTexture {
    return {} as WebGLTexture;
  }
  /** @internal */
  acquireTexture(): WebGLTexture {
    return {} as WebGLTexture;
  }
  get gl(): never {
    throw new BrookError('this is a CPU context (createContext({ backend: \'cpu\' })): it has no WebGL; this call needs a GPU context (createContext())');
  }
}

function kernelSpec(kernel: Kernel | KernelSpec): KernelSpec {
  check(kernel !== null && typeof kernel === 'object', () => `run: expected a kernel (from the brook tag), got ${describeValue(kernel)}`);
  return 'spec' in kernel ? kernel.spec : kernel;
}

/**
 * The records a reduce kernel's passes write on a GPU context (src/brt/reducekernel.ts), which
 * an open write query counts there, and the passes: to one record, ceil(n / REDUCE_FACTOR) per
 * pass while more than REDUCE_FACTOR remain, then 1; to m records (1D or 2D), m in one pass.
 */
function reducePassRecords(spec: KernelSpec, args: KernelArgs): [records: number, passes: number] {
  const red = spec.brook!.reduce!;
  const src = args[red.input];
  const out = args[red.result];
  const length = (x: unknown) => (x instanceof Stream || x instanceof StreamDomain ? x.length : 0);
  if (length(out) !== 1) return [length(out), 1];
  let n = length(src);
  let total = 0;
  let passes = 1;
  while (n > REDUCE_FACTOR) (total += n = Math.ceil(n / REDUCE_FACTOR)), passes++;
  return [total + 1, passes];
}

/** Whether `ctx` is a CPU context. */
export function isCpuContext(ctx: unknown): ctx is CpuContext {
  return ctx instanceof CpuContext;
}
