// Z-cull masks, regions, Brook's write masks, write queries and occlusion queries on both
// backends: each program runs on a GPU context (newContext(); in Node, scripts/test-node.mjs, a
// CPU context too) and on a CPU context, and each answer is checked record by record against a
// plain loop here or src/reference; the two backends must then agree exactly, and refuse the same
// misuse with the same BrookError. compareBackends compares masked runs (GPU depth buffers copied).
import { expect } from 'chai';
import { BrookContext, CPU_RENDERER, branchMask, brook, compareBackends, createContext, liveCount, occlusionLoop, reference, runBranch, streamBeginWriteQuery, streamEndWriteQuery, writeMask, writeQuery } from '../../src/index';
import type { ZMask } from '../../src/index';
import { expectArrayEqual, newContext, randomFloats } from '../helpers';

const f = Math.fround;

const k = brook`
  kernel void land(float o<>, out float u<>) {
    if (o > 0.5) discard;
    u = 0.0;
  }
  kernel void twice(float x<>, out float y<>) { y = x * 2.0 + 1.0; }
  kernel void less(float x<>, out float y<>) { y = x - 1.0; }
  kernel void below(float s<>, float t, out float o<>) {
    if (s >= t) discard;
    o = s;
  }
  kernel void step(float v<>, float kill, float add, out float o<>) {
    if (v >= kill) discard;
    o = v + add;
  }
  kernel void decr(float x<>, out float y<>) { y = max(x - 1.0, 0.0); }
  kernel void alive(float x<>, out float u<>) {
    if (x <= 0.0) discard;
    u = 1.0;
  }
  reduce void total(float a<>, reduce float r<>) { r += a; }`;

type Ctx = BrookContext;

/** Runs `program` on the GPU context and on the CPU context; returns both answers. */
async function both<T>(gpu: Ctx, cpu: Ctx, program: (ctx: Ctx) => T | Promise<T>): Promise<[T, T]> {
  return [await program(gpu), await program(cpu)];
}

/** The message of the BrookError `fn` throws (fails if it throws nothing or something else). */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect((e as Error).name, (e as Error).message).to.equal('BrookError');
    return (e as Error).message;
  }
  expect.fail('expected a BrookError');
}

