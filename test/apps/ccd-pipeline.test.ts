import { expect } from 'chai';
import { BrookContext, BrookError, createCcd, parsePly, reference } from '../../src/index';

type CcdScene = reference.CcdScene;
import { expectNoGLError, newContext } from '../helpers';
import { CCD_BYTES } from '../../src/apps/ccd/host';
import { report } from './ccd-data';

/** The funnel's two frames (float32-exact doubles) and the ground-truth colliding features. */
async function loadFunnel(): Promise<{ scene: CcdScene; truth: string[] }> {
  const ply = async (f: number) => parsePly(await (await fetch(`/data/ccd/cloth-funnel/frames/${f}.ply`)).arrayBuffer());
  const f0 = await ply(227), f1 = await ply(228);
  // the frames' doubles are float32 values (the query sets from them are float32-exact)
  const scene: CcdScene = { x0: f0.positions, x1: f1.positions, tris: Int32Array.from(f0.indices) };
  // the queries name their features by coordinates: find the vertex with both positions
  const key = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number) => `${a[i]},${a[i + 1]},${a[i + 2]}|${b[j]},${b[j + 1]},${b[j + 2]}`;
  const vertex = new Map<string, number>();
  for (let v = 0; v < f0.positions.length / 3; v++) vertex.set(key(f0.positions, v * 3, f1.positions, v * 3), v);
  const face = new Map<string, number>();
  for (let t = 0; t < f0.indices.length / 3; t++) face.set(Array.from(f0.indices.subarray(t * 3, t * 3 + 3)).sort((a, b) => a - b).join(','), t);
  const truth: string[] = [];
  for (const kind of ['vf', 'ee'] as const) {
    const q = reference.parseCcdQueries(await (await fetch(`/data/ccd/cloth-funnel/queries/227${kind}.csv`)).text());
    const hit = (await (await fetch(`/data/ccd/cloth-funnel/mma_bool/227${kind}_mma_bool.json`)).json()) as boolean[];
    for (let i = 0; i < q.count; i++) {
      if (!hit[i]) continue;
      const ids = [0, 1, 2, 3].map((k) => vertex.get(key(q.coords, i * 24 + k * 3, q.coords, i * 24 + (k + 4) * 3))!);
      expect(ids.every((v) => v !== undefined), `query ${kind} ${i}: its vertices are in the frames`).to.equal(true);
      if (kind === 'vf') truth.push(reference.featureKey([ids[0]!, face.get(ids.slice(1).sort((a, b) => a - b).join(','))!, -1, 0]));
      else {
        const e = [Math.min(ids[0]!, ids[1]!), Math.max(ids[0]!, ids[1]!)], g = [Math.min(ids[2]!, ids[3]!), Math.max(ids[2]!, ids[3]!)];
        truth.push(reference.featureKey(e[0]! < g[0]! || (e[0] === g[0] && e[1]! < g[1]!) ? [...e, ...g] : [...g, ...e]));
      }
    }
  }
  return { scene, truth };
}

/** The triangles of `scene` whose three vertices lie within `radius` of vertex `centre`, reindexed. */
function crop(scene: CcdScene, centre: number, radius: number): CcdScene {
  const near = (v: number) => Math.hypot(...[0, 1, 2].map((c) => scene.x0[v * 3 + c]! - scene.x0[centre * 3 + c]!)) < radius;
  const remap = new Map<number, number>();
  const tris: number[] = [];
  for (let t = 0; t < scene.tris.length / 3; t++) {
    const vs = Array.from(scene.tris.subarray(t * 3, t * 3 + 3));
    if (!vs.every(near)) continue;
    for (const v of vs) {
      if (!remap.has(v)) remap.set(v, remap.size);
      tris.push(remap.get(v)!);
    }
  }
  const x0 = new Float32Array(remap.size * 3), x1 = new Float32Array(remap.size * 3);
  for (const [v, i] of remap) for (let c = 0; c < 3; c++) (x0[i * 3 + c] = scene.x0[v * 3 + c]!), (x1[i * 3 + c] = scene.x1[v * 3 + c]!);
  return { x0, x1, tris: Int32Array.from(tris) };
}

