// Suite `ccd`: da Silva, Esperança & Marroquim (2014), Tables 1-6 reshaped for WebGL2. Each
// scene is animated for a few frames (BART-like objects flying through each other; the
// cloth-funnel step 227 -> 228 repeated; a mass-spring cloth falling on a ball): the first frame
// traverses from the root (and compiles), the second is the first from the saved front (static
// balancing has no list sizes of an earlier such frame to run ahead on yet), the rest are timed.
// Before them each method plays the same frames once untimed (the warm-up pass: every texture
// size, framebuffer and program the timed frames use is made there and kept by the pool and the
// caches; ?warm=0, bench.mjs --no-warm, leaves it out): the suite counts the GL objects each frame
// makes and tabulates them with the first timed frame against the median.
// Wall clock: a frame as a user pays it, from step() to its answer (no fences between stages),
// medians with min-max over the timed frames. The last frame runs profiled (Ccd.step({ profile:
// true }): every pass under ctx.trace with its EXT_disjoint_timer_query time, summed per stage,
// and a fence ending each stage): its per-stage wall times are Table 1's stage columns, its GPU
// times the GPU tables; its timer queries and fences never touch the timed frames. Static balancing (gProximity's policy: a pass per step over a compacted list) beside
// lazy work stealing twice: wide (B = 32 blocks of T = 1024 fragments on a GPU, 16 x 64 on a
// software renderer: the iterations are what costs) and the paper's B = 4 blocks of T threads;
// the iteration ratio of B = 1 to B = 4 stands in for the paper's GT 520 (1 SM) vs GTS 450
// (4 SMs) speedups. Per kernel GPU times and an LWS per-iteration account come from the
// profiled frame.
//
// Sizes: `test` (the paper page's test run) BART64 and a 10 x 10 cloth; `quick` BART64/256 and a
// 16 x 16 cloth; otherwise BART64-4096 and the cloth with about `maxK` thousand triangles, at most
// the paper's 92 (the page's size box, 4096 by default, is the filter's; a software renderer skips
// the funnel, whose 450K-node front takes minutes there).
import { CCD_MEMORY_BUDGET, CCD_STAGES, createCcd, parsePly, reference } from '../../../dist/brookgl.js';

// The paper's numbers: Table 1 (LWS ms per frame on each card), Table 2 (LWS speedup GTS 450 vs
// GT 520), Table 3 (K front nodes per frame), Tables 4-5 (gProximity ms), Table 6 (gProximity speedup).
export const PAPER = {
  BART64: { tris: 64, gts450: 2.6, gt520: 1.6, front: 0.807, gprox520: 1.6, gprox450: 3.1, speedLws: 0.61, speedGprox: 0.51 },
  BART256: { tris: 256, gts450: 3.4, gt520: 3.5, front: 9.159, gprox520: 3.1, gprox450: 3.6, speedLws: 1.03, speedGprox: 1.16 },
  BART1024: { tris: 1024, gts450: 8.4, gt520: 19.7, front: 127.394, gprox520: 14.7, gprox450: 7.5, speedLws: 2.34, speedGprox: 1.96 },
  BART4096: { tris: 4096, gts450: 51.3, gt520: 169.9, front: 2156.26, gprox520: 173.4, gprox450: 47.6, speedLws: 3.31, speedGprox: 3.64 },
  Funnel: { tris: 18500, gts450: 17.4, gt520: 48.2, front: 493.391, gprox520: 49.0, gprox450: 16.3, speedLws: 2.77, speedGprox: 3.0 },
  'Cloth/Ball': { tris: 92000, gts450: 77.3, gt520: 225.7, front: 2482.04, gprox520: 238.3, gprox450: 68.6, speedLws: 2.92, speedGprox: 3.47 },
};

/** The cloth grid of the paper's Cloth/Ball scene: g x g vertices make 2 (g - 1)^2 triangles,
 * and g = 215 gives 91,592, the nearest to the paper's 92K (93,640 with the ball). The scene of
 * that grid is named 'Cloth/Ball' as in the paper; smaller ones (--max-k, --quick) say their grid. */
