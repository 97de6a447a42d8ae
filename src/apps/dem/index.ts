export { Dem, createDem, demParameters, DEM_FORCE } from './dem';
export type { DemOptions, DemParams, DemParameterOptions } from './dem';
