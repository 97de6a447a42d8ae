export { CCD_ELEMENTARY, runElementary, testQueriesOnGpu } from './elementary';
export type { ElementaryArgs } from './elementary';
export { Ccd, createCcd, CCD_MEMORY_BUDGET } from './pipeline';
export { CCD_REFIT, CCD_TRAVERSE, CCD_CONCAT, CCD_GATHER8, CCD_FRONT_SLOT, CCD_PAIR_TESTS, CCD_ORPHAN_TESTS } from './kernels';
export type { CcdOptions, StepOptions, StepResult } from './pipeline';
export { CCD_STAGES } from './stages';
export type { Balance, CcdStats, KernelTime, Stage, StageStats } from './stages';
export { traverseLws } from './lws';
export type { LwsOptions, LwsResult, LwsStats } from './lws';