const PAPER_GRID = Math.round(Math.sqrt(92000 / 2)) + 1;

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const spread = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function funnelScene() {
  const ply = async (f) => parsePly(await (await fetch(new URL(`../../../data/ccd/cloth-funnel/frames/${f}.ply`, import.meta.url))).arrayBuffer());
  const f0 = await ply(227), f1 = await ply(228);
  return { x0: f0.positions, x1: f1.positions, tris: Int32Array.from(f0.indices) };
}

/** Scene descriptions: a name, the paper's row, and frames (scenes) to step through. */
async function scenes(soft, { quick, test, maxK, only }) {
  const out = [];
  const bart = test ? [64] : quick ? [64, 256] : [64, 256, 1024, 4096];
  // frame 0 from the root, frame 1 the first from the front, timed frames, then one profiled frame;
  // on a GPU nine timed frames: each BART frame is a new scene, and with three an H100 median fell on
  // whichever frame refitted its front worst (BART4096 LWS 36.2-65.8 ms over three)
  const frames = test || quick ? 4 : soft ? 6 : 12;
  for (const n of bart) out.push({ name: `BART${n}`, paper: `BART${n}`, frames: Array.from({ length: frames }, (_, f) => () => reference.bartScene(n, 40 + f)) });
  if (!quick && !test && !soft) {
    // the data set holds one step (frames 227 and 228): stepped again from its own front, as many
    // frames as BART's (nine timed); with two timed frames an H100's LWS / static ratio moved with
    // them (1.06, 1.54, 1.27 in three runs)
    const funnel = await funnelScene();
    out.push({ name: 'Funnel', paper: 'Funnel', frames: Array.from({ length: frames }, () => () => funnel) });
  }
  // a grid g x g has 2 (g - 1)^2 triangles
  const grid = test ? 10 : quick ? 16 : Math.round(Math.sqrt((Math.min(maxK ?? 92, 92) * 1000) / 2)) + 1;
  const cloth = new reference.ClothBall(grid, test || quick ? 1 : 4);
  for (let i = 0; i < 25; i++) cloth.advance();
  const clothFrames = [];
  // a big cloth on a software renderer takes minutes a frame: the root frame, one, one profiled;
  // on a GPU eight, five of them timed: the first frame run ahead may still allocate or compile
  // (an H100 run gave 531 ms against 60-76 for the others) and two timed frames made it half the median
  for (let f = 0; f < (soft && grid > 110 ? 3 : test || quick ? 4 : soft ? 5 : 8); f++) {
    clothFrames.push(cloth.scene());
    cloth.advance();
  }
  // (no warm-up pass where its frames take minutes each: the big cloth on a software renderer)
  out.push({ name: grid === PAPER_GRID ? 'Cloth/Ball' : `Cloth/Ball (${grid}×${grid} cloth)`, paper: 'Cloth/Ball', frames: clothFrames.map((s) => () => s), warm: !(soft && grid > 110) });
  // --scenes A,B (bench.mjs): only the scenes whose names start with one of them
  return only ? out.filter((s) => only.some((o) => s.name.startsWith(o))) : out;
}

/** Whether static frames are wrapped in console.profile (bench.mjs --cpu-profile asks with ?cpuProfile):
 * never otherwise, so a page with DevTools open does not profile, and slow, every frame. */
const profiling = new URLSearchParams(globalThis.location?.search ?? '').has('cpuProfile');

/** Counts the GL objects a frame makes (renderer-independent: a texture made inside a timed frame
 * is an allocation the pool could not answer): gl.createTexture, createFramebuffer, createProgram
 * wrapped until end(); texImage2D/texStorage2D bytes are the textures' records x 16 at most. */
let glOf = null;
function countMade(gl) {
  const n = { textures: 0, textureBytes: 0, framebuffers: 0, programs: 0 };
  const saved = { createTexture: gl.createTexture, createFramebuffer: gl.createFramebuffer, createProgram: gl.createProgram, texStorage2D: gl.texStorage2D };
  gl.createTexture = function () { n.textures++; return saved.createTexture.call(this); };
  gl.createFramebuffer = function () { n.framebuffers++; return saved.createFramebuffer.call(this); };
  gl.createProgram = function () { n.programs++; return saved.createProgram.call(this); };
  gl.texStorage2D = function (t, l, f, w, h) { n.textureBytes += w * h * 16; return saved.texStorage2D.call(this, t, l, f, w, h); };
  return { end: () => (Object.assign(gl, saved), n) };
}

