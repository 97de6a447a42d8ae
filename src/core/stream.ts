/**
 * Streams: n records of one element type in a texture (Brook's `float4 a<n>`).
 *
 * A 1D stream of n records is laid out row by row in a 2D texture whose width is a power of two
 * near sqrt(n) (Horn's "1D-to-2D address translation", GPU Gems 2 section 36.1): record i lives
 * at texel (i mod width, i div width), and the last row may be partly unused. A 2D stream of
 * shape [height, width] is a texture of exactly that size, so it can be shown as an image.
 * Kernels never see these coordinates unless they ask: the runtime generates the translation.
 *
 * ```ts
 * const s = ctx.stream('float2', 1000, data);   // write on creation
 * s.write(other);                               // or later
 * const back = await s.read();                  // Float32Array(2000), without stalling the GPU
 * s.dispose();
 * ```
 */
import { BrookError } from './errors';
import type { Device } from './device';
import type { KernelSpec } from './kernelspec';
import { ElementType, StreamData, TypeInfo, allocate, arrayKind, typeInfo } from './types';
import { describeValue } from './checks';
import type { StreamShape } from './layout';
import type { Layout } from './layout';
import { readStream, readStreamSync, type ReadOptions } from './streamread';
import { StreamDomain, type DomainBound } from './domain';

export { layoutFor } from './layout';
export type { Layout, StreamShape } from './layout';
export type { ReadMethod, ReadOptions } from './streamread';

/**
 * The context as its streams see it: the device (GL, textures, the pool, queries) and the verbs
 * a stream is made, copied and read through. BrookContext implements it, and `stream.ctx` is
 * the context that made the stream; streams, domains, struct streams, reads and reductions name
 * this, not context.ts, which imports them.
 */
export interface StreamHost extends Device {
  /** A new stream (`ctx.stream`). */
  stream(type: ElementType, shape: StreamShape, data?: ArrayLike<number>): Stream;
  /** A stream whose texture comes from the texture pool, for temporaries (`ctx.scratch`). */
  scratch(type: ElementType, shape: StreamShape): Stream;
  /** Runs a library pass over its output (`ctx.runInternal`: no write mask applies): domain copies and the read's packing pass. */
  runInternal(kernel: KernelSpec, args: Readonly<Record<string, Stream | StreamDomain>>): void;
  /** Texture layout for a stream shape (layoutFor within this context's MAX_TEXTURE_SIZE). */
  layout(shape: StreamShape): Layout;
  /** @internal Counts a new stream (dispose() releases it with the context). */
  adopt(stream: Stream): void;
  /** @internal Forgets a disposed stream. */
  forget(stream: Stream): void;
}

/**
 * What `stream.ctx` is beyond a StreamHost: empty here, and context.ts merges BrookContext into
 * it (`declare module './stream'`), so a user's `stream.ctx` (and a domain's, a struct stream's)
 * is the whole BrookContext (`s.ctx.run`, `filter(s.ctx, ...)`) while stream.ts and the core
 * modules below context.ts import nothing of it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
export interface StreamContext {}

/** The context a stream was made by, as its `ctx` is typed: a BrookContext (see StreamContext). */
export type StreamOwner = StreamHost & StreamContext;

export class Stream {
  readonly type: ElementType;
  readonly info: TypeInfo;
  readonly layout: Layout;
  private tex: WebGLTexture | null;
  /** Internal temporaries go back to the texture pool on dispose; user streams free theirs. */
  private readonly pooled: boolean;

  /** Use `ctx.stream(type, shape)`. */
  constructor(
    readonly ctx: StreamOwner,
    type: ElementType,
    shape: StreamShape,
    options: { pooled?: boolean } = {},
  ) {
    this.info = typeInfo(type);
    this.type = type;
    this.layout = ctx.layout(shape);
    this.pooled = options.pooled ?? false;
    this.tex = this.pooled
      ? ctx.acquireTexture(this.layout.width, this.layout.height, this.info, this.layout.dims === 1 ? 'class' : 'exact')
      : ctx.createTexture(this.layout.width, this.layout.height, this.info);
    ctx.adopt(this);
  }

