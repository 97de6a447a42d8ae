// Suite `horn-apps`: Horn's applications of filtering (GPU Gems 2 ch. 36). Collision: time per
// query and triangle pairs tested per second for the dragon against itself at several rotations
// about z, and for two overlapping generated spheres (Loop-subdivided icosahedra) of growing
// size; per-level box-pair counts of the dragon at 90°. Subdivision: time for k rounds against
// the triangles they make (plain Loop on supercube and an icosahedron), and adaptive rounds.
// Wall clock from the call to its readback (each level reads counts back: a GPU timer cannot span it);
// medians over repetitions after one warm-up run (which compiles), with min and max.
import { buildObbTree, createCollider, parsePly, reference, subdivide, weldVertices } from '../../../dist/brookgl.js';

async function model(name) {
  const response = await fetch(new URL(`../../../data/models/${name}.ply`, import.meta.url));
  return parsePly(await response.arrayBuffer());
}

function poseZ(deg, t = [0, 0, 0]) {
  const c = Math.cos((deg * Math.PI) / 180), s = Math.sin((deg * Math.PI) / 180);
  return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
}

async function timed(ctx, fn, reps) {
  const ms = [];
  let last = null;
  for (let r = 0; r <= reps; r++) {
    await ctx.queries.fence();
    const t0 = performance.now();
    last = await fn();
    if (r > 0) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1], last };
}

