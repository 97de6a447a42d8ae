/**
 * The Brook front end, apart from the runtime as brcc stood apart from BrookGPU's runtime:
 * Brook source in, KernelSpecs (GLSL ES 3.00 bodies and their parameters) out, plus the
 * host-API mirror (streamRead, streamWrite, ...) over the runtime's streams.
 */
export { brook, brookWith, brookStructs, parseBrookStructs, parseBrook, translateBody, stripComments, DEFAULT_MAX_ITERATIONS } from './compile';
export { MAX_NESTING } from './tokens';
export type { BrookOptions } from './compile';
export type { CgEnv, FunctionTypes } from './cg';
export { streamDecl, streamRead, streamWrite, streamBeginWriteQuery, streamEndWriteQuery } from './host';
export { reduceValue } from './reducekernel';
export { WriteQuery, writeQuery, WRITE_QUERY_OUTPUT } from './writequery';
export { WriteMask, writeMask } from './writemask';
