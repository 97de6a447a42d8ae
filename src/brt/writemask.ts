/**
 * Brook's write masks (BrookGPU's `write_mask`, include/brook/brt.hpp; its DX9 runtime,
 * runtime/gpu/dx9/dx9writemask.cpp): a depth buffer the size of the streams it masks, bound to
 * the context so that every kernel run while it is bound consults it.
 *
 * ```text
 * BrookGPU (C++)                                  brookgl
 * write_mask m = write_mask::create(size, size);  const m = writeMask(ctx, size, size);
 * m.bind();  m.unbind();                          m.bind();  m.unbind();
 * m.enableSet();  m.disableSet();                 m.enableSet();  m.disableSet();
 * m.enableTest(); m.disableTest();                m.enableTest(); m.disableTest();
 * m.clear();                                      m.clear();
 * ```
 *
 * As in BrookGPU: clear() sets every record to "writable" (depth 1.0); a kernel pass draws at
 * depth 0.5; with the test enabled a record passes only where 0.5 < its depth (so records already
 * set are neither shaded nor written nor counted by a write query); with set enabled every record
 * the pass writes (not discarded, and passing the test if enabled) stores 0.5, masking it for
 * later tested passes. WebGL2 gives the same depth test and depth writes, so this is BrookGPU's
 * mechanism itself. The mask applies to the user's plain kernel runs (`ctx.run`), whose output
 * must have the mask's size (another size is a BrookError); not to a reduce kernel's fold passes,
 * nor to the passes of library calls (sortStream, filters, streamGatherOp, scatterReduce, reads,
 * ...: `ctx.runInternal`), as BrookGPU's runtime calls were not masked.
 *
 * On a CPU context (createContext({ backend: 'cpu' })) the depth buffer is an array of the same
 * values (src/cpu/masks.ts) and the CPU context applies the bound mask to its runs the same way:
 * the same records skipped, set and counted.
 */
import type { BrookContext } from '../core/context';
import { check } from '../core/errors';
import { runPass } from '../core/pass';
import { ZMask } from '../core/zmask';
import { boundMaskOn, setBoundMask, useBrookKinds } from './lower';

export class WriteMask {
  /** @internal The depth buffer. */
  readonly depth: ZMask;
  /** Whether tested passes skip the records set. */
  testing = false;
  /** Whether passes set the records they write. */
  setting = false;

  /** Use writeMask(ctx, rows, columns). */
  constructor(
    readonly ctx: BrookContext,
    readonly rows: number,
    readonly columns: number,
  ) {
    useBrookKinds(); // the lowering applies a bound mask to ctx.run (lower.ts)
    // disposed by dispose() (its renderbuffer is the context's, counted in ctx.stats()); a CPU context's: an array of depths (src/cpu/masks.ts)
    this.depth = onCpu(ctx) ? ctx.depthBuffer(columns, rows) : new ZMask(ctx, columns, rows);
    try {
      this.clear();
    } catch (e) {
      this.depth.dispose(); // a failed first clear (its framebuffer refused, the context lost) keeps nothing
      throw e;
    }
  }

  get disposed(): boolean {
    return this.depth.disposed;
  }

  /** Makes this the context's mask (replacing any other). */
  bind(): void {
    this.live('bind');
    setBoundMask(this.ctx, this);
  }

  /** The context has no mask afterwards (if this one was bound). */
  unbind(): void {
    if (boundMaskOn(this.ctx) === this) setBoundMask(this.ctx, undefined);
  }

  enableTest(): void {
    this.live('enableTest');
    this.testing = true;
  }
  disableTest(): void {
    this.testing = false;
  }
  enableSet(): void {
    this.live('enableSet');
    this.setting = true;
  }
  disableSet(): void {
    this.setting = false;
  }

  /** Every record writable again (depth 1.0). */
  clear(): void {
    this.live('clear');
    this.ctx.guard();
    if (onCpu(this.ctx)) return (this.depth as unknown as { clear(d: number): void }).clear(1);
    runPass(this.ctx, { name: 'write_mask clear', kind: 'clear', targets: [], depth: this.depth, clear: { depth: 1 }, count: 0, colorWrite: false, records: this.rows * this.columns });
  }

  /** Releases the depth buffer (and unbinds). Idempotent. */
  dispose(): void {
    this.unbind();
    this.depth.dispose();
  }

  private live(what: string): void {
    check(!this.depth.disposed, () => `write_mask.${what}(): this write mask was disposed`);
  }
}

/** A CPU context (src/cpu/context.ts), whose depth buffers are arrays: `depthBuffer(width, height)`. */
function onCpu(ctx: BrookContext): ctx is BrookContext & { depthBuffer(width: number, height: number): ZMask } {
  return (ctx as { backend?: string }).backend === 'cpu';
}

/**
 * BrookGPU's `write_mask::create(rows, columns)`: a write mask for streams of that shape (for a
 * 1D stream, its texture's rows and columns). Cleared; not bound.
 */
export function writeMask(ctx: BrookContext, rows: number, columns: number): WriteMask {
  ctx.guard();
  check([rows, columns].every((x) => Number.isInteger(x) && x >= 1), () => `writeMask(ctx, rows, columns): positive integers, got ${rows}, ${columns}`);
  return new WriteMask(ctx, rows, columns);
}
