/**
 * CPU-side geometry that apps and references share: PLY meshes, OBB trees (RAPID), the swept-AABB
 * hierarchy and orphan sets of continuous collision detection, Loop subdivision and its patches.
 * Plain TypeScript, no WebGL.
 */
export * from './ply';
export { buildObbTree, jacobiEigenvectors, OBB_PADDING, OBB_MAX_TRIANGLES } from './obbtree';
export type { ObbTree } from './obbtree';
