// Timing what a user pays, for the benchmark suites. Many brookgl calls return (or resolve)
// before the GPU work they queued is done: filter resolves with its count while the compaction
// is still queued; sortStream returns with its passes queued. One figure cannot say both what
// a call costs and how soon its answer is there, so every such row reports two:
//
// - settled (latency): from an idle GPU (a fence, then `idleMs` of nothing) to the usable
//   answer (the value on the CPU, or the call resolved): what a user clicking a button waits.
// - loop (cost per call): `batch` calls back to back, then a fence, divided by `batch`: what a
//   user's loop pays per call, the GPU work left queued by one call included in the next.
//
// Each is a median over `reps` samples with its min and max.

/** Median, min and max of a list of milliseconds. */
export function stats(times) {
  const t = [...times].sort((a, b) => a - b);
  const mid = t.length >> 1;
  return { median: t.length % 2 ? t[mid] : (t[mid - 1] + t[mid]) / 2, min: t[0], max: t[t.length - 1], runs: t.length };
}

/** "median (min–max)" in ms, or a placeholder. */
export const fmt = (s) => (s ? `${s.median.toPrecision(3)} (${s.min.toPrecision(3)}–${s.max.toPrecision(3)})` : 'not run');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Times `once` (async; returns when its answer is usable) both ways after one warm-up call.
 * `drain` waits until the GPU has done everything queued (brookgl: ctx.queries.fence()); for a
 * library whose calls end with a readback, a no-op. Returns { settled, loop } (ms stats).
 */
export async function measureBoth(once, { reps = 5, batch = 5, drain = async () => {}, idleMs = 50, budgetMs = 4000 } = {}) {
  const w0 = performance.now();
  await once();
  await drain();
  // a slow call (tfjs topk of 1M keys takes a second) gets fewer samples: within about budgetMs
  const first = performance.now() - w0;
  if (first * reps * (1 + batch) > budgetMs) {
    batch = 1;
    reps = Math.max(3, Math.min(reps, Math.floor(budgetMs / (2 * first))));
  }
  const settled = [];
  for (let i = 0; i < reps; i++) {
    await drain();
    if (idleMs) await sleep(idleMs);
    const t0 = performance.now();
    await once();
    settled.push(performance.now() - t0);
  }
  const loop = [];
  for (let i = 0; i < reps; i++) {
    await drain();
    const t0 = performance.now();
    for (let j = 0; j < batch; j++) await once();
    await drain();
    loop.push((performance.now() - t0) / batch);
  }
  return { settled: stats(settled), loop: stats(loop) };
}

/** A brookgl drain: a fence signalled after everything queued so far. */
export const fenceOf = (ctx) => () => ctx.queries.fence();
