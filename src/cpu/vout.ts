/**
 * Brook's variable output on the CPU backend: the JavaScript a vout kernel's record loop
 * (kernel.ts) adds for its `push(o)`, in the two forms a GPU context gives it (src/idioms/vout.ts,
 * src/brook/compile.ts):
 *
 * - a plain run (`ctx.run(k, { ..., o })`, the output given): output record r is slot r % N of
 *   its input record (N the vout bound, 1 for `vout []`), the value of the push counted r % N,
 *   +infinity in every component where the record pushed fewer; indexof is the input's record,
 *   (floor(x / N), y, z, w), as the GLSL's brook_vindexof;
 * - voutRun's collection: the loop runs once over the input's records and keeps each record's
 *   pushes in order with their count within the record (up to `cap`); voutRun (idioms/vout.ts)
 *   then takes those below the bound, as the GPU's slots and filter keep them. A pushed value whose
 *   first component is +infinity is null and is not kept (the GPU filter's sentinel); a
 *   discarded record keeps none of its pushes; a record that ran past the loop bound gives NaN in
 *   every slot, as the GPU's NaN outputs of the records that overran.
 */
import type { KernelSpec } from '../core/kernelspec';
import { typeInfo } from '../core/types';
import { jsVar } from '../brook/js';

/** Where voutRun's collection keeps the pushes: values in record order, each with its count within its record. */
export interface VoutCollect {
  /** Pushes kept per record at most. */
  cap: number;
  vals: Array<number | number[]>;
  ks: number[];
}

/** How a run of a vout kernel keeps its pushes: the plain run's slots, or voutRun's collection. */
export type VoutPlan = { slots: number } | { collect: true };

/** The plan of a run of `spec` (undefined: not a vout kernel). */
export function voutPlan(spec: KernelSpec, collect: VoutCollect | undefined): VoutPlan | undefined {
  const v = spec.brook?.vout;
  if (!v) return undefined;
  return collect ? { collect: true } : { slots: v.most || 1 };
}

/** The JavaScript a vout kernel's record loop adds: at the factory, before the loop, per record, on discard, after the body. */
export function voutCode(spec: KernelSpec, plan: VoutPlan, bounded: boolean): { factory: string; setup: string[]; record: string; discard: string; after: string } {
  const v = spec.brook!.vout!;
  const n = typeInfo(v.type).components;
  const o = jsVar(v.output);
  const fill = (x: string) => (n === 1 ? x : `[${Array<string>(n).fill(x).join(', ')}]`);
  if ('slots' in plan) {
    const m = plan.slots;
    return {
      factory: `function brook_vindexof() { return [Math.floor(cx / ${m}), cy, cz, cw]; }`,
      setup: [
        'let vslot = 0, vcount = 0, vset = false, vvalue;',
        'const push = (v) => { if (vcount === vslot) { vvalue = v; vset = true; } vcount++; };',
        `const brook_vindexof = () => [Math.floor(cx / ${m}), cy, cz, cw];`,
      ],
      record: `vslot = r % ${m}; vcount = 0; vset = false;`,
      discard: '',
      after: `${o} = vset ? vvalue : ${fill('Infinity')};`,
    };
  }
  return {
    factory: 'function brook_vindexof() { return [cx, cy, cz, cw]; }',
    setup: [
      'const vvals = env.vout.vals, vks = env.vout.ks, vcap = env.vout.cap;',
      'let vcount = 0, vstart = 0;',
      `const push = (v) => { if (vcount < vcap && ${n === 1 ? 'v' : 'v[0]'} !== Infinity) { vvals.push(v); vks.push(vcount); } vcount++; };`,
      'const brook_vindexof = () => [cx, cy, cz, cw];',
    ],
    record: `vcount = 0; vstart = vvals.length; ${o} = ${fill('0')};`,
    discard: 'vvals.length = vstart; vks.length = vstart;',
    after: bounded ? `if (brook_overrun) { vvals.length = vstart; vks.length = vstart; for (let k = 0; k < vcap; k++) { vvals.push(${fill('NaN')}); vks.push(k); } }` : '',
  };
}
