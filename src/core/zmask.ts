/**
 * Z-cull masks (Harris & Buck, GPU Gems 2 ch. 34, Listings 34-1 and 34-2): a depth buffer the
 * size of a stream's texture in which records to skip hold depth 0.0 and the others 1.0.
 *
 * ```ts
 * const mask = ctx.zmask(grid);                                    // same texture size as grid
 * ctx.buildMask(mask, landlocked, { obstacles });                  // a pass that discards the records to run
 * ctx.run(jacobi, { ... }, { mask });                              // landlocked records never shaded
 * ```
 *
 * Building clears the depth to 1.0 and draws the builder kernel at window depth 0.0 with the
 * depth test LESS and depth writes on; the builder discards the records that should run, so
 * the others get depth 0.0. A masked pass then draws at depth 0.5 with the test LESS and depth
 * writes off: records at 0.0 fail the test before their fragment shader runs (`invert` swaps
 * the test to GREATER and runs exactly those instead). The mask stays valid across passes —
 * it belongs to the texture size, not to one texture, so ping-ponged outputs share it — until
 * it is rebuilt. Cost: one full pass to build; per masked pass the depth test, which GPUs do
 * on tiles of several pixels (z-cull skips work only where a whole tile is masked).
 */
import { BrookError } from './errors';
import type { Device } from './device';
import { STORAGE_FORMAT } from './resources';

export class ZMask {
  readonly width: number;
  readonly height: number;
  private rb: WebGLRenderbuffer | null;
  /** Times the mask has been built; 0 means never (a masked pass then refuses to run). */
  builds = 0;

  /** @internal Use ctx.zmask(stream). */
  constructor(
    /** @internal The context that owns the depth buffer. */
    readonly ctx: Device,
    width: number,
    height: number,
  ) {
    this.width = width;
    this.height = height;
    this.rb = ctx.resources.renderbuffer(width, height, STORAGE_FORMAT.DEPTH32F, 4);
  }

  /** @internal The depth renderbuffer. */
  get renderbuffer(): WebGLRenderbuffer {
    if (!this.rb) throw new BrookError('this z mask was disposed: create a new one with ctx.zmask(stream)');
    return this.rb;
  }

  get disposed(): boolean {
    return this.rb === null;
  }

  dispose(): void {
    if (!this.rb) return;
    this.ctx.resources.release(this.rb); // and the framebuffers that used it
    this.ctx.forgetMask(this);
    this.rb = null;
  }
}
