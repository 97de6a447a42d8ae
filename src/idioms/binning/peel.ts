/**
 * Depth-peeled binning (Oat, Barczak & Shopf 2009, section 3): pass i renders the working set
 * as points (glsl/idioms/binning/peel.vert.glsl); the vertex shader puts each item on its bin's
 * texel at depth = key and clips it when its key is not greater than slice i-1 at that bin (the
 * dual-depth test); the depth test LESS into slice i keeps the smallest remaining key; the
 * fragment shader writes i+1 into the counter.
 *
 * WebGL2 differences from the paper's Direct3D 10, and what they cost:
 * - No predicated rendering: 'predicated' keeps an occlusion query per pass (samples that pass
 *   = items binned) in the context's OcclusionWindow and stops at the first pass that binned
 *   nothing. D3D10's predicate skips the passes after the end on the GPU; here every answer is
 *   a round trip to the CPU (~1.7 ms on an H100), so either the CPU waits for answers or up to
 *   `inFlight` passes run past the end (each an all-rejected draw of the working set).
 * - No geometry shaders or DrawAuto: 'reduced' and 'delayed' remove binned items between passes
 *   with `filter` (histogram pyramid, or scan and scatter) over the working-set ids, which reads
 *   the survivor count back (the pyramid: a stalling read of its root, after one poll turn for
 *   the NaN probe's query, checks.ts) to size the next draw.
 * - Overflow (3.3): after the last slice, the items whose key is above that slice's value were
 *   not binned; the caller (index.ts) then rebuilds with twice the capacity.
 */
import PEEL_VERT from '../../../glsl/idioms/binning/peel.vert.glsl';
import COUNT_FRAG from '../../../glsl/idioms/binning/count.frag.glsl';
import type { BrookContext } from '../../core/context';
import type { KernelSpec } from '../../core/kernelspec';
import { runPass, type ShaderStage } from '../../core/pass';
import { OcclusionWindow } from '../../core/queries';
import type { Stream } from '../../core/stream';
import { filterAfter } from '../filter';
import { MAPPING_GLSL, MAPPING_STAGE_GLSL, MAPPING_UNIFORMS, mappingUniforms, slicePasses, type BinMapping, type BinningMethod, type BinningStats, type Bins } from './bins';

const PEEL: ShaderStage = { glsl: `${MAPPING_STAGE_GLSL}\n${PEEL_VERT}`, gathers: { items: 'float4', working: 'float2' } };
const COUNT: ShaderStage = { glsl: COUNT_FRAG };

/** Items not yet binned after a slice: key above that slice's value at the item's bin. */
function survivorKernel(reduced: boolean): KernelSpec {
  return {
    name: `BinSurvivors<${reduced ? 'working set' : 'all'}>`,
    ...(reduced ? { inputs: { w: 'float2' as const } } : {}),
    gathers: { items: 'float4', slice: 'float' },
    uniforms: MAPPING_UNIFORMS,
    outputs: { rec: 'float2' },
    helpers: MAPPING_GLSL,
    body: [
      reduced ? 'int id = int(w.x);' : 'int id = brook_index;',
      'vec4 item = items(id);',
      'ivec2 px = binPixel(item);',
      'rec = vec2(float(id), binValid(item) && binKey(item, id) > slice(px) ? 1.0 : 0.0);',
    ].join('\n'),
  };
}

/**
 * One build into `bins` at its capacity; true when items were left over (overflow). Each
 * survivor count is read after `beforeCount()` settles (binning's NaN probe: checks.ts; null
 * when there is none).
 */
export async function peelOnce(
  ctx: BrookContext,
  bins: Bins,
  items: Stream,
  mapping: BinMapping,
  method: BinningMethod,
  inFlight: number,
  reduction: 'pyramid' | 'scatter',
  beforeCount: (() => Promise<void> | null) | null,
): Promise<boolean> {
  const { width, height, capacity } = bins;
  const u = mappingUniforms(mapping, width, height);
  const n = items.length;
  const expectedLoad = Math.ceil(n / (width * height));
  const reduceFrom = method === 'reduced' ? 0 : method === 'delayed' ? Math.max(expectedLoad - 1, 0) : Infinity;
  const stats: BinningStats = { method, passes: 0, reductions: 0, overflows: 0, dropped: 0 };
  bins.stats = stats;

  // the counter starts at zero and every slice at 1.0 (empty), also the ones no pass reaches
  runPass(ctx, { name: 'BinClearLoads', kind: 'clear', targets: [bins.loads], count: 0, clear: { color: [0, 0, 0, 0] } });
  for (let i = 0; i < capacity; i++) runPass(ctx, { name: `BinClearSlice<${i}>`, kind: 'clear', targets: [], depth: bins.slice(i), count: 0, clear: { depth: 1 } });

  let working = null as Stream | null; // float2 (id, 1) records of the items still to bin; null = all
  let count = n;
  const window = method === 'predicated' ? new OcclusionWindow(ctx, inFlight) : null;
  const slice = ctx.scratch('float', [height, width]);
  const survivors = (after: number) => {
    bins.copySlice(after, slice);
    const recs = ctx.scratch('float2', count);
    ctx.runInternal(survivorKernel(working !== null), { ...(working ? { w: working } : {}), items, slice, rec: recs, ...u });
    return recs;
  };
  try {
    await slicePasses(ctx, {
      window,
      passes: capacity,
      stats,
      more: () => count > 0,
      pass: (i) => {
        const prev = bins.slice(i > 0 ? i - 1 : 1); // (pass 0 tests nothing: any array but the attached one)
        return {
          name: `BinPeel<${i}>`,
          kind: 'peel',
          vertex: PEEL,
          fragment: COUNT,
          count,
          targets: [bins.loads],
          depth: bins.slice(i),
          depthTest: { func: 'less', write: true },
          gathers: { items, working: working ?? items },
          uniforms: { ...u, reduced: working !== null, previous: prev.texture, previousLayer: prev.layer, first: i === 0, passNumber: i + 1 },
        };
      },
      after: async (i) => {
        if (i < reduceFrom) return;
        // remove the items this pass binned (key <= slice i at their bin)
        const recs = survivors(i);
        const kept = await filterAfter(ctx, recs, { keep: 'x.y > 0.5', method: reduction }, beforeCount);
        recs.dispose();
        working?.dispose();
        working = kept.stream;
        count = kept.count;
        stats.reductions++;
      },
    });
    if (count === 0 || window?.done) return false;
    // overflow test (3.3): items above the last slice's value were not binned
    const recs = survivors(capacity - 1);
    const left = await filterAfter(ctx, recs, { keep: 'x.y > 0.5' }, beforeCount);
    recs.dispose();
    left.stream?.dispose();
    return left.count > 0;
  } finally {
    slice.dispose();
    working?.dispose();
  }
}
