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
  check(Array.isArray(shape) && shape.length === 2, 'a 2D stream shape is [height, width]');
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

  /** Reads all records back now, stalling until the GPU has finished the passes that write them. */
  readSync(): StreamData {
    this.ctx.guard();
    const gl = this.ctx.gl;
    const { width, height } = this.layout;
    const raw = allocate(this.info.kind, width * height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.ctx.framebufferFor([this.texture]));
    gl.readPixels(0, 0, width, height, this.info.readFormat, this.info.glType, raw);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return this.fromRGBA(raw);
  }

  /**
   * Reads all records back without stalling the pipeline: the copy goes into a pixel-pack
   * buffer, a fence follows it, and the fence is polled until the GPU has passed it.
   */
  async read(): Promise<StreamData> {
    this.ctx.guard();
    const ctx = this.ctx;
    const gl = ctx.gl;
    const { width, height } = this.layout;
    const bytes = width * height * 16;
    const buffer = gl.createBuffer()!;
    ctx.countBuffer(1);
    try {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, bytes, gl.STREAM_READ);
      gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([this.texture]));
      gl.readPixels(0, 0, width, height, this.info.readFormat, this.info.glType, 0);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      await ctx.queries.fence();
      const raw = allocate(this.info.kind, width * height * 4);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, raw);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      return this.fromRGBA(raw);
    } finally {
      if (!ctx.isLost) gl.deleteBuffer(buffer);
      ctx.countBuffer(-1);
    }
  }

  /** Releases the texture. Idempotent. */
  dispose(): void {
    if (!this.tex) return;
    if (!this.ctx.isLost) {
      const { width, height } = this.layout;
      if (this.pooled) this.ctx.releaseTexture(this.tex, width, height, this.info);
      else this.ctx.deleteTexture(this.tex);
    }
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
    if (!data || typeof data.length !== 'number') {
      throw new BrookError(`write() needs an array of numbers for the ${this.describe()}`);
    }
    if (data.length !== expected) {
      throw new BrookError(
        `write() got ${data.length} numbers for the ${this.describe()}: it needs ${expected} ` +
          `(${layout.length} records x ${info.components} components)`,
      );
    }
    const kind = arrayKind(data);
    if (kind !== undefined && kind !== info.kind) {
      const want = info.kind === 'float' ? 'Float32Array' : info.kind === 'int' ? 'Int32Array' : 'Uint32Array';
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
