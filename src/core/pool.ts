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
 * storage.) Beyond either total the idle texture whose shape was asked for least recently goes
 * first: a filter's result of a length no later call asks for, or the temporaries of work the
 * page no longer does, while the levels of a pyramid that every call asks for stay.
 *
 * A step's temporaries, returned one after another, can add up to many times what was live at
 * once: 'reduced' binning of 2^21 points filters a working set of a new length after each of
 * its 100 slices. So when a texture that was deleted to stay within the totals is asked for
 * again, the totals grow by it, up to sixteen working sets (or four times the fixed caps, if
 * more): the pool grows to what the page's steps really reuse, and no further. (With fixed
 * totals that build made 127 textures every time on an H100: the shapes of the page's previous
 * work, marked as reused, pushed the new ones out before their second use. Now, after it and
 * a build of 2^20 points, the pool held 368 MiB idle from 74 MiB live at once at most, and the
 * builds made no textures.) `trim()` deletes every idle texture and forgets the working set
 * and the growth.
 *
 * Textures asked for with `fit: 'class'` (1D streams: their rows are only a layout) are made a
 * little taller than asked, to the next of four heights per octave (`heightClass`: at most 25 %
 * more rows), so temporaries whose lengths differ by a little share textures: 'reduced' binning
 * filters a working set of a new length after every one of its slices, and the filter's
 * pyramid levels and results shrink with it. Every shader, viewport and readback addresses a
 * stream through its layout, never the texture's own size, so the extra rows are never touched.
 * The pool remembers the real size of each texture it made: a ping-pong pass may swap a pooled
 * texture with a stream's own exact-size one, which then comes back under its real size.
 *
 * Of a shape's idle textures, `acquire` hands out the one the pool met first (made, or first
 * given back), not the one given back last: a sequence of requests that repeats — a frame of an
 * animation, run again — then gets the same textures in the same roles, whatever order the last
 * run gave them back in, so a pass drawing into several targets finds the framebuffer the cache
 * made for that set before. (Handing out the last returned, a ccd lazy-work-stealing frame — 8
 * targets a pass, 4 of them an iteration's fresh front slots, all of one shape — met new sets
 * every frame, and the cache made a few framebuffers a frame for as long as the page ran.)
 */
/** What the pool needs of a texture's format: its GL internal format and bytes per texel. */
export interface PoolFormat {
  internalFormat: number;
  texelBytes: number;
}

/** At most this many idle textures of one shape and format stay in the pool, or as many as were in use at once since the last trim, if more. */
export const POOL_PER_SHAPE = 4;
/** At most this many idle textures stay in the pool in all, or four times the working set if more (see the module comment for which go first). */
export const POOL_IDLE_TEXTURES = 256;
/** At most this many bytes of idle textures stay in the pool, or four times the working set if more (see the module comment for which go first). */
export const POOL_IDLE_BYTES = 64 * 2 ** 20;

