// The pass runner's promises: every pass of every technique is in ctx.trace with its kind, size
// and targets, the counts equal what the techniques report, and ctx.stats() counts every GL
// object (flat over long runs, back to the start after dispose).
import { expect } from 'chai';
import {
  BinGrid, BrookContext, Stats, binPoints, stencilRoute, createAgents, createContext, createDem, createFluid, createNBody, createPointRenderer,
  nbodyPreset, binLayout,
} from '../../src/index';
import { rng } from '../helpers';

const STEPS = 1000;
const GRID: BinGrid = { cells: [4, 4, 2], origin: [0, 0, 0], cellSize: 0.25 };

function cloud(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) v.set([r(), r(), r() * 0.5, 1], i * 4);
  return v;
}

/** The counts that must not drift (programs are the context's bounded cache, not the app's). */
function owned(s: Stats) {
  const { textures, textureBytes, renderbuffers, renderbufferBytes, framebuffers, vertexArrays, buffers, queries, syncs, pooledTextures } = s;
  return { textures, textureBytes, renderbuffers, renderbufferBytes, framebuffers, vertexArrays, buffers, queries, syncs, pooledTextures };
}

describe('core/pass: every pass traced', () => {
  let ctx: BrookContext;
  before(() => (ctx = createContext()));
  after(() => ctx.dispose());

  for (const method of ['delayed', 'predicated'] as const) {
    it(`a binning build (${method}) lists its clears, peels, copies and reductions; peels = stats.passes`, async () => {
      const pos = ctx.stream('float4', 200, cloud(200, 1));
      ctx.trace.start();
      const bins = await binPoints(ctx, pos, GRID, { capacity: 16, method });
      const passes = await ctx.trace.stop();
      const { width, height } = binLayout(GRID.cells);
      const peels = passes.filter((p) => p.kind === 'peel');
      expect(peels.length).to.equal(bins.stats.passes);
      peels.forEach((p, i) => {
        expect(p).to.include({ width, height, primitive: 'points', kernel: `BinPeel<${i}>` });
        expect(p.outputs).to.deep.equal([`float stream of [${height}, ${width}] records`, `bin slice ${i} (${width}x${height})`]);
      });
      expect(passes.filter((p) => p.kind === 'clear').length).to.equal(bins.capacity + 1);
      const survivors = passes.filter((p) => p.kernel.startsWith('BinSurvivors'));
      expect(survivors.length).to.be.oneOf([bins.stats.reductions, bins.stats.reductions + 1]); // (+ the overflow test)
      expect(passes.filter((p) => p.kind === 'copy').length).to.equal(survivors.length);
      bins.dispose();
      pos.dispose();
    });
  }

  it('a stencil-routing build lists one route pass per stats.passes, into slice i and the loads', async () => {
    const pos = ctx.stream('float4', 200, cloud(200, 2));
    ctx.trace.start();
    const bins = await binPoints(ctx, pos, GRID, { capacity: 32, method: 'stencil' });
    const passes = await ctx.trace.stop();
    const routes = passes.filter((p) => p.kind === 'route');
    expect(routes.length).to.equal(bins.stats.passes).and.to.equal(bins.capacity);
    routes.forEach((p, i) => expect(p.outputs[0]).to.equal(`bin slice ${i} (${bins.width}x${bins.height})`));
    expect(routes.every((p) => p.vertices === 200 && p.outputs.includes(`bins depth-stencil (${bins.width}x${bins.height})`))).to.equal(true);
    bins.dispose();
    pos.dispose();
  });

  it('a DEM step lists its binning passes (= lastBinning.passes) and its force and integration kernels', async () => {
    const dem = createDem(ctx, { count: 64, diameter: 1 / 8 });
    await dem.step(1 / 600);
    ctx.trace.start();
    await dem.step(1 / 600);
    const passes = await ctx.trace.stop();
    expect(passes.filter((p) => p.kind === 'peel').length).to.equal(dem.lastBinning!.passes);
    const kernels = passes.filter((p) => p.kind === 'kernel');
    expect(kernels.some((p) => p.records === 64 && p.outputs.length > 0)).to.equal(true);
    for (const p of passes) expect(p.width * p.height).to.be.greaterThan(0);
    dem.dispose();
  });

  for (const idioms of [{ zcull: true, staticBranches: true, precomputed: true }, { zcull: false, staticBranches: false, precomputed: false }]) {
    it(`a fluid step lists passesPerStep kernel passes over the grid (${JSON.stringify(idioms)})`, async () => {
      const fluid = createFluid(ctx, { size: 16, jacobi: 4 });
      Object.assign(fluid.idioms, idioms);
      fluid.step(0.5);
      ctx.trace.start();
      fluid.step(0.5, { splat: { x: 8, y: 8, fx: 1, fy: 0, dye: 1, radius: 2 } });
      const passes = await ctx.trace.stop();
      const kernels = passes.filter((p) => p.kind === 'kernel');
      expect(kernels.length).to.equal(fluid.passesPerStep);
      expect(kernels.every((p) => p.width === 16 && p.height === 16)).to.equal(true);
      if (idioms.staticBranches) expect(kernels.filter((p) => p.primitive === 'lines').length).to.equal(fluid.passesPerStep / 2);
      fluid.dispose();
    });
  }

  it('a spatial binning build probes for NaN positions with one point pass, and counts them only when there are some', async () => {
    const data = cloud(300, 3);
    const pos = ctx.stream('float4', 300, data);
    ctx.trace.start();
    const clean = await binPoints(ctx, pos, GRID, { capacity: 32, method: 'naive' });
    const passes = await ctx.trace.stop();
    expect(passes.filter((p) => p.kind === 'probe').map((p) => [p.kernel, p.vertices])).to.deep.equal([['BinNaNProbe', 300]]);
    expect(passes.some((p) => p.kernel === 'BinDropped')).to.equal(false);
    expect(clean.stats.dropped).to.equal(0);
    clean.dispose();
    [7, 100, 299].forEach((i) => (data[i * 4 + (i % 3)] = NaN));
    pos.write(data);
    ctx.trace.start();
    const dirty = await binPoints(ctx, pos, GRID, { capacity: 32, method: 'naive' });
    const again = await ctx.trace.stop();
    expect(again.filter((p) => p.kernel === 'BinDropped').length).to.equal(1);
    expect(dirty.stats.dropped).to.equal(3);
    dirty.dispose();
    pos.dispose();
  });

  it('one-draw stencil routing issues its NaN probe first, so its answer comes back with the routed count', async () => {
    const pos = ctx.stream('float4', 300, cloud(300, 5));
    ctx.trace.start();
    const r = await stencilRoute(ctx, pos, GRID, { capacity: 16 });
    const kernels = (await ctx.trace.stop()).map((p) => p.kernel);
    expect(kernels[0]).to.equal('BinNaNProbe');
    expect(kernels.indexOf('RouteOneDraw')).to.be.greaterThan(0);
    expect(r.dropped).to.equal(0);
    r.slots.dispose();
    pos.dispose();
  });

  it('sets a uniform again only when its value changes, telling -0 from 0', async () => {
    const spec = { name: 'UniformEcho', uniforms: { a: 'float', v: 'float2' }, outputs: { o: 'float4' }, body: 'o = vec4(a, v, 1.0 / a);' } as const;
    const other = { name: 'Other', uniforms: { a: 'float' }, outputs: { o: 'float4' }, body: 'o = vec4(a * 2.0);' } as const;
    const out = ctx.stream('float4', 4);
    const run = async (a: number, v: [number, number]) => {
      ctx.run(spec, { a, v, o: out });
      return Array.from((await out.read()).slice(0, 4));
    };
    expect(await run(0, [1, 2])).to.deep.equal([0, 1, 2, Infinity]);
    expect(await run(-0, [1, 2])).to.deep.equal([-0, 1, 2, -Infinity]);
    expect(await run(-0, [1, 3])).to.deep.equal([-0, 1, 3, -Infinity]);
    ctx.run(other, { a: 5, o: out });
    expect(await run(4, [1, 3])).to.deep.equal([4, 1, 3, 0.25]);
    expect(await run(4, [1, 3])).to.deep.equal([4, 1, 3, 0.25]);
    out.dispose();
  });
});

