// The CCD page: a scene stepped every frame through createCcd (refit, BVTT front, balancing,
// elementary tests on the GPU), drawn on a 2D canvas with the colliding faces highlighted. The
// gallery's frame loop (../lib/demo.js) applies restarts between frames, never during a step.
import { CCD_STAGES, createContext, createCcd, parsePly, reference } from '../../dist/brookgl.js';
import { $, animate, paperBox, testMode } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

$('paper').replaceWith(paperBox({ ...PAPERS.dasilva, quote: PAPERS.dasilva.quotes.ccd }));
const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
const soft = ctx.caps.software || testMode;
const view = $('view').getContext('2d');

let sim = null;
let ccd = null;
let funnel = null;

async function loadFunnel() {
  if (funnel) return funnel;
  const ply = async (f) => parsePly(await (await fetch(new URL(`../../data/ccd/cloth-funnel/frames/${f}.ply`, import.meta.url))).arrayBuffer());
  const f0 = await ply(227), f1 = await ply(228);
  funnel = { x0: f0.positions, x1: f1.positions, tris: Int32Array.from(f0.indices) };
  return funnel;
}

async function setup() {
  ccd?.dispose();
  ccd = null;
  const kind = $('scene').value;
  if (kind === 'cloth') {
    const cloth = new reference.ClothBall(soft ? 16 : 48, soft ? 1 : 3);
    for (let i = 0; i < 20; i++) cloth.advance();
    sim = { next: () => { const s = cloth.scene(); cloth.advance(); return s; }, frame: 0 };
  } else if (kind === 'bart') {
    let f = 30;
    sim = { next: () => reference.bartScene(soft ? 256 : 1024, f++) };
  } else {
    const s = await loadFunnel();
    sim = { next: () => s };
  }
  const first = sim.next();
  ccd = createCcd(ctx, first);
  sim.first = first;
}

function draw(scene, pairs) {
  const { x0, tris } = scene;
  // the faces of the colliding pairs: the face of a vertex-face pair, the faces along the edges
  // of an edge-edge pair; the vertices of vertex-face pairs as dots
  const hotFaces = new Set(), hotEdges = new Set(), hotVerts = [];
  for (const p of pairs) {
    const w = p.split(' ').slice(1).map(Number);
    if (p.startsWith('vf')) (hotFaces.add(w[1]), hotVerts.push(w[0]));
    else hotEdges.add(`${w[0]} ${w[1]}`), hotEdges.add(`${w[2]} ${w[3]}`);
  }
  const edgeKey = (a, b) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  // a fixed camera: rotate about y, then an orthographic view fitted to the scene
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < x0.length; i += 3) for (let c = 0; c < 3; c++) (lo[c] = Math.min(lo[c], x0[i + c])), (hi[c] = Math.max(hi[c], x0[i + c]));
  const ctr = lo.map((l, c) => (l + hi[c]) / 2), size = Math.max(...hi.map((h, c) => h - lo[c])) || 1;
  const a = 0.6, cs = Math.cos(a), sn = Math.sin(a), el = 0.35, ce = Math.cos(el), se = Math.sin(el);
  const W = 640, H = 480, k = 420 / size;
  const proj = (v) => {
    const x = x0[v * 3] - ctr[0], y = x0[v * 3 + 1] - ctr[1], z = x0[v * 3 + 2] - ctr[2];
    const xr = cs * x + sn * z, zr = -sn * x + cs * z;
    const yr = ce * y - se * zr, zz = se * y + ce * zr;
    return [W / 2 + xr * k, H / 2 - yr * k, zz];
  };
  const n = tris.length / 3;
  const order = [];
  const pts = new Array(x0.length / 3);
  for (let v = 0; v < pts.length; v++) pts[v] = proj(v);
  for (let t = 0; t < n; t++) order.push([t, pts[tris[t * 3]][2] + pts[tris[t * 3 + 1]][2] + pts[tris[t * 3 + 2]][2]]);
  order.sort((p, q) => p[1] - q[1]);
  view.fillStyle = '#111';
  view.fillRect(0, 0, W, H);
  for (const [t] of order) {
    const [p, q, r] = [pts[tris[t * 3]], pts[tris[t * 3 + 1]], pts[tris[t * 3 + 2]]];
    const [i, j, k2] = [tris[t * 3], tris[t * 3 + 1], tris[t * 3 + 2]];
    const isHot = hotFaces.has(t) || hotEdges.has(edgeKey(i, j)) || hotEdges.has(edgeKey(j, k2)) || hotEdges.has(edgeKey(k2, i));
    // shade by the facing of the projected triangle
    const area = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    const shade = 90 + Math.round(70 * Math.min(1, Math.abs(area) / 60));
    view.fillStyle = isHot ? '#2ecc40' : `rgb(${shade},${shade},${shade + 25})`;
    view.strokeStyle = isHot ? '#1a8f2a' : '#333';
    view.beginPath();
    view.moveTo(p[0], p[1]);
    view.lineTo(q[0], q[1]);
    view.lineTo(r[0], r[1]);
    view.closePath();
    view.fill();
    view.stroke();
  }
  view.fillStyle = '#2ecc40';
  for (const v of hotVerts) {
    view.beginPath();
    view.arc(pts[v][0], pts[v][1], 3, 0, 2 * Math.PI);
    view.fill();
  }
}

const fmt = (v) => (v === null ? '-' : v.toFixed(1));

/** Table 1's breakdown of this frame (stage: passes, wall ms, GPU ms) and the balancing counters. */
function showStats(s, pairs) {
  const head = '<tr><th>stage</th><th>passes</th><th>wall ms</th><th>GPU ms</th></tr>';
  const stages = CCD_STAGES.map((k) => `<tr><th>${k}</th><td>${s.stages[k].passes}</td><td>${fmt(s.stages[k].wallMs)}</td><td>${fmt(s.stages[k].gpuMs)}</td></tr>`).join('');
  const total = `<tr><th>total</th><td>${s.passes}</td><td>${fmt(s.totalMs)}</td><td>${fmt(s.gpuMs)}</td></tr>`;
  $('stages').innerHTML = head + stages + total;
  const rows = [
    ['triangles', ccd.triangles], ['front nodes (start → end)', `${s.frontStart} → ${s.frontSize}${s.fromRoot ? ' (from the root)' : ''}`],
    ['iterations to empty', s.iterations], ['CPU round trips', s.roundTrips], ['utilisation', s.utilisation.toFixed(2)],
    ['BVTT nodes processed', s.nodesProcessed],
    ['candidate pairs / orphan tests', `${s.candidates} / ${s.orphans}`], ['colliding pairs', pairs.length],
  ];
  if (s.lws) rows.push(['nodes moved to deques / stolen / steal rounds', `${s.lws.moved} / ${s.lws.stolen} / ${s.lws.steals}`]);
  $('breakdown').innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('');
}

async function frame() {
  const scene = sim.first ?? sim.next();
  if (!sim.first) ccd.setPositions(scene.x0, scene.x1);
  sim.first = null;
  const { pairs, stats } = await ccd.step({ balance: $('balance').value, lws: { blocks: Number($('blocks').value), threads: soft ? 32 : 256 }, profile: $('profile').checked });
  draw(scene, pairs);
  showStats(stats, pairs);
}

const loop = animate({ setup, frame });
$('reset').onclick = () => loop.restart();
$('scene').onchange = () => loop.restart();

await new Promise((r) => { const f = () => (window.__demoFrames >= 2 || $('error').textContent ? r() : requestAnimationFrame(f)); f(); });
await ctx.queries.fence();
window.__demoReady = true;
