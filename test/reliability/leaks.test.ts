// Failures release what they took: a refused or failed call leaves ctx.stats() where it was.
import { expect } from 'chai';
import { BrookContext, FILTER_METHODS, KernelSpec, MEMORY_CHECK_BYTES, createNBody, filter, nbodyPreset, occlusionLoop, writeMask } from '../../src/index';
import { newContext } from '../helpers';
import { caught, expectBrookErrorValue, expectSameStats, refuses } from './util';

describe('reliability/leaks on failure', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const live: KernelSpec = { name: 'alive', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'if (a < 0.0) discard; o = a;' };

  it('occlusionLoop: a throwing iterate or terminate, and the iteration bound, leave no query', async () => {
    const a = ctx.stream('float', 16, new Float32Array(16));
    const o = ctx.stream('float', 16);
    ctx.run(live, { a, o }); // compiled before the counters are taken
    const terminate = () => ctx.run(live, { a, o });
    const before = ctx.stats();
    const boom = new Error('user code failed');
    // the user's own exception passes through unchanged, after the queries in flight are released
    let e = await caught(() => occlusionLoop(ctx, { iterate: (k) => { if (k === 2) throw boom; }, terminate, maxIterations: 10, inFlight: 4 }));
    expect(e).to.equal(boom);
    expectSameStats(ctx, before, 'iterate threw');
    let calls = 0;
    e = await caught(() => occlusionLoop(ctx, { iterate: () => {}, terminate: () => { if (++calls === 3) throw boom; terminate(); }, maxIterations: 10, inFlight: 4 }));
    expect(e).to.equal(boom);
    expectSameStats(ctx, before, 'terminate threw');
    // records never finish: the bound ends the loop with a BrookError
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate, maxIterations: 5, inFlight: 2 }), /still live after maxIterations = 5 iterations/);
    // a loop that ends finishes its queries too
    const r = await occlusionLoop(ctx, { iterate: () => {}, terminate: () => {}, maxIterations: 5, inFlight: 1 });
    expect(r.iterations).to.equal(1);
    a.dispose();
    o.dispose();
  });

  it('queries.occlusion and queries.time release their query when the draw throws', async () => {
    const boom = new Error('draw failed');
    const before = ctx.stats();
    expect(await caught(() => ctx.queries.occlusion(() => { throw boom; }))).to.equal(boom);
    expect(await caught(() => ctx.queries.time(() => { throw boom; }))).to.equal(boom);
    expectSameStats(ctx, before, 'draw threw');
    await refuses(ctx, () => ctx.queries.occlusion(undefined as never), /queries.occlusion: draw is missing/);
  });

  it('createNBody with a bad variant allocates nothing', async () => {
    const bodies = nbodyPreset('disks', 32, 2);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: { b: 99 } }), /b=99 bodies per fragment/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: { q: 0 } }), /q must be a positive integer/);
  });

  it('writeMask: a first clear() that fails (its framebuffer refused) keeps no depth buffer', async () => {
    // an incomplete framebuffer cannot be provoked with a valid depth buffer: the driver's answer is stubbed
    const gl = ctx.gl;
    const real = gl.checkFramebufferStatus.bind(gl);
    try {
      gl.checkFramebufferStatus = () => gl.FRAMEBUFFER_UNSUPPORTED;
      await refuses(ctx, () => writeMask(ctx, 13, 29), /cannot render into these targets: FRAMEBUFFER_UNSUPPORTED/);
    } finally {
      gl.checkFramebufferStatus = real;
    }
    const m = writeMask(ctx, 13, 29); // the same size works once the driver agrees
    m.dispose();
    expect(gl.getError()).to.equal(gl.NO_ERROR);
  });

  it('out of GPU memory after a large allocation is a BrookError there, and nothing is kept', async () => {
    // GL_OUT_OF_MEMORY cannot be provoked safely on a shared machine: the driver's answer is stubbed
    const gl = ctx.gl;
    const real = gl.getError.bind(gl);
    const side = Math.ceil(Math.sqrt(MEMORY_CHECK_BYTES / 16));
    try {
      gl.getError = () => gl.OUT_OF_MEMORY;
      await refuses(ctx, () => ctx.stream('float4', [side, side]), /out of GPU memory: allocating a \d+x\d+ float4 texture \(\d+ MiB\) failed with GL_OUT_OF_MEMORY.*caps.maxRecords and MAX_TEXTURE_SIZE bound a stream's shape, not the memory/);
      ctx.stream('float', 16).dispose(); // small allocations are not checked (getError is a round trip)
      gl.getError = real;
      const big = ctx.stream('float4', [side, side]);
      const before = ctx.stats();
      gl.getError = () => gl.OUT_OF_MEMORY;
      const e = await caught(() => big.read());
      gl.getError = real;
      expectBrookErrorValue(e, /out of GPU memory: allocating the readback buffer/);
      expectSameStats(ctx, before, 'readback buffer refused');
      big.dispose();
    } finally {
      gl.getError = real;
    }
    expect(real()).to.equal(gl.NO_ERROR);
  });
  it("filter's watch throwing mid-sort (bitonic, every method) passes its error through and leaves nothing", async () => {
    const n = 100;
    const x = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => (i * 37) % 11));
    const boom = new Error('watch failed');
    const leaked: string[] = [];
    for (const method of FILTER_METHODS) {
      const labels: string[] = [];
      const all = await filter(ctx, x, { keep: 'x > 4.5', method, watch: (label) => labels.push(label) }); // warms the pool and the programs
      all.stream?.dispose();
      all.indices?.dispose();
      for (const at of labels) {
        // idle pooled textures are the pool's, not a leak: it may keep more of a shape after a call
        // that held many at once, so both sides are measured with the pool emptied
        ctx.trimPool();
        const before = ctx.stats();
        const e = await caught(() => filter(ctx, x, { keep: 'x > 4.5', method, watch: (label) => { if (label === at) throw boom; } }));
        expect(e, `${method}, watch threw at '${at}'`).to.equal(boom);
        ctx.trimPool();
        if (JSON.stringify(ctx.stats()) !== JSON.stringify(before)) leaked.push(`${method} at '${at}'`);
      }
    }
    if (leaked.length) expect.fail(`ctx.stats() changed when the watch threw: ${leaked.join('; ')}`);
    x.dispose();
  });
});