/** Whether the suite plays each method's frames once untimed before timing them (see animate):
 * yes unless the page asks otherwise (?warm=0; bench.mjs --no-warm), for a before/after. */
const warming = new URLSearchParams(globalThis.location?.search ?? '').get('warm') !== '0';

/** The most MiB of live textures (ctx.stats().textureBytes: the scene's streams, the saved front,
 * the pool's idle textures) seen after a frame since the last reset: what the pool holds. */
let texturePeak = 0;
const sampleTextures = (ctx) => (texturePeak = Math.max(texturePeak, ctx.stats().textureBytes));

/** Steps the scene's frames with one balancing method on a Ccd of its own (`make`), `warm` first:
 * the same frames once, untimed, on another new Ccd (the warm-up: the timed pass repeats it exactly
 * — a Ccd carries last frames' list and compaction sizes, which resetFront keeps — so every texture
 * size, framebuffer and program the timed frames use is made there, and the pool and the caches
 * keep them); frame 0 from the root, the last profiled; with four frames or more, frame 1 (the
 * first from the front) is not timed either. Without the warm-up pass a timed frame could meet a
 * size no earlier frame made (an animation's lists, fronts and joins drift), and pay for its
 * allocation: H100, static Cloth/Ball, the first timed frame 104 ms against a 79 ms median. */
async function animate(ctx, make, scene, balance, lws, frames = scene.frames.length, log, warm = false) {
  let warmUp = null;
  if (warm) {
    const ccd = make();
    try {
      const w = await play(ccd, scene, balance, lws, frames, null);
      warmUp = w.made;
      log?.(`  warm-up (${frames} frames, untimed): ${w.made.textures} textures (${(w.made.textureBytes / 2 ** 20).toFixed(1)} MiB), ${w.made.framebuffers} framebuffers, ${w.made.programs} programs made`);
    } finally {
      ccd.dispose();
    }
  }
  const ccd = make();
  try {
    return { ...(await play(ccd, scene, balance, lws, frames, log, ctx)), warmUp };
  } finally {
    ccd.dispose();
  }
}

/** One pass over the scene's frames (see animate); `log` null: the warm-up, nothing kept. */
async function play(ccd, scene, balance, lws, frames, log, ctx) {
  const per = [];
  let pairs = 0, profiled = null;
  const made = { textures: 0, textureBytes: 0, framebuffers: 0, programs: 0 };
  ccd.resetFront();
  for (let f = 0; f < frames; f++) {
    const s = scene.frames[f]();
    ccd.setPositions(s.x0, s.x1);
    const profile = f === frames - 1 && frames > 2;
    // a span a Chrome trace shows (bench.mjs --trace) and, with bench.mjs --cpu-profile (the page's
    // ?cpuProfile), a V8 CPU profile: which frame, of what, timed or not
    const span = `ccd ${scene.name} ${balance}${lws ? ` ${lws.blocks}x${lws.threads}` : ''} frame ${f}${log ? '' : ' (warm-up)'}${profile ? ' profiled' : ''}`;
    performance.mark('ccd frame');
    if (profiling && balance === 'static') console.profile(span);
    const count = countMade(glOf);
    const r = await ccd.step({ balance, lws, profile });
    const m = count.end();
    r.stats.made = m;
    for (const k of Object.keys(made)) made[k] += m[k];
    if (profiling && balance === 'static') console.profileEnd(span);
    performance.measure(span, 'ccd frame');
    if (ctx) sampleTextures(ctx);
    if (!log) continue;
    log(`  frame ${f}: ${r.stats.totalMs.toFixed(0)} ms${profile ? ' (profiled)' : ''}, ${m.textures} textures (${(m.textureBytes / 2 ** 20).toFixed(1)} MiB), ${m.framebuffers} framebuffers, ${m.programs} programs made`);
    if (profile) profiled = r.stats;
    // frame 0 compiles and builds the front from the root; frame 1 is the first from the front
    else if (f >= (frames >= 4 ? 2 : 1) || frames === 1) per.push(r.stats);
    pairs = r.pairs.length;
  }
  return { per, profiled, made, info: { triangles: ccd.triangles, orphans: ccd.orphanCount, nodes: ccd.bvh.count, pairs } };
}

