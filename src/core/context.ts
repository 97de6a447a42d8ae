/**
 * The GPU context: one WebGL2 context and every GL object brookgl makes in it.
 *
 * ```ts
 * const ctx = createContext();                 // an OffscreenCanvas of its own
 * console.log(ctx.caps.renderer);              // e.g. "ANGLE (Google, Vulkan 1.3.0 (SwiftShader ...))"
 * const a = ctx.stream('float4', 1 << 20);     // a stream of a million float4 records
 * ...
 * ctx.dispose();                               // releases every texture, framebuffer, program
 * ```
 *
 * Ownership: every GL object is made, counted and deleted by the context's registry
 * (`resources.ts`; `stats()` reads it), so a test can show that 10,000 passes leave the count
 * where it was. Streams own their textures; the context owns programs (a bounded cache by
 * source, `programs.ts`), the framebuffer cache and the texture pool (bounded, `pool.ts`); its
 * capabilities are read once (`caps.ts`). `dispose()` releases all
 * of it and then the WebGL context itself (WEBGL_lose_context): browsers keep only about 16
 * live contexts, and notebook cells re-run. After the context is lost or disposed, every call
 * throws a BrookError instead of returning zeros.
 */
import { BrookError, check } from './errors';
import { ElementType, TypeInfo, typeInfo } from './types';
import { Stream, StreamShape, layoutFor, type StreamHost } from './stream';
import { Kernel, compileKernel } from './kernel';
import { KernelSpec, RunOptions } from './kernelspec';
import { KernelArgs } from './kernelargs';
import { runKernel } from './run';
import { ZMask } from './zmask';
import { ReduceOp, reduceStream } from './reduce';
import { Tracer } from './trace';
import { Queries } from './queries';
import { checkOptions, checkOwner, checkStream, describeValue } from './validate';
import { Resources } from './resources';
import { PROGRAM_CACHE_SIZE, ProgramCache } from './programs';
import { Capabilities, readCapabilities } from './caps';
import { PoolFit, PoolFormat, TexturePool, heightClass } from './pool';
import { dropSpare, spareStats } from './streamread';

export type { Capabilities } from './caps';
export { POOL_PER_SHAPE, POOL_IDLE_TEXTURES, POOL_IDLE_BYTES } from './pool';

/**
 * A front end's kernel kinds, lowered onto run.ts's runKernel: src/brt/lower.ts installs Brook's (reduce
 * kernels, runs counted by a write query). `ctx.run` offers every call to it first; it answers
 * false for a plain kernel, which ctx.run then runs itself. runKernel never calls it.
 */
export type RunLowering = (ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions) => boolean;

let lowering: RunLowering | null = null;

/** Installs the front end's lowering (idempotent; the Brook front end calls it when used). */
export function installLowering(lower: RunLowering): void {
  lowering = lower;
}

/** True when the installed lowering ran `given` (a kernel kind of the front end). */
export function runLowered(ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): boolean {
  return lowering !== null && lowering(ctx, given, args, options);
}

export interface ContextOptions {
  /** Canvas to draw with; default: a new OffscreenCanvas (or a detached canvas element). */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** Check gl.getError after every pass and framebuffer completeness on every new target. */
  debug?: boolean;
  /** Linked programs kept (least recently used deleted beyond). Default PROGRAM_CACHE_SIZE (128). */
  programCacheSize?: number;
  /**
   * 'cpu': BrookGPU's `BRT_RUNTIME=cpu`, a context of streams as typed arrays and Brook kernels
   * as generated JavaScript (src/cpu), in Node or a page, no GPU needed (docs/node.md). Default:
   * WebGL2.
   */
  backend?: 'webgl2' | 'cpu';
}

let cpuBackend: (() => unknown) | null = null;

/** @internal The CPU backend (src/cpu) installs its context maker when loaded. */
export function installCpuBackend(make: () => unknown): void {
  cpuBackend = make;
}

