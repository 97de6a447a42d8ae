// Suite `mixed`: brookgl in the pages users build, beside other GPU code (issue 39). Five
// brookgl calls, each timed from its start to its answer on the CPU, 8 calls back to back:
// sort 1M keys with a payload + read the keys (default method), sum 4M, scan 4M + read, filter
// 4M (count, then a fence: the kept records written), read back 4M floats (SwiftShader: 64k /
// 1M). The page measures, in this order, in one run:
//
// - alone (two rounds), before anything else is loaded; the first call of each op is reported
//   apart (first seconds of a page: compiles, allocations);
// - beside TensorFlow.js's webgl backend (its own WebGL context), interleaved as a page using
//   both runs them: for each op, tfjs on the same array (sum, cumsum, booleanMaskAsync, topk,
//   neg + data; 8 calls), then brookgl (8 calls), then the next op (two rounds);
// - alone again with tfjs loaded but idle (is it tfjs's presence or its interleaved work?);
// - beside a three.js scene (its own context, a canvas in the page) that renders every frame
//   through requestAnimationFrame while brookgl's calls run;
// - beside a second brookgl context doing the same op on its own data, interleaved per op.
//
// Every brookgl batch of 8 calls is a performance.measure span named `mixed <phase> <op>` (and
// tfjs's `mixed <phase> <op> tfjs`), for bench --trace and scripts/trace-summary.mjs. Scenes
// (bench --scenes): tfjs, three, ctx2 pick the peers (default all); warmup runs
// `await warmup(ctx, …)` before the first timed call. docs/benchmarks.md, "brookgl in a mixed
// page", reads the H200 records (mixed-h200.json, mixed-h200-warmup.json, and the GPU's clocks
// sampled beside them, mixed-h200-clocks.csv).
import { createContext, filter, scan, sortStream, warmup } from '../../../dist/brookgl.js';
import { fmt, stats } from '../timing.js';
import { uniform } from './peers.js'; // the same seeded data as the peers suite

const K = 1024;
const CALLS = 8;


/** The brookgl ops on one context's data: each returns when its answer is on the CPU. */
function brookOps(ctx, data) {
  const x = ctx.stream('float', data.n, data.x);
  const keys = ctx.stream('float', data.nSort, data.keys);
  const payload = ctx.stream('uint', data.nSort, Uint32Array.from({ length: data.nSort }, (_, i) => i));
  return {
    ops: {
      sort: async () => {
        const r = sortStream(ctx, keys, { payload });
        await r.keys.read();
        [r.keys, r.payload, r.order].forEach((t) => t.dispose());
      },
      sum: () => ctx.reduce(x, 'sum'),
      scan: async () => {
        const r = scan(ctx, x);
        await r.read();
        r.dispose();
      },
      filter: async () => {
        const r = await filter(ctx, x, { keep: 'x > 0.5' });
        await ctx.queries.fence();
        r.stream?.dispose();
      },
      read: () => x.read(),
    },
    dispose: () => [x, keys, payload].forEach((t) => t.dispose()),
  };
}

/** TensorFlow.js's nearest calls on the same arrays (each ends with data(): the answer on the CPU). */
function tfOps(tf, data) {
  const tx = tf.tensor1d(data.x);
  const tk = tf.tensor1d(data.keys);
  const done = async (...ts) => {
    await ts[0].data();
    ts.forEach((t) => t.dispose());
  };
  return {
    ops: {
      sort: () => {
        const { values, indices } = tf.topk(tk, data.nSort);
        return done(values, indices);
      },
      sum: () => done(tf.sum(tx)),
      scan: () => done(tf.cumsum(tx)),
      filter: async () => {
        const m = tf.greater(tx, 0.5);
        const r = await tf.booleanMaskAsync(tx, m);
        m.dispose();
        r.dispose();
      },
      read: () => done(tf.neg(tx)),
    },
    dispose: () => [tx, tk].forEach((t) => t.dispose()),
  };
}

