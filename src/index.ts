/**
 * brookgl: BrookGPU-era stream computing on WebGL2.
 *
 * Streams are textures of records, kernels are fragment shaders that write one record each,
 * and every technique of the papers is a sequence of such passes. See docs/guide.md for the tour.
 */
export * from './core/index';
export * from './brook/index';
export * from './brt/index';
export * from './cpu/index';
// the index's createContext also makes CPU contexts (src/cpu/index.ts)
export { createContext } from './cpu/index';
export * from './idioms/index';
export * from './apps/index';
export * from './geometry/index';
export * from './view/index';
export * as reference from './reference/index';
export * from './view/index';