/** The keys createContext() takes; any other is a BrookError (a misspelt option would otherwise be ignored). */
const CONTEXT_OPTIONS = ['canvas', 'debug', 'programCacheSize', 'backend'] as const satisfies ReadonlyArray<keyof ContextOptions>;

/** A BrookError for the first key of `o` createContext does not take. */
function checkContextKeys(o: object): void {
  for (const key of Object.keys(o)) {
    if (!(CONTEXT_OPTIONS as readonly string[]).includes(key)) {
      throw new BrookError(`createContext: unknown option '${key}' (options.${key}): the options are ${CONTEXT_OPTIONS.join(', ')}; leave it out`);
    }
  }
}

/** Live GL objects of a context: every one brookgl creates, with the bytes of the storage ones; and the spare read arrays it keeps. */
export interface Stats {
  /** 2D textures and 2D texture arrays (streams, pooled textures, bin slices). */
  textures: number;
  /** Bytes held by live textures (arrays: all layers). */
  textureBytes: number;
  /** Depth and stencil renderbuffers (z masks, stencil routing). */
  renderbuffers: number;
  renderbufferBytes: number;
  framebuffers: number;
  /** Linked programs: at most PROGRAM_CACHE_SIZE (kernels and the other passes' programs). */
  programs: number;
  vertexArrays: number;
  buffers: number;
  queries: number;
  syncs: number;
  /** Textures idle in the pool (counted in `textures` too). */
  pooledTextures: number;
  /**
   * Host arrays (no GL object) kept for the next reads of 1 MiB or more (SPARE_RESULT_BYTES):
   * at most SPARE_DEPTH of the last such read's size, held or being prepared; dispose() drops them.
   */
  readSpares: number;
  /** Bytes of those arrays. */
  readSpareBytes: number;
}

/**
 * Creates a brookgl context. Throws a BrookError when WebGL2 or float render targets are
 * missing, or outside a browser (Node, a notebook's Python kernel side) where there is no canvas.
 */
export function createContext(options: ContextOptions = {}): BrookContext {
  const given = options as unknown;
  if (given !== null && typeof given === 'object') {
    const backend = (given as ContextOptions).backend;
    if (backend !== undefined && backend !== 'webgl2' && backend !== 'cpu') throw new BrookError(`createContext: backend must be 'webgl2' (the default) or 'cpu', got ${describeValue(backend)}`);
    if (backend === 'cpu') {
      checkContextKeys(given);
      const extra = Object.keys(given).filter((k) => k !== 'backend');
      if (extra.length) throw new BrookError(`createContext({ backend: 'cpu' }): ${extra.join(', ')} ${extra.length > 1 ? 'are WebGL2 options' : 'is a WebGL2 option'}; a CPU context takes none`);
      if (!cpuBackend) throw new BrookError("createContext({ backend: 'cpu' }): the CPU backend is not loaded; import brookgl's index (it loads src/cpu)");
      // a CpuContext (src/cpu/context.ts): the same streams and verbs, no GL
      return cpuBackend() as BrookContext;
    }
  }
  // `options` may be anything a caller passes (null included): the context validates it.
  if (!(options as ContextOptions | null)?.canvas && typeof OffscreenCanvas === 'undefined' && typeof document === 'undefined') {
    if (given !== null && typeof given === 'object') checkContextKeys(given); // a misspelt option first, in Node too
    throw new BrookError(
      'createContext() needs a browser with WebGL2 (or a worker with OffscreenCanvas); there is no canvas here ' +
        '(Node.js?). In Node, createContext({ backend: \'cpu\' }) runs Brook kernels with no GPU; for a GPU, drive a headless Chromium (docs/node.md, "A GPU from Node")',
    );
  }
  return new BrookContext(options);
}

