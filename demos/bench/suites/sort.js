// Suite `sort`: sortStream of n float keys with a uint payload, by every method, timed as a
// user pays it (timing.js): settled (from an idle GPU to the sorted keys on the CPU) and loop
// (back to back, per call), each a median with min–max; the same without the readback (sort +
// fence); the keys' readback alone; passes and GPU time (timer queries) per method, and where
// the default's GPU time goes kernel by kernel. Every method's first result is checked against
// a CPU sort of the same keys.
import { sortStream, SORT_METHODS } from '../../../dist/brookgl.js';
import { measureBoth, fenceOf, fmt } from '../timing.js';

const K = 1024;

function keysOf(n, seed) {
  const v = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = (s / 4294967296 - 0.5) * 1000; // negatives and positives, many exponents
  }
  return v;
}

const LABEL = {
  radix: "'radix' (4-bit digits, per-digit count pyramid)",
  'radix-2bit': "'radix-2bit' (2-bit digits, 4-way descent)",
  bitonic: "'bitonic' (the book's network)",
};

export async function run(ctx, { log = () => {}, quick = false, maxK } = {}) {
  const soft = ctx.caps.software;
  // --max-k K: sizes up to K thousand keys (the smallest always)
  const sizes = (quick ? [16 * K] : soft ? [64 * K, 256 * K] : [64 * K, 1024 * K, 4096 * K]).filter((n, i) => i === 0 || !maxK || n <= maxK * K);
  const reps = quick ? 3 : soft ? 3 : 7;
  const batch = quick ? 2 : soft ? 2 : 5;
  const drain = fenceOf(ctx);
  const rows = [];
  const gpuRows = [];
  const byKernel = [];
  const readRows = [];
  const defaultMethod = soft ? 'bitonic' : 'radix';
  for (const n of sizes) {
    const keys = keysOf(n, n + 3);
    const expected = Float32Array.from(keys).sort();
    const k = ctx.stream('float', n, keys);
    const payload = ctx.stream('uint', n, Uint32Array.from({ length: n }, (_, i) => i));
    {
      const r = await measureBoth(() => k.read(), { reps, batch, drain });
      readRows.push([`${n / K}k`, fmt(r.settled), fmt(r.loop), ((n * 4) / (r.loop.median / 1000) / 1e9).toFixed(2)]);
    }
    for (const method of SORT_METHODS) {
      // correctness first: the keys against a CPU sort, the payload against the keys
      {
        const r = sortStream(ctx, k, { payload, method });
        const [got, idx] = await Promise.all([r.keys.read(), r.payload.read()]);
        for (let i = 0; i < n; i++) {
          if (got[i] !== expected[i] || keys[idx[i]] !== got[i]) throw new Error(`sort ${method} ${n}: record ${i} is ${got[i]} (payload ${idx[i]}), expected ${expected[i]}`);
        }
        [r.keys, r.payload, r.order].forEach((s) => s.dispose());
      }
      const read = async () => {
        const r = sortStream(ctx, k, { payload, method });
        await r.keys.read();
        [r.keys, r.payload, r.order].forEach((s) => s.dispose());
      };
      const onGpu = async () => {
        const r = sortStream(ctx, k, { payload, method });
        [r.keys, r.payload, r.order].forEach((s) => s.dispose());
        await ctx.queries.fence();
      };
      const a = await measureBoth(read, { reps, batch, drain });
      const b = await measureBoth(onGpu, { reps, batch, drain });
      ctx.trace.start();
      {
        const r = sortStream(ctx, k, { payload, method });
        [r.keys, r.payload, r.order].forEach((s) => s.dispose());
      }
      const trace = await ctx.trace.stop();
      const gpu = trace.every((p) => p.gpuMs !== null) ? trace.reduce((t, p) => t + p.gpuMs, 0) : null;
      rows.push({ n, method, read: a, gpuFence: b });
      gpuRows.push([`${n / K}k`, LABEL[method], trace.length, gpu]);
      if (method === 'radix' && n === sizes[sizes.length - 1]) {
        const per = new Map();
        for (const p of trace) {
          const name = p.kernel.replace(/<.*>/, '');
          const e = per.get(name) ?? { passes: 0, gpuMs: 0, records: 0 };
          e.passes++;
          e.gpuMs = p.gpuMs === null || e.gpuMs === null ? null : e.gpuMs + p.gpuMs;
          e.records += p.records ?? 0;
          per.set(name, e);
        }
        for (const [name, e] of per) byKernel.push([name, e.passes, e.records, e.gpuMs]);
      }
      log(`sort ${n / K}k ${method}: read back loop ${fmt(a.loop)} settled ${fmt(a.settled)} ms; on GPU + fence loop ${fmt(b.loop)} ms`);
    }
    [k, payload].forEach((s) => s.dispose());
  }
  const tables = [
    {
      title: `sortStream(keys, { payload }) + keys read back, ms: median (min–max) of ${reps}; loop = ${batch} back to back then a fence, per call; settled = from an idle GPU (fence + 50 ms) to the keys on the CPU. Default here: '${defaultMethod}'`,
      columns: ['n', 'method', 'loop ms', 'settled ms', 'sort + fence, no readback: loop ms', 'settled ms'],
      rows: rows.map((r) => [`${r.n / K}k`, LABEL[r.method], fmt(r.read.loop), fmt(r.read.settled), fmt(r.gpuFence.loop), fmt(r.gpuFence.settled)]),
    },
    { title: 'Passes and GPU time (timer queries; null where the browser has none) of one sort', columns: ['n', 'method', 'passes', 'GPU ms'], rows: gpuRows },
    { title: `Where the 'radix' sort's GPU time goes at ${sizes[sizes.length - 1] / K}k (by kernel)`, columns: ['kernel', 'passes', 'fragments', 'GPU ms'], rows: byKernel },
    { title: 'Reading the n float keys back alone (read()), ms', columns: ['n', 'settled ms', 'loop ms', 'GB/s (loop)'], rows: readRows },
  ];
  const plots = [
    {
      title: 'Sort + keys read back, loop figure (ms per call)',
      xLabel: 'keys',
      yLabel: 'ms',
      logX: true,
      logY: true,
      series: SORT_METHODS.map((m) => ({ name: LABEL[m], points: rows.filter((r) => r.method === m).map((r) => [r.n, r.read.loop.median]) })),
    },
  ];
  return { tables, plots, results: { reps, batch, statistic: 'median', defaultMethod, rows, gpu: gpuRows, radixByKernel: byKernel, readback: readRows } };
}
