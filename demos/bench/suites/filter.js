// Suite `filter`: Table 36-1 of Horn (GPU Gems 2 ch. 36) on this browser's GPU. Time per record
// to compact n float4 records (half of them kept, at random) by every method (loop and settled
// figures, timing.js), beside the book's
// figures for the GeForce 6800 Ultra and Radeon X800, and the bitonic/scan ratio beside the
// book's claim (scan is about 0.5 x log2 n times faster than bitonic sort).
import { filter, FILTER_METHODS, bitonicPasses } from '../../../dist/brookgl.js';
import { measureBoth, fenceOf } from '../timing.js';

export const SIZES_K = [64, 128, 256, 512, 1024, 2048, 4096];

/** Table 36-1 as printed (microseconds per record). */
export const BOOK = {
  '6800 Ultra scan/search (looping search)': [0.138, 0.131, 0.158, 0.151, 0.143, 0.167, 0.161],
  '6800 Ultra bitonic sort': [1.029, 0.991, 1.219, 1.19, 1.455, 1.593, 1.74],
  'X800 scan/search': [0.428, 0.267, 0.288, 0.355, 0.182, 0.169, 0.168],
  'X800 bitonic sort': [0.762, 0.912, 0.968, 1.051, 1.175, 1.269, 1.383],
};

const LABEL = {
  'scan-multipass': 'scan/search (multipass search)',
  'scan-loop': 'scan/search (looping search)',
  bitonic: 'bitonic sort compaction',
  pyramid: 'histogram pyramid (O(n), default)',
  scatter: 'scan + vertex-shader scatter',
};

function data(n) {
  const v = new Float32Array(n * 4);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    v[i * 4] = i;
    v[i * 4 + 1] = s / 4294967296;
    v[i * 4 + 2] = -i;
    v[i * 4 + 3] = 1;
  }
  return v;
}

