/**
 * The device seam: what the runtime's passes, kernels, queries and trace need of a context —
 * GL, capabilities, the resource registry, programs, the texture pool — and nothing of the
 * user's verbs (stream, run, reduce, ...). BrookContext (context.ts) implements it; modules that
 * draw or allocate take a Device, so they do not depend on context.ts and context.ts does not
 * form one import circle with them. Idioms use the same members through their BrookContext.
 */
import type { Capabilities } from './caps';
import type { PoolFit, PoolFormat } from './pool';
import type { ProgramCache } from './programs';
import type { Queries } from './queries';
import type { Resources } from './resources';
import type { Tracer } from './trace';

export interface Device {
  readonly gl: WebGL2RenderingContext;
  readonly caps: Capabilities;
  readonly debug: boolean;
  /** Pass-by-pass account of the work, when switched on. */
  readonly trace: Tracer;
  /** Occlusion and timer queries and fences, polled without blocking. */
  readonly queries: Queries;
  /** Every GL object of this context (resources.ts). */
  readonly resources: Resources;
  /** Linked programs by source, a bounded LRU (programs.ts). */
  readonly programs: ProgramCache;
  readonly isLost: boolean;
  /** Throws a BrookError if the context was lost or disposed. */
  guard(): void;
  /** Allocates a texture of `width` x `height` texels for `info`'s records (or of a depth-stencil format). */
  createTexture(width: number, height: number, info: PoolFormat & { type?: string }): WebGLTexture;
  /** After a large allocation: GL_OUT_OF_MEMORY or a lost context becomes a BrookError here. */
  checkAllocation(object: WebGLTexture | WebGLBuffer | WebGLRenderbuffer, bytes: number, what: string): void;
  /** For a failure with no message of its own: the last large allocation, which a driver may have accepted without backing it ('' when none). */
  lateMemoryNote(): string;
  /** Deletes a texture and every cached framebuffer that draws into it. */
  deleteTexture(tex: WebGLTexture): void;
  /** A texture of this size and format from the pool, or a new one; `'class'`: perhaps taller (1D streams). */
  acquireTexture(width: number, height: number, info: PoolFormat, fit?: PoolFit): WebGLTexture;
  /** Returns a texture to the pool. */
  releaseTexture(tex: WebGLTexture, width: number, height: number, info: PoolFormat): void;
  /** A 2D texture array from the pool, or a new one. */
  acquireTextureArray(width: number, height: number, layers: number, format: PoolFormat): WebGLTexture;
  /** Returns a texture array to the pool (its contents are not kept). */
  releaseTextureArray(tex: WebGLTexture, width: number, height: number, layers: number, format: PoolFormat): void;
  /** The framebuffer drawing into `textures` (colour attachments 0..n-1), cached. */
  framebufferFor(textures: WebGLTexture[]): WebGLFramebuffer;
  /** Forgets a disposed z mask. */
  forgetMask(mask: object): void;
  /** The shared empty vertex array (passes draw from gl_VertexID, no buffers). */
  readonly passVertexArray: WebGLVertexArrayObject;
}
