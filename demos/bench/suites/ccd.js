// Suite `ccd`: da Silva, Esperança & Marroquim (2014), Tables 1-6 reshaped for WebGL2. Each
// scene is animated for a few frames (BART-like objects flying through each other; the
// cloth-funnel step 227 -> 228 repeated; a mass-spring cloth falling on a ball): the first frame
// traverses from the root (and compiles), the rest from the saved front; each frame is timed
// wall clock with a fence after every stage (refit, front, traversal, balancing, elementary
// tests), medians over the frames with min-max (1 block: the first two frames from the front).
// Static balancing (gProximity's policy: a pass per step over a compacted list) beside lazy work stealing with B = 4 blocks of T threads; the
// iteration ratio of B = 1 to B = 4 stands in for the paper's GT 520 (1 SM) vs GTS 450 (4 SMs)
// speedups. On a software renderer the scenes are scaled down: no BART4096 and no funnel (its
// 450K-node front takes minutes a frame there), the cloth 40 x 40 on a 128-triangle ball.
import { createCcd, parsePly, reference } from '../../../dist/brookgl.js';

// The paper's numbers (ms per frame; Table 3: K front nodes per frame).
const PAPER = {
  BART64: { tris: 64, gts450: 2.6, gt520: 1.6, front: 0.807, gprox520: 1.6, gprox450: 3.1 },
  BART256: { tris: 256, gts450: 3.4, gt520: 3.5, front: 9.159, gprox520: 3.1, gprox450: 3.6 },
  BART1024: { tris: 1024, gts450: 8.4, gt520: 19.7, front: 127.394, gprox520: 14.7, gprox450: 7.5 },
  BART4096: { tris: 4096, gts450: 51.3, gt520: 169.9, front: 2156.26, gprox520: 173.4, gprox450: 47.6 },
  Funnel: { tris: 18500, gts450: 17.4, gt520: 48.2, front: 493.391, gprox520: 49.0, gprox450: 16.3 },
  'Cloth/Ball': { tris: 92000, gts450: 77.3, gt520: 225.7, front: 2482.04, gprox520: 238.3, gprox450: 68.6 },
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const spread = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function funnelScene() {
  const ply = async (f) => parsePly(await (await fetch(`../../data/ccd/cloth-funnel/frames/${f}.ply`)).arrayBuffer());
  const f0 = await ply(227), f1 = await ply(228);
  return { x0: f0.positions, x1: f1.positions, tris: Int32Array.from(f0.indices) };
}

/** Scene descriptions: a name, the paper's row, and frames (scenes) to step through. */
async function scenes(soft, quick) {
  const out = [];
  const bart = quick ? [64, 256] : soft ? [64, 256, 1024] : [64, 256, 1024, 4096];
  const frames = quick ? 3 : soft ? 4 : 8;
  for (const n of bart) out.push({ name: `BART${n}`, paper: `BART${n}`, frames: Array.from({ length: frames }, (_, f) => () => reference.bartScene(n, 40 + f)) });
  if (!quick && !soft) {
    // the funnel's 450K-node front takes minutes per frame on a software renderer: GPU only
    const funnel = await funnelScene();
    out.push({ name: 'Funnel', paper: 'Funnel', frames: Array.from({ length: 4 }, () => () => funnel) });
  }
  const grid = quick ? 16 : soft ? 40 : 215;
  const cloth = new reference.ClothBall(grid, soft || quick ? 2 : 4);
  for (let i = 0; i < 25; i++) cloth.advance();
  const clothFrames = [];
  for (let f = 0; f < (quick || soft ? 3 : 4); f++) {
    clothFrames.push(cloth.scene());
    cloth.advance();
  }
  out.push({ name: grid === 215 ? 'Cloth/Ball' : `Cloth/Ball (scaled to ${grid}×${grid})`, paper: 'Cloth/Ball', frames: clothFrames.map((s) => () => s) });
  return out;
}

/** Steps `frames` frames of the scene with one balancing method (the first from the root). */
async function animate(ccd, scene, balance, lws, frames = scene.frames.length) {
  const per = [];
  let pairs = 0;
  ccd.resetFront();
  for (let f = 0; f < frames; f++) {
    const s = scene.frames[f]();
    ccd.setPositions(s.x0, s.x1);
    const r = await ccd.step({ balance, lws });
    if (f > 0 || frames === 1) per.push(r.stats); // frame 0 compiles and builds the front from the root
    pairs = r.pairs.length;
  }
  return { per, info: { triangles: ccd.triangles, orphans: ccd.orphanCount, nodes: ccd.bvh.count, pairs } };
}

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const soft = ctx.caps.software;
  const T = soft ? 32 : 256;
  const tables = [];
  const plots = [];
  const results = [];
  const t1 = [], t3 = [], t45 = [], t26 = [], tb = [];
  const timeSeries = { static: [], lws: [] };
  for (const scene of await scenes(soft, quick)) {
    const p = PAPER[scene.paper];
    log(`ccd ${scene.name}: building the hierarchy and orphan sets`);
    const ccd = createCcd(ctx, scene.frames[0]()); // one build (CPU) for the three runs
    log(`ccd ${scene.name}: static`);
    const st = await animate(ccd, scene, 'static');
    log(`ccd ${scene.name}: lazy work stealing, 4 blocks`);
    const l4 = await animate(ccd, scene, 'lws', { blocks: 4, threads: T });
    log(`ccd ${scene.name}: lazy work stealing, 1 block`);
    const l1 = await animate(ccd, scene, 'lws', { blocks: 1, threads: T }, Math.min(3, scene.frames.length));
    ccd.dispose();
    const m = (run, key) => median(run.per.map((x) => x[key]));
    const tris = st.info.triangles;
    t1.push([scene.name, tris, m(l4, 'refitMs'), m(l4, 'frontMs'), m(l4, 'traversalMs'), m(l4, 'balancingMs'), m(l4, 'elementaryMs'), m(l4, 'totalMs'), spread(l4.per.map((x) => x.totalMs)), p.gts450, p.gt520]);
    t3.push([scene.name, m(l4, 'frontSize') / 1000, m(l4, 'candidates'), st.info.orphans, st.info.pairs, p.front]);
    t45.push([scene.name, m(st, 'totalMs'), spread(st.per.map((x) => x.totalMs)), m(l4, 'totalMs'), m(st, 'traversalMs') + m(st, 'balancingMs'), m(l4, 'traversalMs'), `${p.gprox520} / ${p.gt520}`, `${p.gprox450} / ${p.gts450}`]);
    const i1 = m(l1, 'iterations'), i4 = m(l4, 'iterations');
    t26.push([scene.name, i1, i4, i1 / i4, m(l4, 'utilisation'), m(l1, 'utilisation'), (p.gt520 / p.gts450).toFixed(2), (p.gprox520 / p.gprox450).toFixed(2)]);
    const lw = l4.per.map((x) => x.lws);
    tb.push([scene.name, m(st, 'iterations'), m(st, 'passes'), m(st, 'roundTrips'), m(l4, 'iterations'), m(l4, 'passes'), m(l4, 'roundTrips'), median(lw.map((x) => x.extraIterations)), median(lw.map((x) => x.moved)), median(lw.map((x) => x.stolen)), median(lw.map((x) => x.steals)), Math.max(...lw.map((x) => x.reruns))]);
    timeSeries.static.push([tris, m(st, 'totalMs')]);
    timeSeries.lws.push([tris, m(l4, 'totalMs')]);
    results.push({ scene: scene.name, triangles: tris, static: st.per, lws4: l4.per, lws1: l1.per, info: st.info });
    log(`ccd ${scene.name}: static ${m(st, 'totalMs').toFixed(1)} ms, lws ${m(l4, 'totalMs').toFixed(1)} ms`);
  }
  const lanes = `B = 4 blocks of T = ${T} fragments`;
  tables.push({
    title: `Table 1: ms per frame, lazy work stealing (${lanes}), median over the frames from the saved front (wall clock, a fence after each stage; LWS balancing runs inside its traversal loop, so it is counted under traversal); the paper's GTS 450 and GT 520 totals beside`,
    columns: ['scene', 'triangles', 'refit', 'front', 'traversal', 'balancing', 'elementary', 'total', 'total min–max', 'paper GTS 450', 'paper GT 520'],
    rows: t1,
  });
  tables.push({ title: 'Table 3: front nodes per frame (K), candidates and orphan tests; the paper\'s front beside', columns: ['scene', 'front (K nodes)', 'candidate triangle pairs', 'orphan tests', 'colliding pairs', 'paper front (K)'], rows: t3 });
  tables.push({
    title: 'Tables 4 and 5: static balancing (gProximity\'s policy) vs lazy work stealing, ms per frame; the paper\'s gProximity / LWS on each card',
    columns: ['scene', 'static total', 'static min–max', 'LWS total', 'static traversal + balancing', 'LWS traversal loop', 'paper GT 520 gProx / LWS', 'paper GTS 450 gProx / LWS'],
    rows: t45,
  });
  tables.push({
    title: 'Tables 2 and 6 stand-in: traversal iterations with 1 block vs 4 blocks (the paper\'s GT 520 has 1 SM, the GTS 450 4); utilisation = nodes processed / (B·T · iterations)',
    columns: ['scene', 'iterations, 1 block', 'iterations, 4 blocks', 'ratio', 'utilisation 4 blocks', 'utilisation 1 block', 'paper LWS speedup', 'paper gProximity speedup'],
    rows: t26,
  });
  tables.push({
    title: 'Balancing counters per frame (medians): passes, CPU round trips (count readbacks, fences, occlusion answers, result reads), nodes pushed to deques vs stolen',
    columns: ['scene', 'static iterations', 'static passes', 'static round trips', 'LWS iterations', 'LWS passes', 'LWS round trips', 'LWS iterations in flight past the end', 'moved to deques', 'stolen', 'steal rounds', 'ring reruns'],
    rows: tb,
  });
  plots.push({ title: 'ms per frame vs triangles', xLabel: 'triangles', yLabel: 'ms per frame', logX: true, logY: true, series: [{ name: 'static', points: timeSeries.static }, { name: 'lazy work stealing', points: timeSeries.lws }] });
  return { tables, plots, results };
}
