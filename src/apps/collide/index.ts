export { collide, createCollider, uploadObbTree, collideKernels, POSE_RIGID_TOLERANCE } from './collide';
export type { CollisionResult, CollideLevel, GpuObbTree } from './collide';
