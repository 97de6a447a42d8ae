export { Dem, createDem, DEM_FORCE } from './dem';
export type { DemOptions, DemParams } from './dem';
