/**
 * The GLSL around a reduce kernel's body (`reduce void f(T a<>, reduce T r<>)`): one pass folds
 * each output record's block of input records in index order (src/brt/reducekernel.ts runs the passes).
 */
import { UniformType, glslName } from '../core/kernel';
import { ElementType } from '../core/types';
import { TYPE_MAP } from './tokens';

/** The gather through which a reduce kernel reads the stream it reduces (see src/brt/reducekernel.ts). */
export const REDUCE_SOURCE = 'reduce_src';
/** The uniforms of a reduce kernel's pass: records, records per output (1D), block (2D), mode. */
export const REDUCE_UNIFORMS: Record<string, UniformType> = { reduce_n: 'int', reduce_span: 'int', reduce_block: 'int2', reduce_2d: 'bool' };

/**
 * A reduce kernel as one pass: each output record folds its block of input records in index
 * order (row-major within a 2D block). The user's body combines the next record `a` into the
 * running result `r` (brook_kernel(), called once per record after the first); the last call is
 * main's own, skipped when the block has one record.
 */
export function reduceFold(a: string, r: string, type: ElementType): { globals: string; prologue: string; skip: string } {
  const t = TYPE_MAP[type] ?? type;
  const A = glslName(a);
  const R = glslName(r);
  const at = (k: string) =>
    `(reduce_2d ? ${REDUCE_SOURCE}(ivec2(brook_pos.x * reduce_block.x + (${k}) % reduce_block.x, brook_pos.y * reduce_block.y + (${k}) / reduce_block.x)) : ${REDUCE_SOURCE}(brook_index * reduce_span + (${k})))`;
  return {
    globals: `${t} ${A};\nbool brook_reduce_skip = false;`,
    prologue: [
      '  int brook_count = reduce_2d ? reduce_block.x * reduce_block.y : min(reduce_span, reduce_n - brook_index * reduce_span);',
      `  ${R} = ${at('0')};`,
      '  for (int brook_k = 1; brook_k < brook_count - 1; brook_k++) {',
      `    ${A} = ${at('brook_k')};`,
      '    brook_kernel();',
      '  }',
      `  if (brook_count > 1) ${A} = ${at('brook_count - 1')}; else brook_reduce_skip = true;`,
    ].join('\n'),
    skip: 'if (brook_reduce_skip) return; ',
  };
}
