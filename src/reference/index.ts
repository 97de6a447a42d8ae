/**
 * Plain TypeScript versions of what the GPU computes, for tests, benchmarks and for reading
 * side by side with the kernels. Nothing here touches WebGL.
 */
export * from './reduce';
export * from './horn';
export * from './filter';
export * from './nbody';
export * from './fluid';
export * from './binning';
export * from './dem';
export * from './agents';
export * from './collide';
export * from './subdivide';
export * from './ccd';
export * from './ccdbvh';
export * from './ccdscenes';
export * from './brook';
export { manyOutputs } from './outputs';
export * from './brooklang';
export * from './shapes';
export * from './puzzles';
export * from './matrices';
