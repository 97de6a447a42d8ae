export { CCD_ELEMENTARY, CCD_ELEMENTARY_TOI, runElementary, testQueriesOnGpu } from './elementary';
export type { ElementaryArgs } from './elementary';
export { Ccd, createCcd, CCD_MEMORY_BUDGET } from './pipeline';
export { CCD_REFIT, CCD_TRAVERSE, CCD_CONCAT, CCD_GATHER8, CCD_FRONT_SLOT, CCD_PAIR_TESTS, CCD_ORPHAN_TESTS, CCD_ORPHAN_GROUPS, CCD_PAIR_TESTS_TOI, CCD_ORPHAN_TESTS_TOI, CCD_CANDIDATE_VERDICTS } from './kernels';
export type { CcdOptions, StepOptions, StepResult } from './pipeline';
export { CCD_STAGES } from './stages';
export type { KernelTime, Stage, StageStats } from './stages';
export type { Balance, CcdStats } from './stats';
export type { LwsOptions, LwsStats } from './lws';
