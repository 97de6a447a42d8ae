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
import { BrookError, check } from './errors';
import type { BrookContext } from './context';
import { ElementType, StreamData, TypeInfo, allocate, arrayKind, typeInfo } from './types';
import type { KernelSpec } from './kernel';
import READ_PACK_1 from '../../glsl/core/read-pack-1.glsl';
import READ_PACK_2 from '../../glsl/core/read-pack-2.glsl';
import READ_PACK_3 from '../../glsl/core/read-pack-3.glsl';
import READ_BITS from '../../glsl/core/read-bits.glsl';

/**
 * How `read()` moves a 1- or 2-component stream: `'native'` (default) reads RED / RG texels
 * where the implementation offers that format (IMPLEMENTATION_COLOR_READ_FORMAT, asked once per
 * texture format), else packs; `'pack'` always packs four scalars to a texel in one pass and
 * reads RGBA. Both move 4 bytes a scalar. Measured (peers bench, 2^22 floats): 27.5 vs 29.4 ms
 * on an H100, and on SwiftShader the pack pass costs more than the copy it saves.
 */
export type ReadMethod = 'pack' | 'native';

export interface ReadOptions {
  /** See `ReadMethod`; default 'native'. */
  method?: ReadMethod;
}

const RGBA_INTEGER = 0x8d99;
const UNSIGNED_INT = 0x1405;

interface ReadPlan {
  /** The texture read, its width in texels, and how many texels (in row order) hold data. */
  texture: WebGLTexture;
  width: number;
  texels: number;
  /** The packed copy, disposed once its read is issued. */
  temp: Stream | null;
  channels: number;
  format: number;
  glType: number;
  /** Texels hold 32-bit patterns of the records' scalars, four a texel. */
  packed: boolean;
  /** Texels are whole RGBA records of fewer components (take the first ones of each). */
  unpack: boolean;
}

/**
 * readPixels of the texels that hold data: the whole rows, then the filled part of the last
 * row (a stream's last row may be partly unused), into `dst` or the bound pixel-pack buffer.
 */
function issueReads(gl: WebGL2RenderingContext, plan: ReadPlan, dst: StreamData | null): void {
  const rows = Math.floor(plan.texels / plan.width);
  const rest = plan.texels - rows * plan.width;
  const rowScalars = plan.width * plan.channels;
  gl.pixelStorei(gl.PACK_ALIGNMENT, 4);
  if (dst) {
    const view = plan.glType === UNSIGNED_INT && !(dst instanceof Uint32Array) ? new Uint32Array(dst.buffer) : dst;
    if (rows > 0) gl.readPixels(0, 0, plan.width, rows, plan.format, plan.glType, view, 0);
    if (rest > 0) gl.readPixels(0, rows, rest, 1, plan.format, plan.glType, view, rows * rowScalars);
  } else {
    if (rows > 0) gl.readPixels(0, 0, plan.width, rows, plan.format, plan.glType, 0);
    if (rest > 0) gl.readPixels(0, rows, rest, 1, plan.format, plan.glType, rows * rowScalars * 4);
  }
}

const nativeFormats = new WeakMap<BrookContext, Map<number, boolean>>();

/**
 * Whether readPixels takes this texture format in its own format and type (RED/RG FLOAT, INT
 * or UNSIGNED_INT), as IMPLEMENTATION_COLOR_READ_FORMAT / _TYPE report for a framebuffer
 * holding it; asked once per context and internal format (getParameter may be a round trip).
 */
function nativeReadable(ctx: BrookContext, texture: WebGLTexture, info: TypeInfo): boolean {
  let known = nativeFormats.get(ctx);
  if (!known) nativeFormats.set(ctx, (known = new Map()));
  let ok = known.get(info.internalFormat);
  if (ok === undefined) {
    const gl = ctx.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([texture]));
    ok = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_FORMAT) === info.format && gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_TYPE) === info.glType;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    known.set(info.internalFormat, ok);
  }
  return ok;
}

/** The pass that packs a 1-3 component stream's scalars four to a uvec4 texel for readback. */
function packKernel(type: ElementType): KernelSpec {
  const body = [READ_PACK_1, READ_PACK_2, READ_PACK_3][typeInfo(type).components - 1]!;
  return { name: 'ReadPack', gathers: { src: type }, outputs: { texels: 'uint4' }, helpers: READ_BITS, body };
}
import { checkOptions, describeValue } from './validate';

/** A 1D length or a 2D `[height, width]` shape. */
export type StreamShape = number | readonly [number, number];

export interface Layout {
  /** Logical record count. */
  length: number;
  /** 1 for a 1D stream, 2 for a 2D one. */
  dims: 1 | 2;
  /** Logical shape: [n] or [height, width]. */
  shape: readonly number[];
  /** Texture size in texels. */
  width: number;
  height: number;
}