  /** Number of records. */
  get length(): number {
    return this.layout.length;
  }
  /** [n] for a 1D stream, [height, width] for a 2D one, [d, h, w] / [c, d, h, w] for 3D / 4D. */
  get shape(): readonly number[] {
    return this.layout.shape;
  }
  get disposed(): boolean {
    return this.tex === null;
  }

  /** @internal The texture holding the records now (ping-pong passes swap it). */
  get texture(): WebGLTexture {
    if (!this.tex) throw new BrookError(`${this.describe()} was disposed: it cannot be used any more`);
    return this.tex;
  }

  /** @internal Installs a new texture after a ping-pong pass and returns the old one. */
  swapTexture(tex: WebGLTexture): WebGLTexture {
    const old = this.texture;
    this.tex = tex;
    return old;
  }

  /**
   * Writes all records: `length x components` numbers (a float3 stream of n records takes 3n).
   * Float streams take a Float32Array or numbers; int and uint streams an Int32Array,
   * Uint32Array or integers; char streams a Uint8Array or integers 0..255 (their bytes).
   */
  write(data: ArrayLike<number>): this {
    this.ctx.guard();
    const { info, layout } = this;
    const texels = this.toTexels(data);
    const gl = this.ctx.gl;
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    const rows = Math.floor(layout.length / layout.width);
    const rest = layout.length - rows * layout.width;
    if (rows > 0) {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, info.format, info.glType, texels, 0);
    }
    if (rest > 0) {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, rows, rest, 1, info.format, info.glType, texels, rows * layout.width * info.channels);
    }
    gl.bindTexture(gl.TEXTURE_2D, null);
    return this;
  }

  /**
   * Reads all records back now, stalling until the GPU has finished the passes that write them.
   * Moves the same bytes as `read()` (see there).
   */
  readSync(options: ReadOptions = {}): StreamData {
    return readStreamSync(this, options);
  }

  /**
   * Reads all records back without stalling the pipeline: the copy goes into a pixel-pack
   * buffer, a fence follows it, and the fence is polled until the GPU has passed it.
   *
   * Only the bytes of the records cross to the CPU (readback is the slowest link on every GPU
   * measured, ≈ 0.5 GB/s in Chrome): a 4-component stream is read as its own RGBA texels, the
   * rows it fills and the filled part of its last row; a 3-component stream (and a 1- or
   * 2-component one whose own format cannot be read) is first packed four scalars to a texel
   * by one pass (glsl/core/read-pack-*.glsl, as 32-bit patterns,
   * so every value comes back bit for bit) and that is read. An n-record stream of c
   * components moves 4·n·c bytes rounded up to a whole texel (16 bytes). By default (`method:
   * 'native'`) a 1- or 2-component stream is read directly in its own RED / RG format where
   * the implementation offers it (IMPLEMENTATION_COLOR_READ_FORMAT), with no pass; `'pack'`
   * always packs. From READ_BAND_BYTES (8 MiB) up the rows go in READ_BANDS row bands, a
   * buffer and a fence each, each band copied out as soon as its fence signals. `into` fills
   * an array of the caller's instead of a new one (a loop saves the new array's first touch).
   */
  async read(options: ReadOptions = {}): Promise<StreamData> {
    return readStream(this, options);
  }

  /**
   * Brook's `a.domain(start, end)`: a view of records start..end-1 (a number each for a 1D
   * stream; for 2D to 4D, arrays x first — x the last dimension of the shape — as Brook's
   * int2..int4). Usable as a kernel input, gather or output and for host I/O; owns no texture.
   * @example const inner = a.domain([1, 1], [9, 9]);   // a [8, 8] view of a [10, 10] stream
   */
  domain(start: DomainBound, end: DomainBound): StreamDomain {
    this.ctx.guard();
    return new StreamDomain(this, start, end);
  }

  /** Releases the texture. Idempotent. */
  dispose(): void {
    if (!this.tex) return;
    const { width, height } = this.layout;
    if (this.pooled && !this.ctx.isLost) this.ctx.releaseTexture(this.tex, width, height, this.info);
    else if (this.ctx.resources.owns(this.tex)) this.ctx.deleteTexture(this.tex);
    this.tex = null;
    this.ctx.forget(this);
  }

  /** e.g. "float4 stream of 1000 records" (used in error messages and traces). */
  describe(): string {
    const shape = this.layout.dims === 1 ? `${this.length} records` : `[${this.shape.join(', ')}] records`;
    return `${this.type} stream of ${shape}`;
  }

  private toTexels(data: ArrayLike<number>): StreamData {
    const { info, layout } = this;
    const expected = layout.length * info.components;
    const kind = checkWriteData(this, data);
    if (info.components === info.channels) {
      return kind !== undefined ? (data as StreamData) : copyInto(allocate(info.host, expected), data);
    }
    // three components stored in four channels
    const out = allocate(info.host, layout.length * 4);
    for (let i = 0, j = 0; i < layout.length; i++, j += 4) {
      out[j] = data[i * 3]!;
      out[j + 1] = data[i * 3 + 1]!;
      out[j + 2] = data[i * 3 + 2]!;
    }
    return out;
  }
}

