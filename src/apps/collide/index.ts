export { buildObbTree, jacobiEigenvectors, OBB_PADDING, OBB_MAX_TRIANGLES } from './obbtree';
export type { ObbTree } from './obbtree';
export { collide, createCollider, uploadObbTree, collideKernels } from './collide';
export type { CollisionResult, CollideLevel, GpuObbTree } from './collide';
