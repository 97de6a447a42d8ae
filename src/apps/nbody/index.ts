export {
  NBodySystem,
  createNBody,
  accelerationKernel,
  accelerationPasses,
  resolveVariant,
  DEFAULT_VARIANT,
  defaultVariant,
  NBODY_FLOPS,
  ROW_FOLD,
} from './nbody';
export type { NBodyVariant, NBodyMethod, NBodyOptions } from './nbody';
export { nbodyPreset, plummer, collidingDisks, seededRandom } from './presets';
export type { Bodies, NBodyPreset } from './presets';
export { createPointRenderer } from './render';
export type { PointRenderer } from './render';
export { OrbitCamera } from './camera';
