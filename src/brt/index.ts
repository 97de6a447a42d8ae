/**
 * Brook's runtime ("brt", as BrookGPU named its own): what BrookGPU's runtime did above the
 * device. The host API (streamDecl, streamRead, streamWrite, write queries), reduce kernels run as
 * their fold passes, write masks, and the lowering of Brook's kernel kinds onto core's plain run
 * (lower.ts). The compiler (src/brook) only describes kernels; this module makes `ctx.run` run
 * them as Brook meant, and installs that lowering when it is loaded (the public index loads it).
 */
import { useBrookKinds } from './lower';

export { streamDecl, streamRead, streamWrite, streamBeginWriteQuery, streamEndWriteQuery } from './host';
export { reduceValue } from './reducekernel';
export { WriteQuery, writeQuery, WRITE_QUERY_OUTPUT } from './writequery';
export { WriteMask, writeMask } from './writemask';

useBrookKinds();
