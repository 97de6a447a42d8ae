// Shared by the ccd specs: Wang et al.'s query sets (data/ccd/, see its licences) and a line in
// the test output for counts that are reported rather than asserted.
import { reference } from '../../src/index';

export interface QuerySet {
  name: string;
  kind: 'vf' | 'ee';
  coords: Float64Array;
  truth: boolean[];
  count: number;
  /** Every coordinate holds exactly in float32. */
  exact: boolean;
}

export const QUERY_SETS: ReadonlyArray<{ name: string; kind: 'vf' | 'ee'; file: string; truth?: string }> = [
  { name: 'unit vertex-face data_0_0', kind: 'vf', file: 'unit-tests/vertex-face/data_0_0.csv' },
  { name: 'unit vertex-face data_0_1', kind: 'vf', file: 'unit-tests/vertex-face/data_0_1.csv' },
  { name: 'unit edge-edge data_0_0', kind: 'ee', file: 'unit-tests/edge-edge/data_0_0.csv' },
  { name: 'unit edge-edge data_0_1', kind: 'ee', file: 'unit-tests/edge-edge/data_0_1.csv' },
  { name: 'funnel 227 vertex-face', kind: 'vf', file: 'cloth-funnel/queries/227vf.csv', truth: 'cloth-funnel/mma_bool/227vf_mma_bool.json' },
  { name: 'funnel 227 edge-edge', kind: 'ee', file: 'cloth-funnel/queries/227ee.csv', truth: 'cloth-funnel/mma_bool/227ee_mma_bool.json' },
];

export async function loadQuerySet(s: (typeof QUERY_SETS)[number]): Promise<QuerySet> {
  const q = reference.parseCcdQueries(await (await fetch(`/data/ccd/${s.file}`)).text());
  const truth = q.truth ?? ((await (await fetch(`/data/ccd/${s.truth}`)).json()) as boolean[]);
  const exact = q.coords.every((x) => Math.fround(x) === x);
  return { name: s.name, kind: s.kind, coords: q.coords, truth, count: q.count, exact };
}

/** A line in the headless test output (scripts/test.mjs prints 'info' events). */
export function report(text: string): void {
  const w = window as unknown as { __brookReport?: (e: unknown) => void };
  if (w.__brookReport) w.__brookReport({ type: 'info', text: `      · ${text}` });
  else console.info(text);
}
