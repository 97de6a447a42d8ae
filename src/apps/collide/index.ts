export { collide, createCollider, uploadObbTree, collideKernels } from './collide';
export type { CollisionResult, CollideLevel, GpuObbTree } from './collide';