export async function run(ctx, { log = () => {}, plan = () => {}, quick = false, maxK = quick ? 512 : 4096, reps = quick ? 3 : 5 } = {}) {
  const sizes = SIZES_K.filter((k) => k <= maxK);
  // one step per size and method, its weight the records (bitonic's log² n passes count extra)
  plan(sizes.flatMap((k) => FILTER_METHODS.map((m) => k * (m === 'bitonic' ? Math.log2(k * 1024) ** 2 / 40 : 1))));
  const us = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const spread = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const settledUs = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const settledSpread = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const gpuUs = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const passes = Object.fromEntries(FILTER_METHODS.map((m) => [m, []]));
  const batch = quick ? 2 : 5;
  const drain = fenceOf(ctx);
  const byKernel = []; // the default's passes at the largest size: kernel, records, GPU ms
  for (const k of sizes) {
    const n = k * 1024;
    const s = ctx.stream('float4', n, data(n));
    let expectedCount = null;
    for (const method of FILTER_METHODS) {
      // filter resolves with the count while the kept records may still be being written:
      // loop = back to back then a fence, per call (what a loop pays, the compaction included);
      // settled = from an idle GPU to the count (what one call keeps a user waiting)
      const once = async () => {
        const r = await filter(ctx, s, { keep: 'x.y < 0.5', method });
        if (expectedCount === null) expectedCount = r.count;
        if (r.count !== expectedCount) throw new Error(`${method} kept ${r.count} records, the others ${expectedCount}`);
        r.stream?.dispose();
      };
      const t = await measureBoth(once, { reps, batch, drain });
      const perRecord = (ms) => (ms * 1000) / n;
      spread[method].push(`${perRecord(t.loop.min).toPrecision(3)}–${perRecord(t.loop.max).toPrecision(3)}`);
      settledSpread[method].push(`${perRecord(t.settled.min).toPrecision(3)}–${perRecord(t.settled.max).toPrecision(3)}`);
      ctx.trace.start();
      await once();
      const trace = await ctx.trace.stop();
      const gpu = trace.every((p) => p.gpuMs !== null) ? trace.reduce((t, p) => t + p.gpuMs, 0) : null;
      if (method === 'pyramid' && k === sizes[sizes.length - 1]) {
        byKernel.length = 0;
        for (const p of trace) byKernel.push([p.kernel, p.records, p.gpuMs]);
      }
      us[method].push(perRecord(t.loop.median));
      settledUs[method].push(perRecord(t.settled.median));
      gpuUs[method].push(gpu === null ? null : (gpu * 1000) / n);
      passes[method].push(trace.length);
      log(`filter ${k}k ${method}: loop ${perRecord(t.loop.median).toFixed(4)}, settled ${perRecord(t.settled.median).toFixed(4)} us/record (medians)`);
    }
    s.dispose();
  }
  const heads = ['method', ...sizes.map((k) => `${k}k`)];
  const rows = [
    ...FILTER_METHODS.map((m) => [`${LABEL[m]}`, ...us[m]]),
    ...Object.entries(BOOK).map(([name, v]) => [`book: ${name}`, ...v.slice(0, sizes.length)]),
  ];
  const ratio = sizes.map((k, i) => us.bitonic[i] / us['scan-loop'][i]);
  const claim = sizes.map((k) => 0.5 * Math.log2(k * 1024));
  const tables = [
    { title: `Table 36-1: time per record, µs, loop figure (${batch} filters back to back, then a fence, per call: the compaction included; median of ${reps}; lower is better)`, columns: heads, rows },
    { title: `Spread of the same: min–max of the ${reps} runs (µs per record)`, columns: heads, rows: FILTER_METHODS.map((m) => [LABEL[m], ...spread[m]]) },
    { title: `Settled figure: from an idle GPU (fence + 50 ms) to the count known, µs per record, median (min–max) of ${reps}`, columns: heads, rows: FILTER_METHODS.map((m) => [LABEL[m], ...settledUs[m].map((u, i) => `${u.toPrecision(3)} (${settledSpread[m][i]})`)]) },
    { title: 'Same, GPU time from timer queries (µs per record)', columns: heads, rows: FILTER_METHODS.map((m) => [LABEL[m], ...gpuUs[m]]) },
    {
      title: 'Bitonic / scan-search (looping) time ratio vs the book\'s claim 0.5 x log2 n',
      columns: heads,
      rows: [
        ['measured', ...ratio],
        ['book claim', ...claim],
        ['pass ratio (bitonic passes / scan passes)', ...sizes.map((k, i) => passes.bitonic[i] / passes['scan-loop'][i])],
      ],
    },
    { title: 'Passes per filter', columns: heads, rows: FILTER_METHODS.map((m) => [LABEL[m], ...passes[m]]) },
    { title: `Where the pyramid filter's GPU time goes at ${sizes[sizes.length - 1]}k (one traced call, pass by pass)`, columns: ['kernel', 'records written', 'GPU ms'], rows: byKernel },
  ];
  const plots = [
    {
      title: 'Filtering: time per record vs n (Table 36-1)',
      xLabel: 'records',
      yLabel: 'µs per record',
      logX: true,
      logY: true,
      series: [
        ...FILTER_METHODS.map((m) => ({ name: LABEL[m], points: sizes.map((k, i) => [k * 1024, us[m][i]]) })),
        { name: 'book 6800U scan', key: LABEL['scan-loop'], dashed: true, points: sizes.map((k, i) => [k * 1024, BOOK['6800 Ultra scan/search (looping search)'][i]]) },
        { name: 'book 6800U bitonic', key: LABEL.bitonic, dashed: true, points: sizes.map((k, i) => [k * 1024, BOOK['6800 Ultra bitonic sort'][i]]) },
      ],
    },
  ];
  const mrecords = Object.fromEntries(FILTER_METHODS.map((m) => [m, us[m].map((u) => 1 / u)]));
  return { tables, plots, results: { reps, batch, statistic: 'median', figure: 'loop', sizes: sizes.map((k) => k * 1024), usPerRecord: us, usPerRecordSpread: spread, settledUsPerRecord: settledUs, settledUsPerRecordSpread: settledSpread, gpuUsPerRecord: gpuUs, passes, pyramidByPass: byKernel, mRecordsPerS: mrecords, bitonicPassesAt: sizes.map((k) => bitonicPasses(k * 1024)) } };
}
