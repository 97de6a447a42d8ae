// Suite `peers`: brookgl beside TensorFlow.js's webgl backend (@tensorflow/tfjs-core and
// @tensorflow/tfjs-backend-webgl, bundled into dist/vendor/tfjs.js by the build from the
// devDependencies; loaded by this page only, never by the library) on the same data in one
// page: sum, scan (read back, and left on the GPU with only its last value read), filter
// (float and float4 records; tfjs booleanMaskAsync), full sort with a payload (tfjs topk(x, n)),
// and plain readback. Every time ends with the answer known to the CPU as a user needs it:
// values read back, or the count / one value read and the result left on the GPU. Median of
// `reps` runs after one warm-up, with min and max; the two libraries run one after the other,
// never interleaved. A last table splits a filter's time the ways a user may meet it.
import { filter, scan, sortStream } from '../../../dist/brookgl.js';

const K = 1024;

const pickLast = { name: 'PickLast', gathers: { src: 'float' }, uniforms: { at: 'int' }, outputs: { v: 'float' }, body: 'v = src(at);' };

function uniform(n, seed) {
  const v = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s / 4294967296;
  }
  return v;
}

function stats(times) {
  const t = [...times].sort((a, b) => a - b);
  const mid = t.length >> 1;
  return { median: t.length % 2 ? t[mid] : (t[mid - 1] + t[mid]) / 2, min: t[0], max: t[t.length - 1], runs: t.length };
}