/**
 * @internal The checks of a stream's write(data), shared by both backends (a CPU stream's write,
 * src/cpu/stream.ts, refuses with the same words): a typed array of the stream's kind or an array
 * of numbers, `length x components` of them, integers in range for int, uint and 8-bit streams.
 * Returns the typed array's kind, or undefined for numbers to convert.
 */
export function checkWriteData(stream: Stream, data: ArrayLike<number>): 'float' | 'int' | 'uint' | 'char' | undefined {
  const { info, layout } = stream;
  const expected = layout.length * info.components;
  const want = { float: 'Float32Array', int: 'Int32Array', uint: 'Uint32Array', char: 'Uint8Array' }[info.host];
  const isTyped = ArrayBuffer.isView(data) && !(data instanceof DataView);
  if (!Array.isArray(data) && !isTyped) {
    throw new BrookError(`write(data): data must be a ${want} or an array of numbers for the ${stream.describe()}, got ${describeValue(data)}`);
  }
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    throw new BrookError(`write(data): a ${data.constructor.name} holds BigInts; pass a ${want} for the ${stream.describe()}`);
  }
  if (data.length !== expected) {
    throw new BrookError(
      `write() got ${data.length} numbers for the ${stream.describe()}: it needs ${expected} ` +
        `(${layout.length} records x ${info.components} components)`,
    );
  }
  const own = arrayKind(data);
  const kind = own === 'char' && info.host !== 'char' ? undefined : own; // bytes are plain numbers to other streams
  if (Array.isArray(data)) {
    // strings, booleans, objects and holes would become NaN, 0 or 1 on the GPU: refuse them
    for (let i = 0; i < data.length; i++) {
      const v: unknown = data[i];
      if (typeof v !== 'number') throw new BrookError(`write(data): element ${i} is ${i in data ? describeValue(v) : 'a hole (sparse array)'}, not a number, for the ${stream.describe()}`);
    }
  }
  if (kind !== undefined && kind !== info.host) {
    throw new BrookError(`write() got a ${data.constructor.name} for the ${stream.describe()}: pass a ${want}`);
  }
  if (kind === undefined && info.host !== 'float') {
    const [lo, hi] = info.host === 'int' ? [-0x80000000, 0x7fffffff] : [0, info.host === 'char' ? 0xff : 0xffffffff];
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      const ok = Number.isInteger(v) && v >= lo && v <= hi;
      if (!ok) throw new BrookError(`write(): element ${i} is ${v}, not a valid ${info.host === 'char' ? 'byte (0 to 255)' : info.host} for the ${stream.describe()}`);
    }
  }
  return kind;
}

function copyInto(target: StreamData, source: ArrayLike<number>): StreamData {
  for (let i = 0; i < source.length; i++) target[i] = source[i]!;
  return target;
}
