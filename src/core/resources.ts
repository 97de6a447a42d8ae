/**
 * The registry of every GL object a brookgl context creates: textures (2D and 2D arrays),
 * renderbuffers, framebuffers, vertex arrays, buffers, programs, queries and syncs. Each is
 * made here, counted (textures and renderbuffers with their bytes), and deleted here by its
 * owner; `ctx.stats()` reads the counts, so a test can show that nothing leaks.
 *
 * ```ts
 * const tex = ctx.resources.texture(64, 64, RGBA32F, 16);          // counted, 64 KiB
 * const fbo = ctx.resources.framebufferFor({ color: [{ texture: tex }] });  // cached by attachments
 * ctx.resources.release(tex);                                       // also drops that framebuffer
 * ```
 *
 * Framebuffers are cached by their attachments (a texture, or a layer of a texture array, or
 * a renderbuffer per attachment point) and deleted with the first of them to go. Programs are
 * compiled and linked in one place (`link`), which deletes what it made when a stage fails and
 * reports the driver's log through the caller's `describe`.
 *
 * Objects made inside `observe(fn)` (a check that reads streams beside the caller's own work,
 * as compareBackends does) are counted in a bucket of their own (`observed()`), not in
 * `snapshot()`, so that what the caller measures is what it would be without the check; one
 * that the caller's own work then uses (a cached framebuffer or program, a pooled texture:
 * `claim`) moves to the caller's counts, as if made then.
 */
import { BrookError, framebufferStatusName, numberLines } from './errors';

export type ResourceKind = 'texture' | 'renderbuffer' | 'framebuffer' | 'vertexArray' | 'buffer' | 'program' | 'query' | 'sync';

/** Live objects of each kind, and the bytes held by textures and renderbuffers. */
export interface ResourceCounts {
  textures: number;
  textureBytes: number;
  renderbuffers: number;
  renderbufferBytes: number;
  framebuffers: number;
  vertexArrays: number;
  buffers: number;
  programs: number;
  queries: number;
  syncs: number;
}

/** One attachment of a framebuffer: a 2D texture, a layer of a texture array, or a renderbuffer. */
export type Attachment = { texture: WebGLTexture; layer?: number } | { renderbuffer: WebGLRenderbuffer };

/** What a framebuffer draws into. `depthStencil` is one combined attachment (DEPTH32F_STENCIL8). */
export interface Attachments {
  color: readonly Attachment[];
  depth?: Attachment;
  stencil?: Attachment;
  depthStencil?: Attachment;
}

/** A shader stage that failed, and the driver's log, for the caller to put in its own words. */
export type DescribeLinkError = (stage: 'vertex' | 'fragment' | 'link', log: string) => string;

interface Entry {
  kind: ResourceKind;
  id: number;
  bytes: number;
  /** Storage of a texture or renderbuffer: sized format and size, for framebuffer checks. */
  storage?: string;
  /** Width and height of a texture (of each layer of an array) or renderbuffer. */
  size?: readonly [number, number];
  /** Made while observing (`observe`) and not used since: counted in the observer's bucket. */
  observed?: boolean;
}

/** Sized formats of the storage the registry makes beside streams' own (named, not GL literals). */
export const STORAGE_FORMAT = {
  R32F: 0x822e,
  DEPTH32F: 0x8cac,
  DEPTH32F_STENCIL8: 0x8cad,
  STENCIL8: 0x8d48,
} as const;

const GL_TEXTURE_2D = 0x0de1;
const GL_TEXTURE_2D_ARRAY = 0x8c1a;

