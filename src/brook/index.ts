/**
 * The Brook compiler, apart from the runtime as brcc stood apart from BrookGPU's runtime: Brook
 * source in, KernelSpecs (GLSL ES 3.00 bodies and their parameters) out, a pure function with no
 * GL in it. Brook's runtime (host API, reduce kernels, write queries and masks, the lowering of
 * Brook's kernel kinds onto core's run) is src/brt.
 */
export { brook, brookWith, brookStructs, parseBrookStructs, parseBrook, translateBody, stripComments, DEFAULT_MAX_ITERATIONS } from './compile';
export { MAX_NESTING } from './tokens';
export type { BrookOptions } from './compile';
export { brookPredicate } from './predicate';
export type { CompiledPredicate } from './predicate';
