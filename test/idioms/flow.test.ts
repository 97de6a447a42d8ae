import { expect } from 'chai';
import { BRANCH_METHODS, BranchDesc, BrookContext, BrookError, KernelSpec, liveCount, occlusionLoop, runBranch, branchMask } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';

const f = Math.fround;
const H = 37;
const W = 53; // odd sizes: masks and regions must not depend on powers of two

/** float4 records (a, b, cond-draw, 0) on an H x W grid; cond: z < p (random) or inside a rectangle (coherent). */
function grid(kind: 'random' | 'coherent', p: number, seed = 1): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(H * W * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const inside = x < Math.round(W * p) && y < H; // the rectangle [0, pW) x [0, H)
      v.set([r() * 100 - 50, r() * 100 - 50, kind === 'random' ? r() : inside ? 0 : 1, 0], i * 4);
    }
  return v;
}

// Cheap enough to mirror exactly on the CPU: x * 2 is exact, so one rounding either way (FMA or not).
const desc = (threshold: number): BranchDesc => ({
  name: 'Side',
  inputs: { x: 'float4' },
  uniforms: { t: 'float' },
  outputs: { y: 'float' },
  cond: `x.z < t`,
  then: 'y = x.x * 2.0 + 1.0;',
  else: 'y = x.y - x.x;',
});
const expected = (v: Float32Array, t: number) =>
  Array.from({ length: v.length / 4 }, (_, i) => (v[i * 4 + 2]! < f(t) ? f(f(v[i * 4]! * 2) + 1) : f(v[i * 4 + 1]! - v[i * 4]!)));