/** Runs `once` (async, returns when the answer is on the CPU) warm-up + reps times; ms stats. */
async function measure(once, reps, settle) {
  await once();
  const times = [];
  for (let i = 0; i < reps; i++) {
    await settle();
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  return stats(times);
}

const fmt = (s) => (s ? `${s.median.toPrecision(3)} (${s.min.toPrecision(3)}–${s.max.toPrecision(3)})` : 'not run');

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const tf = await import('../../../dist/vendor/tfjs.js');
  await tf.setBackend('webgl');
  await tf.ready();
  if (tf.getBackend() !== 'webgl') throw new Error(`TensorFlow.js chose the '${tf.getBackend()}' backend, not webgl`);
  const tfGl = tf.backend().gpgpu.gl;
  const dbg = tfGl.getExtension('WEBGL_debug_renderer_info');
  const tfRenderer = dbg ? tfGl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : tfGl.getParameter(tfGl.RENDERER);

  const software = ctx.caps.software;
  // SwiftShader (a CPU) is 50-100x slower than a GPU: smaller sizes there (stated in the table).
  const sizes = quick ? [64 * K] : software ? [64 * K, 1024 * K] : [64 * K, 1024 * K, 4096 * K];
  const sortSizes = quick || software ? [64 * K] : [64 * K, 1024 * K];
  const reps = quick ? 3 : software ? 5 : 7;
  const brookSettle = () => ctx.queries.fence();
  const tfSettle = async () => {}; // each tfjs run ends with a readback: nothing is left queued

  const rows = []; // { work, n, tfjs, brook, extra }
  const add = (work, n, tfStats, brookStats) => {
    rows.push({ work, n, tfjs: tfStats, brookgl: brookStats, speedup: tfStats && brookStats ? tfStats.median / brookStats.median : null });
    log(`${work} ${n / K}k: tfjs ${fmt(tfStats)} ms, brookgl ${fmt(brookStats)} ms`);
  };

  for (const n of sizes) {
    const x = uniform(n, n);
    const x4 = uniform(4 * n, n + 1);
    const s = ctx.stream('float', n, x);
    const s4 = ctx.stream('float4', n, x4);
    const tx = tf.tensor1d(x);
    const tx4 = tf.tensor2d(x4, [n, 4]);

    // sum
    add('sum', n,
      await measure(async () => { const t = tf.sum(tx); await t.data(); t.dispose(); }, reps, tfSettle),
      await measure(() => ctx.reduce(s, 'sum'), reps, brookSettle));

    // scan, read back
    add('scan, result read back', n,
      await measure(async () => { const c = tf.cumsum(tx); await c.data(); c.dispose(); }, reps, tfSettle),
      await measure(async () => { const r = scan(ctx, s); await r.read(); r.dispose(); }, reps, brookSettle));

    // scan, left on the GPU (its last value read: the answer known to the CPU)
    const lastOf = async (r) => {
      const v = ctx.scratch('float', 1);
      ctx.run(pickLast, { src: r, at: n - 1, v });
      await v.read();
      v.dispose();
    };
    add('scan, result on the GPU (last value read)', n,
      await measure(async () => { const c = tf.cumsum(tx); const l = tf.slice(c, [n - 1], [1]); await l.data(); c.dispose(); l.dispose(); }, reps, tfSettle),
      await measure(async () => { const r = scan(ctx, s); await lastOf(r); r.dispose(); }, reps, brookSettle));
    add("scan on the GPU, brookgl 'hillis-steele' (the book's)", n, null,
      await measure(async () => { const r = scan(ctx, s, { method: 'hillis-steele' }); await lastOf(r); r.dispose(); }, reps, brookSettle));

    // filter
    add('filter x > 0.5 (count read, result on the GPU)', n,
      await measure(async () => { const m = tf.greater(tx, 0.5); const r = await tf.booleanMaskAsync(tx, m); m.dispose(); r.dispose(); }, reps, tfSettle),
      await measure(async () => { const r = await filter(ctx, s, { keep: 'x > 0.5' }); r.stream?.dispose(); }, reps, brookSettle));
    add('filter float4 records, x.w > 0.5', n,
      await measure(async () => {
        const w = tf.slice(tx4, [0, 3], [n, 1]);
        const flat = tf.reshape(w, [n]);
        const m = tf.greater(flat, 0.5);
        const r = await tf.booleanMaskAsync(tx4, m);
        [w, flat, m, r].forEach((t) => t.dispose());
      }, reps, tfSettle),
      await measure(async () => { const r = await filter(ctx, s4, { keep: 'x.w > 0.5' }); r.stream?.dispose(); }, reps, brookSettle));

    // readback of n floats
    add('read back n floats', n,
      await measure(async () => { const y = tf.neg(tx); await y.data(); y.dispose(); }, reps, tfSettle),
      await measure(() => s.read(), reps, brookSettle));
    add("read back n floats, brookgl method 'pack' (one pass, RGBA)", n, null, await measure(() => s.read({ method: 'pack' }), reps, brookSettle));
    add("read back n floats, brookgl method 'native' (RED where offered)", n, null, await measure(() => s.read({ method: 'native' }), reps, brookSettle));
    {
      const wide = ctx.stream('float4', n / 4, x);
      add('read back n floats held as n/4 float4 records (same bytes, no pack pass)', n, null, await measure(() => wide.read(), reps, brookSettle));
      wide.dispose();
    }
    {
      // what read() of a float stream moved before it packed: a whole RGBA texel per record
      add('read back n float4 records (4x the bytes: the old read of n floats)', n, null, await measure(() => s4.read(), reps, brookSettle));
    }

    // sort with a payload, keys read back
    if (sortSizes.includes(n)) {
      const payload = ctx.stream('uint', n, Uint32Array.from({ length: n }, (_, i) => i));
      const sortOnce = (method) => async () => {
        const r = sortStream(ctx, s, { payload, method });
        await r.keys.read();
        [r.keys, r.payload, r.order].forEach((t) => t.dispose());
      };
      add('full sort with payload, keys read back (tfjs topk(x, n))', n,
        await measure(async () => { const { values, indices } = tf.topk(tx, n); await values.data(); values.dispose(); indices.dispose(); }, reps, tfSettle),
        await measure(sortOnce(undefined), reps, brookSettle));
      add("full sort, brookgl 'radix' (2-bit digits, 4-way pyramid descent)", n, null, await measure(sortOnce('radix'), reps, brookSettle));
      add("full sort, brookgl 'bitonic' (the book's)", n, null, await measure(sortOnce('bitonic'), reps, brookSettle));
      payload.dispose();
    }
    [s, s4].forEach((t) => t.dispose());
    [tx, tx4].forEach((t) => t.dispose());
  }

  // Where a user's filter time goes: the same 4M (or largest) float4 filter met five ways.
  const nf = sizes[sizes.length - 1];
  const diag = [];
  {
    const x4 = uniform(4 * nf, 7);
    const s4 = ctx.stream('float4', nf, x4);
    const keep = 'x.w > 0.5';
    const once = async () => { const r = await filter(ctx, s4, { keep }); return r; };
    // first call with a predicate never compiled before (program compile + pool fill)
    {
      const t0 = performance.now();
      const r = await filter(ctx, s4, { keep: 'x.w > 0.25' });
      diag.push(['first call (new predicate: compile, empty pool)', stats([performance.now() - t0])]);
      r.stream?.dispose();
    }
    diag.push(['back to back, result disposed (the filter bench)', await measure(async () => (await once()).stream?.dispose(), reps, brookSettle)]);
    diag.push(['back to back, + fence after (the old bench\'s clock)', await measure(async () => { (await once()).stream?.dispose(); await ctx.queries.fence(); }, reps, brookSettle)]);
    diag.push(['after 50 ms idle each call (a user clicking)', await measure(async () => (await once()).stream?.dispose(), reps, async () => { await brookSettle(); await new Promise((r) => setTimeout(r, 50)); })]);
    {
      const held = [];
      diag.push(['results kept, not disposed (a new texture each call)', await measure(async () => held.push((await once()).stream), reps, brookSettle)]);
      held.forEach((t) => t?.dispose());
    }
    diag.push(['after tfjs ran in the same page (tfjs booleanMaskAsync just before)', await measure(async () => (await once()).stream?.dispose(), reps, async () => {
      const tx4 = tf.tensor1d(x4.subarray(0, nf));
      const m = tf.greater(tx4, 0.5);
      const r = await tf.booleanMaskAsync(tx4, m);
      [tx4, m, r].forEach((t) => t.dispose());
      await brookSettle();
    })]);
    // the pieces of a filter's latency: a fence, and reading one record back
    const one = ctx.stream('uint', 1, [1]);
    const touch = { name: 'Touch', inputs: { a: 'uint' }, outputs: { b: 'uint' }, body: 'b = a + 1u;' };
    const two = ctx.stream('uint', 1);
    const idle = async () => { await brookSettle(); await new Promise((r) => setTimeout(r, 50)); };
    diag.push(['one tiny pass + fence, back to back', await measure(async () => { ctx.run(touch, { a: one, b: two }); await ctx.queries.fence(); }, reps, brookSettle)]);
    diag.push(['one tiny pass + fence, after 50 ms idle', await measure(async () => { ctx.run(touch, { a: one, b: two }); await ctx.queries.fence(); }, reps, idle)]);
    diag.push(['one tiny pass + read() of one record (PBO, fence)', await measure(async () => { ctx.run(touch, { a: one, b: two }); await two.read(); }, reps, brookSettle)]);
    diag.push(['one tiny pass + readSync() of one record (stalls)', await measure(async () => { ctx.run(touch, { a: one, b: two }); two.readSync(); }, reps, brookSettle)]);
    {
      // after the count's readback, does a second sync cost more than the first? (time each)
      const first = [], second = [], third = [];
      for (let i = 0; i < reps; i++) {
        await brookSettle();
        const t0 = performance.now();
        const r = await once();
        const t1 = performance.now();
        await ctx.queries.fence();
        const t2 = performance.now();
        await ctx.queries.fence();
        third.push(performance.now() - t2);
        first.push(t1 - t0);
        second.push(t2 - t1);
        r.stream?.dispose();
      }
      diag.push(['split: the filter to its count', stats(first)], ['split: then a fence (the kept records written)', stats(second)], ['split: then another fence (nothing new)', stats(third)]);
    }
    {
      const big = ctx.stream('float4', nf / 2);
      const copy = { name: 'Copy', inputs: { a: 'float4' }, outputs: { b: 'float4' }, body: 'b = a;' };
      const src = ctx.stream('float4', nf / 2);
      diag.push([`tiny pass + read() of one record, then a ${nf / 2 / K}k-record float4 pass + fence`, await measure(async () => {
        ctx.run(touch, { a: one, b: two });
        await two.read();
        ctx.run(copy, { a: src, b: big });
        await ctx.queries.fence();
      }, reps, brookSettle)]);
      diag.push([`a ${nf / 2 / K}k-record float4 pass + fence alone`, await measure(async () => { ctx.run(copy, { a: src, b: big }); await ctx.queries.fence(); }, reps, brookSettle)]);
      [big, src].forEach((t) => t.dispose());
    }
    diag.push(['filter, then readSync() of a record (the GPU drained)', await measure(async () => { (await once()).stream?.dispose(); two.readSync(); }, reps, brookSettle)]);
    [one, two].forEach((t) => t.dispose());
    s4.dispose();
  }

  const sizeNote = software ? ' (SwiftShader: sizes up to 1M, sort 64k only — 4M and topk(1M) take minutes on a CPU renderer)' : '';
  const tables = [
    {
      title: `brookgl vs TensorFlow.js ${tf.version_core} webgl, ms: median (min–max) of ${reps} after a warm-up${sizeNote}`,
      columns: ['work', 'n', 'tfjs ms', 'brookgl ms', 'brookgl speed-up'],
      rows: rows.map((r) => [r.work, `${r.n / K}k`, fmt(r.tfjs), fmt(r.brookgl), r.speedup === null ? '' : `${r.speedup.toFixed(2)}×`]),
    },
    {
      title: `Where a user's filter time goes (${nf / K}k float4 records, keep x.w > 0.5), ms: median (min–max)`,
      columns: ['how it is called', 'brookgl ms'],
      rows: diag.map(([what, s]) => [what, fmt(s)]),
    },
  ];
  const works = [...new Set(rows.filter((r) => r.speedup !== null).map((r) => r.work))];
  const plots = [
    {
      title: 'brookgl speed-up over TensorFlow.js webgl (median / median)',
      xLabel: 'records',
      yLabel: 'speed-up (×)',
      logX: true,
      logY: true,
      series: works.map((w) => ({ name: w, points: rows.filter((r) => r.work === w && r.speedup !== null).map((r) => [r.n, r.speedup]) })),
    },
  ];
  return { tables, plots, results: { tfjsVersion: tf.version_core, tfjsRenderer: tfRenderer, reps, rows, filterDiagnosis: Object.fromEntries(diag) } };
}
