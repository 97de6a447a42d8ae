/**
 * Running a kernel: its arguments bound and checked (kernel.ts), then one pass per group of
 * at most MAX_DRAW_BUFFERS outputs through the pass runner (pass.ts). An output that is also
 * read renders into a pooled texture and is swapped in after every pass has run (ping-pong: as
 * in Brook, no pass reads and writes the same texture); a pass that leaves texels unwritten (a
 * z mask, a region, an output domain, a tested write mask, a kernel that may `discard`) starts
 * that texture from a copy of the old contents. Every attachment of a pass has one size (WebGL2
 * refuses others as FRAMEBUFFER_INCOMPLETE_DIMENSIONS), while a pooled 1D stream's texture may be
 * taller than its layout: an output whose texture is not of the pass's rows is drawn the same
 * way, into a pooled texture of those rows swapped in afterwards.
 */
import type { Device } from './device';
import { check } from './errors';
import { Kernel, cachedKernel, compileKernel } from './kernel';
import { KernelSpec, RunOptions, validateSpec } from './kernelspec';
import { KernelArgs, bindArguments } from './kernelargs';
import { copyTexels, runPass, type ColorTarget, type PassDesc } from './pass';
import { checkOwner, describeValue as describeAny } from './checks';
import { ZMask } from './zmask';

const discards = new WeakMap<KernelSpec, boolean>();

/** Whether the kernel's GLSL says `discard` anywhere (a record it discards is not written). */
function mayDiscard(spec: KernelSpec): boolean {
  let d = discards.get(spec);
  if (d === undefined) discards.set(spec, (d = [spec.body, spec.helpers, spec.prologue, spec.epilogue].some((t) => t !== undefined && /\bdiscard\b/.test(t))));
  return d;
}

/**
 * Core's plain run: runs `given` once over its output domain with `args`: validated first, then drawn. A
 * description is compiled only once its arguments have passed, so a refused call compiles nothing.
 */
