export { CCD_ELEMENTARY, runElementary, testQueriesOnGpu } from './elementary';
export type { ElementaryArgs } from './elementary';
export { Ccd, createCcd, CCD_REFIT, CCD_TRAVERSE, CCD_CONCAT, CCD_PAIR_TESTS, CCD_ORPHAN_TESTS } from './pipeline';
export type { Balance, CcdOptions, CcdStats, StepOptions, StepResult } from './pipeline';
export { traverseLws } from './lws';
export type { LwsOptions, LwsStats } from './lws';
