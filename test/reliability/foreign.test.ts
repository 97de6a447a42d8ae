// Streams, gathers, kernels and masks belong to the context that made them: every entry point
// refuses another context's (they used to answer zeros: filter count 0, reduce [0]).
import { BrookContext, KernelSpec, createContext, createFieldRenderer, createPointRenderer, filter, liveCount, scan, sortStream, bitonicOrder } from '../../src/index';
import { newContext } from '../helpers';
import { refuses } from './util';

describe('reliability/foreign context', () => {
  let ctx: BrookContext;
  let other: BrookContext;
  before(() => {
    ctx = newContext();
    other = createContext();
  });
  after(() => {
    ctx.dispose();
    other.dispose();
  });

  const copy: KernelSpec = { name: 'copy', inputs: { a: 'float' }, gathers: { g: 'float' }, outputs: { b: 'float' }, body: 'b = a + g(0);' };
  const FOREIGN = /belongs to another brookgl context/;

  it('run refuses a foreign input, gather, output and compiled kernel, naming the argument', async () => {
    const a = ctx.stream('float', 4, [1, 2, 3, 4]);
    const b = ctx.stream('float', 4);
    const f = other.stream('float', 4, [5, 6, 7, 8]);
    ctx.run(copy, { a, g: a, b }); // compiles here first
    await refuses(ctx, () => ctx.run(copy, { a: f, g: a, b }), /argument 'a': the float stream of 4 records belongs to another brookgl context/);
    await refuses(ctx, () => ctx.run(copy, { a, g: f, b }), /argument 'g'.*another brookgl context/);
    await refuses(ctx, () => ctx.run(copy, { a, g: a, b: f }), /argument 'b'.*another brookgl context/);
    const k = other.kernel(copy);
    await refuses(ctx, () => ctx.run(k, { a, g: a, b }), /kernel copy: the compiled kernel belongs to another brookgl context/);
    [a, b, f].forEach((s) => s.dispose());
  });

  it('reduce, scan, sortStream, filter and liveCount refuse a foreign stream', async () => {
    const a = ctx.stream('float', 8, new Float32Array(8).fill(1));
    const f = other.stream('float', 8, new Float32Array(8).fill(1));
    await refuses(ctx, () => ctx.reduce(f, 'sum'), /reduce: stream.*another brookgl context/);
    await refuses(ctx, () => ctx.reduceSync(f, 'sum'), /reduce: stream.*another brookgl context/);
    await refuses(ctx, () => scan(ctx, f), /scan: stream.*another/);
    await refuses(ctx, () => sortStream(ctx, f), /sortStream: keys.*another/);
    await refuses(ctx, () => sortStream(ctx, a, { payload: f }), /sortStream: options.payload.*another/);
    await refuses(ctx, () => bitonicOrder(ctx, f), /sort: keys.*another/);
    await refuses(ctx, () => filter(ctx, f, { keep: 'x > 0.0' }), /filter: stream.*another/);
    await refuses(ctx, () => liveCount(ctx, f, 'x > 0.0'), /liveCount: stream.*another/);
    a.dispose();
    f.dispose();
  });

  it('z masks: zmask, buildMask and masked runs refuse another context\'s', async () => {
    const a = ctx.stream('float', [4, 4]);
    const f = other.stream('float', [4, 4]);
    await refuses(ctx, () => ctx.zmask(f), /zmask: like.*another/);
    const mask = other.zmask(f);
    const builder: KernelSpec = { name: 'build', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'if (a > 0.0) discard;' };
    await refuses(ctx, () => ctx.buildMask(mask, builder, { a, o: a }), /buildMask: mask: the z mask belongs to another/);
    const inc: KernelSpec = { name: 'inc', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'o = a + 1.0;' };
    const o = ctx.stream('float', [4, 4]);
    await refuses(ctx, () => ctx.run(inc, { a, o }, { mask }), /options.mask: the z mask belongs to another/);
    await refuses(ctx, () => ctx.run(inc, { a, o }, { mask: 3 as never }), /options.mask must be a z mask/);
    [a, f, o].forEach((s) => s.dispose());
    mask.dispose();
  });

  it('the point and field renderers refuse streams of another context and bad counts', async () => {
    const f4 = other.stream('float4', 16);
    const own = ctx.stream('float4', 16);
    const points = createPointRenderer(ctx);
    const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    await refuses(ctx, () => points.draw(f4, 16, identity), /point renderer: positions.*another brookgl context/);
    await refuses(ctx, () => points.draw(own, 17, identity), /point renderer: count must be in \[0, 16\], got 17/);
    await refuses(ctx, () => points.draw(own, 16, [1, 2] as never), /point renderer: viewProjection must be 16 finite numbers/);
    await refuses(ctx, () => points.draw(own, 16, identity, { velocities: f4 }), /options.velocities.*another/);
    points.draw(own, 16, identity);
    points.dispose();
    const field = createFieldRenderer(ctx);
    const dye = ctx.stream('float', [8, 8]);
    const offsets = ctx.stream('float4', [8, 8]);
    const foreignObstacles = other.stream('float', [8, 8]);
    await refuses(ctx, () => field.draw(dye, foreignObstacles, offsets), /field renderer: obstacles.*another/);
    field.dispose();
    [f4, own, dye, offsets, foreignObstacles].forEach((s) => s.dispose());
  });

  it('the refused calls did not touch the other context either', () => {
    const s = other.stats();
    // every stream made above was disposed; the compiled kernel and its program stay cached
    if (s.textures - s.pooledTextures !== 0) throw new Error(`other context holds ${s.textures} textures`);
  });
});