export function runKernel(ctx: Device, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions = {}): void {
  let compiled = given instanceof Kernel ? given : cachedKernel(ctx, given);
  if (given instanceof Kernel && given.owner !== ctx) checkOwner(ctx, given.owner, `kernel ${given.name}`, 'compiled kernel');
  if (!compiled) validateSpec(given as KernelSpec, ctx);
  const spec = compiled ? compiled.spec : (given as KernelSpec); // the compiled description: its checks are cached with it
  const kernel = { name: spec.name, spec };
  const { outputs, reads, uniforms, records, scissor, variant } = bindArguments(ctx, kernel, args);
  const domain = outputs[0]!.layout;
  const region = options.region ?? 'all';
  const mask = options.build ?? options.mask ?? null;
  if (mask) {
    check(mask instanceof ZMask, () => `kernel ${kernel.name}: options.mask must be a z mask (ctx.zmask(stream)), got ${describeAny(mask)}`);
    if (mask.ctx !== ctx) checkOwner(ctx, mask.ctx, `kernel ${kernel.name}: options.mask`, 'z mask');
    check(!mask.disposed, () => `kernel ${kernel.name}: the z mask was disposed`);
    check(
      mask.width === domain.width && mask.height === domain.height,
      () => `kernel ${kernel.name}: the z mask is ${mask.width}x${mask.height} texels but the output is ${domain.width}x${domain.height}; make the mask with ctx.zmask(output)`,
    );
    check(options.build !== undefined || mask.builds > 0, () => `kernel ${kernel.name}: the z mask has not been built yet (ctx.buildMask)`);
  }
  check(!options.invert || options.mask, () => `kernel ${kernel.name}: invert needs a mask`);
  const wm = options.writeMask;
  if (wm) {
    check(!mask, () => `kernel ${kernel.name}: a write mask cannot be combined with a z mask`);
    check(!wm.mask.disposed, () => `kernel ${kernel.name}: the bound write mask was disposed`);
    check(
      wm.mask.width === domain.width && wm.mask.height === domain.height,
      () => `kernel ${kernel.name}: the bound write mask is ${wm.mask.height}x${wm.mask.width} (rows x columns) but the output's texture is ${domain.height}x${domain.width}; create the mask with the output's size or unbind it`,
    );
  }
  check(['all', 'interior', 'boundary'].includes(region), () => `kernel ${kernel.name}: region must be 'all', 'interior' or 'boundary', got '${String(region)}'`);
  if (region !== 'all') {
    check(!scissor, () => `kernel ${kernel.name}: region '${region}' cannot be combined with an output domain (the domain already limits the records written)`);
    check(domain.dims === 2, () => `kernel ${kernel.name}: region '${region}' needs a 2D output ([height, width]); this one is ${domain.dims}D`);
    check(domain.width >= 3 && domain.height >= 3, () => `kernel ${kernel.name}: region '${region}' needs an output of at least 3x3 texels`);
  }
  const k = compiled ?? compileKernel(ctx, spec, variant); // every argument checked: compile (cached), then allocate
  // a discarded record keeps the output's value, as when the pass draws into the stream itself
  const partial = options.mask !== undefined || region !== 'all' || scissor !== undefined || wm?.test === true || mayDiscard(spec);
  const readStreams = [...reads.values()];
  const aliased = outputs.map((o) => readStreams.includes(o));
  // WebGL2 draws only into attachments of one size, and a pooled 1D stream's texture may be
  // taller than its layout (its height class, pool.ts): every attachment gets `rows` rows, and an
  // output whose texture has other rows renders into a pooled texture of `rows`, swapped in
  // afterwards like a ping-pong output's
  const heights = outputs.map((o) => ctx.resources.sizeOf(o.texture)[1]);
  const rows = attachmentRows(ctx, heights, aliased, mask ?? wm?.mask, domain.height);
  const temps = outputs.map((o, i) => (aliased[i] || heights[i] !== rows ? ctx.acquireTexture(domain.width, rows, o.info) : null));
  if (partial) {
    outputs.forEach((o, i) => temps[i] && copyTexels(ctx, o.texture, temps[i]!, domain.width, domain.height, `${o.describe()} (ping-pong copy)`));
  }
  for (const [name, s] of reads) {
    uniforms[kernel.spec.inputs?.[name] !== undefined ? `brook_s_${name}` : `brook_g_${name}`] = s.texture;
  }
  const names = Object.keys(kernel.spec.outputs);
  const all = k.partsFor(variant);
  const parts = options.build ? all.slice(0, 1) : all; // a mask build writes only depth
  parts.forEach((part, p) => {
    const targets: ColorTarget[] = part.outputs.map((name) => {
      const i = names.indexOf(name);
      const o = outputs[i]!;
      return temps[i] ? { texture: temps[i]!, width: domain.width, height: domain.height, label: ctx.trace.active ? `${o.describe()} (ping-pong)` : 'ping-pong' } : o;
    });
    const pass: PassDesc = {
      name: parts.length > 1 ? `${kernel.name} [outputs ${part.outputs.join(', ')}]` : kernel.name,
      kind: options.build ? 'mask' : 'kernel',
      program: k.program(p, variant),
      vertex: region === 'boundary' ? 'boundary' : 'fullscreen',
      targets,
      records,
      uniforms,
      reads,
    };
    if (wm) {
      pass.depth = wm.mask;
      pass.depthTest = { func: wm.test ? 'less' : 'always', write: wm.set };
    }
    if (mask) {
      pass.depth = mask;
      pass.depthTest = options.build ? { func: 'less', write: true } : { func: options.invert ? 'greater' : 'less', write: false };
    }
    if (options.build) {
      pass.clear = { depth: 1 };
      pass.colorWrite = false;
      pass.clipZ = -1;
    }
    if (region === 'interior') pass.scissor = [1, 1, domain.width - 2, domain.height - 2];
    if (scissor) pass.scissor = scissor; // an output domain: only its records are written
    runPass(ctx, pass);
  });
  outputs.forEach((o, i) => {
    if (!temps[i]) return;
    // a mask build writes no colour: its outputs keep their textures (and records)
    if (options.build) ctx.releaseTexture(temps[i]!, domain.width, rows, o.info);
    else ctx.releaseTexture(o.swapTexture(temps[i]!), domain.width, heights[i]!, o.info);
  });
}

/**
 * The rows of every attachment of a run's passes: a z mask's (a renderbuffer of the layout's
 * exact size) where one is bound; else the rows most of the outputs drawn in place already have
 * (the fewest swaps), or the layout's own where every output ping-pongs.
 */
function attachmentRows(ctx: Device, heights: readonly number[], aliased: readonly boolean[], mask: ZMask | undefined, layoutRows: number): number {
  if (mask) return ctx.resources.sizeOf(mask.renderbuffer)[1];
  const counts = new Map<number, number>();
  heights.forEach((h, i) => aliased[i] || counts.set(h, (counts.get(h) ?? 0) + 1));
  let best = layoutRows;
  let most = 0;
  for (const [h, c] of counts) if (c > most) (best = h), (most = c);
  return best;
}