const spread = (t) => `${t.min.toFixed(1)}–${t.max.toFixed(1)}`;

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const soft = ctx.caps.software;
  const reps = quick ? 2 : soft ? 3 : 7;
  const tables = [];
  const plots = [];
  const results = [];
  const I = poseZ(0);

  // Collision: the dragon against itself rotated about z
  {
    const mesh = await model('dragon');
    const tree = buildObbTree(mesh.positions, mesh.indices);
    const collider = createCollider(ctx, tree, tree);
    const rows = [];
    for (const deg of quick ? [90] : [15, 45, 90, 135, 180]) {
      const t = await timed(ctx, () => collider.collide(I, poseZ(deg)), reps);
      const r = t.last;
      const boxPairs = r.levels.reduce((s, l) => s + l.tested, 0);
      rows.push([deg, r.levels.length, boxPairs, r.triangleTests, r.count, t.median, spread(t), (boxPairs / t.median) * 1000, (r.triangleTests / t.median) * 1000]);
      results.push({ collide: 'dragon', degrees: deg, levels: r.levels, triangleTests: r.triangleTests, colliding: r.count, ms: t.median, min: t.min, max: t.max });
      log(`dragon ${deg}°: ${t.median.toFixed(1)} ms`);
      if (deg === 90) {
        tables.push({
          title: 'Dragon vs dragon rotated 90° about z: box pairs per level',
          columns: ['level', 'tested', 'overlapping', 'leaf pairs', 'split'],
          rows: r.levels.map((l, i) => [i, l.tested, l.overlapping, l.leafPairs, l.split]),
        });
        plots.push({
          title: 'Dragon vs dragon at 90°: box pairs per level (Figure 36-2)',
          xLabel: 'level', yLabel: 'pairs',
          series: ['tested', 'overlapping', 'leafPairs'].map((k) => ({ name: k, points: r.levels.map((l, i) => [i, Math.max(l[k], 0.5)]) })),
          logY: true,
        });
      }
    }
    collider.dispose();
    tables.unshift({
      title: `Collision, dragon (${tree.triangleCount} triangles) vs itself rotated about z, ms per query (median of ${reps})`,
      columns: ['degrees', 'levels', 'box pairs tested', 'triangle pairs tested', 'colliding pairs', 'ms', 'min–max', 'box pairs/s', 'triangle pairs/s'],
      rows,
    });
  }

  // Collision against model size: two spheres (subdivided icosahedra), one shifted by its radius
  {
    const iso = weldVertices(await model('iso'));
    const rows = [];
    const series = [];
    for (const depth of quick ? [1, 2] : soft ? [1, 2, 3, 4] : [1, 2, 3, 4, 5, 6]) {
      const s = reference.loopSubdivide(iso, depth);
      const positions = Float32Array.from(s.positions);
      const tree = buildObbTree(positions, s.indices);
      const collider = createCollider(ctx, tree, tree);
      const t = await timed(ctx, () => collider.collide(I, poseZ(37, [6, 0, 0])), reps);
      collider.dispose();
      const r = t.last;
      const boxPairs = r.levels.reduce((a, l) => a + l.tested, 0);
      rows.push([tree.triangleCount, r.levels.length, boxPairs, r.triangleTests, r.count, t.median, spread(t), (r.triangleTests / t.median) * 1000]);
      series.push([tree.triangleCount, t.median]);
      results.push({ collide: 'spheres', triangles: tree.triangleCount, levels: r.levels.length, boxPairs, triangleTests: r.triangleTests, colliding: r.count, ms: t.median, min: t.min, max: t.max });
      log(`spheres ${tree.triangleCount}: ${t.median.toFixed(1)} ms`);
    }
    tables.push({ title: 'Collision, two overlapping spheres (subdivided icosahedra), ms per query', columns: ['triangles each', 'levels', 'box pairs tested', 'triangle pairs tested', 'colliding pairs', 'ms', 'min–max', 'triangle pairs/s'], rows });
    plots.push({ title: 'Collision time vs triangles per model (two spheres)', xLabel: 'triangles', yLabel: 'ms per query', logX: true, logY: true, series: [{ name: 'collide', points: series }] });
  }

  // Subdivision: time per round against the triangles in it
  {
    const rows = [];
    const series = [];
    for (const name of ['supercube', 'iso']) {
      const mesh = weldVertices(await model(name));
      const F = mesh.indices.length / 3;
      for (let depth = 1; depth <= (quick ? 2 : soft ? 4 : 6); depth++) {
        const t = await timed(ctx, () => subdivide(ctx, mesh, { adaptive: false, maxDepth: depth }), reps);
        const out = F * 4 ** depth;
        rows.push([name, depth, F * 4 ** (depth - 1), out, t.median, spread(t), (t.median * 1000) / out]);
        if (name === 'supercube') series.push([out, t.median]);
        results.push({ subdivide: name, adaptive: false, depth, trianglesIntoLastRound: F * 4 ** (depth - 1), out: t.last.count, ms: t.median, min: t.min, max: t.max });
        log(`subdivide ${name} depth ${depth}: ${t.median.toFixed(1)} ms`);
      }
    }
    tables.push({ title: 'Plain Loop subdivision: ms for k rounds, upload to readback (median)', columns: ['model', 'rounds', 'triangles into the last round', 'triangles out', 'ms', 'min–max', 'µs per triangle out'], rows });
    plots.push({ title: 'Subdivision (supercube): time for k rounds vs triangles out', xLabel: 'triangles out', yLabel: 'ms', logX: true, logY: true, series: [{ name: 'k rounds', points: series }] });
    const arows = [];
    const mesh = weldVertices(await model('supercube'));
    for (const epsilon of [0.03, 0.1, 0.3]) {
      const depth = quick ? 2 : soft ? 4 : 5;
      const t = await timed(ctx, () => subdivide(ctx, mesh, { epsilon, maxDepth: depth }), reps);
      const r = t.last;
      arows.push([epsilon, depth, r.count, r.rounds.map((x) => `${x.triangles}/${x.finished}/${x.slivers}`).join(' '), t.median, spread(t)]);
      results.push({ subdivide: 'supercube', adaptive: true, epsilon, depth, rounds: r.rounds, out: r.count, ms: t.median, min: t.min, max: t.max });
      log(`adaptive epsilon ${epsilon}: ${t.median.toFixed(1)} ms`);
    }
    tables.push({ title: 'Adaptive subdivision of supercube (rounds: triangles/finished/slivers)', columns: ['epsilon', 'rounds', 'triangles out', 'per round', 'ms', 'min–max'], rows: arows });
  }
  return { tables, plots, results };
}
