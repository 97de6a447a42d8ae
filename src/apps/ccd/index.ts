export { CCD_ELEMENTARY, runElementary, testQueriesOnGpu } from './elementary';
export type { ElementaryArgs } from './elementary';