describe('cpu/masks: z masks, regions, write masks and queries on both backends', () => {
  let gpu: Ctx;
  let cpu: Ctx;
  before(() => {
    gpu = newContext();
    cpu = createContext({ backend: 'cpu' }) as unknown as Ctx;
  });
  after(() => {
    gpu.dispose();
    cpu.dispose();
  });

  it('a z mask built by a discarding kernel skips the records it kept (their old values stay); invert runs exactly those; an output domain', async () => {
    for (const shape of [[13, 17], 300] as const) {
      const n = typeof shape === 'number' ? shape : shape[0] * shape[1];
      const o = randomFloats(n, 1, 0, 1);
      const x = randomFloats(n, 2, -50, 50);
      const [a, b] = await both(gpu, cpu, (ctx) => {
        const os = ctx.stream('float', shape as never, o);
        const xs = ctx.stream('float', shape as never, x);
        const y = ctx.stream('float', shape as never, new Float32Array(n).fill(7));
        const y2 = ctx.stream('float', shape as never, new Float32Array(n).fill(7));
        const u = ctx.stream('float', shape as never, new Float32Array(n).fill(5));
        const mask = ctx.zmask(y);
        ctx.buildMask(mask, k.land!, { o: os, u });
        ctx.run(k.twice!, { x: xs, y }, { mask });
        ctx.run(k.less!, { x: xs, y: y2 }, { mask, invert: true });
        const out = { y: y.readSync(), y2: y2.readSync(), u: u.readSync() };
        mask.dispose();
        [os, xs, y, y2, u].forEach((s) => s.dispose());
        return out;
      });
      const want = Float32Array.from(x, (v, i) => (o[i]! > 0.5 ? f(f(v * 2) + 1) : 7));
      const want2 = Float32Array.from(x, (v, i) => (o[i]! > 0.5 ? 7 : f(v - 1)));
      for (const [what, got] of [['GPU', a], ['CPU', b]] as const) {
        expectArrayEqual(got.y, want, `${what} ${shape}: masked`);
        expectArrayEqual(got.y2, want2, `${what} ${shape}: inverted`);
        expectArrayEqual(got.u, new Float32Array(n).fill(5), `${what} ${shape}: the builder's output is not written`);
      }
    }
    // a masked run into an output domain: the domain's records, where the mask lets them run
    const [h, w] = [12, 15];
    const o = randomFloats(h * w, 3, 0, 1);
    const x = randomFloats(5 * 9, 4, -5, 5);
    const [a, b] = await both(gpu, cpu, (ctx) => {
      const os = ctx.stream('float', [h, w], o);
      const y = ctx.stream('float', [h, w], new Float32Array(h * w).fill(-3));
      const xs = ctx.stream('float', [5, 9], x);
      const mask = ctx.zmask(y);
      ctx.buildMask(mask, k.land!, { o: os, u: ctx.stream('float', [h, w]) });
      ctx.run(k.twice!, { x: xs, y: y.domain([4, 2], [13, 7]) }, { mask });
      const out = y.readSync();
      mask.dispose();
      return out;
    });
    const want = new Float32Array(h * w).fill(-3);
    for (let r = 2; r < 7; r++) for (let c = 4; c < 13; c++) if (o[r * w + c]! > 0.5) want[r * w + c] = f(f(x[(r - 2) * 9 + c - 4]! * 2) + 1);
    expectArrayEqual(a, want, 'GPU: masked run into a domain');
    expectArrayEqual(b, want, 'CPU: masked run into a domain');
  });

  it("regions: 'interior' leaves the one-record border, 'boundary' writes only it; a write query counts each", async () => {
    const [h, w] = [11, 9];
    const x = randomFloats(h * w, 5, 0, 100);
    const [a, b] = await both(gpu, cpu, async (ctx) => {
      const xs = ctx.stream('float', [h, w], x);
      const y = ctx.stream('float', [h, w], new Float32Array(h * w).fill(7));
      const z = ctx.stream('float', [h, w], new Float32Array(h * w).fill(7));
      ctx.run(k.twice!, { x: xs, y }, { region: 'interior' });
      ctx.run(k.less!, { x: xs, y: z }, { region: 'boundary' });
      const q = writeQuery(ctx);
      q.begin();
      ctx.run(k.below!, { s: xs, t: 60, o: y }, { region: 'interior' });
      q.end();
      const interior = await q.count();
      q.begin();
      ctx.run(k.below!, { s: xs, t: 60, o: z }, { region: 'boundary' });
      q.end();
      const out = { y: y.readSync(), z: z.readSync(), interior, boundary: q.countSync() };
      q.dispose();
      [xs, y, z].forEach((s) => s.dispose());
      return out;
    });
    const inside = (i: number) => i % w > 0 && i % w < w - 1 && Math.floor(i / w) > 0 && Math.floor(i / w) < h - 1;
    const y = Float32Array.from(x, (v, i) => (inside(i) ? f(f(v * 2) + 1) : 7)).map((v, i) => (inside(i) && x[i]! < 60 ? x[i]! : v));
    const z = Float32Array.from(x, (v, i) => (inside(i) ? 7 : f(v - 1))).map((v, i) => (!inside(i) && x[i]! < 60 ? x[i]! : v));
    const all = reference.brookWriteQueryReference(x, 60);
    const interior = reference.brookWriteQueryReference(x, 60, { height: h, width: w, interior: true });
    for (const [what, got] of [['GPU', a], ['CPU', b]] as const) {
      expectArrayEqual(got.y, y, `${what}: interior`);
      expectArrayEqual(got.z, z, `${what}: boundary`);
      expect(got.interior, `${what}: records counted in the interior`).to.equal(interior);
      expect(got.boundary, `${what}: records counted on the boundary`).to.equal(all - interior);
    }
  });

  it("Brook's write mask: tested passes skip the records set, setting passes set those they write; a write query counts each pass; clear()", async () => {
    const [h, w] = [16, 20];
    const values = randomFloats(h * w, 6, 0, 100);
    const initial = randomFloats(h * w, 7, -9, -1);
    const passes = [
      { kill: 60, add: 1, test: false, set: true },
      { add: 2, test: true, set: false },
      { kill: 30, add: 3, test: true, set: true },
      { add: 4, test: true, set: false },
    ];
    const [a, b] = await both(gpu, cpu, (ctx) => {
      const v = ctx.stream('float', [h, w], values);
      const o = ctx.stream('float', [h, w], initial);
      const m = writeMask(ctx, h, w);
      const q = writeQuery(ctx);
      m.bind();
      const counts = passes.map((p) => {
        if (p.test) m.enableTest();
        else m.disableTest();
        if (p.set) m.enableSet();
        else m.disableSet();
        q.begin();
        ctx.run(k.step!, { v, kill: p.kill ?? 1e30, add: p.add, o });
        q.end();
        return q.countSync();
      });
      const output = o.readSync();
      m.clear(); // every record writable again: a tested pass writes them all
      m.enableTest();
      m.disableSet();
      streamBeginWriteQuery(ctx);
      ctx.run(k.step!, { v, kill: 1e30, add: 0, o });
      const cleared = streamEndWriteQuery(ctx);
      m.dispose();
      q.dispose();
      const after = o.readSync();
      [v, o].forEach((s) => s.dispose());
      return { counts, output, cleared, after };
    });
    const want = reference.brookWriteMaskReference(values, initial, passes);
    for (const [what, got] of [['GPU', a], ['CPU', b]] as const) {
      expect(got.counts, `${what}: records written per pass`).to.deep.equal(want.counts);
      expectArrayEqual(got.output, want.output, `${what}: the output after the passes`);
      expect(got.cleared, `${what}: after clear()`).to.equal(h * w);
      expectArrayEqual(got.after, values, `${what}: after clear()`);
    }
  });

  it('write queries count reduce kernels as their passes, runs into domains, and not mask builds; occlusion queries answer whether any record was written', async () => {
    const n = 1000;
    const x = randomFloats(n, 8, -1, 1);
    const [a, b] = await both(gpu, cpu, async (ctx) => {
      const xs = ctx.stream('float', n, x);
      const r = ctx.stream('float', 1);
      const r10 = ctx.stream('float', 10);
      const o = ctx.stream('float', n);
      const u = ctx.stream('float', n);
      const q = writeQuery(ctx);
      q.begin();
      ctx.run(k.total!, { a: xs, r });
      q.end();
      const toOne = { records: q.countSync(), runs: q.runs };
      q.begin();
      ctx.run(k.total!, { a: xs, r: r10 });
      ctx.run(k.below!, { s: xs.domain(100, 400), t: 0, o: o.domain(500, 800) });
      const mask = ctx.zmask(o);
      ctx.buildMask(mask, k.land!, { o: xs, u });
      q.end();
      const mixed = await q.count();
      const some = await ctx.queries.occlusion(() => ctx.run(k.alive!, { x: xs, u }));
      const zeros = ctx.stream('float', n, new Float32Array(n));
      const none = await ctx.queries.occlusion(() => ctx.run(k.alive!, { x: zeros, u: o }));
      const masked = await ctx.queries.occlusion(() => ctx.run(k.twice!, { x: xs, y: o }, { mask, invert: true }));
      mask.dispose();
      q.dispose();
      [xs, r, r10, o, u, zeros].forEach((s) => s.dispose());
      return { toOne, mixed, some, none, masked };
    });
    // the GPU's passes to one record: ceil(1000 / 16) = 63, ceil(63 / 16) = 4, then 1
    const below = Array.from(x.subarray(100, 400)).filter((v) => v < 0).length;
    for (const [what, got] of [['GPU', a], ['CPU', b]] as const) {
      expect(got.toOne, `${what}: a reduce kernel to one record`).to.deep.equal({ records: 63 + 4 + 1, runs: 3 });
      expect(got.mixed, `${what}: a reduce to 10 records, a run into a domain, a mask build`).to.equal(10 + below);
      expect(got.some, `${what}: occlusion, some records alive`).to.equal(x.some((v) => v > 0));
      expect(got.none, `${what}: occlusion, nothing alive (a run over zeros)`).to.equal(false);
      expect(got.masked, `${what}: occlusion of a masked run`).to.equal(x.some((v) => v <= 0.5));
    }
  });

  it('occlusionLoop runs until no record is live, on both backends', async () => {
    const n = 200;
    const start = Float32Array.from(randomFloats(n, 9, 0, 12), Math.floor);
    const [a, b] = await both(gpu, cpu, async (ctx) => {
      const x = ctx.stream('float', n, start);
      const u = ctx.stream('float', n);
      const res = await occlusionLoop(ctx, {
        iterate: () => ctx.run(k.decr!, { x, y: x }),
        terminate: () => ctx.run(k.alive!, { x, u }),
        maxIterations: 40,
      });
      const left = x.readSync();
      [x, u].forEach((s) => s.dispose());
      return { iterations: res.iterations, left };
    });
    for (const [what, got] of [['GPU', a], ['CPU', b]] as const) {
      expect(got.iterations, `${what}: iterations`).to.equal(Math.max(...start));
      expectArrayEqual(got.left, new Float32Array(n), `${what}: every record finished`);
    }
  });

  it("the flow idioms on a CPU context: liveCount counts exactly; runBranch and branchMask (GLSL sides) say what runs instead", async () => {
    const n = 500;
    const x = randomFloats(n * 4, 12, -1, 1);
    const s = cpu.stream('float4', n, x);
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => x[i * 4 + 3]! > 0 && i % 3 !== 0).length;
    const streams = () => (cpu as unknown as { stats(): { streams: number } }).stats().streams;
    const before = streams();
    expect(await liveCount(cpu, s, 'x.w > 0.0 && i % 3 != 0')).to.equal(want);
    expect(streams(), 'streams left by liveCount').to.equal(before);
    const d = { name: 'Step', inputs: { x: 'float4' as const }, outputs: { y: 'float' as const }, cond: 'x.z > 0.5', then: 'y = x.x;', else: 'y = x.y;' };
    const y = cpu.stream('float', n);
    expect(refusal(() => runBranch(cpu, d, { x: s, y }, { method: 'zcull' }))).to.match(/runBranch: a branch's cond, then and else are GLSL, which the CPU backend does not run: run it on a GPU context/);
    expect(refusal(() => branchMask(cpu, d, { x: s, y }))).to.match(/branchMask: a branch's cond, then and else are GLSL/);
    [s, y].forEach((t) => t.dispose());
  });

  it('refuses the same misuse with the same BrookError on both', async () => {
    const [a, b] = await both(gpu, cpu, (ctx) => {
      const y = ctx.stream('float', [11, 9]);
      const big = ctx.stream('float', [12, 9]);
      const line = ctx.stream('float', 50);
      const small = ctx.stream('float', [2, 9]);
      const mask = ctx.zmask(big);
      const unbuilt = ctx.zmask(y);
      ctx.buildMask(mask, k.land!, { o: big, u: big });
      const m = writeMask(ctx, 3, 3);
      const msgs = [
        refusal(() => ctx.run(k.twice!, { x: y, y }, { mask })),
        refusal(() => ctx.run(k.twice!, { x: y, y }, { mask: unbuilt })),
        refusal(() => ctx.run(k.twice!, { x: y, y }, { invert: true })),
        refusal(() => ctx.run(k.twice!, { x: line, y: line }, { region: 'interior' })),
        refusal(() => ctx.run(k.twice!, { x: small, y: small }, { region: 'boundary' })),
        refusal(() => ctx.run(k.twice!, { x: y, y }, { region: 'middle' as never })),
        refusal(() => ctx.run(k.twice!, { x: small, y: y.domain([0, 0], [9, 2]) }, { region: 'interior' })),
        refusal(() => ctx.run(k.total!, { a: y, r: line }, { region: 'interior' })),
        (m.bind(), m.enableTest(), refusal(() => ctx.run(k.twice!, { x: y, y }))),
      ];
      m.dispose();
      refusal(() => m.bind());
      msgs.push(refusal(() => writeQuery(ctx).end()));
      [mask, unbuilt].forEach((x) => x.dispose());
      msgs.push(refusal(() => ctx.run(k.twice!, { x: big, y: big }, { mask })));
      [y, big, line, small].forEach((s) => s.dispose());
      return msgs;
    });
    expect(a.length).to.equal(b.length);
    a.forEach((m, i) => expect(b[i], `refusal ${i}`).to.equal(m));
  });

  it('compareBackends compares masked runs: a z mask (and invert), a region, a bound write mask with set', function () {
    if (gpu.caps.renderer === CPU_RENDERER) this.skip(); // (Node: newContext() is a CPU context; compareBackends wants a GPU one)
    const [h, w] = [14, 19];
    const o = randomFloats(h * w, 10, 0, 1);
    const x = randomFloats(h * w, 11, -50, 50);
    const os = gpu.stream('float', [h, w], o);
    const xs = gpu.stream('float', [h, w], x);
    const y = gpu.stream('float', [h, w], new Float32Array(h * w).fill(7));
    const mask: ZMask = gpu.zmask(y);
    gpu.buildMask(mask, k.land!, { o: os, u: gpu.stream('float', [h, w]) });
    const masksBefore = (cpu as unknown as { stats(): { masks: number } }).stats().masks;
    const checkOk = (c: ReturnType<typeof compareBackends>, what: string, out = 'y') => {
      expect(c.ok, `${what}: ${JSON.stringify(c.outputs)}`).to.equal(true);
      expect(c.outputs[out]!.records, what).to.equal(h * w);
    };
    checkOk(compareBackends(gpu, k.twice!, { x: xs, y }, { cpu: cpu as never, run: { mask } }), 'z mask');
    checkOk(compareBackends(gpu, k.less!, { x: xs, y }, { cpu: cpu as never, run: { mask, invert: true } }), 'inverted');
    expectArrayEqual(y.readSync(), Float32Array.from(x, (v, i) => (o[i]! > 0.5 ? f(f(v * 2) + 1) : f(v - 1))), 'the GPU output after both');
    y.write(new Float32Array(h * w).fill(7));
    checkOk(compareBackends(gpu, k.twice!, { x: xs, y }, { cpu: cpu as never, run: { region: 'boundary' } }), 'region');
    // a write mask with set: the second run sees what the first set, on both
    const m = writeMask(gpu, h, w);
    m.bind();
    m.enableTest();
    m.enableSet();
    checkOk(compareBackends(gpu, k.below!, { s: xs, t: 0, o: y }, { cpu: cpu as never }), 'write mask, first pass', 'o');
    checkOk(compareBackends(gpu, k.twice!, { x: xs, y }, { cpu: cpu as never }), 'write mask, second pass');
    m.dispose();
    // the first pass wrote (and set) the records below 0; the second, tested, only the others
    expectArrayEqual(y.readSync(), Float32Array.from(x, (v) => (v < 0 ? v : f(f(v * 2) + 1))), 'the GPU output after the write-mask passes');
    expect((cpu as unknown as { stats(): { masks: number } }).stats().masks, 'CPU depth buffers left by compareBackends').to.equal(masksBefore);
    mask.dispose();
    [os, xs, y].forEach((s) => s.dispose());
  });
});
