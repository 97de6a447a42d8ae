// Progress of a benchmark suite for a person waiting on it: "k of N measured, about T left".

/**
 * Progress of a suite: "k of N measured, about T left — last measurement". A suite calls
 * `plan(n)` (n equal steps) or `plan([w1, w2, …])` (a weight per step, e.g. its size) before
 * measuring, then `log(text)` once per step; the time left is the time so far scaled by the
 * weight left over the weight done. `log` throws Cancelled after Cancel unless the suite stops
 * by itself (`stoppable`: it checks `stopped()` and returns what it has).
 */
export function progressMeter(progress, stoppable) {
  let weights = null;
  const lines = [];
  const t0 = performance.now();
  const total = () => (weights ? Math.max(weights.length, lines.length) : '?');
  return {
    plan(w) {
      weights = typeof w === 'number' ? Array(w).fill(1) : [...w];
    },
    log(m) {
      lines.push(m);
      let text = `${lines.length} of ${total()} measured`;
      if (weights && lines.length < weights.length) {
        const sum = (a) => a.reduce((x, y) => x + y, 0);
        const done = sum(weights.slice(0, lines.length));
        const left = ((performance.now() - t0) / 1000) * (sum(weights.slice(lines.length)) / Math.max(done, 1e-9));
        text += `, about ${left < 90 ? `${Math.ceil(left)} s` : `${Math.ceil(left / 60)} min`} left`;
      }
      try {
        progress(`${text} — ${m}`);
      } catch (e) {
        if (!stoppable) throw e;
      }
    },
    done: () => lines.length,
    total,
    lines: () => [...lines],
  };
}
