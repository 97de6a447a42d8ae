/**
 * The texture pool: idle textures that scratch streams and ping-pong temporaries give back, kept
 * for the next request of the same shape and format instead of deleting and allocating again.
 *
 * The pool is bounded three ways, so a page whose temporaries change shape every call (a filter
 * whose result count differs each time) cannot grow it without end: at most `POOL_PER_SHAPE`
 * idle textures of one shape and format, at most `POOL_IDLE_TEXTURES` idle textures in all, and
 * at most `POOL_IDLE_BYTES` of idle storage — the two totals, where more, four times the most
 * textures and bytes of the pool in use at once since the last trim: a step's working set. (A
 * 4096-body N x N force texture alone is 256 MiB; a fixed cap below a step's working set deleted
 * and made its temporaries every step, which a GPU pays for in allocating and zero-filling
 * storage. Four times, because a step's temporaries, returned one after another, add up to more
 * than were live at once: a binning build of 2^20 points with delayed routing ends with 93
 * textures, 57 MiB, idle, from 15 textures and 21 MiB live at once at most.) Beyond either
 * total the least recently returned texture of a shape that was never handed out again is
 * deleted first (a filter's result, whose length differs every call), then the least recently
 * returned of any shape (so the levels of a pyramid that every call reuses stay). `trim()`
 * deletes every idle texture and forgets the working set.
 *
 * Textures asked for with `fit: 'class'` (1D streams: their rows are only a layout) are made a
 * little taller than asked, to the next of four heights per octave (`heightClass`: at most 25 %
 * more rows), so temporaries whose lengths differ by a little share textures: 'reduced' binning
 * filters a working set of a new length after every one of its up to 67 slices, and the filter's
 * pyramid levels and results shrink with it. Every shader, viewport and readback addresses a
 * stream through its layout, never the texture's own size, so the extra rows are never touched.
 * The pool remembers the real size of each texture it made: a ping-pong pass may swap a pooled
 * texture with a stream's own exact-size one, which then comes back under its real size.
 */
/** What the pool needs of a texture's format: its GL internal format and bytes per texel. */
export interface PoolFormat {
  internalFormat: number;
  texelBytes: number;
}

/** At most this many idle textures of one shape and format stay in the pool. */
export const POOL_PER_SHAPE = 4;
/** At most this many idle textures stay in the pool in all, or four times the working set if more (see the module comment for which go first). */
export const POOL_IDLE_TEXTURES = 256;
/** At most this many bytes of idle textures stay in the pool, or four times the working set if more (see the module comment for which go first). */
export const POOL_IDLE_BYTES = 64 * 2 ** 20;

/** Idle textures and bytes kept, in working sets (the most in use at once since the last trim), where more than the caps. */
const WORKING_SETS = 4;
/** Shapes remembered as handed out again from the pool (their textures are deleted last). */
const REUSED_SHAPES = 256;

interface Idle {
  key: string;
  bytes: number;
}

/** How a pooled texture may be sized: exactly as asked, or rounded up to its height class. */
export type PoolFit = 'exact' | 'class';

/** `height` rounded up to the next of four heights per octave (5/4, 6/4, 7/4, 2 times a power of two): at most 25 % more. */
export function heightClass(height: number): number {
  if (height <= 8) return height;
  const step = 2 ** (Math.floor(Math.log2(height - 1)) - 2);
  return Math.ceil(height / step) * step;
}

export class TexturePool {
  /** shape and format -> idle textures, most recently returned last. */
  private readonly byShape = new Map<string, WebGLTexture[]>();
  /** Every idle texture in the order returned (a Map iterates in insertion order: oldest first). */
  private readonly idle = new Map<WebGLTexture, Idle>();
  private idleBytes = 0;
  /** Bytes of pool textures handed out and not yet returned, and the most at once since the last trim. */
  private inUseBytes = 0;
  private peakBytes = 0;
  private inUseCount = 0;
  private peakCount = 0;
  /** Shape keys handed out again from the pool, most recent last. */
  private readonly reused = new Map<string, true>();
  /** The real shape key and bytes of each texture the pool made (it may come back from another stream after a swap). */
  private readonly made = new WeakMap<WebGLTexture, Idle>();