/**
 * Textures of at least this many bytes are checked for GL_OUT_OF_MEMORY and context loss right
 * after they are allocated (gl.getError is a round trip to the GPU process, so small ones are
 * not). MAX_TEXTURE_SIZE bounds a texture's shape, not the memory the device can give.
 */
// A stream's `ctx` is the BrookContext that made it (stream.ts names only StreamHost: see StreamContext there).
declare module './stream' {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
  interface StreamContext extends BrookContext {}
}

export const MEMORY_CHECK_BYTES = 64 * 2 ** 20;


export class BrookContext implements StreamHost {
  readonly gl: WebGL2RenderingContext;
  readonly canvas: HTMLCanvasElement | OffscreenCanvas;
  readonly caps: Capabilities;
  readonly debug: boolean;
  /** Pass-by-pass account of the work, when switched on (`ctx.trace.start()`). */
  readonly trace: Tracer;
  /** Occlusion and timer queries and fences, polled without blocking. */
  readonly queries: Queries;

  /** @internal Every GL object of this context (resources.ts). */
  readonly resources: Resources;
  /** @internal Linked programs by source, a bounded LRU (programs.ts). */
  readonly programs: ProgramCache;

  private lost = false;
  private disposed = false;
  /** The last allocation of at least MEMORY_CHECK_BYTES, named by errors that may come from it later. */
  private lastLarge: { what: string; bytes: number } | null = null;
  /** The canvas was made here (not the user's): dispose() may give its GL context back. */
  private readonly ownCanvas: boolean;
  private readonly vao: WebGLVertexArrayObject;
  private readonly masks = new Set<ZMask>();
  private readonly pool: TexturePool;
  private readonly streams = new Set<Stream>();
  /** Scratch streams made while a watch runs (watchScratch), their bytes, and the sum of those alive. */
  private readonly scratchWatches = new Set<{ live: number; peak: number }>();
  private readonly scratchHeld = new Map<Stream, { bytes: number; watches: Array<{ live: number; peak: number }> }>();

