/**
 * Filter method 'scatter': compaction by an exclusive scan of the kept flags and a vertex-shader
 * scatter (glsl/idioms/scatter.vert.glsl): every kept record is drawn as a point on record
 * rank(i) of the output, whose fragment gathers the record. Three kinds of pass — a mark, the
 * scan's ceil(log2 n) + 1 passes, one POINTS draw of n vertices — and one readback of the count.
 * WebGL2 has no geometry shader, so transform feedback alone cannot drop records: a scatter (or
 * the histogram pyramid's gather, method 'pyramid') is still needed.
 */
import SCATTER_VERT from '../../glsl/idioms/scatter.vert.glsl';
import type { BrookContext } from '../core/context';
import type { KernelSpec } from '../core/kernelspec';
import { runPass, type ShaderStage } from '../core/pass';
import type { Stream } from '../core/stream';
import { typeInfo, type ElementType } from '../core/types';
import type { FilterResult, Watcher } from './filter';
import { markKernel } from './predicate';
import { scan } from './scan';

const VERTEX: ShaderStage = { glsl: SCATTER_VERT, gathers: { flag: 'uint', rank: 'uint' } };

/**
 * Shows a method's finished result to the watcher (`label`, its kept records) and returns it;
 * when the watcher (the user's code) throws, the result's streams are released first, so a
 * failed filter keeps nothing.
 */
export function shown(watch: Watcher, label: string, result: FilterResult): FilterResult {
  try {
    if (result.stream) watch(label, result.stream);
  } catch (e) {
    result.stream?.dispose();
    result.indices?.dispose();
    throw e;
  }
  return result;
}

/** The fragment stage for records of `type`: the record (and, with indices, its source index). */
function gatherFragment(type: ElementType, indices: boolean): ShaderStage {
  const info = typeInfo(type);
  const pad = info.components === 4 ? '' : `, ${Array(4 - info.components).fill(info.kind === 'float' ? '0.0' : info.kind === 'int' ? '0' : '0u').join(', ')}`;
  return {
    gathers: { value: type },
    glsl: [
      'flat in int brook_src;',
      `layout(location = 0) out ${info.glsl4} kept;`,
      ...(indices ? ['layout(location = 1) out uvec4 idx;'] : []),
      'void main() {',
      `  kept = ${info.glsl4}(value(brook_src)${pad});`,
      ...(indices ? ['  idx = uvec4(uint(brook_src), 0u, 0u, 0u);'] : []),
      '}',
    ].join('\n'),
  };
}

const lastCount: KernelSpec = { name: 'LastCount', gathers: { rank: 'uint', flag: 'uint' }, uniforms: { at: 'int' }, outputs: { n: 'uint' }, body: 'n = rank(at) + flag(at);' };

export async function scatterFilter(ctx: BrookContext, stream: Stream, keep: string, indices: boolean, watch: Watcher = () => {}): Promise<FilterResult> {
  const n = stream.length;
  const flags = ctx.scratch('uint', n);
  let ranks: Stream | null = null;
  try {
    ctx.runInternal(markKernel('flag', stream.type, keep, { flag: 'uint' }, 'flag = keep ? 1u : 0u;'), { x: stream, flag: flags });
    watch('flags (1 = kept)', flags);
    ranks = scan(ctx, flags, { exclusive: true });
    watch('ranks (exclusive scan of the flags)', ranks);
    const total = ctx.scratch('uint', 1);
    let count: number;
    try {
      ctx.runInternal(lastCount, { rank: ranks, flag: flags, at: n - 1, n: total });
      count = ((await total.read()) as Uint32Array)[0]!;
    } finally {
      total.dispose();
    }
    if (count === 0) return { stream: null, count, indices: null };
    const kept = ctx.scratch(stream.type, count);
    const idx = indices ? ctx.scratch('uint', count) : null;
    try {
      runPass(ctx, {
        name: 'ScatterCompact',
        kind: 'scatter',
        vertex: VERTEX,
        fragment: gatherFragment(stream.type, indices),
        primitive: 'points',
        count: n,
        targets: idx ? [kept, idx] : [kept],
        gathers: { flag: flags, rank: ranks, value: stream },
      });
    } catch (e) {
      [kept, idx].forEach((s) => s?.dispose());
      throw e;
    }
    return shown(watch, 'compacted (one point per kept record)', { stream: kept, count, indices: idx });
  } finally {
    flags.dispose();
    ranks?.dispose();
  }
}
