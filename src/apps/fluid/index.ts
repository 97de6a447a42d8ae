export { Fluid, createFluid, LANDLOCKED } from './fluid';
export type { FluidOptions, FluidIdioms, Splat } from './fluid';
export { createFieldRenderer } from './render';
export type { FieldRenderer } from './render';