describe('apps/ccd pipeline (BVH refit, BVTT front, orphan sets, elementary tests)', () => {
  let ctx: BrookContext;
  let funnel: { scene: CcdScene; truth: string[] };
  before(async () => {
    ctx = newContext();
    funnel = await loadFunnel();
  });
  after(() => ctx.dispose());

  it('refit on the GPU gives the CPU boxes bit for bit', async () => {
    const scene = reference.bartScene(256, 40);
    const ccd = createCcd(ctx, scene);
    ccd.refit();
    const box = reference.refitBvh(ccd.bvh, scene);
    const lo = (await ccd.boxLo.read()) as Float32Array, hi = (await ccd.boxHi.read()) as Float32Array;
    for (let i = 0; i < ccd.bvh.count * 4; i++) {
      if (i % 4 === 3) continue;
      expect(lo[i], `lo[${i}]`).to.equal(box.lo[i]);
      expect(hi[i], `hi[${i}]`).to.equal(box.hi[i]);
    }
    ccd.dispose();
  });

  // The elementary tests on the CPU in float32, as the GPU runs them (conservative).
  const f32 = (kind: 'vf' | 'ee', q: Float64Array) => reference.ccdInclusion(kind, q, 'float32').hit;
  // BART's objects have no near misses: the GPU's pairs are exactly the double reference's. The
  // funnel patch is full of near misses (the cloth rests on itself): there the GPU's pairs hold
  // every double pair and equal the float32 conservative test's on the CPU.
  const small: Array<[string, () => CcdScene, boolean]> = [
    ['BART-like 256 triangles (inter-object)', () => reference.bartScene(256, 40), true],
    ['a patch of the funnel (self-collision)', () => crop(funnel.scene, Number(funnel.truth[0]!.split(' ')[1]), 0.05), false],
  ];
  for (const [name, make, noNearMisses] of small) {
    it(`${name}: the GPU finds the CPU reference's pairs and front, from the root and from the front`, async function () {
      this.timeout(120_000);
      const scene = make();
      const before = ctx.stats().textures;
      const ccd = createCcd(ctx, scene);
      const orphans = reference.orphanSets(scene);
      const cpu = reference.ccdReferenceStep(scene, ccd.bvh, orphans, reference.ccdProvot);
      expect(cpu.pairs.length, 'the scene has colliding pairs').to.be.greaterThan(0);
      const gpu = await ccd.step({ fromRoot: true });
      if (noNearMisses) expect(gpu.pairs, 'colliding pairs').to.deep.equal(cpu.pairs);
      else {
        const got = new Set(gpu.pairs);
        expect(cpu.pairs.filter((k) => !got.has(k)), 'double pairs the GPU missed').to.deep.equal([]);
        expect(gpu.pairs, 'pairs of the float32 test on the CPU').to.deep.equal(reference.ccdReferenceStep(scene, ccd.bvh, orphans, f32).pairs);
        report(`${name}: ${cpu.pairs.length} pairs in double, ${gpu.pairs.length} by the conservative float32 test (near misses)`);
      }
      expect(reference.frontKeys(await ccd.readFront()), 'front').to.deep.equal(reference.frontKeys(cpu.front));
      expect(gpu.stats.iterations).to.equal(cpu.steps.length);
      // the next frame from the saved front: same pairs as from the root, on the GPU and the CPU
      const reuse = await ccd.step();
      expect(reuse.stats.fromRoot).to.equal(false);
      expect(reuse.stats.frontStart).to.equal(gpu.stats.frontSize);
      expect(reuse.pairs, 'pairs from the front').to.deep.equal(gpu.pairs);
      const cpuReuse = reference.ccdReferenceStep(scene, ccd.bvh, orphans, reference.ccdProvot, cpu.front);
      expect(cpuReuse.pairs).to.deep.equal(cpu.pairs);
      expect(reference.frontKeys(await ccd.readFront())).to.deep.equal(reference.frontKeys(cpuReuse.front));
      report(`${name}: ${scene.tris.length / 3} triangles, ${ccd.bvh.count} nodes, ${orphans.length / 4} orphan tests, front ${gpu.stats.frontSize}, ${gpu.stats.candidates} candidates, ${gpu.pairs.length} colliding pairs, ${gpu.stats.passes} passes, ${gpu.stats.roundTrips} round trips`);
      ccd.dispose();
      expect(ctx.stats().textures - ctx.stats().pooledTextures, 'no texture left behind').to.be.at.most(before);
      expectNoGLError(ctx);
    });
  }

  it('front reuse after motion: a moved scene gives the same pairs from the front as from the root', async function () {
    this.timeout(120_000);
    const ccd = createCcd(ctx, reference.bartScene(256, 30));
    await ccd.step({ fromRoot: true });
    let frames = 0;
    for (const f of [34, 38, 42]) {
      const s = reference.bartScene(256, f);
      ccd.setPositions(s.x0, s.x1);
      const fromFront = await ccd.step();
      const fromRoot = await ccd.step({ fromRoot: true });
      expect(fromFront.pairs, `frame ${f}`).to.deep.equal(fromRoot.pairs);
      if (!fromFront.stats.fromRoot) frames++;
      // the CPU agrees
      const cpu = reference.ccdReferenceStep(s, ccd.bvh, reference.orphanSets(s), reference.ccdProvot);
      expect(fromRoot.pairs).to.deep.equal(cpu.pairs);
    }
    expect(frames, 'frames that started from the saved front').to.be.greaterThan(0);
    ccd.dispose();
  });

  it('times of impact and per-candidate verdicts (opt-in) against the CPU: times never after the double first contact, verdicts as the float32 tests', async function () {
    this.timeout(120_000);
    const scene = reference.bartScene(256, 40);
    const ccd = createCcd(ctx, scene);
    const plain = await ccd.step({ fromRoot: true });
    const r = await ccd.step({ fromRoot: true, times: true, verdicts: true });
    expect(plain.times).to.equal(undefined);
    expect(r.pairs).to.deep.equal(plain.pairs);
    expect(r.times!.length).to.equal(r.pairs.length);
    let contacts = 0;
    for (let k = 0; k < r.pairs.length; k++) {
      const rec = r.pairs[k]!.split(' ').slice(1).map(Number);
      const { kind, coords } = reference.featureQuery(scene, rec.length === 2 ? [rec[0]!, rec[1]!, -1, 0] : rec);
      const t = r.times![k]!;
      expect(t, r.pairs[k]).to.equal(reference.ccdInclusion(kind, coords, 'float32').toi);
      const first = reference.ccdProvotTime(kind, coords);
      if (first !== null) (contacts++, expect(t, `${r.pairs[k]}: after the first contact`).to.be.at.most(first));
    }
    expect(contacts, 'pairs in contact in double').to.be.greaterThan(5);
    // verdicts: every candidate triangle pair, as its 15 float32 feature tests on the CPU say
    const v = r.verdicts!;
    expect(v.hit.length).to.equal(r.stats.candidates);
    let hits = 0;
    for (let k = 0; k < v.hit.length; k++) {
      const feats = reference.pairFeatures(scene, v.tris[2 * k]!, v.tris[2 * k + 1]!);
      const tests = feats.map((f) => {
        const q = reference.featureQuery(scene, f);
        return reference.ccdInclusion(q.kind, q.coords, 'float32');
      });
      const hit = tests.some((x) => x.hit);
      expect(v.hit[k] === 1, `candidate ${v.tris[2 * k]} ${v.tris[2 * k + 1]}`).to.equal(hit);
      expect(v.toi[k]).to.equal(Math.min(1, ...tests.filter((x) => x.hit).map((x) => x.toi)));
      if (hit) hits++;
    }
    expect(hits).to.be.greaterThan(0);
    report(`BART-like 256: ${r.pairs.length} pairs with times (${contacts} in contact in double, none timed after it); ${v.hit.length} candidate verdicts, ${hits} hit, all as the CPU's float32 tests`);
    ccd.dispose();
  });

  it("static steps run ahead from last frame's list sizes (counts read once a group): the CPU's front and pairs, also when a list outgrows its size and the step is redone", async function () {
    this.timeout(120_000);
    const c = new reference.ClothBall(12, 1);
    for (let i = 0; i < 40; i++) c.advance();
    const frames = [0, 1, 2, 3].map(() => (c.advance(), c.scene()));
    const ccd = createCcd(ctx, frames[0]!);
    const hints = (ccd as unknown as { traversal: { hints: { front: number[] | null; root: number[] | null } } }).traversal.hints;
    const orphans = reference.orphanSets(frames[0]!);
    const f32 = (kind: 'vf' | 'ee', q: Float64Array) => reference.ccdInclusion(kind, q, 'float32').hit;
    const cpuStep = (s: CcdScene, front?: Int32Array) => reference.ccdReferenceStep(s, ccd.bvh, orphans, f32, front);
    const check = async (r: { pairs: string[]; stats: { iterations: number } }, cpu: ReturnType<typeof cpuStep>, what: string) => {
      expect(r.pairs, `${what}: pairs`).to.deep.equal(cpu.pairs);
      expect(reference.frontKeys(await ccd.readFront()), `${what}: front`).to.deep.equal(reference.frontKeys(cpu.front));
      expect(r.stats.iterations, `${what}: steps`).to.equal(cpu.steps.length);
    };
    // from the root twice: the second runs ahead on the first's sizes
    const root0 = await ccd.step({ fromRoot: true });
    let cpu = cpuStep(frames[0]!);
    await check(root0, cpu, 'root, counts read each step');
    const root1 = await ccd.step({ fromRoot: true });
    await check(root1, cpu, 'root, run ahead');
    expect(root1.stats.roundTrips, 'fewer round trips run ahead').to.be.lessThan(root0.stats.roundTrips);
    expect(root1.stats.rollbacks).to.equal(0);
    // from the front: the first reads its counts, the next runs ahead
    const rows: string[] = [`from the root ${root0.stats.roundTrips} -> ${root1.stats.roundTrips} round trips`];
    for (let f = 1; f < 4; f++) {
      ccd.setPositions(frames[f]!.x0, frames[f]!.x1);
      const r = await ccd.step();
      cpu = r.stats.fromRoot ? cpuStep(frames[f]!) : cpuStep(frames[f]!, cpu.front); // (a front grown past rebuildGrowth is rebuilt)
      await check(r, cpu, `frame ${f} from the front`);
      rows.push(`frame ${f}: ${r.stats.iterations} steps, ${r.stats.roundTrips} round trips, ${r.stats.passes} passes`);
    }
    expect(hints.front!.length, 'sizes of the last frame from the front').to.be.greaterThan(2);
    // lists that outgrow their sizes (here: a 32 KiB budget holds 227 work items a list): the steps are redone
    const tight = createCcd(ctx, frames[3]!, { memoryBudget: 32768 });
    try {
      await tight.step({ fromRoot: true });
      const small = await tight.step({ fromRoot: true });
      // (its hierarchy is built from frame 3's positions)
      const cpuTight = reference.ccdReferenceStep(frames[3]!, tight.bvh, orphans, f32);
      expect(small.pairs).to.deep.equal(cpuTight.pairs);
      expect(reference.frontKeys(await tight.readFront())).to.deep.equal(reference.frontKeys(cpuTight.front));
      expect(small.stats.iterations).to.equal(cpuTight.steps.length);
      expect(small.stats.rollbacks, 'rollbacks').to.be.greaterThan(0);
      rows.push(`32 KiB budget: ${small.stats.rollbacks} rollbacks, ${small.stats.roundTrips} round trips`);
    } finally {
      tight.dispose();
    }
    // sizes far too large (only memory: the lists end where the counts say)
    ccd.setPositions(frames[3]!.x0, frames[3]!.x1);
    hints.root = hints.root!.map(() => 2000);
    const large = await ccd.step({ fromRoot: true });
    await check(large, cpuStep(frames[3]!), 'root, sizes too large');
    rows.push(`sizes too large: ${large.stats.roundTrips} round trips, ${large.stats.passes} passes`);
    // the front and candidates compacted ahead of their counts into sizes far too small: the
    // frame runs again from the root, with the same pairs
    await ccd.step();
    (ccd as unknown as { lastCompact: { front: number; cand: number } }).lastCompact = { front: 1, cand: 1 };
    const redo = await ccd.step();
    await check(redo, cpuStep(frames[3]!), 'compacted ahead into sizes too small');
    expect(redo.stats.fromRoot, 'redone from the root').to.equal(true);
    expect(redo.stats.rollbacks, 'rollbacks').to.be.greaterThan(0);
    rows.push(`compaction sizes too small: redone from the root, ${redo.stats.roundTrips} round trips`);
    report(`cloth 12x12: ${rows.join('; ')}`);
    ccd.dispose();
    expectNoGLError(ctx);
  });

  it('a small memory budget splits the traversal, front compaction and elementary tests into chunks: same front and pairs', async function () {
    this.timeout(120_000);
    const c = new reference.ClothBall(12, 1);
    for (let i = 0; i < 50; i++) c.advance();
    const scene = c.scene();
    const before = ctx.stats().textures - ctx.stats().pooledTextures;
    const whole = createCcd(ctx, scene), split = createCcd(ctx, scene, { memoryBudget: 16384 });
    for (const balance of ['static', 'lws'] as const) {
      const a = await whole.step({ balance, fromRoot: true, lws: { blocks: 4, threads: 16 } });
      const b = await split.step({ balance, fromRoot: true, lws: { blocks: 4, threads: 16 } });
      expect(a.stats.chunks, `${balance}: the default budget splits nothing here`).to.equal(0);
      expect(b.stats.chunks, `${balance}: chunks under a 16 KiB budget`).to.be.greaterThan(2);
      expect(b.pairs, balance).to.deep.equal(a.pairs);
      expect(reference.frontKeys(await split.readFront()), balance).to.deep.equal(reference.frontKeys(await whole.readFront()));
      report(`${balance}, 16 KiB budget: ${b.stats.chunks} extra chunks, ${b.stats.passes} passes / ${b.stats.roundTrips} round trips (whole: ${a.stats.passes} / ${a.stats.roundTrips}); ${a.stats.candidates} candidates, ${a.pairs.length} pairs`);
    }
    const r = await split.step();
    expect(r.stats.fromRoot).to.equal(false);
    expect(r.pairs).to.deep.equal((await whole.step()).pairs);
    whole.dispose();
    split.dispose();
    expect(ctx.stats().textures - ctx.stats().pooledTextures, 'no texture left behind').to.be.at.most(before);
    expect(() => createCcd(ctx, scene, { memoryBudget: 100 })).to.throw(/memoryBudget \(bytes a chunk of a pass may use\)/);
  });

  it("the memory budget's bytes per record hold what a chunk allocates: a static step's (its work items) and the pair tests' (their candidates), measured", async function () {
    this.timeout(120_000);
    const c = new reference.ClothBall(12, 1);
    for (let i = 0; i < 50; i++) c.advance();
    type Phase = { kind: 'traverse' | 'candidate'; records: number; live: number; peak: number };
    const peaks: Phase[] = [];
    // a 16 KiB budget splits the traversal steps into chunks of 113 work items, a 4 KiB one the
    // pair tests into chunks of 102 candidates (434 here)
    // and each group of steps run ahead (or warm-up of the next frame's), against its budget:
    // from its first step's children until its counts are read, all it holds at once
    // (of the run-ahead frames; a step whose count is read alone, through a filter, ends one too)
    const groups: Array<Phase & { what: string; budget: number }> = [];
    const held: number[] = [];
    // (and a 192 KiB one, which the frames' saved front, front slots and lists fit: each frame's
    // stats.peakBytes within it, the chunks sized from what the budget leaves beside them)
    for (const budget of [16384, 4096, 196608]) {
      const ccd = createCcd(ctx, c.scene(), { memoryBudget: budget });
      // every allocation (the Ccd's own, labelled, and its filters' through ctx.scratch) counted
      // against the chunk whose first target was made last; its peak of live bytes per record
      let phase: Phase | null = null;
      const scratch = ctx.scratch.bind(ctx);
      // (the stages' seam, its deferred filter and the static traversal, patched where the frame calls them)
      const inner = ccd as unknown as { host: { scratch: unknown; filter: Record<string, unknown> }; traversal: { warmLists: unknown } };
      const host = inner.host as unknown as { scratch: (type: 'int4', n: number, what: string) => unknown };
      const pf = inner.host.filter as unknown as { counts: (p: never, q?: never) => unknown; filter: (p: never, q: never, r?: never) => unknown; concat: (c: never) => unknown };
      const own = host.scratch.bind(host);
      const starts: Record<string, [Phase['kind'], number]> = { "CcdTraverse's children": ['traverse', 3], "CcdPairTests' hits": ['candidate', 1] };
      let group: (Phase & { what: string; budget: number }) | null = null, ahead = false;
      const counts = pf.counts.bind(pf);
      // (a step's chunks whose counts are read together: the next lists descended after are the
      // flush's, 92 bytes a record of it in all, not its last chunk's; stats.peakBytes counts them)
      (pf as { counts: unknown }).counts = (p: never, q?: never) => ((group = null), (phase = null), counts(p, q));
      const filter = pf.filter.bind(pf);
      (pf as { filter: unknown }).filter = (p: never, q: never, r?: never) => ((group = null), filter(p, q, r));
      const warm = (inner.traversal.warmLists as (...a: unknown[]) => void).bind(inner.traversal);
      inner.traversal.warmLists = (...a: unknown[]) => {
        groups.push((group = { kind: 'traverse', records: 0, live: 0, peak: 0, what: 'warm-up', budget }));
        try {
          return warm(...a);
        } finally {
          group = null;
        }
      };
      (host as { scratch: unknown }).scratch = (type: 'int4', n: number, what: string) => {
        if (what === "CcdTraverse's children" && ahead && !group) groups.push((group = { kind: 'traverse', records: n / 3, live: 0, peak: 0, what: 'group', budget }));
        const start = starts[what];
        if (start) peaks.push((phase = { kind: start[0], records: n / start[1], live: 0, peak: 0 }));
        else if (!/front slots|kept records|pyramid|flags|counts/.test(what)) phase = null; // another stage's
        return own(type, n, what);
      };
      // joining chunks (a step's next lists, the front's) is no chunk's
      const concat = pf.concat.bind(pf);
      (pf as { concat: unknown }).concat = (chunks: never) => ((phase = null), (group = null), concat(chunks));
      // and every scratch stream of the frames, for stats.peakBytes (a hand count: the most bytes
      // live at once in a frame, from what was live when it began: the saved front)
      const all: Phase = { kind: 'traverse', records: 0, live: 0, peak: 0 };
      (ctx as unknown as { scratch: unknown }).scratch = (type: 'int4', n: number) => {
        const s = scratch(type, n);
        const ps = [phase, group, all].filter((p): p is Phase => p !== null);
        const bytes = n * s.info.texelBytes;
        for (const p of ps) (p.live += bytes), (p.peak = Math.max(p.peak, p.live));
        const dispose = s.dispose.bind(s);
        let once = false;
        s.dispose = () => (once || ((once = true), ps.forEach((p) => (p.live -= bytes))), dispose());
        return s;
      };
      try {
        for (const fromRoot of [true, true, false, false]) {
          // the first reads each step's count; the next runs ahead from the root; then from the front, the same
          all.peak = all.live;
          const r = await ccd.step({ fromRoot });
          expect(r.stats.peakBytes, `stats.peakBytes, budget ${budget}, frame ${held.length % 4} (from the ${fromRoot ? 'root' : 'front'})`).to.equal(all.peak);
          held.push(r.stats.peakBytes);
          if (budget === 196608) expect(r.stats.peakBytes, `stats.peakBytes of frame ${(held.length - 1) % 4} (from the ${fromRoot ? 'root' : 'front'}) within its budget, ${budget}`).to.be.at.most(budget);
          ahead = true;
        }
      } finally {
        (ctx as unknown as { scratch: unknown }).scratch = scratch;
        (host as { scratch: unknown }).scratch = own;
        (pf as { concat: unknown }).concat = concat;
        (pf as { counts: unknown }).counts = counts;
        (pf as { filter: unknown }).filter = filter;
        inner.traversal.warmLists = warm;
      }
      ccd.dispose();
    }
    // a group (or warm-up) of several steps holds their lists at once: never past the budget
    for (const budget of [16384, 4096]) {
      const of = groups.filter((g) => g.budget === budget);
      expect(of.filter((g) => g.what === 'warm-up').length, 'a warm-up').to.be.greaterThan(0);
      const most = of.reduce((a, g) => (g.peak > a.peak ? g : a));
      expect(most.peak, `the most a ${most.what} holds at once (${of.length} measured)`).to.be.at.most(budget);
      report(`budget ${budget}: groups and warm-ups: ${of.length}, at most ${most.peak} bytes live at once (a ${most.what})`);
    }
    report(`stats.peakBytes of the frames (16 KiB, 4 KiB, then 192 KiB): ${held.join(', ')} (= the hand count)`);
    for (const kind of ['traverse', 'candidate'] as const) {
      // (chunks of 32 records or more: a pyramid's few fixed texels weigh on tiny ones)
      const list = peaks.filter((p) => p.kind === kind && p.records >= 32);
      expect(list.length, `${kind} chunks`).to.be.greaterThan(2);
      const most = Math.max(...list.map((p) => p.peak / p.records));
      expect(most, `${kind}: bytes a record at most`).to.be.at.most(CCD_BYTES[kind]);
      expect(most, `${kind}: the constant is not far above`).to.be.at.least(CCD_BYTES[kind] / 3);
      report(`${kind}: ${list.length} chunks, at most ${most.toFixed(1)} bytes a record live at once (the budget counts ${CCD_BYTES[kind]})`);
    }
  });

  it('a target the device cannot make names the pass, its size and memoryBudget', async function () {
    this.timeout(60_000);
    const live = () => ctx.stats().textures - ctx.stats().pooledTextures;
    const before = live();
    const ccd = createCcd(ctx, reference.bartScene(256, 40));
    // the device refuses every int4 target of 64 records or more from here on (as SwiftShader refused 954 MB)
    const scratch = ctx.scratch.bind(ctx);
    const refuse = (type: string, n: number) => {
      if (type === 'int4' && n >= 64) throw new BrookError('cannot render into these targets: FRAMEBUFFER_UNSUPPORTED');
      return scratch(type as 'int4', n);
    };
    (ctx as { scratch: unknown }).scratch = refuse;
    try {
      await ccd.step({ fromRoot: true }).then(
        () => expect.fail('the step should fail'),
        (e: Error) => {
          expect(e).to.be.instanceOf(BrookError);
          report(e.message);
          expect(e.message).to.match(/^(\(brookgl\) )?ccd (traversal|front|balancing|elementary) stage, .+ \((of )?\d+ int4 records, [\d.]+ [KM]iB\): cannot render into these targets: FRAMEBUFFER_UNSUPPORTED\. .*memoryBudget \(256 MiB now\): pass a smaller one, e\.g\. createCcd\(ctx, scene, \{ memoryBudget: 67108864 \}\)/);
        },
      );
    } finally {
      (ctx as { scratch: unknown }).scratch = scratch;
    }
    ccd.dispose();
    expect(live(), 'no texture left behind by the failed step').to.be.at.most(before);
    // a refusal at the k-th allocation of a step, wherever that falls (traversal, front, filters,
    // elementary tests, times): the step fails and leaves no texture behind
    let calls = 0, refuseAt = 0;
    (ctx as { scratch: unknown }).scratch = (type: string, n: number) => {
      if (++calls === refuseAt) throw new BrookError('cannot render into these targets: FRAMEBUFFER_UNSUPPORTED');
      return scratch(type as 'int4', n);
    };
    try {
      for (const balance of ['static', 'lws'] as const) {
        for (const k of [2, 3, 4, 6, 9, 14, 20, 30, 45]) {
          const c = createCcd(ctx, reference.bartScene(256, 40));
          (calls = 0), (refuseAt = k);
          const failed = await c.step({ balance, fromRoot: true, times: true, verdicts: true, lws: { blocks: 2, threads: 8 } }).then(() => false, () => true);
          refuseAt = 0;
          c.dispose();
          expect(live(), `${balance}, refused at allocation ${k} (${failed ? 'failed' : 'passed'}): no texture left behind`).to.be.at.most(before);
        }
      }
    } finally {
      (ctx as { scratch: unknown }).scratch = scratch;
    }
  });

  it('ccd warm-up: an allocation or framebuffer refused inside the warm-up of the next lists leaks nothing and the frame still gives the CPU pairs', async function () {
    this.timeout(120_000);
    // everything but programs (a bounded cache), with the pool's idle textures given back
    const held = () => {
      ctx.trimPool();
      const { programs: _p, ...rest } = ctx.stats();
      return rest;
    };
    const scene = reference.bartScene(256, 40);
    const scratch = ctx.scratch.bind(ctx);
    const framebufferFor = ctx.framebufferFor.bind(ctx);
    let inWarm = false, calls = 0, refuseAt = 0;
    const refuse = () => {
      if (inWarm && ++calls === refuseAt) throw new BrookError('cannot render into these targets: FRAMEBUFFER_UNSUPPORTED');
    };
    try {
      for (const where of ['scratch', 'framebufferFor'] as const) {
        (ctx as { scratch: unknown }).scratch = (type: string, n: number) => (where === 'scratch' && refuse(), scratch(type as 'int4', n));
        (ctx as { framebufferFor: unknown }).framebufferFor = (t: WebGLTexture[]) => (where === 'framebufferFor' && refuse(), framebufferFor(t));
        for (const k of [1, 2, 3, 5, 8]) {
          const before = held();
          const c = createCcd(ctx, scene);
          const traversal = (c as unknown as { traversal: { warmLists: (...a: unknown[]) => void } }).traversal;
          const warm = traversal.warmLists.bind(traversal);
          traversal.warmLists = (...a: unknown[]) => {
            inWarm = true;
            try {
              return warm(...a);
            } finally {
              inWarm = false;
            }
          };
          (calls = 0), (refuseAt = k);
          const r = await c.step({ balance: 'static', fromRoot: true });
          expect(calls, `${where} ${k}: the warm-up ran and was refused`).to.be.at.least(k);
          const cpu = reference.ccdReferenceStep(scene, c.bvh, reference.orphanSets(scene), f32);
          expect(r.pairs, `${where} ${k}: pairs`).to.deep.equal(cpu.pairs);
          expect(reference.frontKeys(await c.readFront()), `${where} ${k}: front`).to.deep.equal(reference.frontKeys(cpu.front));
          c.dispose();
          expect(held(), `${where} refused at warm-up call ${k}: ctx.stats()`).to.deep.equal(before);
        }
      }
    } finally {
      (ctx as { scratch: unknown }).scratch = scratch;
      (ctx as { framebufferFor: unknown }).framebufferFor = framebufferFor;
      inWarm = false;
    }
  });

  it('the funnel step 227 -> 228 through the whole GPU pipeline finds every colliding pair of the ground truth', async function () {
    this.timeout(600_000);
    const ccd = createCcd(ctx, funnel.scene);
    const { pairs, stats } = await ccd.step();
    const found = new Set(pairs);
    const missed = funnel.truth.filter((k) => !found.has(k));
    expect(missed, 'ground-truth pairs not found').to.deep.equal([]);
    expect(funnel.truth.length).to.equal(134);
    report(`funnel: ${stats.frontSize} front nodes, ${stats.candidates} candidate triangle pairs, ${stats.orphans} orphan tests, ${pairs.length} pairs reported (all 134 of the ground truth), ${stats.iterations} iterations, ${stats.passes} passes, ${stats.totalMs.toFixed(0)} ms`);
    ccd.dispose();
  });
});