  constructor(
    /** Makes a 2D texture, or a 2D texture array of `layers` layers (layers > 0). */
    private readonly create: (width: number, height: number, info: PoolFormat, layers: number) => WebGLTexture,
    private readonly destroy: (tex: WebGLTexture) => void,
  ) {}

  /** Idle textures now. */
  get count(): number {
    return this.idle.size;
  }

  /** Bytes of the idle textures now. */
  get bytes(): number {
    return this.idleBytes;
  }

  /** The idle bytes kept now: POOL_IDLE_BYTES, or four times the working set since the last trim if more. */
  get byteLimit(): number {
    return Math.max(POOL_IDLE_BYTES, WORKING_SETS * this.peakBytes);
  }

  /** The idle textures kept now: POOL_IDLE_TEXTURES, or four times the working set since the last trim if more. */
  get countLimit(): number {
    return Math.max(POOL_IDLE_TEXTURES, WORKING_SETS * this.peakCount);
  }

  /**
   * A texture of at least this size and format (a texture array of `layers` layers) from the
   * pool, or a new one: exactly this size, or with `fit: 'class'` as tall as `heightClass(height)`.
   */
  acquire(width: number, height: number, info: PoolFormat, layers = 0, fit: PoolFit = 'exact'): WebGLTexture {
    if (fit === 'class' && layers === 0) height = heightClass(height);
    const key = poolKey(width, height, info, layers);
    const bytes = width * height * Math.max(layers, 1) * info.texelBytes;
    this.inUseBytes += bytes;
    this.peakBytes = Math.max(this.peakBytes, this.inUseBytes);
    this.peakCount = Math.max(this.peakCount, ++this.inUseCount);
    const list = this.byShape.get(key);
    const tex = list?.pop();
    if (!tex) {
      const made = this.create(width, height, info, layers);
      this.made.set(made, { key, bytes });
      return made;
    }
    if (list!.length === 0) this.byShape.delete(key);
    this.reused.delete(key);
    this.reused.set(key, true);
    if (this.reused.size > REUSED_SHAPES) this.reused.delete(this.reused.keys().next().value!);
    this.idleBytes -= this.idle.get(tex)!.bytes;
    this.idle.delete(tex);
    return tex;
  }

  /**
   * Takes back a texture made by `acquire`, or one of exactly this size, format and layers (a
   * stream's own texture swapped into a pooled stream), within the bounds.
   */
  release(tex: WebGLTexture, width: number, height: number, info: PoolFormat, layers = 0): void {
    const { key, bytes } = this.made.get(tex) ?? { key: poolKey(width, height, info, layers), bytes: width * height * Math.max(layers, 1) * info.texelBytes };
    this.inUseBytes = Math.max(0, this.inUseBytes - bytes);
    this.inUseCount = Math.max(0, this.inUseCount - 1);
    let list = this.byShape.get(key);
    if (!list) this.byShape.set(key, (list = []));
    if (list.length >= POOL_PER_SHAPE || bytes > this.byteLimit) {
      if (list.length === 0) this.byShape.delete(key);
      this.destroy(tex);
      return;
    }
    list.push(tex);
    this.idle.set(tex, { key, bytes });
    this.idleBytes += bytes;
    while (this.idle.size > this.countLimit || this.idleBytes > this.byteLimit) this.evict();
  }

  /** Deletes every idle texture. */
  trim(): void {
    for (const tex of this.idle.keys()) this.destroy(tex);
    this.idle.clear();
    this.byShape.clear();
    this.idleBytes = 0;
    this.peakBytes = this.inUseBytes;
    this.peakCount = this.inUseCount;
    this.reused.clear();
  }

  /** Deletes the least recently returned texture of a shape never handed out again, else the least recently returned. */
  private evict(): void {
    let victim: [WebGLTexture, Idle] | undefined;
    for (const entry of this.idle) {
      if (!this.reused.has(entry[1].key)) {
        victim = entry;
        break;
      }
    }
    const [tex, { key, bytes }] = victim ?? this.idle.entries().next().value!;
    this.idle.delete(tex);
    this.idleBytes -= bytes;
    const list = this.byShape.get(key)!;
    list.splice(list.indexOf(tex), 1);
    if (list.length === 0) this.byShape.delete(key);
    this.destroy(tex);
  }
}

function poolKey(width: number, height: number, info: PoolFormat, layers: number): string {
  return `${width}x${height}${layers ? `x${layers}` : ''}:${info.internalFormat}`;
}
