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
 * clamp, reduce kernels (ctx.run into a stream, reduceValue), the host API (streamDecl,
 * streamRead/Write), streamGatherOp/ScatterOp, and ctx.reduce, filter, scan and sortStream
 * through src/reference. What does not (a BrookError names it): kernels written as GLSL
 * descriptions rather than Brook, vout kernels, write masks and queries, z-cull masks and
 * regions, the GPU techniques (binning, routing) and the apps (docs/brook.md, "CPU backend").
 */
import { BrookError, check } from '../core/errors';
import type { Capabilities } from '../core/caps';
import type { Kernel } from '../core/kernel';
import type { KernelSpec, RunOptions } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import { Stream, layoutFor, type StreamShape } from '../core/stream';
import type { Layout } from '../core/layout';
import type { StreamDomain } from '../core/domain';
import type { ElementType } from '../core/types';
import { typeInfo } from '../core/types';
import { reduceReference } from '../reference/reduce';
import { CpuStream } from './stream';
import { kernelSource, runCpuKernel, runCpuReduce } from './kernel';
import { describeValue } from '../core/checks';
import { cpuGatherOp, cpuScatterOp } from './ops';
import { cpuFilter, cpuScan, cpuSort } from './idioms';

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
  private disposed = false;

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
      throw new BrookError(`kernel ${spec.name}: the CPU backend's JavaScript did not compile (${(e as Error).message}); this is a bug in brookgl's JavaScript generator (src/brook/js.ts)`);
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
    const opts = Object.keys(options ?? {}).filter((k) => (options as Record<string, unknown>)[k] !== undefined && k !== 'internal');
    if (opts.length) throw new BrookError(`kernel ${spec.name}: run option${opts.length > 1 ? 's' : ''} ${opts.join(', ')} (z-cull masks, regions, write masks) are GPU passes; the CPU backend runs every record: run it on a GPU context (createContext())`);
    if (spec.brook?.reduce) runCpuReduce(spec, args);
    else runCpuKernel(spec, args);
  }

  /** @internal A library pass (domain copies): as run. */
  runInternal(kernel: Kernel | KernelSpec, args: Readonly<Record<string, Stream | StreamDomain>>): void {
    this.run(kernel, args as KernelArgs);
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

  /** Live streams and their bytes (no GL objects on the CPU: those counts stay 0). */
  stats(): { streams: number; bytes: number; textures: number; textureBytes: number; framebuffers: number; programs: number } {
    let bytes = 0;
    for (const s of this.streams) bytes += (s as CpuStream).data.byteLength;
    return { streams: this.streams.size, bytes, textures: 0, textureBytes: 0, framebuffers: 0, programs: 0 };
  }

  /** Releases every stream. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    for (const s of [...this.streams]) s.dispose();
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

/** Whether `ctx` is a CPU context. */
export function isCpuContext(ctx: unknown): ctx is CpuContext {
  return ctx instanceof CpuContext;
}
