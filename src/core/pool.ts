/**
 * The texture pool: idle textures that scratch streams and ping-pong temporaries give back, kept
 * for the next request of the same shape and format instead of deleting and allocating again.
 *
 * The pool is bounded three ways, so a page whose temporaries change shape every call (a filter
 * whose result count differs each time) cannot grow it without end: at most `POOL_PER_SHAPE`
 * idle textures of one shape and format, at most `POOL_IDLE_TEXTURES` idle textures in all, and
 * at most `POOL_IDLE_BYTES` of idle storage — or, where more, as many bytes as the pool's
 * textures in use at once since the last trim (the working set of one step: a 4096² N x N force
 * texture alone is 256 MiB, and a fixed cap below a step's working set deleted and allocated
 * its temporaries every step, which a GPU pays for in zero-filling new storage). Beyond either
 * total the least recently returned texture is deleted first. `trim()` deletes every idle
 * texture and forgets the working set.
 */
import type { TypeInfo } from './types';

/** At most this many idle textures of one shape and format stay in the pool. */
export const POOL_PER_SHAPE = 4;
/** At most this many idle textures stay in the pool in all (least recently returned deleted first). */
export const POOL_IDLE_TEXTURES = 32;
/** At most this many bytes of idle textures stay in the pool, or the working set's if larger (least recently returned deleted first). */
export const POOL_IDLE_BYTES = 64 * 2 ** 20;

interface Idle {
  key: string;
  bytes: number;
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

  constructor(
    private readonly create: (width: number, height: number, info: TypeInfo) => WebGLTexture,
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

  /** The idle bytes kept now: POOL_IDLE_BYTES, or the working set since the last trim if larger. */
  get byteLimit(): number {
    return Math.max(POOL_IDLE_BYTES, this.peakBytes);
  }

  /** A texture of this size and format from the pool, or a new one. */
  acquire(width: number, height: number, info: TypeInfo): WebGLTexture {
    const key = poolKey(width, height, info);
    this.inUseBytes += width * height * info.texelBytes;
    this.peakBytes = Math.max(this.peakBytes, this.inUseBytes);
    const list = this.byShape.get(key);
    const tex = list?.pop();
    if (!tex) return this.create(width, height, info);
    if (list!.length === 0) this.byShape.delete(key);
    this.idleBytes -= this.idle.get(tex)!.bytes;
    this.idle.delete(tex);
    return tex;
  }

  /** Takes back a texture made by `acquire` (or of the same size and format), within the bounds. */
  release(tex: WebGLTexture, width: number, height: number, info: TypeInfo): void {
    const key = poolKey(width, height, info);
    const bytes = width * height * info.texelBytes;
    this.inUseBytes = Math.max(0, this.inUseBytes - bytes);
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
    while (this.idle.size > POOL_IDLE_TEXTURES || this.idleBytes > this.byteLimit) this.evictOldest();
  }

  /** Deletes every idle texture. */
  trim(): void {
    for (const tex of this.idle.keys()) this.destroy(tex);
    this.idle.clear();
    this.byShape.clear();
    this.idleBytes = 0;
    this.peakBytes = this.inUseBytes;
  }

  private evictOldest(): void {
    const [tex, { key, bytes }] = this.idle.entries().next().value!;
    this.idle.delete(tex);
    this.idleBytes -= bytes;
    const list = this.byShape.get(key)!;
    list.splice(list.indexOf(tex), 1);
    if (list.length === 0) this.byShape.delete(key);
    this.destroy(tex);
  }
}

function poolKey(width: number, height: number, info: TypeInfo): string {
  return `${width}x${height}:${info.internalFormat}`;
}
