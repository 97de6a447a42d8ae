/**
 * The widget's 'app' kind: library applications the notebooks run on data from Python (Horn's
 * collision detection and adaptive subdivision, da Silva et al.'s continuous collision
 * detection), each checked against the library's CPU reference in the page and its numbers and
 * arrays returned to Python. `run(ctx, args)` gets the model's `arrays` as typed arrays and its
 * `options`, and returns `{ state, results }` (results: typed arrays with their numpy shapes).
 */
import { buildObbTree, collide, subdivide, createCcd, weldVertices, reference, checkPuzzle, puzzlePixels, puzzleReport, traceTable, type BrookContext } from '../../src/index';

export interface AppArray {
  data: Float32Array | Int32Array | Uint32Array;
  shape: number[];
}
export interface AppOutput {
  state: Record<string, unknown>;
  results: Record<string, AppArray>;
  /** What the widget shows besides its status line (HTML), if anything. */
  html?: string;
}
type Typed = Float32Array | Int32Array | Uint32Array;

/** A rigid pose: rotation by `degrees` about z, then a translation (column-major 4x4). */
function poseZ(degrees: number, t: number[] = [0, 0, 0]): number[] {
  const c = Math.cos((degrees * Math.PI) / 180), s = Math.sin((degrees * Math.PI) / 180);
  return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, t[0] ?? 0, t[1] ?? 0, t[2] ?? 0, 1];
}

function need(arrays: Record<string, Typed>, name: string, app: string): Typed {
  const a = arrays[name];
  if (!a) throw new Error(`(brookgl) app ${app} needs the array ${name}`);
  return a;
}

/** Two copies of a mesh, the second turned `degrees` about z and moved by `offset`: GPU pairs against brute force. */
async function runCollide(ctx: BrookContext, arrays: Record<string, Typed>, o: Record<string, any>): Promise<AppOutput> {
  const positions = need(arrays, 'positions', 'collide');
  const indices = new Uint32Array(need(arrays, 'indices', 'collide'));
  const tree = buildObbTree(positions, indices);
  const poseB = poseZ(Number(o.degrees ?? 30), (o.offset as number[]) ?? [0, 0, 0]);
  const t0 = performance.now();
  const got = await collide(ctx, tree, poseZ(0), tree, poseB);
  const ms = performance.now() - t0;
  const rel = reference.relativePose(poseZ(0), poseB);
  const brute = reference.collideBruteForce(tree, tree, rel);
  const bfs = reference.collideBreadthFirst(tree, tree, rel);
  const key = (p: Array<[number, number]>) => p.map(([a, b]) => `${a}:${b}`).sort().join(' ');
  const gpu: Array<[number, number]> = [];
  for (let i = 0; i < got.count; i++) gpu.push([got.pairs[2 * i]!, got.pairs[2 * i + 1]!]);
  return {
    state: {
      triangles: indices.length / 3,
      pairs: got.count,
      brute_force_pairs: brute.length,
      same_as_brute_force: key(gpu) === key(brute),
      same_levels_as_cpu: JSON.stringify(got.levels) === JSON.stringify(bfs.levels),
      levels: got.levels,
      triangle_tests: got.triangleTests,
      ms,
      pose: poseB,
    },
    results: { pairs: { data: new Int32Array(got.pairs.subarray(0, 2 * got.count)), shape: [got.count, 2] } },
  };
}

/** Horn's adaptive subdivision of a mesh: GPU rounds and triangles against the CPU patch algorithm. */
async function runSubdivide(ctx: BrookContext, arrays: Record<string, Typed>, o: Record<string, any>): Promise<AppOutput> {
  const mesh = weldVertices({ positions: new Float32Array(need(arrays, 'positions', 'subdivide')), indices: new Uint32Array(need(arrays, 'indices', 'subdivide')) });
  const options = { epsilon: Number(o.epsilon ?? 0.3), maxDepth: Number(o.max_depth ?? 2), adaptive: o.adaptive !== false };
  const t0 = performance.now();
  const got = await subdivide(ctx, mesh, options);
  const ms = performance.now() - t0;
  const cpu = reference.subdividePatches(reference.buildPatches(mesh), options);
  return {
    state: {
      triangles_in: mesh.indices.length / 3,
      triangles_out: got.count,
      cpu_triangles_out: cpu.count,
      rounds: got.rounds,
      same_as_cpu: got.count === cpu.count && JSON.stringify(got.rounds) === JSON.stringify(cpu.rounds),
      ms,
    },
    results: {
      positions: { data: got.positions.subarray(0, got.count * 9), shape: [got.count, 3, 3] },
      cpu_positions: { data: cpu.positions.subarray(0, cpu.count * 9), shape: [cpu.count, 3, 3] },
    },
  };
}

