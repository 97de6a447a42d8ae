// Suite `core`: what every technique pays. Per-pass CPU overhead on tiny domains, write and
// read throughput at 2^20 and 2^22 float4 records, a streaming pass's bandwidth, and reduction
// time against n. Wall-clock times end with a fence (the GPU has finished); GPU times come
// from EXT_disjoint_timer_query_webgl2 where the browser has it (null otherwise or disjoint).
import { REDUCE_FACTOR } from '../../../dist/brookgl.js';

const copy = { name: 'copy', inputs: { a: 'float4' }, outputs: { b: 'float4' }, body: 'b = a;' };
const touch = { name: 'touch', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a + 1.0;' };

async function timed(ctx, fn) {
  await ctx.queries.fence();
  const t0 = performance.now();
  const r = fn();
  if (r instanceof Promise) await r;
  const issued = performance.now();
  await ctx.queries.fence();
  return { issueMs: issued - t0, totalMs: performance.now() - t0 };
}

async function gpuTime(ctx, fn) {
  const ms = await ctx.queries.time(fn);
  return ms;
}

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const tables = [];
  const plots = [];
  const results = {};

  // 1. per-pass overhead on tiny domains
  {
    const rows = [];
    const passes = quick ? 200 : 2000;
    for (const n of [1, 64, 4096]) {
      const a = ctx.stream('float', n, new Float32Array(n));
      const b = ctx.stream('float', n);
      for (let i = 0; i < 20; i++) ctx.run(touch, { a, b });
      const { issueMs, totalMs } = await timed(ctx, () => {
        for (let i = 0; i < passes; i++) ctx.run(touch, { a, b });
      });
      rows.push([n, passes, (issueMs * 1000) / passes, (totalMs * 1000) / passes]);
      log(`overhead n=${n}: ${((totalMs * 1000) / passes).toFixed(1)} us/pass`);
      a.dispose();
      b.dispose();
    }
    results.overhead = rows.map(([n, passes, issueUs, totalUs]) => ({ n, passes, issueUs, totalUs }));
    tables.push({ title: 'Per-pass overhead (tiny domains)', columns: ['records', 'passes', 'CPU issue µs/pass', 'total µs/pass'], rows });
  }

  // 2. write / read throughput and a streaming pass
  {
    const rows = [];
    for (const log2n of [20, 22]) {
      const n = 2 ** log2n;
      const bytes = n * 16;
      const data = new Float32Array(n * 4);
      for (let i = 0; i < data.length; i++) data[i] = i;
      const a = ctx.stream('float4', n);
      const b = ctx.stream('float4', n);
      a.write(data);
      const reps = quick ? 1 : 3;
      let write = Infinity, readSync = Infinity, readAsync = Infinity, pass = Infinity, passGpu = null;
      for (let r = 0; r < reps; r++) {
        write = Math.min(write, (await timed(ctx, () => a.write(data))).totalMs);
        readSync = Math.min(readSync, (await timed(ctx, () => a.readSync())).totalMs);
        readAsync = Math.min(readAsync, (await timed(ctx, () => a.read())).totalMs);
        ctx.run(copy, { a, b });
        pass = Math.min(pass, (await timed(ctx, () => ctx.run(copy, { a, b }))).totalMs);
        const g = await gpuTime(ctx, () => ctx.run(copy, { a, b }));
        if (g !== null) passGpu = passGpu === null ? g : Math.min(passGpu, g);
      }
      const gbs = (ms, moved = bytes) => moved / (ms / 1000) / 1e9;
      rows.push([`2^${log2n}`, bytes / 2 ** 20, gbs(write), gbs(readSync), gbs(readAsync), gbs(pass, 2 * bytes), passGpu === null ? null : gbs(passGpu, 2 * bytes)]);
      log(`throughput 2^${log2n}: write ${gbs(write).toFixed(2)} GB/s, pass ${gbs(pass, 2 * bytes).toFixed(2)} GB/s`);
      a.dispose();
      b.dispose();
    }
    results.throughput = rows.map(([n, mib, writeGBs, readSyncGBs, readAsyncGBs, passGBs, passGpuGBs]) => ({ n, mib, writeGBs, readSyncGBs, readAsyncGBs, passGBs, passGpuGBs }));
    tables.push({
      title: 'Throughput, float4 records (GB/s; a pass reads and writes the stream once each)',
      columns: ['records', 'MiB', 'write', 'readSync', 'read (async)', 'copy pass (wall)', 'copy pass (GPU timer)'],
      rows,
    });
  }

  // 3. what a large streaming pass costs: format, and one synced pass vs a batch of passes.
  // The batch's wall time per pass shows the per-draw cost without the sync; the GPU timer,
  // what the GPU itself spent.
  {
    const rows = [];
    const side = quick ? 1024 : 4096;
    const batch = quick ? 4 : 20;
    for (const type of ['float', 'float4']) {
      const bytes = side * side * (type === 'float' ? 4 : 16);
      const kernel = type === 'float' ? touch : copy;
      const a = ctx.stream(type, [side, side]);
      const b = ctx.stream(type, [side, side]);
      ctx.run(kernel, { a, b });
      let one = Infinity, many = Infinity, gpuOne = null, gpuMany = null;
      const min = (x, y) => (y === null ? x : x === null ? y : Math.min(x, y));
      for (let r = 0; r < (quick ? 1 : 3); r++) {
        one = Math.min(one, (await timed(ctx, () => ctx.run(kernel, { a, b }))).totalMs);
        many = Math.min(many, (await timed(ctx, () => { for (let i = 0; i < batch; i++) ctx.run(kernel, { a, b }); })).totalMs / batch);
        gpuOne = min(gpuOne, await gpuTime(ctx, () => ctx.run(kernel, { a, b })));
        const g = await gpuTime(ctx, () => { for (let i = 0; i < batch; i++) ctx.run(kernel, { a, b }); });
        gpuMany = min(gpuMany, g === null ? null : g / batch);
      }
      const gbs = (ms) => (ms === null ? null : (2 * bytes) / (ms / 1000) / 1e9);
      rows.push([type, `${side}²`, (2 * bytes) / 2 ** 20, one, gbs(one), many, gbs(many), gpuMany, gbs(gpuMany), gbs(gpuOne)]);
      log(`streaming pass ${type} ${side}²: ${gbs(many)?.toFixed(1)} GB/s batched`);
      a.dispose();
      b.dispose();
    }
    results.streaming = rows.map(([type, shape, mib, oneMs, oneGBs, batchMs, batchGBs, gpuMs, gpuGBs, gpuOneGBs]) => ({ type, shape, mib, oneMs, oneGBs, batchMs, batchGBs, gpuMs, gpuGBs, gpuOneGBs, batch }));
    tables.push({
      title: `Streaming pass (read one stream, write one), one synced pass vs ${batch} back to back`,
      columns: ['type', 'shape', 'MiB moved', 'one pass ms', 'GB/s', `per pass of ${batch} ms`, 'GB/s', 'GPU timer ms/pass', 'GPU GB/s', 'GPU GB/s (one pass)'],
      rows,
    });
  }

  // 4. arithmetic throughput of a fragment kernel: a chain of dependent float4 multiply-adds
  // per record (8 flops each), many independent records. This is the ceiling every
  // compute-bound kernel (N-body) meets on the renderer.
  {
    const rows = [];
    const side = quick ? 256 : 1024;
    const chains = 4; // independent accumulators per fragment, for instruction-level parallelism
    for (const steps of quick ? [64] : [64, 256, 1024]) {
      const fma = {
        name: `fma${steps}`,
        inputs: { a: 'float4' },
        uniforms: { m: 'float4', c: 'float4' },
        outputs: { b: 'float4' },
        body: [
          `vec4 x0 = a, x1 = a + 1.0, x2 = a + 2.0, x3 = a + 3.0;`,
          `for (int i = 0; i < ${steps}; i++) { x0 = x0 * m + c; x1 = x1 * m + c; x2 = x2 * m + c; x3 = x3 * m + c; }`,
          `b = x0 + x1 + x2 + x3;`,
        ].join('\n'),
      };
      const a = ctx.stream('float4', [side, side]);
      const b = ctx.stream('float4', [side, side]);
      const args = { a, b, m: [0.999, 0.998, 0.997, 0.996], c: [0.001, 0.002, 0.003, 0.004] };
      ctx.run(fma, args);
      let wall = Infinity, gpu = null;
      for (let r = 0; r < (quick ? 1 : 3); r++) {
        wall = Math.min(wall, (await timed(ctx, () => ctx.run(fma, args))).totalMs);
        const g = await gpuTime(ctx, () => ctx.run(fma, args));
        if (g !== null) gpu = gpu === null ? g : Math.min(gpu, g);
      }
      const flops = side * side * steps * chains * 8;
      const gflops = (ms) => (ms === null ? null : flops / (ms / 1000) / 1e9);
      rows.push([`${side}²`, steps * chains, flops / 1e9, wall, gflops(wall), gpu, gflops(gpu)]);
      log(`fma chain ${steps}: ${gflops(gpu ?? wall).toFixed(0)} GFLOP/s`);
      a.dispose();
      b.dispose();
    }
    results.alu = rows.map(([shape, fmasPerRecord, gflop, wallMs, wallGflops, gpuMs, gpuGflops]) => ({ shape, fmasPerRecord, gflop, wallMs, wallGflops, gpuMs, gpuGflops }));
    tables.push({
      title: 'Arithmetic throughput (float4 multiply-add chains, 8 flops each)',
      columns: ['shape', 'float4 FMAs per record', 'GFLOP per pass', 'wall ms', 'GFLOP/s (wall)', 'GPU ms', 'GFLOP/s (GPU timer)'],
      rows,
    });
  }

  // 5. reduction time vs n
  {
    const rows = [];
    const sizes = quick ? [10, 14, 18] : [10, 12, 14, 16, 18, 20, 22];
    for (const log2n of sizes) {
      const n = 2 ** log2n;
      const s = ctx.stream('float', n, new Float32Array(n).fill(1));
      await ctx.reduce(s, 'sum'); // compile and warm the pool
      let best = Infinity;
      for (let r = 0; r < (quick ? 1 : 3); r++) {
        const t0 = performance.now();
        await ctx.reduce(s, 'sum');
        best = Math.min(best, performance.now() - t0);
      }
      ctx.trace.start();
      const [total] = await ctx.reduce(s, 'sum');
      const passes = await ctx.trace.stop();
      const gpu = passes.every((p) => p.gpuMs !== null) ? passes.reduce((t, p) => t + p.gpuMs, 0) : null;
      if (total !== n) throw new Error(`reduction benchmark: sum of ${n} ones came out ${total}`);
      rows.push([`2^${log2n}`, passes.length, best, gpu, n / (best / 1000) / 1e6]);
      log(`reduce 2^${log2n}: ${best.toFixed(2)} ms`);
      s.dispose();
    }
    results.reduce = rows.map(([n, passes, ms, gpuMs, mrecords]) => ({ n, passes, ms, gpuMs, mrecordsPerS: mrecords }));
    tables.push({
      title: `Reduction (sum of float, ${REDUCE_FACTOR} records folded per pass, including readback)`,
      columns: ['records', 'passes', 'wall ms', 'GPU ms', 'M records/s'],
      rows,
    });
    plots.push({
      title: 'Reduction time vs n (sum, float)',
      xLabel: 'records',
      yLabel: 'ms',
      logX: true,
      logY: true,
      series: [
        { name: 'wall (with readback)', points: rows.map((r, i) => [2 ** sizes[i], r[2]]) },
        { name: 'GPU timer', points: rows.map((r, i) => [2 ** sizes[i], r[3]]) },
      ],
    });
  }
  return { tables, plots, results };
}