/** `CALLS` calls back to back, each timed to its answer; one performance.measure span over them. */
async function calls(once, span, n = CALLS, capMs = 60000) {
  const times = [];
  performance.mark(`${span} start`);
  const start = performance.now();
  for (let i = 0; i < n && (i < 2 || performance.now() - start < capMs); i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  performance.measure(span, `${span} start`);
  return { first: times[0], all: stats(times), times };
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(r));

/** A three.js scene rendering every frame (requestAnimationFrame) until stop(); frame count kept. */
function threeScene(THREE, { canvas, context, detail = 1, size = 512 } = {}) {
  const renderer = new THREE.WebGLRenderer({ canvas, context, antialias: false, powerPreference: 'high-performance' });
  renderer.setSize(size, size, false);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 100);
  camera.position.set(0, 0, 4);
  scene.add(new THREE.AmbientLight(0x404040));
  const sun = new THREE.DirectionalLight(0xffffff, 2);
  sun.position.set(3, 4, 5);
  scene.add(sun);
  const mesh = new THREE.Mesh(new THREE.TorusKnotGeometry(1, 0.3, 1024 * detail, 128 * detail), new THREE.MeshStandardMaterial({ color: 0x3377cc, roughness: 0.4, metalness: 0.2 }));
  scene.add(mesh);
  let frames = 0;
  let running = true;
  const loop = () => {
    if (!running) return;
    mesh.rotation.x += 0.01;
    mesh.rotation.y += 0.013;
    renderer.render(scene, camera);
    frames++;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  return {
    renderer,
    frames: () => frames,
    stop() {
      running = false;
      mesh.geometry.dispose();
      mesh.material.dispose();
      renderer.dispose();
    },
  };
}

export async function run(ctx, { log = () => {}, quick = false, scenes } = {}) {
  // ?scenes=tfjs,three,ctx2 (bench --scenes): only those peers (the two alone rounds always run)
  const want = (peer) => !scenes || scenes.some((s) => peer.startsWith(s));
  const software = ctx.caps.software;
  const n = quick ? 64 * K : software ? 1024 * K : 4096 * K;
  const nSort = quick || software ? 64 * K : 1024 * K;
  const data = { n, nSort, x: uniform(n, 7), keys: uniform(nSort, 8) };
  const names = ['sort', 'sum', 'scan', 'filter', 'read'];
  const label = { sort: `sort ${nSort / K}k + read keys`, sum: `sum ${n / K}k`, scan: `scan ${n / K}k + read`, filter: `filter ${n / K}k, count + fence`, read: `read back ${n / K}k floats` };
  const phases = []; // { phase, op, brookgl: {first, all, times}, peer?: {...} }
  const record = (phase, op, brook, peer) => {
    phases.push({ phase, op, brookgl: brook, peer });
    log(`${phase} ${label[op]}: brookgl ${fmt(brook.all)} ms (first ${brook.first.toFixed(2)})${peer ? `, beside ${fmt(peer.all)}` : ''}`);
  };

  // ?scenes=warmup: `await warmup(ctx, …)` at the page's start, before the first timed call
  let warm = null;
  if (scenes?.includes('warmup')) {
    warm = await warmup(ctx, { n, ops: ['sum', 'scan', 'filter', 'read'] });
    const sortWarm = await warmup(ctx, { n: nSort, ops: ['sort'] });
    warm = { ms: warm.ms + sortWarm.ms, perOp: { ...warm.perOp, ...sortWarm.perOp } };
    log(`warmup: ${warm.ms.toFixed(0)} ms (${Object.entries(warm.perOp).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')})`);
  }
  const mine = brookOps(ctx, data);
  try {
    for (const round of [1, 2]) {
      for (const op of names) record(`alone ${round}`, op, await calls(mine.ops[op], `mixed alone${round} ${op}`));
    }

    // TensorFlow.js, interleaved per op
    const tf = want('tfjs') ? await import('../../../dist/vendor/tfjs.js') : null;
    if (tf) {
      await tf.setBackend('webgl');
      await tf.ready();
      if (tf.getBackend() !== 'webgl') throw new Error(`TensorFlow.js chose the '${tf.getBackend()}' backend, not webgl`);
      const tfGl = tf.backend().gpgpu.gl;
      const theirs = tfOps(tf, data);
      for (const round of [1, 2]) {
        for (const op of names) {
          const peer = await calls(theirs.ops[op], `mixed tfjs${round} ${op} tfjs`, op === 'sort' && !software ? 4 : CALLS);
          record(`tfjs ${round}`, op, await calls(mine.ops[op], `mixed tfjs${round} ${op}`), peer);
        }
      }
      // the same, with 250 ms of nothing between tfjs's calls and brookgl's: does the cost pass?
      for (const op of names) {
        const peer = await calls(theirs.ops[op], `mixed tfjsgap ${op} tfjs`, op === 'sort' && !software ? 4 : CALLS);
        await new Promise((r) => setTimeout(r, 250));
        record('tfjs, then 250 ms idle', op, await calls(mine.ops[op], `mixed tfjsgap ${op}`), peer);
      }
      for (const op of names) record('alone, tfjs idle', op, await calls(mine.ops[op], `mixed tfjsidle ${op}`));
      theirs.dispose();
      tf.removeBackend('webgl');
      tfGl.getExtension('WEBGL_lose_context')?.loseContext();
    }

    // three.js rendering every frame on its own canvas
    const THREE = want('three') ? await import('../../../dist/vendor/three.js') : null;
    let threeFps = null;
    if (THREE) {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 512;
      document.body.append(canvas);
      // 262,144 triangles at 512x512 (SwiftShader: 1,024 at 128x128, and at most 20 s a batch: there
      // the scene's frames outrun the renderer and each brookgl call waits longer than the last)
      const scene = threeScene(THREE, { canvas, detail: software ? 1 / 16 : 1, size: software ? 128 : 512 });
      for (let i = 0; i < 10; i++) await nextFrame(); // compiled and drawing
      log(`three.js drawing (${scene.frames()} frames)`);
      const f0 = scene.frames();
      const t0 = performance.now();
      for (const op of names) record('three.js', op, await calls(mine.ops[op], `mixed three ${op}`, CALLS, software ? 20000 : 60000));
      threeFps = ((scene.frames() - f0) * 1000) / (performance.now() - t0);
      scene.stop();
      canvas.remove();
    }

    // a second brookgl context, the same op on its own data, interleaved per op
    if (want('ctx2')) {
      const ctx2 = createContext();
      const other = brookOps(ctx2, data);
      try {
        for (const op of names) {
          const peer = await calls(other.ops[op], `mixed ctx2 ${op} other`);
          record('second context', op, await calls(mine.ops[op], `mixed ctx2 ${op}`), peer);
        }
      } finally {
        other.dispose();
        ctx2.dispose();
      }
    }
    for (const op of names) record('alone 3 (last)', op, await calls(mine.ops[op], `mixed alone3 ${op}`));

    const phaseNames = [...new Set(phases.map((p) => p.phase))];
    const alone = (op) => phases.find((p) => p.phase === 'alone 2' && p.op === op).brookgl.all.median;
    const cell = (p) => `${fmt(p.brookgl.all)} ×${(p.brookgl.all.median / alone(p.op)).toFixed(2)}`;
    const tables = [
      {
        title: `brookgl in a mixed page, ms per call to its answer on the CPU: median (min–max) of ${CALLS} calls back to back, first included; ×: against 'alone 2'. Peers: ${[tf && `TensorFlow.js ${tf.version_core} webgl (its own context)`, THREE && `three.js r${THREE.REVISION} rendering every frame (${threeFps.toFixed(0)} frames/s while brookgl ran)`, want('ctx2') && 'a second brookgl context'].filter(Boolean).join(', ') || 'none'}${warm ? `; warmup(ctx) first: ${warm.ms.toFixed(0)} ms` : ''}`,
        columns: ['work', ...phaseNames],
        rows: names.map((op) => [label[op], ...phaseNames.map((ph) => cell(phases.find((p) => p.phase === ph && p.op === op)))]),
      },
      {
        title: 'The first call of each batch (ms): the first seconds of a page (alone 1) and the first call after the peer worked',
        columns: ['work', ...phaseNames],
        rows: names.map((op) => [label[op], ...phaseNames.map((ph) => phases.find((p) => p.phase === ph && p.op === op).brookgl.first.toFixed(2))]),
      },
      {
        title: 'The peers, ms per call: median (min–max) (tfjs topk 4 calls on a GPU)',
        columns: ['work', ...phaseNames.filter((ph) => phases.some((p) => p.phase === ph && p.peer))],
        rows: names.map((op) => [label[op], ...phases.filter((p) => p.op === op && p.peer).map((p) => fmt(p.peer.all))]),
      },
    ];
    return { tables, plots: [], results: { n, nSort, calls: CALLS, warmup: warm, tfjsVersion: tf?.version_core, threeRevision: THREE?.REVISION, threeFps, phases } };
  } finally {
    mine.dispose();
  }
}