export class Resources {
  private readonly entries = new Map<object, Entry>();
  private readonly counts: Record<ResourceKind, number> = {
    texture: 0, renderbuffer: 0, framebuffer: 0, vertexArray: 0, buffer: 0, program: 0, query: 0, sync: 0,
  };
  private bytes = { texture: 0, renderbuffer: 0 };
  /** The same counts of the objects made while observing and not claimed since (`observe`). */
  private readonly observedCounts: Record<ResourceKind, number> = {
    texture: 0, renderbuffer: 0, framebuffer: 0, vertexArray: 0, buffer: 0, program: 0, query: 0, sync: 0,
  };
  private observedBytes = { texture: 0, renderbuffer: 0 };
  private observing = 0;
  private nextId = 1;
  /** Cached framebuffers by attachment key, and the objects each depends on. */
  private readonly framebuffers = new Map<string, { fbo: WebGLFramebuffer; uses: object[] }>();
  /** The same cache looked up the other ways: a framebuffer's key, and the keys that attach an
   * object (so releasing a texture costs its own framebuffers, not a scan of all of them: an
   * H100 page that had cached many spent 490 ms of one ccd frame in those scans). */
  private readonly fboKeys = new Map<WebGLFramebuffer, string>();
  private readonly usedBy = new Map<object, Set<string>>();
  /** Attachment formats and sizes already found complete (see framebufferFor). */
  private readonly completeShapes = new Set<string>();

  constructor(
    private readonly gl: WebGL2RenderingContext,
    /** True once the context is lost: deletes are skipped (the objects are gone) but still counted. */
    private readonly lost: () => boolean,
    /** Called before reporting an incomplete framebuffer or failed compile (a lost context says so instead). */
    private readonly guard: () => void,
  ) {}

  /** A 2D texture of `width` x `height` texels, nearest filtering, clamped. */
  texture(width: number, height: number, internalFormat: number, texelBytes: number): WebGLTexture {
    const gl = this.gl;
    const tex = this.made(gl.createTexture(), 'texture', width * height * texelBytes, `2d ${internalFormat} ${width}x${height}`, [width, height]);
    gl.bindTexture(GL_TEXTURE_2D, tex);
    gl.texStorage2D(GL_TEXTURE_2D, 1, internalFormat, width, height);
    setNearest(gl, GL_TEXTURE_2D);
    gl.bindTexture(GL_TEXTURE_2D, null);
    return tex;
  }

  /** A 2D texture array of `layers` layers (depth or colour formats), nearest filtering. */
  textureArray(width: number, height: number, layers: number, internalFormat: number, texelBytes: number): WebGLTexture {
    const gl = this.gl;
    const tex = this.made(gl.createTexture(), 'texture', width * height * layers * texelBytes, `array ${internalFormat} ${width}x${height}`, [width, height]);
    gl.bindTexture(GL_TEXTURE_2D_ARRAY, tex);
    gl.texStorage3D(GL_TEXTURE_2D_ARRAY, 1, internalFormat, width, height, layers);
    setNearest(gl, GL_TEXTURE_2D_ARRAY);
    gl.bindTexture(GL_TEXTURE_2D_ARRAY, null);
    return tex;
  }

  /** A renderbuffer (depth, stencil or depth-stencil) of `width` x `height`. */
  renderbuffer(width: number, height: number, internalFormat: number, texelBytes: number): WebGLRenderbuffer {
    const gl = this.gl;
    const rb = this.made(gl.createRenderbuffer(), 'renderbuffer', width * height * texelBytes, `rb ${internalFormat} ${width}x${height}`, [width, height]);
    gl.bindRenderbuffer(gl.RENDERBUFFER, rb);
    gl.renderbufferStorage(gl.RENDERBUFFER, internalFormat, width, height);
    gl.bindRenderbuffer(gl.RENDERBUFFER, null);
    return rb;
  }

  vertexArray(): WebGLVertexArrayObject {
    return this.made(this.gl.createVertexArray(), 'vertexArray', 0);
  }

  buffer(): WebGLBuffer {
    return this.made(this.gl.createBuffer(), 'buffer', 0);
  }

  query(): WebGLQuery {
    return this.made(this.gl.createQuery(), 'query', 0);
  }

