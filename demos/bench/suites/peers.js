// Suite `peers`: brookgl beside TensorFlow.js's webgl backend (@tensorflow/tfjs-core and
// @tensorflow/tfjs-backend-webgl, bundled into dist/vendor/tfjs.js by the build from the
// devDependencies; loaded by this page only, never by the library) on the same data in one
// page: sum, scan (read back, and left on the GPU with only its last value read), filter
// (float and float4 records; tfjs booleanMaskAsync), full sort with a payload (tfjs topk(x, n)),
// and plain readback. Every time ends with the answer known to the CPU as a user needs it:
// values read back, or the count / one value read and the result left on the GPU. Each row has
// two figures for each library (timing.js): loop (back to back, then a fence, per call: the
// GPU work a call leaves queued, such as filter's compaction, is paid) and settled (from an
// idle GPU to the answer); the speed-up divides the loop figures. The two libraries run one
// after the other, never interleaved. Then brookgl alone (N-body, saxpy, pass overhead), the
// mixed-page study (probes(): the same calls before tfjs, after it, after a pool trim, after
// tfjs's context is gone) and a split of a filter's time.
import { filter, scan, sortStream, createNBody, nbodyPreset } from '../../../dist/brookgl.js';
import { measureBoth, fenceOf, fmt, stats } from '../timing.js';

const K = 1024;

const pickLast = { name: 'PickLast', gathers: { src: 'float' }, uniforms: { at: 'int' }, outputs: { v: 'float' }, body: 'v = src(at);' };
const saxpy = { name: 'Saxpy', inputs: { x: 'float', y: 'float' }, uniforms: { a: 'float' }, outputs: { z: 'float' }, body: 'z = a * x + y;' };

/** n uniform floats in [0, 1) from a seeded LCG: the data every peer library times (also the mixed suite's). */
export function uniform(n, seed) {
  const v = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s / 4294967296;
  }
  return v;
}

/** Runs `once` (async, returns when the answer is on the CPU) warm-up + reps times; ms stats (the diagnosis table). */
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

/**
 * The probes of the mixed-page study: the same brookgl calls timed (loop figure) before
 * TensorFlow.js is loaded, after it and the 4M filters ran, after ctx.trimPool(), and after
 * TensorFlow.js's backend is removed and its WebGL context lost. Slow after tfjs and fast again
 * after the trim: brookgl's pool; fast only after the other context is gone: the other
 * context; slow throughout: something else (clocks, the GPU process).
 */
