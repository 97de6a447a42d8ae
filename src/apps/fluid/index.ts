export { Fluid, createFluid, LANDLOCKED } from './fluid';
export type { FluidOptions, FluidIdioms, Splat } from './fluid';
