/**
 * Predicates over a stream's records: a GLSL boolean expression of `x` (the record) and `i` (its
 * int index), evaluated by a mark pass into flags or sort keys. Shared by `filter`, `liveCount`
 * and the compactions; `brook_first(x)` is the first component of a record of any width.
 */
import type { KernelSpec } from '../core/kernelspec';
import type { ElementType } from '../core/types';

/** A pass computing `keep` for every record into the given outputs (one GLSL statement each). */
export function markKernel(kind: string, type: ElementType, keep: string, outputs: Record<string, ElementType>, body: string): KernelSpec {
  return {
    name: `Mark<${kind}>`,
    inputs: { x: type },
    outputs,
    helpers: FIRST_COMPONENT,
    body: `int i = brook_index;\nbool keep = ${keep};\n${body}`,
  };
}

/** brook_first(v): the first component of a record of any width. */
export const FIRST_COMPONENT = [
  'float brook_first(float v) { return v; }',
  'float brook_first(vec2 v) { return v.x; }',
  'float brook_first(vec3 v) { return v.x; }',
  'float brook_first(vec4 v) { return v.x; }',
].join('\n');