  constructor(options: ContextOptions = {}) {
    const o = checkOptions(options, 'createContext: options');
    if (o.canvas !== undefined) {
      const ok = (typeof HTMLCanvasElement !== 'undefined' && o.canvas instanceof HTMLCanvasElement) ||
        (typeof OffscreenCanvas !== 'undefined' && o.canvas instanceof OffscreenCanvas);
      if (!ok) {
        throw new BrookError(`createContext: options.canvas must be an HTMLCanvasElement or an OffscreenCanvas, got ${describeValue(o.canvas)}; leave it out to get an OffscreenCanvas of its own`);
      }
    }
    if (o.debug !== undefined && typeof o.debug !== 'boolean') {
      throw new BrookError(`createContext: options.debug must be true or false, got ${describeValue(o.debug)}`);
    }
    if (o.programCacheSize !== undefined && !(Number.isInteger(o.programCacheSize) && o.programCacheSize >= 1)) {
      throw new BrookError(`createContext: options.programCacheSize must be a positive integer, got ${describeValue(o.programCacheSize)}`);
    }
    // Unknown keys after the known ones' values: a bad value of a known option is the more useful message.
    checkContextKeys(o);
    this.debug = o.debug ?? false;
    this.ownCanvas = o.canvas === undefined;
    const canvas =
      o.canvas ??
      (typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas'));
    this.canvas = canvas;
    const gl = canvas.getContext('webgl2', {
      alpha: true,
      antialias: false,
      depth: false,
      stencil: false,
      premultipliedAlpha: false,
      preserveDrawingBuffer: false,
      powerPreference: 'high-performance',
    }) as WebGL2RenderingContext | null;
    if (!gl) {
      throw new BrookError(
        'WebGL2 is not available in this browser or on this canvas: brookgl needs WebGL2 ' +
          '(Chrome/Edge 56+, Firefox 51+, Safari 15+); check that hardware acceleration is on or run Chromium with --use-angle=swiftshader',
      );
    }
    this.gl = gl;
    if (!gl.getExtension('EXT_color_buffer_float')) {
      throw new BrookError(
        'EXT_color_buffer_float is missing: float streams must be render targets. It is in every desktop ' +
          'Chrome, Edge and Firefox and in Safari 15+; on mobile, try another browser',
      );
    }
    this.caps = readCapabilities(gl);
    canvas.addEventListener('webglcontextlost', ((e: Event) => {
      e.preventDefault();
      this.lost = true;
    }) as EventListener);

    this.resources = new Resources(gl, () => this.isLost, () => this.guard());
    this.programs = new ProgramCache(gl, this.resources, o.programCacheSize ?? PROGRAM_CACHE_SIZE);
    this.vao = this.resources.vertexArray();
    this.pool = new TexturePool(
      (w, h, info, layers) => (layers ? this.resources.textureArray(w, h, layers, info.internalFormat, info.texelBytes) : this.createTexture(w, h, info)),
      (tex) => this.deleteTexture(tex),
    );
    this.trace = new Tracer(this);
    this.queries = new Queries(this);
  }

  /** Throws a BrookError if the context was lost or disposed; every public entry point calls it. */
  guard(): void {
    if (this.disposed) throw new BrookError('this brookgl context was disposed: create a new one with createContext()');
    if (this.lost || this.gl.isContextLost()) {
      this.lost = true;
      throw new BrookError(
        'the WebGL context was lost (GPU reset, driver update, too many contexts, or memory the driver could not back): its streams are gone; ' +
          'create a new context and upload the data again.' +
          this.lateMemoryNote(),
      );
    }
  }

  get isLost(): boolean {
    return this.lost || this.gl.isContextLost();
  }

  // ---- streams, kernels, reductions: the user-facing verbs ---------------------------------

  /**
   * A new stream of `type` records: `length` for a 1D stream, `[height, width]` for a 2D one.
   * With `data`, also writes it.
   * @example const a = ctx.stream('float', 1000, new Float32Array(1000).fill(1));
   */
  stream(type: ElementType, shape: StreamShape, data?: ArrayLike<number>): Stream {
    this.guard();
    const s = new Stream(this, type, shape);
    if (data !== undefined) {
      try {
        s.write(data);
      } catch (e) {
        s.dispose(); // a refused write leaves nothing behind
        throw e;
      }
    }
    return s;
  }

  /**
   * A stream whose texture comes from (and on dispose returns to) the texture pool: for
   * temporaries that techniques create and drop every call.
   */
  scratch(type: ElementType, shape: StreamShape): Stream {
    this.guard();
    const s = new Stream(this, type, shape, { pooled: true });
    if (this.scratchWatches.size > 0) {
      const held = { bytes: s.length * s.info.texelBytes, watches: [...this.scratchWatches] };
      this.scratchHeld.set(s, held);
      for (const w of held.watches) (w.live += held.bytes), (w.peak = Math.max(w.peak, w.live));
    }
    return s;
  }

  /**
   * @internal Watches the scratch streams made from now on until `end()`: `peak` is the most
   * bytes (records x texel bytes, as memory budgets count them) of them alive at once; streams
   * made before the watch began are not counted, but for `held` (streams alive now, counted
   * until disposed). Watches may overlap.
   */
  watchScratch(held: Stream[] = []): { readonly peak: number; end(): void } {
    const w = { live: 0, peak: 0, end: () => void this.scratchWatches.delete(w) };
    this.scratchWatches.add(w);
    for (const s of held) {
      if (s.disposed) continue;
      const h = this.scratchHeld.get(s) ?? { bytes: s.length * s.info.texelBytes, watches: [] };
      this.scratchHeld.set(s, h);
      h.watches.push(w);
      w.peak = w.live += h.bytes;
    }
    return w;
  }

  /** Compiles (once, cached by source) a kernel description for running. */
  kernel(spec: KernelSpec): Kernel {
    this.guard();
    return compileKernel(this, spec);
  }

  /**
   * Runs a kernel once over its output domain. `args` binds each parameter by name: streams for
   * `<>` inputs, `[]` gathers and outputs, `iter(...)` ranges for iterators, numbers or arrays
   * for uniforms.
   */
  run(kernel: Kernel | KernelSpec, args: KernelArgs, options: RunOptions = {}): void {
    this.guard();
    const checked = checkOptions(options, `kernel ${kernel?.name}: run options`);
    if (!runLowered(this, kernel, args, checked)) runKernel(this, kernel, args, checked);
  }

  /**
   * @internal `run` for a library call's own passes (idioms, apps, reads and domain copies):
   * marked internal, so that a bound Brook write mask applies only to the user's own runs.
   */
  runInternal(kernel: Kernel | KernelSpec, args: KernelArgs, options: RunOptions = {}): void {
    this.run(kernel, args, { ...options, internal: true });
  }

  /** A z mask (see zmask.ts) for streams laid out like `like` (same texture size). */
  zmask(like: Stream): ZMask {
    this.guard();
    checkStream(this, like, 'zmask: like');
    const m = new ZMask(this, like.layout.width, like.layout.height);
    this.masks.add(m);
    return m;
  }

  /**
   * Builds `mask` with `builder`, a kernel that `discard`s the records that should run
   * (Listing 34-1): every record it does not discard gets depth 0.0 and is skipped by later
   * passes run with `{ mask }`. Its outputs are bound as usual but not written.
   */
  buildMask(mask: ZMask, builder: Kernel | KernelSpec, args: KernelArgs): void {
    this.guard();
    check(mask instanceof ZMask, () => `buildMask: mask must be a z mask (ctx.zmask(stream)), got ${describeValue(mask)}`);
    checkOwner(this, mask.ctx, 'buildMask: mask', 'z mask');
    runKernel(this, builder, args, { build: mask });
    mask.builds++;
  }

  /** Reduces a whole stream to one record (Brook `reduce`), returned as a stream of length 1. */
  reduceToStream(stream: Stream, op: ReduceOp): Stream {
    this.guard();
    checkStream(this, stream, 'reduce: stream');
    return reduceStream(this, stream, op);
  }

  /** Reduces a whole stream to one record and reads it back: sum, min, max or `{ op: 'GLSL of a, b' }`. */
  async reduce(stream: Stream, op: ReduceOp): Promise<number[]> {
    const r = this.reduceToStream(stream, op);
    try {
      return Array.from(await r.read());
    } finally {
      r.dispose();
    }
  }

  /** As `reduce`, but reads back synchronously (stalls the pipeline). */
  reduceSync(stream: Stream, op: ReduceOp): number[] {
    const r = this.reduceToStream(stream, op);
    try {
      return Array.from(r.readSync());
    } finally {
      r.dispose();
    }
  }

  /** Live GL object counts; flat across a long run when nothing leaks. */
  stats(): Stats {
    // (objects a check made beside the caller's work, as compareBackends' reads, are counted apart: Resources.observe)
    return { ...this.resources.snapshot(), pooledTextures: this.pool.count - this.pool.idleWhere((t) => this.resources.isObserved(t)), ...spareStats(this) };
  }

  /**
   * Releases every stream, mask, program, framebuffer and pooled texture, then the WebGL
   * context itself (WEBGL_lose_context), so pages and notebooks that make many contexts stay
   * under the browser's limit. Idempotent.
   */
  dispose(): void {
    if (this.disposed) return;
    this.queries.dispose(); // pending reads, fences and queries reject with a BrookError
    dropSpare(this); // (the prepared result array of large reads: streamread.ts)
    for (const s of [...this.streams]) s.dispose();
    for (const m of [...this.masks]) m.dispose();
    this.trimPool();
    this.programs.clear();
    this.resources.releaseAll();
    this.disposed = true;
    // Browsers keep ~16 WebGL contexts and then lose the oldest, which may be one in use: give
    // back the GL context of a canvas made here now, rather than when it is garbage-collected.
    if (this.ownCanvas && !this.gl.isContextLost()) this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  // ---- internals used by the other core modules --------------------------------------------

  /** A pooled texture the caller's work takes: an observer's moves to the caller's counts (Resources.claim). */
  private claimed(tex: WebGLTexture): WebGLTexture {
    this.resources.claim(tex);
    return tex;
  }

  /** @internal */
  adopt(stream: Stream): void {
    this.streams.add(stream);
  }

  /** @internal */
  forget(stream: Stream): void {
    this.streams.delete(stream);
    const held = this.scratchHeld.get(stream);
    if (held) {
      this.scratchHeld.delete(stream);
      for (const w of held.watches) w.live -= held.bytes;
    }
  }

  /** @internal Allocates a texture of `width` x `height` texels for `info`'s records (or of a depth-stencil format). */
  createTexture(width: number, height: number, info: PoolFormat & { type?: string }): WebGLTexture {
    const tex = this.resources.texture(width, height, info.internalFormat, info.texelBytes);
    const bytes = width * height * info.texelBytes;
    const what = `a ${width}x${height} ${info.type ?? `format 0x${info.internalFormat.toString(16)}`} texture`;
    this.checkAllocation(tex, bytes, what);
    if (bytes >= MEMORY_CHECK_BYTES && info.type !== undefined) this.checkRenderable(tex, bytes, what);
    return tex;
  }

  /**
   * @internal After an allocation of `bytes` >= MEMORY_CHECK_BYTES: GL_OUT_OF_MEMORY or a lost
   * context becomes a BrookError here, where it happened, instead of a failed compile or a lost
   * context a few passes later; `object` (just allocated) is released first.
   */
  checkAllocation(object: WebGLTexture | WebGLBuffer | WebGLRenderbuffer, bytes: number, what: string): void {
    if (bytes < MEMORY_CHECK_BYTES) return;
    this.lastLarge = { what, bytes };
    const gl = this.gl;
    let error = gl.getError();
    // drain older errors (getError reports one flag per call) looking for the allocation's
    for (let i = 0; i < 8 && error !== gl.NO_ERROR && error !== gl.OUT_OF_MEMORY && error !== gl.CONTEXT_LOST_WEBGL; i++) error = gl.getError();
    if (error !== gl.OUT_OF_MEMORY && error !== gl.CONTEXT_LOST_WEBGL && !gl.isContextLost()) return;
    if (gl.isContextLost()) this.lost = true;
    if (this.resources.owns(object)) this.resources.release(object);
    throw new BrookError(
      `out of GPU memory: allocating ${what} (${(bytes / 2 ** 20).toFixed(0)} MiB) ${gl.isContextLost() ? 'lost the WebGL context' : 'failed with GL_OUT_OF_MEMORY'}. ` +
        'caps.maxRecords and MAX_TEXTURE_SIZE bound a stream\'s shape, not the memory this device can give: use fewer or smaller streams, or dispose() others first' +
        (gl.isContextLost() ? '; then create a new context' : ''),
    );
  }

  /**
   * A large stream texture attached to a framebuffer and asked for completeness (one round trip,
   * once per size and format: later ones are cached): where a driver accepted the storage
   * without backing it, the answer is not COMPLETE, and the allocation fails here with its size.
   */
  private checkRenderable(tex: WebGLTexture, bytes: number, what: string): void {
    try {
      this.resources.framebufferFor({ color: [{ texture: tex }] });
    } catch (e) {
      if (this.resources.owns(tex)) this.resources.release(tex);
      if (!(e instanceof BrookError)) throw e;
      throw new BrookError(
        `out of GPU memory: allocating ${what} (${(bytes / 2 ** 20).toFixed(0)} MiB) gave no GL_OUT_OF_MEMORY, but the texture cannot be drawn into (${e.message.replace(/^\(brookgl\) /, '')}). ` +
          'caps.maxRecords and MAX_TEXTURE_SIZE bound a stream\'s shape, not the memory this device can give: use fewer or smaller streams, or dispose() others first. ' +
          'On some drivers (SwiftShader) this context cannot draw into new targets afterwards: dispose() it and create a new one',
      );
    }
  }

  /**
   * @internal What a failure with no message of its own (a lost context, a compile with an empty
   * log) may owe to the last large allocation: some drivers, SwiftShader among them, accept an
   * allocation they cannot back (no GL_OUT_OF_MEMORY when it is made) and fail when it is first
   * drawn to or read. Empty when no allocation of MEMORY_CHECK_BYTES or more was made.
   */
  lateMemoryNote(): string {
    const a = this.lastLarge;
    if (!a) return '';
    return (
      ` The last large allocation was ${a.what} (${(a.bytes / 2 ** 20).toFixed(0)} MiB), accepted without GL_OUT_OF_MEMORY: ` +
      'some drivers (SwiftShader among them) report memory they cannot back only when it is first used, by losing the context. ' +
      'If this failure followed it, allocate less: fewer or smaller streams, dispose() others first'
    );
  }

  /** @internal Deletes a texture and every cached framebuffer that draws into it. */
  deleteTexture(tex: WebGLTexture): void {
    this.resources.release(tex);
  }

  /** @internal A texture of this size and format from the pool (pool.ts), or a new one; `'class'`: perhaps taller (1D streams). */
  acquireTexture(width: number, height: number, info: PoolFormat, fit: PoolFit = 'exact'): WebGLTexture {
    const fits = fit === 'class' && heightClass(height) <= this.caps.maxTextureSize ? 'class' : 'exact';
    return this.claimed(this.pool.acquire(width, height, info, 0, fits));
  }

  /** @internal Returns a texture to the pool, which keeps it within its bounds (pool.ts). */
  releaseTexture(tex: WebGLTexture, width: number, height: number, info: PoolFormat): void {
    this.pool.release(tex, width, height, info);
  }

  /**
   * @internal A 2D texture array from the pool, or a new one: bin structures built every step
   * (DEM, agents) reuse their slices, and with them the framebuffers cached on their layers.
   */
  acquireTextureArray(width: number, height: number, layers: number, format: PoolFormat): WebGLTexture {
    return this.claimed(this.pool.acquire(width, height, format, layers));
  }

  /** @internal Returns a texture array to the pool (its contents are not kept: users clear it). */
  releaseTextureArray(tex: WebGLTexture, width: number, height: number, layers: number, format: PoolFormat): void {
    this.pool.release(tex, width, height, format, layers);
  }

  /**
   * Deletes every texture idle in the pool, and the cached framebuffers (made again on next use:
   * ping-pong passes attach ever new combinations of pooled textures, which the cache keeps
   * while all their textures live).
   */
  trimPool(): void {
    this.pool.trim();
    this.resources.dropFramebuffers();
  }

  /** @internal The framebuffer drawing into `textures` (colour attachments 0..n-1), cached. */
  framebufferFor(textures: WebGLTexture[]): WebGLFramebuffer {
    return this.resources.framebufferFor({ color: textures.map((texture) => ({ texture })) });
  }

  /** @internal Forgets a disposed mask. */
  forgetMask(mask: ZMask): void {
    this.masks.delete(mask);
  }

  /** @internal The shared empty vertex array (passes draw from gl_VertexID, no buffers). */
  get passVertexArray(): WebGLVertexArrayObject {
    return this.vao;
  }

  /** @internal Texture layout for a stream shape (see stream.ts). */
  layout(shape: StreamShape) {
    return layoutFor(shape, this.caps.maxTextureSize);
  }
}

export { typeInfo };