  /** A fence after the commands issued so far. */
  sync(): WebGLSync {
    const gl = this.gl;
    return this.made(gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0), 'sync', 0);
  }

  /**
   * Compiles and links a program from two complete GLSL sources (the one place that does).
   * On failure deletes what it made and throws a BrookError with `describe(stage, log)`.
   */
  link(vertex: string, fragment: string, describe: DescribeLinkError): WebGLProgram {
    const gl = this.gl;
    const vs = this.compile(gl.VERTEX_SHADER, vertex, 'vertex', describe);
    let fs: WebGLShader;
    try {
      fs = this.compile(gl.FRAGMENT_SHADER, fragment, 'fragment', describe);
    } catch (e) {
      gl.deleteShader(vs);
      throw e;
    }
    const program = gl.createProgram();
    if (!program) {
      gl.deleteShader(vs);
      gl.deleteShader(fs);
      this.guard();
      throw new BrookError('could not create a program (out of GPU memory?)');
    }
    gl.attachShader(program, vs);
    gl.attachShader(program, fs);
    gl.linkProgram(program);
    gl.detachShader(program, vs);
    gl.detachShader(program, fs);
    gl.deleteShader(vs);
    gl.deleteShader(fs);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
      const log = gl.getProgramInfoLog(program) ?? '';
      gl.deleteProgram(program);
      this.guard();
      throw new BrookError(describe('link', log));
    }
    return this.made(program, 'program', 0);
  }

  /**
   * The framebuffer with these attachments, made (and checked complete) on first use and
   * cached until one of the attached objects is released.
   */
  framebufferFor(a: Attachments): WebGLFramebuffer {
    const key = this.attachmentKey(a);
    const hit = this.framebuffers.get(key);
    if (hit) {
      this.claim(hit.fbo);
      return hit.fbo;
    }
    const gl = this.gl;
    const fbo = this.made(gl.createFramebuffer(), 'framebuffer', 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    a.color.forEach((c, i) => attach(gl, gl.COLOR_ATTACHMENT0 + i, c));
    if (a.depth) attach(gl, gl.DEPTH_ATTACHMENT, a.depth);
    if (a.stencil) attach(gl, gl.STENCIL_ATTACHMENT, a.stencil);
    if (a.depthStencil) attach(gl, gl.DEPTH_STENCIL_ATTACHMENT, a.depthStencil);
    // Completeness depends only on the attachments' formats and sizes; checkFramebufferStatus is
    // a round trip to the GPU process, so it is asked once per combination (binning makes new
    // framebuffers of the same shapes on every build).
    const shape = this.attachmentShape(a);
    const status = shape !== null && this.completeShapes.has(shape) ? gl.FRAMEBUFFER_COMPLETE : gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    if (status === gl.FRAMEBUFFER_COMPLETE && shape !== null) this.completeShapes.add(shape);
    if (status !== gl.FRAMEBUFFER_COMPLETE) {
      this.release(fbo);
      this.guard(); // a lost context reports FRAMEBUFFER_UNSUPPORTED: say it was lost instead
      throw new BrookError(`cannot render into these targets: ${framebufferStatusName(status)}`);
    }
    const uses = [...a.color, a.depth, a.stencil, a.depthStencil].filter((x): x is Attachment => x !== undefined).map(objectOf);
    this.framebuffers.set(key, { fbo, uses });
    this.fboKeys.set(fbo, key);
    for (const u of uses) {
      const keys = this.usedBy.get(u) ?? new Set<string>();
      this.usedBy.set(u, keys.add(key));
    }
    return fbo;
  }

  /** Takes the cached framebuffer of `key` out of the cache (not deleting it); its framebuffer. */
  private uncache(key: string): WebGLFramebuffer | undefined {
    const fb = this.framebuffers.get(key);
    if (!fb) return undefined;
    this.framebuffers.delete(key);
    this.fboKeys.delete(fb.fbo);
    for (const u of fb.uses) {
      const keys = this.usedBy.get(u);
      keys?.delete(key);
      if (keys?.size === 0) this.usedBy.delete(u);
    }
    return fb.fbo;
  }

  /** Deletes every cached framebuffer (they are made again on next use). */
  dropFramebuffers(): void {
    for (const { fbo } of [...this.framebuffers.values()]) this.release(fbo);
  }

  /**
   * The [width, height] a live texture (a layer of a texture array) or renderbuffer was made
   * with: a pooled 1D stream's texture may be taller than its layout (pool.ts), and WebGL2
   * draws only into attachments of one size.
   */
  sizeOf(obj: WebGLTexture | WebGLRenderbuffer): readonly [number, number] {
    const size = this.entries.get(obj)?.size;
    if (!size) throw new BrookError(`internal: asked the size of a ${describeObject(obj)} this context does not own`);
    return size;
  }

  /** Whether this registry made `obj` and it is still live. */
  owns(obj: object): boolean {
    return this.entries.has(obj);
  }

  /** Deletes `obj` (and the cached framebuffers that attach it). Throws if not made here. */
  release(obj: object): void {
    const entry = this.entries.get(obj);
    if (!entry) throw new BrookError(`internal: asked to release a ${describeObject(obj)} this context does not own`);
    if (entry.kind === 'texture' || entry.kind === 'renderbuffer') {
      for (const key of [...(this.usedBy.get(obj) ?? [])]) {
        const fbo = this.uncache(key);
        if (fbo) this.release(fbo);
      }
    }
    if (entry.kind === 'framebuffer') {
      const key = this.fboKeys.get(obj as WebGLFramebuffer);
      if (key !== undefined) this.uncache(key);
    }
    this.entries.delete(obj);
    const [counts, bytes] = entry.observed ? [this.observedCounts, this.observedBytes] : [this.counts, this.bytes];
    counts[entry.kind]--;
    if (entry.kind === 'texture' || entry.kind === 'renderbuffer') bytes[entry.kind] -= entry.bytes;
    if (!this.lost()) deleteObject(this.gl, entry.kind, obj);
  }

  /** Releases every object (context dispose). */
  releaseAll(): void {
    this.framebuffers.clear();
    this.fboKeys.clear();
    this.usedBy.clear();
    for (const obj of [...this.entries.keys()]) if (this.entries.has(obj)) this.release(obj);
  }

  /**
   * Runs `fn` as an observer of the caller's work: the objects it makes are counted apart
   * (`observed()`) until the caller's own work uses them (`claim`). Nests; returns fn's result.
   */
  observe<T>(fn: () => T): T {
    this.observing++;
    try {
      return fn();
    } finally {
      this.observing--;
    }
  }

  /** Whether `obj` was made while observing and not claimed since. */
  isObserved(obj: object): boolean {
    return this.entries.get(obj)?.observed === true;
  }

  /**
   * The caller's own work (not an observer's) uses `obj` (a cache hit): an object an observer
   * made moves to the caller's counts, as if the caller had made it now.
   */
  claim(obj: object): void {
    if (this.observing > 0) return;
    const entry = this.entries.get(obj);
    if (!entry?.observed) return;
    entry.observed = false;
    this.observedCounts[entry.kind]--;
    this.counts[entry.kind]++;
    if (entry.kind === 'texture' || entry.kind === 'renderbuffer') {
      this.observedBytes[entry.kind] -= entry.bytes;
      this.bytes[entry.kind] += entry.bytes;
    }
  }

  /** Live objects of each kind and the bytes they hold (not those an observer made: `observed()`). */
  snapshot(): ResourceCounts {
    return countsOf(this.counts, this.bytes);
  }

  /** Live objects made while observing and not claimed since (`observe`), as `snapshot()` counts. */
  observed(): ResourceCounts {
    return countsOf(this.observedCounts, this.observedBytes);
  }

  private made<T extends object>(obj: T | null, kind: ResourceKind, bytes: number, storage?: string, size?: readonly [number, number]): T {
    if (!obj) {
      this.guard();
      throw new BrookError(`could not create a ${kind} (out of GPU memory?)`);
    }
    const observed = this.observing > 0;
    this.entries.set(obj, { kind, id: this.nextId++, bytes, storage, size, observed });
    const [counts, all] = observed ? [this.observedCounts, this.observedBytes] : [this.counts, this.bytes];
    counts[kind]++;
    if (kind === 'texture' || kind === 'renderbuffer') all[kind] += bytes;
    return obj;
  }

  private compile(type: number, source: string, stage: 'vertex' | 'fragment', describe: DescribeLinkError): WebGLShader {
    const gl = this.gl;
    const shader = gl.createShader(type);
    if (!shader) {
      this.guard();
      throw new BrookError(`could not create a ${stage} shader`);
    }
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
      const log = gl.getShaderInfoLog(shader) ?? '';
      gl.deleteShader(shader);
      this.guard(); // a lost context also fails compiles: say that instead
      throw new BrookError(describe(stage, log));
    }
    return shader;
  }

  /** The attachments' formats and sizes (null when one's storage is not known here). */
  private attachmentShape(a: Attachments): string | null {
    const parts: string[] = [];
    for (const x of [...a.color, null, a.depth, a.stencil, a.depthStencil]) {
      if (!x) {
        parts.push('');
        continue;
      }
      const storage = this.entries.get(objectOf(x))?.storage;
      if (storage === undefined) return null;
      parts.push('layer' in x && x.layer !== undefined ? `${storage} layer` : storage);
    }
    return parts.join('|');
  }

  private attachmentKey(a: Attachments): string {
    const one = (x: Attachment | undefined) => {
      if (!x) return '';
      const obj = objectOf(x);
      const id = this.entries.get(obj)?.id;
      if (id === undefined) throw new BrookError(`internal: cannot attach a ${describeObject(obj)} this context does not own (disposed?)`);
      return 'layer' in x && x.layer !== undefined ? `${id}.${x.layer}` : String(id);
    };
    return `${a.color.map(one).join(',')}|${one(a.depth)}|${one(a.stencil)}|${one(a.depthStencil)}`;
  }
}

