/**
 * Stencil routing, the paper's comparator (section 2), in both forms.
 *
 * Multipass (Harada 2007), methods 'stencil' and 'stencil-predicated' of binPoints: pass i
 * draws every item (no working set to shrink) into colour slice i with the stencil test
 * admitting one write per bin (cleared to 0, EQUAL 0, INCR when both tests pass) and the depth
 * test GREATER against the key routed by the pass before (depth writes on, one depth-stencil
 * buffer for all passes). Items are drawn in id order, which is key order, so the first item
 * to pass is the next smallest key: the sorted input stencil routing needs, and why it cannot
 * bucket-sort by value. 'stencil' runs `capacity` passes; 'stencil-predicated' adds the paper's
 * occlusion-query early exit.
 *
 * One draw (Purcell et al. 2003), `stencilRoute`: k x k slots per bin, stencil values set to
 * 0..k²-1, every item drawn once as a k-pixel point.
 */
import ROUTE_VERT from '../../../glsl/idioms/binning/route.vert.glsl';
import ROUTE_PASS_FRAG from '../../../glsl/idioms/binning/route-pass.frag.glsl';
import ROUTE_ID_FRAG from '../../../glsl/idioms/binning/route-id.frag.glsl';
import ROUTE_SLOTS_FRAG from '../../../glsl/idioms/binning/route-slots.frag.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import { runPass, type ShaderStage } from '../../core/pass';
import { OcclusionWindow } from '../../core/queries';
import { STORAGE_FORMAT } from '../../core/resources';
import type { Stream } from '../../core/stream';
import { checkContext, checkInteger, checkOptions, checkStream } from '../../core/validate';
import { DroppedCount, checkGrid } from './checks';
import { MAPPING_STAGE_GLSL, binLayout, mappingUniforms, slicePasses, type BinGrid, type BinMapping, type BinningStats, type Bins } from './bins';

const ROUTE: ShaderStage = { glsl: `${MAPPING_STAGE_GLSL}\n${ROUTE_VERT}`, gathers: { items: 'float4' } };
const ROUTE_PASS: ShaderStage = { glsl: ROUTE_PASS_FRAG };
const ROUTE_ID: ShaderStage = { glsl: ROUTE_ID_FRAG };
const ROUTE_SLOTS: ShaderStage = { glsl: ROUTE_SLOTS_FRAG };

/**
 * One multipass stencil-routing build into `bins` ('color' storage). True when items were left
 * over (overflow).
 */
export async function routeOnce(ctx: BrookContext, bins: Bins, items: Stream, mapping: BinMapping, predicated: boolean, inFlight: number, dropped: () => Promise<number>): Promise<boolean> {
  const { width, height, capacity } = bins;
  const n = items.length;
  const stats: BinningStats = { method: predicated ? 'stencil-predicated' : 'stencil', passes: 0, reductions: 0, overflows: 0, dropped: 0 };
  bins.stats = stats;
  const window = predicated ? new OcclusionWindow(ctx, inFlight) : null;
  const uniforms = { ...mappingUniforms(mapping, width, height), pointSize: 1 };
  const depthStencil = bins.depthStencil!;
  // every slice empty (1.0), no load, depth 0.0 below every key
  for (let i = 0; i < capacity; i++) runPass(ctx, { name: `RouteClearSlice<${i}>`, kind: 'clear', targets: [bins.slice(i)], count: 0, clear: { color: [1, 1, 1, 1] } });
  runPass(ctx, { name: 'RouteClearLoads', kind: 'clear', targets: [bins.loads], depthStencil, count: 0, clear: { color: [0, 0, 0, 0], depth: 0, stencil: 0 } });
  await slicePasses(ctx, {
    window,
    passes: capacity,
    stats,
    pass: (i) => ({
      name: `RoutePass<${i}>`,
      kind: 'route',
      vertex: ROUTE,
      fragment: ROUTE_PASS,
      count: n,
      targets: [bins.slice(i), bins.loads],
      depthStencil,
      clear: { stencil: 0 },
      depthTest: { func: 'greater', write: true },
      stencilTest: { func: 'equal', ref: 0, zpass: 'incr' },
      gathers: { items },
      uniforms: { ...uniforms, passNumber: i + 1 },
    }),
  });
  if (window?.done) return false;
  // overflow (3.3): fewer items in the bins than were drawn
  const routed = (await ctx.reduce(bins.loads, 'sum'))[0]!;
  return routed < n - (await dropped());
}

