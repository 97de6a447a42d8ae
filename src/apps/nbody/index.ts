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
export { nbodyPreset, plummer, collidingDisks } from './presets';
export type { Bodies, NBodyPreset } from './presets';
export { OrbitCamera } from './camera';