/** A compile or link error with the numbered source, for programs that are not kernels. */
export function describeStage(what: string, vertex: string, fragment: string): DescribeLinkError {
  return (stage, log) => {
    const source = stage === 'vertex' ? vertex : stage === 'fragment' ? fragment : null;
    const listing = source ? `\n${numberLines(source.split('\n'), 1)}` : '';
    return `${what}: the ${stage === 'link' ? 'program failed to link' : `${stage} shader failed to compile`}: ${log.trim()}${listing}`;
  };
}

function objectOf(a: Attachment): object {
  return 'renderbuffer' in a ? a.renderbuffer : a.texture;
}

function attach(gl: WebGL2RenderingContext, point: number, a: Attachment): void {
  if ('renderbuffer' in a) gl.framebufferRenderbuffer(gl.FRAMEBUFFER, point, gl.RENDERBUFFER, a.renderbuffer);
  else if (a.layer !== undefined) gl.framebufferTextureLayer(gl.FRAMEBUFFER, point, a.texture, 0, a.layer);
  else gl.framebufferTexture2D(gl.FRAMEBUFFER, point, gl.TEXTURE_2D, a.texture, 0);
}

function setNearest(gl: WebGL2RenderingContext, target: number): void {
  gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(target, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

function deleteObject(gl: WebGL2RenderingContext, kind: ResourceKind, obj: object): void {
  switch (kind) {
    case 'texture': return gl.deleteTexture(obj as WebGLTexture);
    case 'renderbuffer': return gl.deleteRenderbuffer(obj as WebGLRenderbuffer);
    case 'framebuffer': return gl.deleteFramebuffer(obj as WebGLFramebuffer);
    case 'vertexArray': return gl.deleteVertexArray(obj as WebGLVertexArrayObject);
    case 'buffer': return gl.deleteBuffer(obj as WebGLBuffer);
    case 'program': return gl.deleteProgram(obj as WebGLProgram);
    case 'query': return gl.deleteQuery(obj as WebGLQuery);
    case 'sync': return gl.deleteSync(obj as WebGLSync);
  }
}

function describeObject(obj: object): string {
  return obj.constructor?.name ?? 'GL object';
}

function countsOf(c: Record<ResourceKind, number>, bytes: { texture: number; renderbuffer: number }): ResourceCounts {
  return {
    textures: c.texture,
    textureBytes: bytes.texture,
    renderbuffers: c.renderbuffer,
    renderbufferBytes: bytes.renderbuffer,
    framebuffers: c.framebuffer,
    vertexArrays: c.vertexArray,
    buffers: c.buffer,
    programs: c.program,
    queries: c.query,
    syncs: c.sync,
  };
}