/** The paper's whole Cloth/Ball frame (createCcd's default memory budget): static from the root,
 * then twice from the front, then lazy work stealing (the GPU's wide 32 x 1024: on this frame the
 * iterations are what costs) from the root and once from the front, on the same three positions:
 * what a software renderer runs for --max-k 92 (exactly: the paper's 92K triangles) instead of the
 * tables (their cloth frames take minutes each there). */
async function wholeFrame(ctx, log, only) {
  const grid = PAPER_GRID;
  // draped over the ball and folding (150 steps): millions of candidate feature tests, past one
  // chunk of the default budget
  const cloth = new reference.ClothBall(grid, 4);
  for (let i = 0; i < 150; i++) cloth.advance();
  const positions = [cloth.scene()];
  for (let i = 0; i < 2; i++) cloth.advance(), positions.push(cloth.scene());
  const scene = positions[0];
  log(`ccd whole frame: building the hierarchy and orphan sets of a ${grid}×${grid} cloth`);
  const t0 = performance.now();
  const ccd = createCcd(ctx, scene);
  const build = performance.now() - t0;
  log(`ccd whole frame: ${ccd.triangles} triangles, ${ccd.orphanCount} orphan tests, budget ${ccd.memoryBudget / 2 ** 20} MiB: stepping from the root`);
  const lws = { blocks: 32, threads: 1024 };
  // static: from the root, then two frames from the front (the first reads its counts step by
  // step, the second runs ahead on its list sizes: the groups of steps memoryBudget bounds); then
  // LWS from the root and from the front on the first two positions
  const runs = [
    ['static', 'from the root', 0],
    ['static', 'from the front, counts read', 1],
    ['static', 'from the front, run ahead', 2],
    ['lws', 'from the root', 0],
    ['lws', 'from the front', 1],
  ];
  const rows = [], results = [];
  // --scenes static or --scenes LWS: one method's frames only
  for (const [balance, what, p] of runs.filter(([b]) => !only || only.some((o) => (b === 'lws' ? 'LWS' : 'static').startsWith(o)))) {
    if (balance === 'lws' && what === 'from the root') log(`ccd whole frame: lazy work stealing ${lws.blocks}×${lws.threads}`);
    ccd.setPositions(positions[p].x0, positions[p].x1);
    const { pairs, stats } = await ccd.step({ balance, fromRoot: what === 'from the root', ...(balance === 'lws' ? { lws } : {}) });
    const method = balance === 'lws' ? `LWS ${lws.blocks}×${lws.threads}` : 'static';
    const row = [`Cloth/Ball (${grid}×${grid} cloth), ${what}`, method, scene.tris.length / 3, ccd.memoryBudget / 2 ** 20, build, ...CCD_STAGES.map((st) => stats.stages[st].wallMs), stats.totalMs, stats.chunks, stats.peakBytes / 2 ** 20, stats.rollbacks, stats.passes, stats.roundTrips, stats.iterations, stats.frontSize, stats.candidates, stats.orphans, pairs.length];
    log(`ccd whole frame, ${method} ${what}: ${(stats.totalMs / 1000).toFixed(1)} s, ${stats.chunks} extra chunks, ${(stats.peakBytes / 2 ** 20).toFixed(0)} MiB held at most, ${stats.passes} passes, ${stats.roundTrips} round trips, ${stats.iterations} iterations, ${stats.candidates} candidates, ${pairs.length} pairs`);
    rows.push(row);
    results.push({ scene: row[0], method, stats, pairs: pairs.length });
  }
  ccd.dispose();
  return {
    tables: [
      {
        title: `The whole Cloth/Ball frame (the paper's 92K triangles) on this renderer, with createCcd's default memoryBudget: ${[rows.some((r) => r[1] === 'static') && 'static from the root, then two frames from the front (the second runs its steps ahead in groups)', rows.some((r) => r[1] !== 'static') && `lazy work stealing (B = ${lws.blocks} blocks of T = ${lws.threads} fragments) from the root and from the front on the first two positions`].filter(Boolean).join('; ')} — ms per stage (wall; '-': no stage fences), the chunks the budget split passes into, the most MiB the frame's working streams held at once (stats.peakBytes), rollbacks, passes, round trips, iterations, front, candidates, orphan tests, colliding pairs; the hierarchy's CPU build beside`,
        columns: ['scene', 'method', 'triangles', 'budget MiB', 'CPU build ms', ...CCD_STAGES, 'total ms', 'extra chunks', 'peak MiB held', 'rollbacks', 'passes', 'round trips', 'iterations', 'front', 'candidates', 'orphan tests', 'pairs'],
        rows,
      },
    ],
    plots: [],
    results,
  };
}