/** One frame of a BART-like scene, static balancing against lazy work stealing, both against the CPU. */
async function runCcd(ctx: BrookContext, _arrays: Record<string, Typed>, o: Record<string, any>): Promise<AppOutput> {
  const scene = reference.bartScene(Number(o.triangles ?? 256), Number(o.frame ?? 40));
  let cpu: { pairs: string[] } = { pairs: [] };
  const rows: Record<string, unknown>[] = [];
  const pairs: Record<string, string[]> = {};
  for (const balance of ['static', 'lws'] as const) {
    const ccd = createCcd(ctx, scene);
    try {
      const lws = { blocks: Number(o.blocks ?? 8), threads: Number(o.threads ?? 4), stackCap: Number(o.stack ?? 16) };
      const t0 = performance.now();
      const r = await ccd.step({ balance, fromRoot: true, ...(balance === 'lws' ? { lws } : {}) });
      const ms = performance.now() - t0;
      pairs[balance] = r.pairs;
      if (balance === 'static') cpu = reference.ccdReferenceStep(scene, ccd.bvh, reference.orphanSets(scene), reference.ccdProvot);
      const s = r.stats;
      rows.push({
        balance, ms, iterations: s.iterations, passes: s.passes, front: s.frontSize, pairs: r.pairs.length,
        moved: s.lws?.moved ?? 0, stolen: s.lws?.stolen ?? 0, steals: s.lws?.steals ?? 0,
        refit_ms: s.refitMs, front_ms: s.frontMs, traversal_ms: s.traversalMs, balancing_ms: s.balancingMs, elementary_ms: s.elementaryMs,
      });
    } finally {
      ccd.dispose();
    }
  }
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return {
    state: {
      triangles: scene.tris.length / 3,
      rows,
      pairs_static: pairs.static,
      pairs_lws: pairs.lws,
      pairs_cpu: cpu.pairs,
      same_pairs: same(pairs.static!, pairs.lws!) && same(pairs.lws!, cpu.pairs),
    },
    results: {
      x0: { data: scene.x0, shape: [scene.x0.length / 3, 3] },
      x1: { data: scene.x1, shape: [scene.x1.length / 3, 3] },
      tris: { data: scene.tris, shape: [scene.tris.length / 3, 3] },
    },
  };
}

const escape = (t: string) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A puzzle stream as an <img> (a data URL of its pixels, wrong records red), so a saved notebook keeps it. */
function puzzleImage(d: { shape: number[]; components: number }, data: ArrayLike<number>, caption: string, wrong?: Uint8Array): string {
  const px = puzzlePixels(d, data, wrong);
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [px.width, px.height];
  canvas.getContext('2d')!.putImageData(new ImageData(px.rgba, px.width, px.height), 0, 0);
  return `<figure style="display:inline-block;margin:4px;text-align:center"><img src="${canvas.toDataURL('image/png')}" style="width:160px;image-rendering:pixelated;border:1px solid #ccc"><figcaption style="max-width:200px">${escape(caption)}</figcaption></figure>`;
}

/**
 * The puzzle book's checker (src/view/puzzles) on a student's source: the verdict and the report
 * as text (state.report, what Python prints), and on a failure the output with its wrong records
 * red beside the expected one and the failing run's pass trace.
 */
async function runPuzzle(ctx: BrookContext, _arrays: Record<string, Typed>, o: Record<string, any>): Promise<AppOutput> {
  const r = await checkPuzzle(ctx, Number(o.n), String(o.source ?? ''));
  const report = puzzleReport(r, { passes: false }); // no GPU times: a saved notebook's text repeats
  let html = `<pre style="white-space:pre-wrap;margin:4px 0">${escape(report)}</pre>`;
  const bad = r.diagnosis?.actual ? r.diagnosis : null;
  if (bad) {
    const e = bad.case.expected;
    html += puzzleImage(e, bad.actual!, `your output, ${bad.label}: ${bad.wrong} wrong records in red`, bad.wrongMask) + puzzleImage(e, e.data, 'expected');
    html += `<details><summary>the ${bad.passes.length} passes of that run</summary>${traceTable(bad.passes)}</details>`;
  }
  return {
    state: {
      n: r.n,
      title: r.title,
      pass: r.pass,
      error: r.error?.message ?? '',
      error_line: r.error?.line ?? null,
      cases: r.cases.map((c) => ({ label: c.label, seed: c.seed, pass: c.pass, wrong: c.wrong, records: c.records, note: c.note })),
      first_wrong: bad?.first ?? null,
      report,
    },
    // the wrong-record mask (1 = wrong) of the first failing case, or of the last case when all pass
    results: { wrong: { data: Int32Array.from((bad ?? r.cases.at(-1))?.wrongMask ?? []), shape: [(bad ?? r.cases.at(-1))?.records ?? 0] } },
    html,
  };
}

export const APPS: Record<string, (ctx: BrookContext, arrays: Record<string, Typed>, options: Record<string, any>) => Promise<AppOutput>> = {
  collide: runCollide,
  subdivide: runSubdivide,
  ccd: runCcd,
  puzzle: runPuzzle,
};