describe('core/pass: stats flat over 1,000 steps (the texture pool emptied) and back to the start after dispose', () => {
  const flat = async (name: string, make: (ctx: BrookContext) => { step: () => unknown; dispose: () => void }) => {
    const ctx = createContext();
    const start = owned(ctx.stats());
    const app = make(ctx);
    for (let i = 0; i < 3; i++) await app.step();
    // the pool keeps up to POOL_PER_SHAPE idle textures per shape met so far (working sets vary
    // in length): compare with it emptied, so only what the steps hold is counted
    ctx.trimPool();
    const warm = owned(ctx.stats());
    for (let i = 0; i < STEPS; i++) await app.step();
    ctx.trimPool();
    expect(JSON.stringify(owned(ctx.stats())), `${name}: after 1,000 steps`).to.equal(JSON.stringify(warm));
    app.dispose();
    ctx.trimPool();
    expect(JSON.stringify(owned(ctx.stats())), `${name}: after dispose`).to.equal(JSON.stringify(start));
    ctx.dispose();
  };

  it('binning (delayed, rebuilt in place)', async () => {
    await flat('binning', (ctx) => {
      const pos = ctx.stream('float4', 64, cloud(64, 3));
      let bins: Awaited<ReturnType<typeof binPoints>> | undefined;
      return { step: async () => (bins = await binPoints(ctx, pos, GRID, { capacity: 8, into: bins })), dispose: () => (bins?.dispose(), pos.dispose()) };
    });
  });

  it('stencil routing (predicated, rebuilt in place)', async () => {
    await flat('routing', (ctx) => {
      const pos = ctx.stream('float4', 64, cloud(64, 4));
      let bins: Awaited<ReturnType<typeof binPoints>> | undefined;
      return { step: async () => (bins = await binPoints(ctx, pos, GRID, { capacity: 8, method: 'stencil-predicated', into: bins })), dispose: () => (bins?.dispose(), pos.dispose()) };
    });
  });

  it('DEM', async () => {
    await flat('DEM', (ctx) => {
      const dem = createDem(ctx, { count: 32, diameter: 1 / 4 });
      return { step: () => dem.step(1 / 600), dispose: () => dem.dispose() };
    });
  });

  it('agents', async () => {
    await flat('agents', (ctx) => {
      const crowd = createAgents(ctx, { count: 32, seed: 1 });
      return { step: () => crowd.step(1 / 60), dispose: () => crowd.dispose() };
    });
  });

  it('N-body with its point renderer', async () => {
    await flat('N-body', (ctx) => {
      const { positions, velocities } = nbodyPreset('plummer', 64, 1);
      const sys = createNBody(ctx, { positions, velocities, softening: 0.05 });
      const view = createPointRenderer(ctx);
      const matrix = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
      return {
        step: () => {
          sys.step(0.001, 1);
          view.draw(sys.positions, 64, matrix);
        },
        dispose: () => (view.dispose(), sys.dispose()),
      };
    });
  });
});