export async function run(ctx, { log = () => {}, plan = () => {}, quick = false, test = false, maxK, scenes: only } = {}) {
  const soft = ctx.caps.software;
  glOf = ctx.gl;
  if (soft && !quick && !test && maxK === 92) return wholeFrame(ctx, log, only);
  // threads per block: 256 on a GPU; on a software renderer 32 for small scenes (its cost is per
  // pass, and small fronts leave wide blocks idle), 256 from 2K triangles (fewer iterations)
  const threadsFor = (tris) => (soft && tris < 2000 ? 32 : 256);
  // the wide configuration: as many lanes as the checks allow (B <= 32, T <= 1024) on a GPU — an
  // H100 keeps about 270K threads resident, the paper's GTS 450 6K (4 SMs x 1536); every LWS
  // iteration is a sequence of grid-wide passes, so the iterations must be few
  // (eight occlusion queries in flight on a GPU: an iteration's passes take less than a query's answer)
  const wide = soft ? { blocks: 16, threads: 64 } : { blocks: 32, threads: 1024, inFlight: 8 };
  const wideLabel = `LWS ${wide.blocks}×${wide.threads}`;
  const tables = [];
  const plots = [];
  const results = [];
  const t1 = [], t1gpu = [], t3 = [], t45 = [], t26 = [], tb = [], tk = [], tacc = [], tw = [];
  const timeSeries = { static: [], lws: [], wide: [] };
  const list = await scenes(soft, { quick, test, maxK, only });
  // the progress lines of each scene: 6 of its own, a line per frame of static, LWS 4 and the wide LWS
  // and one for each of their warm-up passes, two of LWS 1
  plan(list.reduce((k, s) => k + 8 + 3 * s.frames.length + (warming && s.warm !== false ? 3 : 0), 0));
  for (const scene of list) {
    const p = PAPER[scene.paper];
    log(`ccd ${scene.name}: building the hierarchy and orphan sets`);
    // a Ccd of its own (a CPU build) for each pass of each method: the same state at the start of
    // the warm-up and of the timed pass
    const make = () => createCcd(ctx, scene.frames[0]());
    const triangles = scene.frames[0]().tris.length / 3;
    const T = threadsFor(triangles);
    log(`ccd ${scene.name} (${triangles} triangles): static`);
    const warm = warming && scene.warm !== false;
    const measured = async (balance, lws, frames) => {
      texturePeak = 0;
      const r = await animate(ctx, make, scene, balance, lws, frames, log, warm && frames === undefined);
      return { ...r, texturePeak: texturePeak / 2 ** 20 };
    };
    const st = await measured('static');
    log(`ccd ${scene.name}: lazy work stealing, 4 blocks`);
    const l4 = await measured('lws', { blocks: 4, threads: T });
    log(`ccd ${scene.name}: lazy work stealing, ${wide.blocks} blocks of ${wide.threads}`);
    const lw = await measured('lws', wide);
    // one block takes four times the iterations: skipped on a software renderer above 5K triangles (the
    // page stops answering the headless driver for minutes) and on a GPU above 20K (the cloth: ~10^4 iterations)
    const skip1 = triangles > (soft ? 5000 : 20000);
    log(`ccd ${scene.name}: lazy work stealing, 1 block${skip1 ? ' (skipped: minutes a frame here)' : ''}`);
    // (its two frames are counted, not timed: no warm-up pass)
    const l1 = skip1 ? { per: [] } : await measured('lws', { blocks: 1, threads: T }, 2);
    const m = (run, key) => median(run.per.map((x) => x[key]));
    const tris = st.info.triangles;
    const methods = [['static', st, [p.gprox450, p.gprox520]], [wideLabel, lw, [p.gts450, p.gt520]], [`LWS 4×${T}`, l4, [p.gts450, p.gt520]]];
    for (const [label, r, paper] of methods) {
      // the stages' wall times: the profiled frame's, whose fences end each stage
      const wall = (s) => r.profiled.stages[s].wallMs;
      const ratio = label === 'static' ? null : m(r, 'totalMs') / m(st, 'totalMs');
      t1.push([scene.name, label, tris, ...CCD_STAGES.map(wall), m(r, 'totalMs'), spread(r.per.map((x) => x.totalMs)), r.per.length, ratio, ...paper]);
      const g = r.profiled;
      t1gpu.push([scene.name, label, ...CCD_STAGES.map((s) => g.stages[s].gpuMs), g.gpuMs, ...CCD_STAGES.map((s) => g.stages[s].passes), g.passes, g.roundTrips, g.iterations]);
      // per kernel: GPU ms, passes, us a pass; for LWS also us per iteration (the per-pass account)
      for (const k of g.kernels) {
        tk.push([scene.name, label, k.stage, k.kernel, k.passes, k.gpuMs, k.gpuMs === null ? null : (1000 * k.gpuMs) / k.passes, label === 'static' ? null : k.gpuMs === null ? null : (1000 * k.gpuMs) / g.iterations]);
      }
      if (label !== 'static') {
        const loop = g.kernels.filter((k) => k.kernel.startsWith('Lws') && k.kernel !== 'LwsGatherChunks');
        const gpu = loop.reduce((a, k) => (a === null || k.gpuMs === null ? null : a + k.gpuMs), 0);
        const passes = loop.reduce((a, k) => a + k.passes, 0);
        tacc.push([scene.name, label, g.iterations, passes, passes / g.iterations, gpu, gpu === null ? null : (1000 * gpu) / g.iterations, gpu === null ? null : (1000 * gpu) / passes, g.totalMs, g.nodesProcessed, g.utilisation]);
      }
    }
    t3.push([scene.name, m(l4, 'frontSize') / 1000, m(l4, 'nodesProcessed') / 1000, m(l4, 'candidates'), st.info.orphans, st.info.pairs, p.front]);
    t45.push([scene.name, m(st, 'totalMs'), spread(st.per.map((x) => x.totalMs)), m(lw, 'totalMs'), spread(lw.per.map((x) => x.totalMs)), m(l4, 'totalMs'), spread(l4.per.map((x) => x.totalMs)), st.profiled.stages.traversal.gpuMs, st.profiled.stages.balancing.gpuMs, l4.profiled.stages.traversal.gpuMs, l4.profiled.stages.balancing.gpuMs, `${p.gprox520} / ${p.gt520}`, `${p.gprox450} / ${p.gts450}`]);
    const i1 = m(l1, 'iterations'), i4 = m(l4, 'iterations');
    t26.push([`${scene.name} (T = ${T})`, i1, i4, i1 === null ? null : i1 / i4, m(l4, 'utilisation'), m(l1, 'utilisation'), p.speedLws, p.speedGprox]);
    const lc = l4.per.map((x) => x.lws);
    // the most MiB a frame's working streams held at once (stats.peakBytes), over the timed and profiled frames
    const peak = (r) => Math.max(...[...r.per, r.profiled].filter(Boolean).map((x) => x.peakBytes)) / 2 ** 20;
    const rollbacks = (r) => [...r.per, r.profiled].filter(Boolean).reduce((a, x) => a + x.rollbacks, 0);
    tb.push([scene.name, m(st, 'iterations'), m(st, 'passes'), m(st, 'roundTrips'), rollbacks(st), peak(st), m(l4, 'iterations'), m(l4, 'passes'), m(l4, 'roundTrips'), median(lc.map((x) => x.extraIterations)), median(lc.map((x) => x.moved)), median(lc.map((x) => x.stolen)), median(lc.map((x) => x.steals)), Math.max(...lc.map((x) => x.reruns)), peak(l4), m(lw, 'iterations'), m(lw, 'passes'), m(lw, 'roundTrips'), peak(lw)]);
    for (const [label, r] of [['static', st], [wideLabel, lw], [`LWS 4×${T}`, l4]]) {
      // the objects the timed and profiled frames made, summed; the first timed frame against the median
      const timed = [...r.per, r.profiled].filter(Boolean).map((x) => x.made);
      const sum = (k) => timed.reduce((a, x) => a + x[k], 0);
      const first = r.per[0]?.totalMs ?? null;
      tw.push([scene.name, label, r.warmUp ? 'yes' : 'no', r.warmUp?.textures ?? null, r.warmUp ? r.warmUp.textureBytes / 2 ** 20 : null, r.warmUp?.framebuffers ?? null, r.warmUp?.programs ?? null, timed.length, sum('textures'), sum('textureBytes') / 2 ** 20, sum('framebuffers'), sum('programs'), first, m(r, 'totalMs'), first === null ? null : first / m(r, 'totalMs'), r.texturePeak]);
    }
    timeSeries.static.push([tris, m(st, 'totalMs')]);
    timeSeries.lws.push([tris, m(l4, 'totalMs')]);
    timeSeries.wide.push([tris, m(lw, 'totalMs')]);
    results.push({ scene: scene.name, triangles: tris, static: st.per, staticProfiled: st.profiled, lws4: l4.per, lws4Profiled: l4.profiled, lwsWide: lw.per, lwsWideProfiled: lw.profiled, wide, lws1: l1.per, info: st.info });
    log(`ccd ${scene.name}: static ${m(st, 'totalMs').toFixed(1)} ms, ${wideLabel} ${m(lw, 'totalMs').toFixed(1)} ms, lws 4×${T} ${m(l4, 'totalMs').toFixed(1)} ms`);
  }
  const lanes = `${wideLabel}: B = ${wide.blocks} blocks of T = ${wide.threads} fragments; LWS 4×T: B = 4 blocks of T fragments, T = ${soft ? '32 below 2K triangles, else 256' : '256'}`;
  tables.push({
    title: `Table 1 (wall clock): ms per frame, static and lazy work stealing (${lanes}): total = median (min–max) over the timed frames from the saved front, from step() to its answer with no fences between stages; the stage columns are the profiled frame's (a fence ends each stage, timer queries on every pass: they may add up to more than the total; LWS balancing runs inside its traversal loop: '-', counted under traversal; static balancing includes waiting for its traversal passes); the paper's totals beside (gProximity for static, LWS for LWS)`,
    columns: ['scene', 'method', 'triangles', 'refit', 'front', 'traversal', 'balancing', 'elementary', 'total', 'total min–max', 'frames', 'LWS / static', 'paper GTS 450', 'paper GT 520'],
    rows: t1,
  });
  tables.push({
    title: "Table 1 (GPU timer): ms per stage in one profiled frame from the front (every pass's EXT_disjoint_timer_query time, summed per stage; '-' without the extension), and the passes per stage, which add up to the frame's passes in ctx.trace",
    columns: ['scene', 'method', 'refit GPU', 'front GPU', 'traversal GPU', 'balancing GPU', 'elementary GPU', 'GPU total', 'refit passes', 'front passes', 'traversal passes', 'balancing passes', 'elementary passes', 'passes', 'CPU round trips', 'iterations'],
    rows: t1gpu,
  });
  tables.push({
    title: "Per kernel (GPU timer, the profiled frame): passes, GPU ms, µs a pass, and for LWS µs per traversal iteration — where each millisecond goes",
    columns: ['scene', 'method', 'stage', 'kernel', 'passes', 'GPU ms', 'µs / pass', 'µs / iteration'],
    rows: tk,
  });
  tables.push({
    title: "LWS per-iteration account (profiled frame): the loop's passes (popTop+popWork with the steal round, evalCollision, compact, pointers with the claims, the push onto the rings, termination) — passes and GPU µs per iteration, GPU µs a pass; the frame's wall ms (profiled: timer queries add to it), nodes and utilisation (nodes / (B·T·iterations))",
    columns: ['scene', 'method', 'iterations', 'loop passes', 'passes / iteration', 'loop GPU ms', 'GPU µs / iteration', 'GPU µs / pass', 'frame wall ms (profiled)', 'nodes processed', 'utilisation'],
    rows: tacc,
  });
  tables.push({
    title: `Warm-up: each method's frames played once untimed before the timed pass (${warming ? 'on; not for the big cloth on a software renderer' : 'off: ?warm=0'}), the GL objects it made (gl.createTexture, createFramebuffer, createProgram; textures' MiB at 16 bytes a texel at most); the objects the timed and profiled frames made after it (0: the pool had every size, the framebuffer cache every target set, the program cache every kernel); the first timed frame (ms) against the timed median; the most MiB of live textures after any frame of the method (ctx.stats().textureBytes: the scene's streams, the saved front and the pool's idle textures)`,
    columns: ['scene', 'method', 'warm-up', 'warm-up textures', 'warm-up MiB', 'warm-up framebuffers', 'warm-up programs', 'timed + profiled frames', 'textures made', 'MiB made', 'framebuffers made', 'programs made', 'first timed ms', 'median ms', 'first / median', 'peak MiB of textures'],
    rows: tw,
  });
  tables.push({ title: "Table 3: front nodes per frame (K), BVTT nodes processed (K), candidates and orphan tests; the paper's front beside", columns: ['scene', 'front (K nodes)', 'processed (K nodes)', 'candidate triangle pairs', 'orphan tests', 'colliding pairs', 'paper front (K)'], rows: t3 });
  tables.push({
    title: "Tables 4 and 5: static balancing (gProximity's policy) vs lazy work stealing, ms per frame (wall), and the GPU ms of traversal and balancing in the profiled frame; the paper's gProximity / LWS on each card",
    columns: ['scene', 'static total', 'static min–max', `${wideLabel} total`, `${wideLabel} min–max`, 'LWS 4×T total', 'LWS 4×T min–max', 'static traversal GPU', 'static balancing GPU', 'LWS traversal GPU', 'LWS balancing GPU', 'paper GT 520 gProx / LWS', 'paper GTS 450 gProx / LWS'],
    rows: t45,
  });
  tables.push({
    title: "Tables 2 and 6 stand-in: traversal iterations with 1 block vs 4 blocks (the paper's GT 520 has 1 SM, the GTS 450 4); utilisation = nodes processed / (B·T · iterations)",
    columns: ['scene', 'iterations, 1 block', 'iterations, 4 blocks', 'ratio', 'utilisation 4 blocks', 'utilisation 1 block', 'paper LWS speedup (Table 2)', 'paper gProximity speedup (Table 6)'],
    rows: t26,
  });
  tables.push({
    title: `Balancing counters per frame (medians): iterations to empty, passes, CPU round trips (count readbacks, fences, occlusion answers, result reads), static rollbacks (groups of steps run ahead whose list outgrew its size: each redone with its count read; the sum over the timed and profiled frames), peak MiB held (stats.peakBytes: the most the frame's working streams — saved front, lists, front slots, children, pyramids, hits — held at once, the most over the timed and profiled frames; createCcd's memoryBudget ${CCD_MEMORY_BUDGET / 2 ** 20} MiB bounds one chunk of a pass and a group of steps run ahead), nodes pushed to deques (moved by balancing) vs stolen (LWS 4×T), and the wide configuration's iterations, passes and round trips`,
    columns: ['scene', 'static iterations', 'static passes', 'static round trips', 'static rollbacks', 'static peak MiB held', 'LWS iterations', 'LWS passes', 'LWS round trips', 'LWS iterations in flight past the end', 'moved to deques', 'stolen from other blocks', 'steal rounds (incl. the start list)', 'ring reruns', 'LWS 4×T peak MiB held', `${wideLabel} iterations`, `${wideLabel} passes`, `${wideLabel} round trips`, `${wideLabel} peak MiB held`],
    rows: tb,
  });
  plots.push({ title: 'ms per frame vs triangles', xLabel: 'triangles', yLabel: 'ms per frame', logX: true, logY: true, series: [{ name: 'static', points: timeSeries.static }, { name: 'lazy work stealing 4×T', points: timeSeries.lws }, { name: `lazy work stealing ${wide.blocks}×${wide.threads}`, points: timeSeries.wide }] });
  return { tables, plots, results };
}