describe('idioms/flow (GPU Gems 2 ch. 34)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const [kind, p] of [['random', 0.3], ['coherent', 0.3], ['random', 1.0001], ['random', 0]] as const) {
    const label = p > 1 ? 'all true' : p === 0 ? 'all false' : `${kind}, p = ${p}`;
    it(`predication, branching and z-cull give bit-identical records (${label})`, () => {
      const v = grid(kind, Math.min(p, 1));
      const x = ctx.stream('float4', [H, W], v);
      const want = expected(v, p);
      const results = BRANCH_METHODS.map((method) => {
        const y = ctx.stream('float', [H, W]);
        runBranch(ctx, desc(p), { x, y, t: p }, { method });
        const got = y.readSync();
        y.dispose();
        return got;
      });
      results.forEach((got, k) => expectArrayEqual(got, want, BRANCH_METHODS[k]!));
      x.dispose();
    });
  }

  it('leaves z-culled records untouched (a marker survives), and a mask is reused until rebuilt', () => {
    const v = grid('random', 0.5, 4);
    const x = ctx.stream('float4', [H, W], v);
    const y = ctx.stream('float', [H, W], new Float32Array(H * W).fill(-7));
    const d = desc(0.5);
    const mask = branchMask(ctx, d, { x, y, t: 0.5 });
    const one: KernelSpec = { name: 'One', outputs: { y: 'float' }, body: 'y = 1.0;' };
    ctx.run(one, { y }, { mask });
    ctx.run(one, { y }, { mask }); // same mask, second pass
    const got = y.readSync();
    for (let i = 0; i < H * W; i++) expect(got[i], `record ${i}`).to.equal(v[i * 4 + 2]! < 0.5 ? 1 : -7);
    // the inverted test runs exactly the others; a ping-ponged output keeps the culled records
    const plus: KernelSpec = { name: 'Plus', inputs: { a: 'float' }, outputs: { y: 'float' }, body: 'y = a + 10.0;' };
    ctx.run(plus, { a: y, y }, { mask, invert: true });
    const got2 = y.readSync();
    for (let i = 0; i < H * W; i++) expect(got2[i], `record ${i}`).to.equal(v[i * 4 + 2]! < 0.5 ? 1 : 3);
    mask.dispose();
    x.dispose();
    y.dispose();
  });

  it('static branch resolution: interior quad plus boundary lines equal one kernel that tests every cell', () => {
    const v = grid('random', 0.5, 5);
    const x = ctx.stream('float4', [H, W], v);
    const edge = 'brook_pos.x == 0 || brook_pos.y == 0 || brook_pos.x == brook_dims.y - 1 || brook_pos.y == brook_dims.w - 1';
    const inner = 'y = x.x * 2.0 + 1.0;';
    const border = 'y = -x.y;';
    const single: KernelSpec = { name: 'Single', inputs: { x: 'float4' }, outputs: { y: 'float' }, body: `if (${edge}) { ${border} } else { ${inner} }` };
    const interior: KernelSpec = { name: 'Interior', inputs: { x: 'float4' }, outputs: { y: 'float' }, body: inner };
    const boundary: KernelSpec = { name: 'Boundary', inputs: { x: 'float4' }, outputs: { y: 'float' }, body: border };
    const a = ctx.stream('float', [H, W]);
    ctx.run(single, { x, y: a });
    const b = ctx.stream('float', [H, W], new Float32Array(H * W).fill(-7));
    ctx.run(interior, { x, y: b }, { region: 'interior' });
    const onlyInterior = b.readSync();
    ctx.run(boundary, { x, y: b }, { region: 'boundary' });
    const want = Array.from({ length: H * W }, (_, i) => {
      const px = i % W, py = Math.floor(i / W);
      const onEdge = px === 0 || py === 0 || px === W - 1 || py === H - 1;
      return onEdge ? -v[i * 4 + 1]! : f(f(v[i * 4]! * 2) + 1);
    });
    expectArrayEqual(a.readSync(), want, 'single kernel');
    expectArrayEqual(b.readSync(), want, 'interior + boundary');
    // the interior pass alone wrote no border texel, the boundary pass every one
    for (let i = 0; i < H * W; i++) {
      const px = i % W, py = Math.floor(i / W);
      const onEdge = px === 0 || py === 0 || px === W - 1 || py === H - 1;
      if (onEdge) expect(onlyInterior[i], `border texel ${px},${py}`).to.equal(-7);
    }
    [x, a, b].forEach((s) => s.dispose());
  });

  it('the occlusion-query loop stops after the right number of iterations and leaves finished records alone', async () => {
    const n = 5000;
    const r = rng(11);
    const counts = Float32Array.from({ length: n }, () => Math.floor(r() * 40));
    counts[1234] = 57; // the longest countdown
    const c = ctx.stream('float', n, counts);
    const down: KernelSpec = { name: 'Countdown', inputs: { a: 'float' }, outputs: { c: 'float' }, body: 'c = max(a - 1.0, 0.0);' };
    const finished: KernelSpec = { name: 'Finished', inputs: { a: 'float' }, outputs: { unused: 'float' }, body: 'if (a <= 0.0) discard;\nunused = a;' };
    const scratch = ctx.stream('float', n);
    const live: number[] = [];
    const result = await occlusionLoop(ctx, {
      iterate: () => ctx.run(down, { a: c, c }),
      terminate: () => ctx.run(finished, { a: c, unused: scratch }),
      maxIterations: 1000,
      inFlight: 4,
    });
    expect(result.iterations).to.equal(57);
    expect(result.issued).to.be.within(57, 57 + 3);
    expectArrayEqual(c.readSync(), new Float32Array(n), 'every countdown at zero');
    live.push(await liveCount(ctx, c, 'x > 0.0'));
    expect(live[0]).to.equal(0);
    [c, scratch].forEach((s) => s.dispose());
  });

  it('counts live records exactly (a reduction, not a boolean)', async () => {
    const n = 70000;
    const r = rng(3);
    const v = Float32Array.from({ length: n }, () => r());
    const s = ctx.stream('float', n, v);
    expect(await liveCount(ctx, s, 'x < 0.25')).to.equal(v.filter((a) => a < f(0.25)).length);
    s.dispose();
  });

  it('raises a clear error on a loop that never ends', async () => {
    const s = ctx.stream('float', 100, new Float32Array(100).fill(1));
    const never: KernelSpec = { name: 'Never', inputs: { a: 'float' }, outputs: { unused: 'float' }, body: 'unused = a;' };
    const out = ctx.stream('float', 100);
    let err: unknown;
    await occlusionLoop(ctx, { iterate: () => {}, terminate: () => ctx.run(never, { a: s, unused: out }), maxIterations: 20 }).catch((e) => (err = e));
    expect(err).to.be.instanceOf(BrookError);
    expect(String(err)).to.match(/still live after maxIterations = 20/);
    [s, out].forEach((x) => x.dispose());
  });

  it('refuses masks of the wrong size, unbuilt masks and regions on 1D streams', () => {
    const a = ctx.stream('float', [8, 8]);
    const b = ctx.stream('float', [8, 9]);
    const one: KernelSpec = { name: 'One', outputs: { y: 'float' }, body: 'y = 1.0;' };
    const mask = ctx.zmask(a);
    expect(() => ctx.run(one, { y: a }, { mask })).to.throw(/has not been built/);
    ctx.buildMask(mask, { name: 'None', outputs: { y: 'float' }, body: 'discard;' }, { y: a });
    expect(() => ctx.run(one, { y: b }, { mask })).to.throw(/z mask is 8x8 texels but the output is 9x8/);
    const line = ctx.stream('float', 100);
    expect(() => ctx.run(one, { y: line }, { region: 'interior' })).to.throw(/needs a 2D output/);
    const before = ctx.stats().renderbuffers;
    mask.dispose();
    expect(ctx.stats().renderbuffers).to.equal(before - 1);
    [a, b, line].forEach((s) => s.dispose());
  });
});