/** Idle textures and bytes kept, in working sets (the most in use at once since the last trim), where more than the caps. */
const WORKING_SETS = 4;
/** How far the totals may grow when deleted textures are asked for again: this many working sets, or GROWN_CAPS times the caps if more. */
const GROWN_WORKING_SETS = 16;
const GROWN_CAPS = 4;
/** Shapes remembered in the order asked for, and shapes whose textures were deleted to stay within the totals. */
const SHAPES_REMEMBERED = 1024;

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
  /** shape and format -> idle textures, the one met last first: `acquire` pops the one met first. */
  private readonly byShape = new Map<string, WebGLTexture[]>();
  /** Every idle texture, with its shape key and bytes. */
  private readonly idle = new Map<WebGLTexture, Idle>();
  private idleBytes = 0;
  /** Bytes of pool textures handed out and not yet returned, and the most at once since the last trim. */
  private inUseBytes = 0;
  private peakBytes = 0;
  private inUseCount = 0;
  private peakCount = 0;
  /** Shape keys in the order they were last asked for, most recent last (every idle texture's shape is here). */
  private readonly demand = new Map<string, true>();
  /** Shape keys whose textures were deleted to stay within the totals, oldest first. */
  private readonly evicted = new Map<string, true>();
  /** What the totals grew by: the textures deleted and then asked for again. */
  private grownBytes = 0;
  private grownCount = 0;
  /** Per shape: textures handed out and not yet returned, and the most at once since the last trim
   * (a shape keeps up to that many idle, if more than POOL_PER_SHAPE). */
  private readonly shapeUse = new Map<string, { now: number; peak: number }>();
  /** The real shape key and bytes of each texture the pool made (it may come back from another stream after a swap). */
  private readonly made = new WeakMap<WebGLTexture, Idle>();
  /** When the pool met each texture (made it, or was first given it): the idle ones of a shape go out in this order. */
  private readonly met = new WeakMap<WebGLTexture, number>();
  private meetings = 0;

  constructor(
    /** Makes a 2D texture, or a 2D texture array of `layers` layers (layers > 0). */
    private readonly create: (width: number, height: number, info: PoolFormat, layers: number) => WebGLTexture,
    private readonly destroy: (tex: WebGLTexture) => void,
  ) {}

  /** Idle textures now. */
  get count(): number {
    return this.idle.size;
  }

  /** Idle textures now for which `test` holds. */
  idleWhere(test: (tex: WebGLTexture) => boolean): number {
    let n = 0;
    for (const tex of this.idle.keys()) if (test(tex)) n++;
    return n;
  }

  /** Bytes of the idle textures now. */
  get bytes(): number {
    return this.idleBytes;
  }

  /** The idle bytes kept now: POOL_IDLE_BYTES or four working sets, whichever is more, plus the growth (module comment). */
  get byteLimit(): number {
    return limit(POOL_IDLE_BYTES, this.peakBytes, this.grownBytes);
  }

  /** The idle textures kept now: POOL_IDLE_TEXTURES or four working sets, whichever is more, plus the growth (module comment). */
  get countLimit(): number {
    return limit(POOL_IDLE_TEXTURES, this.peakCount, this.grownCount);
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
    this.asked(key);
    const use = this.shapeUse.get(key) ?? { now: 0, peak: 0 };
    this.shapeUse.set(key, use);
    use.peak = Math.max(use.peak, ++use.now);
    const list = this.byShape.get(key);
    const tex = list?.pop();
    if (!tex) {
      if (this.evicted.delete(key)) {
        // deleted to stay within the totals, and wanted again: the totals are below what the page reuses
        this.grownBytes += bytes;
        this.grownCount++;
      }
      const made = this.create(width, height, info, layers);
      this.made.set(made, { key, bytes });
      this.met.set(made, this.meetings++);
      return made;
    }
    if (list!.length === 0) this.byShape.delete(key);
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
    if (!this.demand.has(key)) this.asked(key); // (a stream's own texture, of a shape never asked for)
    let list = this.byShape.get(key);
    if (!list) this.byShape.set(key, (list = []));
    const use = this.shapeUse.get(key);
    if (use) use.now = Math.max(0, use.now - 1);
    if (list.length >= Math.max(POOL_PER_SHAPE, use?.peak ?? 0) || bytes > this.byteLimit) {
      if (list.length === 0) this.byShape.delete(key);
      this.destroy(tex);
      return;
    }
    // (kept in the order met, the first met last: acquire pops it)
    if (!this.met.has(tex)) this.met.set(tex, this.meetings++);
    const at = this.met.get(tex)!;
    let i = list.length;
    while (i > 0 && this.met.get(list[i - 1]!)! < at) i--;
    list.splice(i, 0, tex);
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
    this.demand.clear();
    this.evicted.clear();
    for (const [k, u] of this.shapeUse) (u.now === 0 ? this.shapeUse.delete(k) : (u.peak = u.now));
    this.grownBytes = this.grownCount = 0;
  }

  /** Marks a shape as asked for now; forgets the least recent other shapes that have no idle texture. */
  private asked(key: string): void {
    this.demand.delete(key);
    this.demand.set(key, true);
    if (this.demand.size <= SHAPES_REMEMBERED) return;
    for (const k of this.demand.keys()) {
      if (this.demand.size <= (SHAPES_REMEMBERED * 3) / 4) break;
      if (k !== key && !this.byShape.has(k)) {
        this.demand.delete(k);
        if (this.shapeUse.get(k)?.now === 0) this.shapeUse.delete(k);
      }
    }
  }

  /** Deletes the idle texture met last of the shape asked for least recently. */
  private evict(): void {
    let key = '';
    for (const k of this.demand.keys()) {
      if (this.byShape.has(k)) {
        key = k;
        break;
      }
    }
    const list = this.byShape.get(key)!;
    const tex = list.shift()!;
    if (list.length === 0) this.byShape.delete(key);
    this.idleBytes -= this.idle.get(tex)!.bytes;
    this.idle.delete(tex);
    this.destroy(tex);
    this.evicted.delete(key);
    this.evicted.set(key, true);
    if (this.evicted.size > SHAPES_REMEMBERED) this.evicted.delete(this.evicted.keys().next().value!);
  }
}

/** A total's limit: the cap or four working sets, whichever is more, plus the growth, up to sixteen working sets or four caps. */
function limit(cap: number, peak: number, grown: number): number {
  const base = Math.max(cap, WORKING_SETS * peak);
  return Math.min(base + grown, Math.max(GROWN_CAPS * cap, GROWN_WORKING_SETS * peak));
}

function poolKey(width: number, height: number, info: PoolFormat, layers: number): string {
  return `${width}x${height}${layers ? `x${layers}` : ''}:${info.internalFormat}`;
}