/** The texture layout of a shape, or a BrookError saying why the device cannot hold it. */
export function layoutFor(shape: StreamShape, maxTextureSize: number): Layout {
  if (typeof shape === 'number') {
    const n = shape;
    check(Number.isInteger(n) && n >= 1, () => `a stream length must be a positive integer, got ${n}`);
    const capacity = maxTextureSize * maxTextureSize;
    check(
      n <= capacity,
      () => `a stream of ${n} records exceeds this device's capacity of ${capacity} (MAX_TEXTURE_SIZE ${maxTextureSize} squared): split the data into several streams`,
    );
    let width = 1;
    while (width * width < n) width *= 2;
    width = Math.min(width, maxTextureSize);
    return { length: n, dims: 1, shape: [n], width, height: Math.ceil(n / width) };
  }
  check(
    Array.isArray(shape) && shape.length === 2,
    () => `a stream shape is a length n or a 2D [height, width], got ${describeValue(shape)}`,
  );
  const [h, w] = shape;
  check(
    Number.isInteger(h) && Number.isInteger(w) && h >= 1 && w >= 1,
    () => `a 2D stream shape must be two positive integers [height, width], got [${h}, ${w}]`,
  );
  check(
    h <= maxTextureSize && w <= maxTextureSize,
    () => `a 2D stream of [${h}, ${w}] exceeds MAX_TEXTURE_SIZE ${maxTextureSize} on this device`,
  );
  return { length: h * w, dims: 2, shape: [h, w], width: w, height: h };
}

export class Stream {
  readonly type: ElementType;
  readonly info: TypeInfo;
  readonly layout: Layout;
  private tex: WebGLTexture | null;
  /** Internal temporaries go back to the texture pool on dispose; user streams free theirs. */
  private readonly pooled: boolean;

  /** Use `ctx.stream(type, shape)`. */
  constructor(
    readonly ctx: BrookContext,
    type: ElementType,
    shape: StreamShape,
    options: { pooled?: boolean } = {},
  ) {
    this.info = typeInfo(type);
    this.type = type;
    this.layout = ctx.layout(shape);
    this.pooled = options.pooled ?? false;
    this.tex = this.pooled
      ? ctx.acquireTexture(this.layout.width, this.layout.height, this.info)
      : ctx.createTexture(this.layout.width, this.layout.height, this.info);
    ctx.adopt(this);
  }