async function probes(ctx, software, reps, batch) {
  const drain = fenceOf(ctx);
  const nSum = software ? 1024 * K : 4096 * K;
  const nSort = software ? 64 * K : 1024 * K;
  const out = {};
  const x = ctx.stream('float', nSum, uniform(nSum, 11));
  const keys = ctx.stream('float', nSort, uniform(nSort, 12));
  const payload = ctx.stream('uint', nSort, Uint32Array.from({ length: nSort }, (_, i) => i));
  try {
    out[`sum ${nSum / K}k`] = await measureBoth(() => ctx.reduce(x, 'sum'), { reps, batch, drain });
    out[`sort ${nSort / K}k + read keys`] = await measureBoth(async () => {
      const r = sortStream(ctx, keys, { payload });
      await r.keys.read();
      [r.keys, r.payload, r.order].forEach((t) => t.dispose());
    }, { reps, batch, drain });
    out[`filter ${nSum / K}k x > 0.5`] = await measureBoth(async () => (await filter(ctx, x, { keep: 'x > 0.5' })).stream?.dispose(), { reps, batch, drain });
  } finally {
    [x, keys, payload].forEach((t) => t.dispose());
  }
  return out;
}

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const software = ctx.caps.software;
  // SwiftShader (a CPU) is 50-100x slower than a GPU: smaller sizes there (stated in the table).
  const sizes = quick ? [64 * K] : software ? [64 * K, 1024 * K] : [64 * K, 1024 * K, 4096 * K];
  const sortSizes = quick || software ? [64 * K] : [64 * K, 1024 * K];
  const reps = quick ? 3 : software ? 5 : 7;
  const batch = quick ? 2 : software ? 3 : 5;
  const drain = fenceOf(ctx);
  const brook = (once) => measureBoth(once, { reps, batch, drain });
  const tfm = (once) => measureBoth(once, { reps, batch }); // each tfjs call ends with a readback

  const mixed = [];
  const probeReps = quick ? 3 : 5;
  const probeBatch = quick ? 2 : 3;
  mixed.push(['brookgl alone (TensorFlow.js not loaded yet)', await probes(ctx, software || quick, probeReps, probeBatch)]);
  log('mixed-page probes: brookgl alone done');

  const tf = await import('../../../dist/vendor/tfjs.js');
  await tf.setBackend('webgl');
  await tf.ready();
  if (tf.getBackend() !== 'webgl') throw new Error(`TensorFlow.js chose the '${tf.getBackend()}' backend, not webgl`);
  const tfGl = tf.backend().gpgpu.gl;
  const dbg = tfGl.getExtension('WEBGL_debug_renderer_info');
  const tfRenderer = dbg ? tfGl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : tfGl.getParameter(tfGl.RENDERER);

  const rows = []; // { work, n, tfjs: { loop, settled }, brookgl: { loop, settled }, speedup (loop / loop) }
  const add = (work, n, tfStats, brookStats) => {
    rows.push({ work, n, tfjs: tfStats, brookgl: brookStats, speedup: tfStats && brookStats ? tfStats.loop.median / brookStats.loop.median : null });
    log(`${work} ${n / K}k: tfjs loop ${fmt(tfStats?.loop)} ms, brookgl loop ${fmt(brookStats?.loop)} settled ${fmt(brookStats?.settled)} ms`);
  };

  for (const n of sizes) {
    const x = uniform(n, n);
    const x4 = uniform(4 * n, n + 1);
    const s = ctx.stream('float', n, x);
    const s4 = ctx.stream('float4', n, x4);
    const tx = tf.tensor1d(x);
    const tx4 = tf.tensor2d(x4, [n, 4]);

    add('sum', n,
      await tfm(async () => { const t = tf.sum(tx); await t.data(); t.dispose(); }),
      await brook(() => ctx.reduce(s, 'sum')));

    add('scan, result read back', n,
      await tfm(async () => { const c = tf.cumsum(tx); await c.data(); c.dispose(); }),
      await brook(async () => { const r = scan(ctx, s); await r.read(); r.dispose(); }));

    // scan, left on the GPU (its last value read: the answer known to the CPU)
    const lastOf = async (r) => {
      const v = ctx.scratch('float', 1);
      ctx.run(pickLast, { src: r, at: n - 1, v });
      await v.read();
      v.dispose();
    };
    add('scan, result on the GPU (last value read)', n,
      await tfm(async () => { const c = tf.cumsum(tx); const l = tf.slice(c, [n - 1], [1]); await l.data(); c.dispose(); l.dispose(); }),
      await brook(async () => { const r = scan(ctx, s); await lastOf(r); r.dispose(); }));
    add("scan on the GPU, brookgl 'hillis-steele' (the book's)", n, null,
      await brook(async () => { const r = scan(ctx, s, { method: 'hillis-steele' }); await lastOf(r); r.dispose(); }));

    // filter: resolves with the count while the compaction is queued (the loop figure pays it)
    add('filter x > 0.5 (count read, result on the GPU)', n,
      await tfm(async () => { const m = tf.greater(tx, 0.5); const r = await tf.booleanMaskAsync(tx, m); m.dispose(); r.dispose(); }),
      await brook(async () => { const r = await filter(ctx, s, { keep: 'x > 0.5' }); r.stream?.dispose(); }));
    add('filter float4 records, x.w > 0.5', n,
      await tfm(async () => {
        const w = tf.slice(tx4, [0, 3], [n, 1]);
        const flat = tf.reshape(w, [n]);
        const m = tf.greater(flat, 0.5);
        const r = await tf.booleanMaskAsync(tx4, m);
        [w, flat, m, r].forEach((t) => t.dispose());
      }),
      await brook(async () => { const r = await filter(ctx, s4, { keep: 'x.w > 0.5' }); r.stream?.dispose(); }));
    add('filter x > 0.5, then a fence (the kept records written)', n, null,
      await brook(async () => { const r = await filter(ctx, s, { keep: 'x > 0.5' }); await ctx.queries.fence(); r.stream?.dispose(); }));

    // readback of n floats
    add('read back n floats', n,
      await tfm(async () => { const y = tf.neg(tx); await y.data(); y.dispose(); }),
      await brook(() => s.read()));
    add("read back n floats, brookgl method 'pack' (one pass, RGBA)", n, null, await brook(() => s.read({ method: 'pack' })));
    add("read back n floats, brookgl method 'native' (RED where offered)", n, null, await brook(() => s.read({ method: 'native' })));

    // sort with a payload, keys read back
    if (sortSizes.includes(n)) {
      const payload = ctx.stream('uint', n, Uint32Array.from({ length: n }, (_, i) => i));
      const sortOnce = (method) => async () => {
        const r = sortStream(ctx, s, { payload, method });
        await r.keys.read();
        [r.keys, r.payload, r.order].forEach((t) => t.dispose());
      };
      add(`full sort with payload, keys read back (tfjs topk(x, n); brookgl default '${software ? 'bitonic' : 'radix'}')`, n,
        await tfm(async () => { const { values, indices } = tf.topk(tx, n); await values.data(); values.dispose(); indices.dispose(); }),
        await brook(sortOnce(undefined)));
      add("full sort, brookgl 'radix' (4-bit digits)", n, null, await brook(sortOnce('radix')));
      add("full sort, brookgl 'radix-2bit' (the first radix)", n, null, await brook(sortOnce('radix-2bit')));
      add("full sort, brookgl 'bitonic' (the book's)", n, null, await brook(sortOnce('bitonic')));
      payload.dispose();
    }
    [s, s4].forEach((t) => t.dispose());
    [tx, tx4].forEach((t) => t.dispose());
  }

  // brookgl only: the rest of the table (N-body, saxpy bandwidth, pass overhead)
  const own = [];
  {
    const n = software ? 4096 : 65536;
    const sys = createNBody(ctx, { ...nbodyPreset('plummer', n, 1), softening: 0.05 });
    const r = await brook(async () => { await sys.accelerations().read(); });
    own.push([`N-body ${n} bodies: accelerations + read back`, r, `${((n * n) / (r.loop.median / 1000) / 1e9).toFixed(1)} G interactions/s (loop)`]);
    for (const method of ['points']) {
      const alt = createNBody(ctx, { ...nbodyPreset('plummer', n, 1), softening: 0.05, method });
      const ra = await brook(async () => { await alt.accelerations().read(); });
      own.push([`N-body ${n} bodies, method '${method}' (vertex shader loop): accelerations + read back`, ra, `${((n * n) / (ra.loop.median / 1000) / 1e9).toFixed(1)} G interactions/s (loop)`]);
      alt.dispose();
    }
    sys.dispose();
    log(`N-body ${n}: ${fmt(r.loop)} ms`);
  }
  {
    const side = software ? 1024 : 4096;
    const a = ctx.stream('float', [side, side], uniform(side * side, 3));
    const b = ctx.stream('float', [side, side], uniform(side * side, 4));
    const z = ctx.stream('float', [side, side]);
    const r = await brook(async () => { for (let i = 0; i < 20; i++) ctx.run(saxpy, { x: a, y: b, a: 2, z }); await ctx.queries.fence(); });
    own.push([`saxpy ${side * side / K / K}M floats x 20 passes + fence`, r, `${((20 * 12 * side * side) / (r.loop.median / 1000) / 1e9).toFixed(1)} GB/s (loop)`]);
    [a, b, z].forEach((t) => t.dispose());
  }
  {
    const one = ctx.stream('uint', 1, [1]);
    const two = ctx.stream('uint', 1);
    const touch = { name: 'Touch', inputs: { a: 'uint' }, outputs: { b: 'uint' }, body: 'b = a + 1u;' };
    const r = await brook(async () => { for (let i = 0; i < 1000; i++) ctx.run(touch, { a: one, b: two }); await ctx.queries.fence(); });
    own.push(['1,000 one-record passes + fence', r, `${(r.loop.median).toFixed(2)} µs per pass (loop)`]);
    [one, two].forEach((t) => t.dispose());
  }

  // Where a user's filter time goes: the same 4M (or largest) float4 filter met several ways.
  const nf = sizes[sizes.length - 1];
  const diag = [];
  const brookSettle = () => ctx.queries.fence();
  {
    const x4 = uniform(4 * nf, 7);
    const s4 = ctx.stream('float4', nf, x4);
    const keep = 'x.w > 0.5';
    const once = async () => { const r = await filter(ctx, s4, { keep }); return r; };
    {
      const t0 = performance.now();
      const r = await filter(ctx, s4, { keep: 'x.w > 0.25' });
      diag.push(['first call (new predicate: compile, empty pool)', stats([performance.now() - t0])]);
      r.stream?.dispose();
    }
    diag.push(['after a fence, result disposed (the old filter bench: the count only)', await measure(async () => (await once()).stream?.dispose(), reps, brookSettle)]);
    diag.push(['after 50 ms idle each call (a user clicking)', await measure(async () => (await once()).stream?.dispose(), reps, async () => { await brookSettle(); await new Promise((r) => setTimeout(r, 50)); })]);
    {
      const held = [];
      diag.push(['results kept, not disposed (a new texture each call)', await measure(async () => held.push((await once()).stream), reps, brookSettle)]);
      held.forEach((t) => t?.dispose());
    }
    {
      const first = [], second = [];
      for (let i = 0; i < reps; i++) {
        await brookSettle();
        const t0 = performance.now();
        const r = await once();
        const t1 = performance.now();
        await ctx.queries.fence();
        first.push(t1 - t0);
        second.push(performance.now() - t1);
        r.stream?.dispose();
      }
      diag.push(['split: the filter to its count', stats(first)], ['split: then a fence (the kept records written)', stats(second)]);
    }
    s4.dispose();
  }

  mixed.push(['after TensorFlow.js and the filters above ran', await probes(ctx, software || quick, probeReps, probeBatch)]);
  ctx.trimPool();
  mixed.push(['then after ctx.trimPool() (brookgl\'s idle textures deleted)', await probes(ctx, software || quick, probeReps, probeBatch)]);
  tf.removeBackend('webgl');
  tfGl.getExtension('WEBGL_lose_context')?.loseContext();
  mixed.push(['then after TensorFlow.js\'s backend removed and its WebGL context lost', await probes(ctx, software || quick, probeReps, probeBatch)]);
  log('mixed-page probes done');
  const probeNames = Object.keys(mixed[0][1]);

  const sizeNote = software ? ' (SwiftShader: sizes up to 1M, sort 64k only — 4M and topk(1M) take minutes on a CPU renderer)' : '';
  const tables = [
    {
      title: `brookgl vs TensorFlow.js ${tf.version_core} webgl, ms: median (min–max) of ${reps} after a warm-up${sizeNote}. Loop: ${batch} calls back to back then a fence, per call (what a loop pays; speed-up uses it). Settled: from an idle GPU (fence + 50 ms) to the usable answer`,
      columns: ['work', 'n', 'tfjs loop ms', 'tfjs settled ms', 'brookgl loop ms', 'brookgl settled ms', 'brookgl speed-up (loop)'],
      rows: rows.map((r) => [r.work, `${r.n / K}k`, fmt(r.tfjs?.loop), fmt(r.tfjs?.settled), fmt(r.brookgl.loop), fmt(r.brookgl.settled), r.speedup === null ? '' : `${r.speedup.toFixed(2)}×`]),
    },
    {
      title: 'brookgl alone: N-body, streaming bandwidth, pass overhead (ms: median (min–max))',
      columns: ['work', 'loop ms', 'settled ms', 'rate'],
      rows: own.map(([w, r, rate]) => [w, fmt(r.loop), fmt(r.settled), rate]),
    },
    {
      title: 'The mixed-page study: the same brookgl calls, loop figure (settled in brackets), ms',
      columns: ['when', ...probeNames],
      rows: mixed.map(([when, p]) => [when, ...probeNames.map((k) => `${fmt(p[k].loop)} [${p[k].settled.median.toPrecision(3)}]`)]),
    },
    {
      title: `Where a user's filter time goes (${nf / K}k float4 records, keep x.w > 0.5), ms: median (min–max)`,
      columns: ['how it is called', 'brookgl ms'],
      rows: diag.map(([what, st]) => [what, fmt(st)]),
    },
  ];
  const works = [...new Set(rows.filter((r) => r.speedup !== null).map((r) => r.work))];
  const plots = [
    {
      title: 'brookgl speed-up over TensorFlow.js webgl (loop median / loop median)',
      xLabel: 'records',
      yLabel: 'speed-up (×)',
      logX: true,
      logY: true,
      series: works.map((w) => ({ name: w, points: rows.filter((r) => r.work === w && r.speedup !== null).map((r) => [r.n, r.speedup]) })),
    },
  ];
  return {
    tables,
    plots,
    results: {
      tfjsVersion: tf.version_core,
      tfjsRenderer: tfRenderer,
      reps,
      batch,
      rows,
      brookglOnly: Object.fromEntries(own.map(([w, r, rate]) => [w, { ...r, rate }])),
      mixedPage: Object.fromEntries(mixed),
      filterDiagnosis: Object.fromEntries(diag),
    },
  };
}
