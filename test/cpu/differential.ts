// Differential testing of the two backends: each generated kernel (kernelgen.ts) runs on the GPU
// context and on the CPU backend through compareBackends, and every difference beyond the
// tolerance is counted as explained (the kernel uses an operation GLSL ES 3.00 does not round
// exactly: its difference may come from there, and the record is listed) or unexplained (a bug
// in one backend: the spec fails). Errors are tallied too: a BrookError on both is a refusal
// (fine), on one backend only or any other error is a bug.
import { BrookContext, CpuContext, compareBackends } from '../../src/index';
import { generateKernel } from './kernelgen';

export interface DiffTally {
  kernels: number;
  /** Kernels with a difference beyond the tolerance. */
  differing: number;
  /** Of those, explained by an inexact operation (by operation). */
  explained: Record<string, number>;
  /** Kernels with a difference and no inexact operation: bugs (seed and first record). */
  unexplained: Array<{ seed: number; source: string; detail: string }>;
  /** Errors: a BrookError on both backends (refused alike), or anything else (a bug). */
  refusedAlike: number;
  errors: Array<{ seed: number; source: string; error: string }>;
  records: number;
}

export async function runDifferential(ctx: BrookContext, from: number, count: number, progress?: (t: DiffTally) => void): Promise<DiffTally> {
  const t: DiffTally = { kernels: 0, differing: 0, explained: {}, unexplained: [], refusedAlike: 0, errors: [], records: 0 };
  const cpu = new CpuContext();
  try {
    for (let seed = from; seed < from + count; seed++) {
      // let the page breathe (a long synchronous spec holds its load event)
      if ((seed - from) % 20 === 0) {
        progress?.(t);
        await new Promise((r) => setTimeout(r, 0));
      }
      const gk = generateKernel(seed);
      t.kernels++;
      let made: ReturnType<typeof gk.args> | undefined;
      try {
        made = gk.args(ctx);
        const c = compareBackends(ctx, made.kernel, made.args, { cpu, ulps: 4, first: 1 });
        for (const o of Object.values(c.outputs)) t.records += o.records;
        if (!c.ok) {
          t.differing++;
          const detail = Object.entries(c.outputs).filter(([, o]) => o.differing).map(([n, o]) => `${n}: ${o.differing}/${o.records}, first ${JSON.stringify(o.first[0])}`).join('; ');
          if (gk.inexact.size) for (const op of gk.inexact) t.explained[op] = (t.explained[op] ?? 0) + 1;
          else t.unexplained.push({ seed, source: gk.source, detail });
        }
      } catch (e) {
        const err = e as Error;
        t.errors.push({ seed, source: gk.source, error: `${err.name}: ${err.message}` });
      } finally {
        made?.streams.forEach((s) => s.dispose());
      }
    }
  } finally {
    cpu.dispose();
  }
  return t;
}
