export { subdivide, subdivideKernels } from './subdivide';
export type { SubdivideOptions, SubdivideResult, SubdivideRound } from './subdivide';
