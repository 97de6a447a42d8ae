// Conformance: write queries (BrookGPU's write_query, prog/tests/writeQuery) count the records
// kernels did not discard, exactly, against reference.brookWriteQueryReference.
import { expect } from 'chai';
import { BrookContext, brook, brookStructs, sortStream, streamBeginWriteQuery, streamEndWriteQuery, structStream, writeQuery } from '../../src/index';
import { brookWriteQueryReference } from '../../src/reference';
import { expectBrookError, gpuOnly, newContext, randomFloats } from '../helpers';

const kernels = brook`
  kernel void CopyStream(float s<>, out float o<>) {
    o = s;
  }
  kernel void CopyBelowThresholdKill(float s<>, float t, out float o<>) {
    if (s >= t) {
      discard;
    }
    o = s;
  }
  typedef struct { float4 a, b, c, d, e, f, g, h, i; } Nine;
  kernel void NineBelow(float s<>, float t, out Nine o<>) {
    if (s >= t) discard;
    o.a = s; o.b = s; o.c = s; o.d = s; o.e = s; o.f = s; o.g = s; o.h = s; o.i = s;
  }`;

describe('brook/write queries: records a kernel did not discard', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('counts as BrookGPU\'s writeQuery test: all records, then those below the threshold (2D, 1D)', async () => {
    const [h, w] = [30, 41];
    const data = randomFloats(h * w, 11, 0, 1000);
    const s = ctx.stream('float', [h, w], data);
    const o = ctx.stream('float', [h, w]);
    const q = writeQuery(ctx);
    q.begin();
    ctx.run(kernels.CopyStream!, { s, o });
    q.end();
    expect(await q.count()).to.equal(h * w);
    for (const t of [0, 250, 500.5, 1000]) {
      q.begin();
      ctx.run(kernels.CopyBelowThresholdKill!, { s, t, o });
      q.end();
      expect(await q.count()).to.equal(brookWriteQueryReference(data, t), `threshold ${t}`);
    }
    // 1D, and the blocking form
    const s1 = ctx.stream('float', 1000, data.subarray(0, 1000));
    const o1 = ctx.stream('float', 1000);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s: s1, t: 300, o: o1 });
    q.end();
    expect(q.countSync()).to.equal(brookWriteQueryReference(data.subarray(0, 1000), 300));
    q.dispose();
    [s, o, s1, o1].forEach((x) => x.dispose());
  });

  it('adds up every run between begin and end; a region leaves records unwritten; runs outside are not counted', async () => {
    const [h, w] = [12, 17];
    const data = randomFloats(h * w, 12, 0, 100);
    const s = ctx.stream('float', [h, w], data);
    const o = ctx.stream('float', [h, w]);
    ctx.run(kernels.CopyStream!, { s, o }); // before begin: not counted
    const q = writeQuery(ctx);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s, t: 40, o });
    ctx.run(kernels.CopyBelowThresholdKill!, { s, t: 70, o }, { region: 'interior' });
    q.end();
    ctx.run(kernels.CopyStream!, { s, o }); // after end: not counted
    expect(q.runs).to.equal(2);
    const expected = brookWriteQueryReference(data, 40) + brookWriteQueryReference(data, 70, { height: h, width: w, interior: true });
    expect(await q.count()).to.equal(expected);
    q.dispose();
    [s, o].forEach((x) => x.dispose());
  });

  it("counts the user's kernel runs only: reads (their packing pass), domain copies and library calls between begin and end add nothing", async () => {
    const [h, w] = [30, 41];
    const data = randomFloats(h * w, 15, 0, 1000);
    const s = ctx.stream('float', [h, w], data);
    const o = ctx.stream('float', [h, w]);
    const keys = ctx.stream('float', 50, data.subarray(0, 50));
    const q = writeQuery(ctx);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s, t: 400, o });
    o.readSync({ method: 'pack' });
    await o.read({ method: 'pack' });
    o.domain([0, 0], [5, 7]).readSync();
    o.domain([1, 1], [3, 4]).write(new Float32Array(6));
    const sorted = sortStream(ctx, keys);
    q.end();
    expect(q.runs, 'counted runs').to.equal(1);
    expect(await q.count()).to.equal(brookWriteQueryReference(data, 400));
    [sorted.keys, sorted.order, keys].forEach((x) => x.dispose());
    q.dispose();
    [s, o].forEach((x) => x.dispose());
  });

  it('counts a kernel run into an output domain: the records of the domain it wrote', async () => {
    const [h, w] = [20, 31];
    const data = randomFloats(h * w, 16, 0, 100);
    const s = ctx.stream('float', [h, w], data);
    const o = ctx.stream('float', [h, w]);
    const [x0, y0, x1, y1] = [3, 2, 17, 11];
    const inside = Float32Array.from({ length: (y1 - y0) * (x1 - x0) }, (_, k) => data[(y0 + Math.floor(k / (x1 - x0))) * w + x0 + (k % (x1 - x0))]!);
    const q = writeQuery(ctx);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s: s.domain([x0, y0], [x1, y1]), t: 60, o: o.domain([x0, y0], [x1, y1]) });
    q.end();
    expect(await q.count()).to.equal(brookWriteQueryReference(inside, 60));
    const s1 = ctx.stream('float', 100, data.subarray(0, 100));
    const o1 = ctx.stream('float', 100);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s: s1.domain(10, 70), t: 60, o: o1.domain(30, 90) });
    q.end();
    expect(await q.count()).to.equal(brookWriteQueryReference(data.subarray(10, 70), 60));
    q.dispose();
    [s, o, s1, o1].forEach((x) => x.dispose());
  });

  it('counts a struct output wider than the draw buffers once (its passes write the count once)', async () => {
    const Nine = brookStructs`typedef struct { float4 a, b, c, d, e, f, g, h, i; } Nine;`.Nine!;
    const data = randomFloats(50, 13, 0, 10);
    const s = ctx.stream('float', 50, data);
    const o = structStream(ctx, Nine, 50);
    streamBeginWriteQuery(ctx);
    ctx.run(kernels.NineBelow!, { s, t: 5, o });
    expect(streamEndWriteQuery(ctx)).to.equal(brookWriteQueryReference(data, 5));
    [s, o].forEach((x) => x.dispose());
  });

  it('leaves no textures behind (a GPU context: its pool and texture counts)', function () {
    gpuOnly(this, ctx, 'counts pooled textures (ctx.trimPool, stats().textures): a CPU context has no textures; its query holds no GL object');
    const s = ctx.stream('float', 64, randomFloats(64, 14, 0, 10));
    const o = ctx.stream('float', 64);
    ctx.trimPool();
    const before = ctx.stats();
    const q = writeQuery(ctx);
    q.begin();
    ctx.run(kernels.CopyBelowThresholdKill!, { s, t: 5, o });
    q.end();
    q.countSync();
    q.dispose();
    ctx.trimPool();
    expect(ctx.stats().textures).to.equal(before.textures);
    expect(ctx.stats().textureBytes).to.equal(before.textureBytes);
    [s, o].forEach((x) => x.dispose());
  });

  it('refuses misuse with BrookErrors', () => {
    const s = ctx.stream('float', 64, randomFloats(64, 14, 0, 10));
    const o = ctx.stream('float', 64);
    const q2 = writeQuery(ctx);
    expectBrookError(() => q2.end(), /end\(\) without begin\(\)/);
    expectBrookError(() => q2.countSync(), /needs begin\(\) and end\(\) first/);
    q2.begin();
    expectBrookError(() => q2.begin(), /begin\(\) twice/);
    expectBrookError(() => writeQuery(ctx).begin(), /another write query is open/);
    expectBrookError(() => streamEndWriteQuery(ctx), /no query is open/);
    // the usual argument errors still come first, naming the argument
    expectBrookError(() => ctx.run(kernels.CopyStream!, { s, o: 3 as never }), /argument 'o'/);
    q2.end();
    q2.dispose();
    expectBrookError(() => q2.begin(), /after dispose/);
    expectBrookError(() => writeQuery(null as never), /BrookContext/);
    [s, o].forEach((x) => x.dispose());
  });
});
