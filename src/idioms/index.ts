export { scan } from './scan';
export type { ScanOptions } from './scan';
export { filter, FILTER_METHODS, FLOAT_EXACT_LIMIT, hornKernels, pyramidDescent, searchParameters } from './filter';
export type { FilterMethod, FilterOptions, FilterResult, Watcher } from './filter';
export { sortStream, bitonicOrder, bitonicPasses, gatherByIndex } from './sort';
export type { SortResult } from './sort';
export { branchKernel, branchMask, runBranch, occlusionLoop, liveCount, BRANCH_METHODS } from './flow';
export type { BranchDesc, BranchMethod, OcclusionLoopOptions } from './flow';