export interface Routed {
  /** Item ids, -1 where empty: slot s of bin (x, y) at texel (x*k + s % k, y*k + floor(s / k)). */
  slots: Stream;
  /** Slots per bin side (k x k slots per bin). */
  k: number;
  /** Items that found a slot; fewer than the item count means a bin overflowed. */
  routed: number;
  overflow: boolean;
  /** Draws: k*k stencil initialisation passes plus one routing pass. */
  passes: number;
  /** Items with a NaN coordinate, which have no bin. */
  dropped: number;
}

/**
 * One-draw stencil routing (Purcell et al. 2003): every bin is a block of k x k texels whose
 * stencil values are set to 0..k²-1 (one pass per value: WebGL2 fragment shaders cannot write
 * stencil); then all items are drawn once as points of size k over their bin's block with the
 * stencil test EQUAL 0 and DECR_WRAP on every outcome, so the n-th item of a bin lands in the
 * texel that started at n - 1. Items keep draw (id) order within a bin, as binning's ascending
 * keys do. More than k² items in a bin wrap the 8-bit stencil and are lost: `routed` counts the
 * items placed so that is detected. (The multipass form the paper compares against is
 * `binPoints` with method 'stencil' or 'stencil-predicated'.)
 */
export async function stencilRoute(ctx: BrookContext, positions: Stream, grid: BinGrid, options: { capacity?: number } = {}): Promise<Routed> {
  checkContext(ctx, 'stencilRoute');
  checkStream(ctx, positions, 'stencilRoute: positions', ['float4']);
  check(positions.layout.dims === 1, () => 'stencilRoute: positions must be a 1D float4 stream');
  checkGrid(grid, 'stencilRoute');
  options = checkOptions(options, 'stencilRoute: options');
  if (options.capacity !== undefined) checkInteger(options.capacity, 'stencilRoute: options.capacity', 1);
  const k = Math.ceil(Math.sqrt(options.capacity ?? 4));
  check(k * k <= 255, () => `stencil routing: ${k * k} slots per bin exceed the 8-bit stencil (255)`);
  const maxPoint = ctx.caps.maxPointSize;
  check(k <= maxPoint, () => `stencil routing: points of ${k} pixels exceed this device's largest point size ${maxPoint}`);
  const { width, height } = binLayout(grid.cells);
  const slots = ctx.stream('float', [height * k, width * k]);
  let dropped: DroppedCount | null = null;
  try {
    // NaN positions are drawn nowhere: probed first, so the answer comes back alongside the count
    dropped = new DroppedCount(ctx, positions);
    const stencil = { renderbuffer: ctx.resources.renderbuffer(width * k, height * k, STORAGE_FORMAT.STENCIL8, 1), width: width * k, height: height * k, label: 'routing stencil' };
    try {
      runPass(ctx, { name: 'RouteClear', kind: 'clear', targets: [slots], stencil, count: 0, clear: { color: [-1, -1, -1, -1], stencil: 0 } });
      // stencil value s in slot s of every block
      for (let s = 0; s < k * k; s++) {
        runPass(ctx, {
          name: `RouteSlots<${s}>`,
          kind: 'stencil',
          fragment: ROUTE_SLOTS,
          targets: [slots],
          stencil,
          colorWrite: false,
          stencilTest: { func: 'always', ref: s, zpass: 'replace' },
          uniforms: { k, slot: s },
        });
      }
      // route every item in one draw
      runPass(ctx, {
        name: 'RouteOneDraw',
        kind: 'route',
        vertex: ROUTE,
        fragment: ROUTE_ID,
        primitive: 'points',
        count: positions.length,
        targets: [slots],
        stencil,
        stencilTest: { func: 'equal', ref: 0, fail: 'decr-wrap', zfail: 'decr-wrap', zpass: 'decr-wrap' },
        gathers: { items: positions },
        uniforms: { ...mappingUniforms({ mode: 'spatial', grid }, width, height), pointSize: k },
      });
    } finally {
      ctx.resources.release(stencil.renderbuffer);
    }
    const routed = await countRouted(ctx, slots);
    const nan = await dropped.read();
    return { slots, k, routed, overflow: routed < positions.length - nan, passes: k * k + 1, dropped: nan };
  } catch (e) {
    slots.dispose(); // a failed call releases what it took, and leaves no query pending
    await dropped?.settled();
    throw e;
  }
}

const occupied: KernelSpec = { name: 'Occupied', inputs: { s: 'float' }, outputs: { n: 'uint' }, body: 'n = s >= 0.0 ? 1u : 0u;' };
async function countRouted(ctx: BrookContext, slots: Stream): Promise<number> {
  const flags = ctx.scratch('uint', [slots.layout.height, slots.layout.width]);
  try {
    ctx.runInternal(occupied, { s: slots, n: flags });
    return (await ctx.reduce(flags, 'sum'))[0]!;
  } finally {
    flags.dispose();
  }
}
