import { expect } from 'chai';
import { BrookContext, KernelSpec, POOL_PER_SHAPE, createContext } from '../../src/index';
import { expectArrayEqual, expectNoGLError, newContext } from '../helpers';

describe('core/resources', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const step: KernelSpec = {
    name: 'step',
    inputs: { a: 'float' },
    gathers: { g: 'float' },
    outputs: { b: 'float' },
    body: 'b = a + g(brook_index) * 0.0 + 1.0;',
  };

  it('runs 10,000 ping-pong passes with the live texture count unchanged', async () => {
    const n = 64;
    const a = ctx.stream('float', n, new Float32Array(n));
    ctx.run(step, { a, g: a, b: a }); // warm up: compiles, fills the pool with one spare
    const before = ctx.stats();
    for (let i = 0; i < 10_000; i++) ctx.run(step, { a, g: a, b: a });
    await ctx.reduce(a, 'max'); // temporaries come from and go back to the pool
    const after = ctx.stats();
    expectArrayEqual(a.readSync(), new Float32Array(n).fill(10_001), 'a after 10,001 passes');
    expect(after.programs).to.equal(before.programs + 1); // the reduction kernel
    const reductionTemps = after.pooledTextures - before.pooledTextures;
    expect(after.textures - before.textures).to.equal(reductionTemps);
    expect(reductionTemps).to.be.at.most(2);
    expect(after.queries).to.equal(0);
    expect(after.buffers).to.equal(0);
    expect(after.syncs).to.equal(0);
    a.dispose();
    expectNoGLError(ctx);
  });

  it('dispose is idempotent and frees the texture', () => {
    const before = ctx.stats().textures;
    const s = ctx.stream('float4', 1000);
    expect(ctx.stats().textures).to.equal(before + 1);
    s.dispose();
    s.dispose();
    expect(ctx.stats().textures).to.equal(before);
    expect(s.disposed).to.equal(true);
  });

  it('keeps at most POOL_PER_SHAPE idle textures per shape', () => {
    ctx.trimPool();
    const inc: KernelSpec = { name: 'inc', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a + 1.0;' };
    const streams = Array.from({ length: POOL_PER_SHAPE + 3 }, () => ctx.stream('float', 100, new Float32Array(100)));
    for (const s of streams) ctx.run(inc, { a: s, b: s }); // each ping-pong parks one texture
    expect(ctx.stats().pooledTextures).to.be.at.most(POOL_PER_SHAPE);
    streams.forEach((s) => s.dispose());
    ctx.trimPool();
    expect(ctx.stats().pooledTextures).to.equal(0);
  });

  it('context dispose releases every stream, program and framebuffer', () => {
    const c = createContext();
    const a = c.stream('float', 100, new Float32Array(100));
    const b = c.stream('float', 100);
    c.run({ name: 'copy', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a;' }, { a, b });
    expect(c.stats().textures).to.equal(2);
    c.dispose();
    expect(c.stats()).to.include({ textures: 0, framebuffers: 0, programs: 0, pooledTextures: 0 });
    expect(a.disposed && b.disposed).to.equal(true);
  });
});
