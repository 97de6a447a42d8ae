import { expect } from 'chai';
import { BrookContext, KernelSpec, POOL_IDLE_BYTES, POOL_IDLE_TEXTURES, POOL_PER_SHAPE, PROGRAM_CACHE_SIZE, binPoints, createContext, filter } from '../../src/index';
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

  it('stays bounded when every call leaves a texture of a new shape (200 filters, distinct counts)', async () => {
    ctx.trimPool();
    const start = ctx.stats();
    const n = 4096;
    const s = ctx.stream('float', n);
    const data = new Float32Array(n);
    const shapes = new Set<string>();
    let most = 0;
    for (let k = 1; k <= 200; k++) {
      const count = 20 * k; // the first `count` records are kept: a result of a new length each call
      data.fill(0, 0, count).fill(1, count);
      s.write(data);
      const r = await filter(ctx, s, { keep: 'x < 0.5' });
      expect(r.count).to.equal(count);
      shapes.add(`${r.stream!.layout.width}x${r.stream!.layout.height}`);
      r.stream!.dispose(); // back to the pool, under a shape it has not seen before (mostly)
      const st = ctx.stats();
      expect(st.pooledTextures, `idle textures after filter ${k}`).to.be.at.most(POOL_IDLE_TEXTURES);
      most = Math.max(most, st.textures);
    }
    expect(shapes.size, 'the filters leave results of many shapes').to.be.above(50);
    // live: the input stream, the idle pool; nothing else outlives a call
    expect(most).to.be.at.most(start.textures + 1 + POOL_IDLE_TEXTURES);
    const idleBytes = ctx.stats().textureBytes - start.textureBytes - s.layout.width * s.layout.height * 4;
    expect(idleBytes).to.be.at.most(POOL_IDLE_BYTES);
    s.dispose();
    ctx.trimPool();
    const end = ctx.stats();
    expect({ ...end, programs: start.programs }).to.deep.equal(start);
  });

  it('keeps a working set larger than POOL_IDLE_BYTES between steps, and trimPool forgets it', () => {
    ctx.trimPool();
    const start = ctx.stats();
    const side = 1024; // float4: 16 MiB a texture, a few more than POOL_IDLE_BYTES holds
    const k = Math.ceil(POOL_IDLE_BYTES / (side * side * 16)) + 2;
    const step = () => {
      const temps = Array.from({ length: k }, (_, i) => ctx.scratch('float4', [side, side + i]));
      temps.forEach((t) => t.dispose());
    };
    step();
    expect(ctx.stats().pooledTextures, 'idle after the first step').to.equal(k);
    step(); // every temporary from the pool: none deleted, none made
    expect(ctx.stats().pooledTextures, 'idle after the second step').to.equal(k);
    expect(ctx.stats().textures).to.equal(start.textures + k);
    ctx.trimPool();
    expect(ctx.stats()).to.deep.equal(start);
    // after a trim the cap is POOL_IDLE_BYTES again until a step needs more
    const one = ctx.scratch('float4', [side, side]);
    one.dispose();
    expect(ctx.stats().pooledTextures).to.equal(1);
    ctx.trimPool();
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

describe('core/resources: the registry', () => {
  it('observe: what an observer makes is counted apart, and moves to ctx.stats() when the caller\'s own work uses it (pooled texture, program, framebuffer)', () => {
    const c = createContext(); // (not the spec context: its runs are the caller's alone)
    const spec = { name: 'observedFill', outputs: { o: 'float' }, body: 'o = 3.0;' } as const;
    const start = c.stats();
    const none = c.resources.observed();
    c.resources.observe(() => {
      const t = c.scratch('float', [37, 3]); // a pooled texture of a shape nothing else asks for
      c.run(spec, { o: t }); // a program and a framebuffer
      t.dispose(); // back to the pool, idle
    });
    expect(c.stats(), 'ctx.stats() after the observer').to.deep.equal(start);
    const seen = c.resources.observed();
    expect(seen.textures - none.textures, 'the observer\'s texture').to.equal(1);
    expect(seen.programs - none.programs, 'its program').to.equal(1);
    expect(seen.framebuffers - none.framebuffers, 'its framebuffer').to.equal(1);
    // the caller's own run of the same kernel on a stream of the same shape: the pool's texture, the
    // cached program and framebuffer become the caller's, as if made now
    const mine = c.scratch('float', [37, 3]);
    c.run(spec, { o: mine });
    expect(Array.from(mine.readSync()).every((v) => v === 3)).to.equal(true);
    const now = c.stats();
    expect(now.textures - start.textures, 'textures').to.equal(1);
    expect(now.programs - start.programs, 'programs').to.equal(1);
    expect(now.framebuffers - start.framebuffers, 'framebuffers').to.equal(1);
    expect(c.resources.observed(), 'the observer\'s bucket, emptied').to.deep.equal(none);
    mine.dispose();
    c.dispose();
    expect(c.resources.observed()).to.include({ textures: 0, programs: 0, framebuffers: 0 });
  });

  it('counts every kind with bytes, and a disposed context returns to zero', () => {
    const c = createContext();
    const start = c.stats();
    expect(start).to.include({ textures: 0, textureBytes: 0, renderbuffers: 0, framebuffers: 0, programs: 0, vertexArrays: 1 });
    const s = c.stream('float4', [8, 16]);
    const mask = c.zmask(s);
    expect(c.stats()).to.include({ textures: 1, textureBytes: 8 * 16 * 16, renderbuffers: 1, renderbufferBytes: 8 * 16 * 4 });
    c.buildMask(mask, { name: 'none', outputs: { o: 'float4' }, body: 'discard;' }, { o: s });
    expect(c.stats()).to.include({ framebuffers: 1, programs: 1 });
    mask.dispose();
    expect(c.stats()).to.include({ renderbuffers: 0, renderbufferBytes: 0, framebuffers: 0 });
    c.dispose();
    expect(c.stats()).to.deep.equal({
      textures: 0, textureBytes: 0, renderbuffers: 0, renderbufferBytes: 0, framebuffers: 0, programs: 0,
      vertexArrays: 0, buffers: 0, queries: 0, syncs: 0, pooledTextures: 0, readSpares: 0, readSpareBytes: 0,
    });
  });

  it("releasing a texture deletes exactly the cached framebuffers that attach it (a framebuffer attaching two streams goes with either)", async () => {
    const c = createContext();
    const copy = { name: 'copy2', inputs: { a: 'float' }, outputs: { b: 'float', d: 'float' }, body: 'b = a; d = a + 1.0;' } as const;
    const one = { name: 'copy1', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = 2.0 * a;' } as const;
    const a = c.stream('float', 8, new Float32Array(8).fill(1));
    const [b1, d1, b2, d2, e] = [0, 1, 2, 3, 4].map(() => c.stream('float', 8));
    c.run(copy, { a, b: b1!, d: d1! }); // framebuffer {b1, d1}
    c.run(copy, { a, b: b2!, d: d2! }); // {b2, d2}
    c.run(one, { a, b: b1! }); // {b1}
    c.run(one, { a, b: e! }); // {e}
    expect(c.stats().framebuffers).to.equal(4);
    d1!.dispose(); // takes {b1, d1} only
    expect(c.stats().framebuffers).to.equal(3);
    b1!.dispose(); // takes {b1}
    expect(c.stats().framebuffers).to.equal(2);
    b2!.dispose(); // takes {b2, d2}; d2 then has none
    d2!.dispose();
    expect(c.stats().framebuffers).to.equal(1);
    c.run(one, { a, b: e! }); // still cached
    expect(c.stats().framebuffers).to.equal(1);
    expectArrayEqual(await e!.read(), new Float32Array(8).fill(2), 'the cached framebuffer still draws');
    e!.dispose();
    expect(c.stats().framebuffers).to.equal(0);
    c.dispose();
  });

  it('releases the WebGL context on dispose: 50 contexts made and disposed, one kept alive, the 51st works', async () => {
    const kept = newContext();
    const a = kept.stream('float', 4, [1, 2, 3, 4]);
    for (let i = 0; i < 50; i++) {
      const c = createContext();
      c.stream('float', 4, [i, i, i, i]);
      c.dispose();
      expect(c.gl.isContextLost(), `context ${i} released`).to.equal(true);
    }
    const last = createContext();
    const x = last.stream('float', 4, [1, 2, 3, 4]);
    const y = last.stream('float', 4);
    last.run({ name: 'twice', inputs: { x: 'float' }, outputs: { y: 'float' }, body: 'y = 2.0 * x;' }, { x, y });
    expectArrayEqual(await y.read(), new Float32Array([2, 4, 6, 8]), 'the 51st context');
    expect(kept.isLost, 'a context kept alive through 50 others').to.equal(false);
    expectArrayEqual(await a.read(), new Float32Array([1, 2, 3, 4]), 'the kept context');
    last.dispose();
    kept.dispose();
  });

  it(`keeps at most programCacheSize programs (default PROGRAM_CACHE_SIZE = ${PROGRAM_CACHE_SIZE}): 40 distinct kernels through a cache of 16, the evicted ones relinked on use`, () => {
    const size = 16;
    const c = createContext({ programCacheSize: size });
    const x = c.stream('float', 8, Float32Array.from({ length: 8 }, (_, i) => i));
    const y = c.stream('float', 8);
    const add = (k: number): KernelSpec => ({ name: `add${k}`, inputs: { x: 'float' }, outputs: { y: 'float' }, body: `y = x + ${k}.0;` });
    const first = c.kernel(add(0));
    for (let k = 1; k < 40; k++) c.run(add(k), { x, y });
    expect(c.stats().programs).to.equal(size);
    c.run(first, { x, y }); // its program was evicted: linked again
    expectArrayEqual(y.readSync(), Float32Array.from({ length: 8 }, (_, i) => i));
    expect(c.stats().programs).to.equal(size);
    c.dispose();
  });

  it('checks framebuffer completeness once per attachment formats and sizes: a second binning build of the same shape asks the GPU process nothing', async () => {
    const c = newContext();
    const gl = c.gl;
    const ask = gl.checkFramebufferStatus.bind(gl);
    let asked = 0;
    gl.checkFramebufferStatus = (target: number) => (asked++, ask(target));
    const grid = { cells: [4, 4, 4] as [number, number, number], origin: [0, 0, 0] as [number, number, number], cellSize: 0.25 };
    const pos = c.stream('float4', 50, Float32Array.from({ length: 200 }, (_, i) => (i % 4 === 3 ? 1 : ((i * 0.37) % 1))));
    const first = await binPoints(c, pos, grid, { capacity: 8, method: 'naive' });
    const loads = first.loads.readSync();
    first.dispose();
    expect(asked).to.be.greaterThan(0);
    asked = 0;
    const second = await binPoints(c, pos, grid, { capacity: 8, method: 'naive' });
    expect(asked).to.equal(0);
    expectArrayEqual(second.loads.readSync(), loads, 'loads of the second build');
    second.dispose();
    pos.dispose();
    c.dispose();
  });

  it('a fresh description with the same content is the same compiled kernel (generators need no memo); other content is not', () => {
    const c = newContext();
    const add = (k: number): KernelSpec => ({ name: 'addk', inputs: { x: 'float' }, outputs: { y: 'float' }, body: `y = x + ${k}.0;` });
    const one = c.kernel(add(1));
    expect(c.kernel(add(1))).to.equal(one);
    expect(c.kernel({ ...add(1), body: 'y = x + 1.0;' })).to.equal(one);
    const two = c.kernel(add(2));
    expect(two).to.not.equal(one);
    const x = c.stream('float', 8, Float32Array.from({ length: 8 }, (_, i) => i));
    const y = c.stream('float', 8);
    c.run(add(2), { x, y });
    expectArrayEqual(y.readSync(), Float32Array.from({ length: 8 }, (_, i) => i + 2));
    c.run(add(1), { x, y });
    expectArrayEqual(y.readSync(), Float32Array.from({ length: 8 }, (_, i) => i + 1));
    c.dispose();
  });
});
