// A spec whose program needs what only a GPU context has (vout, write masks and queries, the
// GPU idioms) is skipped on the CPU backend with the BrookError's words as its reason, never
// passed: the runner (scripts/test-node.mjs) lists every skip with its reason. Any other error,
// and any BrookError that does not say it needs a GPU context, fails.
import type { Context, Func, Test } from 'mocha';

/** What a CPU context's BrookErrors say when a GPU context is needed. */
export const GPU_ONLY = /GPU context|not on the CPU backend/;

const g = globalThis as unknown as { it: (title: string, fn?: Func) => Test; __skips: string[] };
g.__skips = [];
const plainIt = g.it;
const wrapped = (title: string, fn?: Func): Test => {
  if (!fn) return plainIt(title);
  return plainIt(title, async function (this: Context) {
    try {
      await (fn as (this: Context) => unknown).call(this);
    } catch (e) {
      if (e instanceof Error && e.name === 'BrookError' && GPU_ONLY.test(e.message)) {
        g.__skips.push(`${this.test?.fullTitle()}: ${e.message}`);
        this.skip();
      }
      throw e;
    }
  });
};
Object.assign(wrapped, plainIt);
g.it = wrapped as typeof g.it;