  /** Number of records. */
  get length(): number {
    return this.layout.length;
  }
  /** [n] for a 1D stream, [height, width] for a 2D one. */
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
   * Uint32Array or integers.
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
    this.ctx.guard();
    const gl = this.ctx.gl;
    const plan = this.planRead(checkOptions(options, 'read(): options').method ?? 'native');
    try {
      const raw = allocate(plan.format === RGBA_INTEGER && plan.glType === UNSIGNED_INT ? 'uint' : this.info.kind, plan.texels * plan.channels);
      gl.bindFramebuffer(gl.FRAMEBUFFER, this.ctx.framebufferFor([plan.texture]));
      issueReads(gl, plan, raw);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      return this.finishRead(plan, raw);
    } finally {
      plan.temp?.dispose();
    }
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
   * always packs.
   */
  async read(options: ReadOptions = {}): Promise<StreamData> {
    this.ctx.guard();
    const ctx = this.ctx;
    const gl = ctx.gl;
    const plan = this.planRead(checkOptions(options, 'read(): options').method ?? 'native');
    let buffer: WebGLBuffer | null = null;
    try {
      buffer = ctx.resources.buffer();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, plan.texels * plan.channels * 4, gl.STREAM_READ);
      ctx.checkAllocation(buffer, plan.texels * plan.channels * 4, `the readback buffer of a ${this.describe()}`);
      gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([plan.texture]));
      issueReads(gl, plan, null);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      plan.temp?.dispose();
      plan.temp = null;
      await ctx.queries.fence();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      let out: StreamData;
      if (plan.unpack) {
        const raw = allocate(this.info.kind, plan.texels * 4);
        gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, raw);
        out = this.fromRGBA(raw);
      } else {
        const scalars = this.length * this.info.components;
        out = allocate(this.info.kind, scalars);
        const view = plan.packed ? new Uint32Array(out.buffer) : out;
        gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, view, 0, scalars);
      }
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      return out;
    } finally {
      plan.temp?.dispose();
      if (buffer && ctx.resources.owns(buffer)) ctx.resources.release(buffer); // (dispose may have released it)
    }
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

  /**
   * What a read transfers: this stream's own texels (4 components; or too short for packing to
   * save anything), its texels in RED / RG ('native' where offered), or a packed copy.
   */
  private planRead(method: ReadMethod): ReadPlan {
    check(method === 'pack' || method === 'native', () => `read(): method must be 'pack' or 'native', got '${String(method)}'`);
    const { info, layout } = this;
    const ctx = this.ctx;
    const gl = ctx.gl;
    const c = info.components;
    const texels = Math.ceil((layout.length * c) / 4);
    const own = { texture: this.texture, width: layout.width, texels: layout.length, temp: null };
    if (c === 4) return { ...own, channels: 4, format: info.readFormat, glType: info.glType, packed: false, unpack: false };
    if (texels >= layout.length) return { ...own, channels: 4, format: info.readFormat, glType: info.glType, packed: false, unpack: true };
    if (method === 'native' && c <= 2 && nativeReadable(ctx, this.texture, info)) {
      return { ...own, channels: c, format: info.format, glType: info.glType, packed: false, unpack: false };
    }
    const temp = ctx.scratch('uint4', texels);
    try {
      ctx.run(packKernel(this.type), { src: this, texels: temp });
    } catch (e) {
      temp.dispose();
      throw e;
    }
    return { texture: temp.texture, width: temp.layout.width, texels, temp, channels: 4, format: RGBA_INTEGER, glType: UNSIGNED_INT, packed: true, unpack: false };
  }

  private finishRead(plan: ReadPlan, raw: StreamData): StreamData {
    if (plan.unpack) return this.fromRGBA(raw);
    const scalars = this.length * this.info.components;
    const whole = raw.length === scalars ? raw : raw.slice(0, scalars);
    if (!plan.packed || this.info.kind === 'uint') return whole;
    return this.info.kind === 'float' ? new Float32Array(whole.buffer, whole.byteOffset, scalars) : new Int32Array(whole.buffer, whole.byteOffset, scalars);
  }

  private toTexels(data: ArrayLike<number>): StreamData {
    const { info, layout } = this;
    const expected = layout.length * info.components;
    const want = info.kind === 'float' ? 'Float32Array' : info.kind === 'int' ? 'Int32Array' : 'Uint32Array';
    const isTyped = ArrayBuffer.isView(data) && !(data instanceof DataView);
    if (!Array.isArray(data) && !isTyped) {
      throw new BrookError(`write(data): data must be a ${want} or an array of numbers for the ${this.describe()}, got ${describeValue(data)}`);
    }
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
      throw new BrookError(`write(data): a ${data.constructor.name} holds BigInts; pass a ${want} for the ${this.describe()}`);
    }
    if (data.length !== expected) {
      throw new BrookError(
        `write() got ${data.length} numbers for the ${this.describe()}: it needs ${expected} ` +
          `(${layout.length} records x ${info.components} components)`,
      );
    }
    const kind = arrayKind(data);
    if (Array.isArray(data)) {
      // strings, booleans, objects and holes would become NaN, 0 or 1 on the GPU: refuse them
      for (let i = 0; i < data.length; i++) {
        const v: unknown = data[i];
        if (typeof v !== 'number') throw new BrookError(`write(data): element ${i} is ${i in data ? describeValue(v) : 'a hole (sparse array)'}, not a number, for the ${this.describe()}`);
      }
    }
    if (kind !== undefined && kind !== info.kind) {
      throw new BrookError(`write() got a ${data.constructor.name} for the ${this.describe()}: pass a ${want}`);
    }
    if (kind === undefined && info.kind !== 'float') {
      for (let i = 0; i < data.length; i++) {
        const v = data[i]!;
        const ok = Number.isInteger(v) && (info.kind === 'int' ? v >= -0x80000000 && v <= 0x7fffffff : v >= 0 && v <= 0xffffffff);
        if (!ok) throw new BrookError(`write(): element ${i} is ${v}, not a valid ${info.kind} for the ${this.describe()}`);
      }
    }
    if (info.components === info.channels) {
      return kind !== undefined ? (data as StreamData) : copyInto(allocate(info.kind, expected), data);
    }
    // three components stored in four channels
    const out = allocate(info.kind, layout.length * 4);
    for (let i = 0, j = 0; i < layout.length; i++, j += 4) {
      out[j] = data[i * 3]!;
      out[j + 1] = data[i * 3 + 1]!;
      out[j + 2] = data[i * 3 + 2]!;
    }
    return out;
  }

  private fromRGBA(raw: StreamData): StreamData {
    const { length } = this.layout;
    const c = this.info.components;
    if (c === 4) return raw.subarray(0, length * 4).slice();
    const out = allocate(this.info.kind, length * c);
    for (let i = 0; i < length; i++) for (let k = 0; k < c; k++) out[i * c + k] = raw[i * 4 + k]!;
    return out;
  }
}

function copyInto(target: StreamData, source: ArrayLike<number>): StreamData {
  for (let i = 0; i < source.length; i++) target[i] = source[i]!;
  return target;
}
