import { expect } from 'chai';
import { BrookContext, createContext, filter, reference, scan, sortStream, warmup } from '../../src/index';
import { expectArrayEqual, expectBrookError, rng } from '../helpers';

describe('idioms/warmup', () => {
  let ctx: BrookContext;
  before(() => (ctx = createContext()));
  after(() => ctx.dispose());

  it('links every idiom\'s programs and fills the pool at the size given, holds no stream, and the calls after it answer as the CPU does', async () => {
    const n = 5000;
    const before = ctx.stats();
    const r = await warmup(ctx, { n });
    expect(Object.keys(r.perOp)).to.deep.equal(['sum', 'scan', 'sort', 'filter', 'read']);
    const after = ctx.stats();
    expect(after.programs).to.be.greaterThan(before.programs);
    expect(after.pooledTextures).to.be.greaterThan(before.pooledTextures);
    // nothing held beyond the pool: every texture it made is idle in it
    expect(after.textures - after.pooledTextures).to.equal(before.textures - before.pooledTextures);
    expect(after.buffers).to.equal(before.buffers);
    expect(after.syncs).to.equal(before.syncs);
    const programs = after.programs;

    // the page's own first calls reuse what it linked and answer as the references do
    const g = rng(7);
    const data = Float32Array.from({ length: n }, () => g());
    const x = ctx.stream('float', n, data);
    const [sum] = await ctx.reduce(x, 'sum');
    const exact = data.reduce((a, v) => a + v, 0);
    expect(Math.abs(sum! - exact)).to.be.below(n * 2 ** -24 * exact * 4);
    const s = scan(ctx, x);
    const got = await s.read();
    const want = reference.scanReference(data, 1);
    for (let i = 0; i < n; i += 97) expect(Math.abs(got[i]! - want[i]!)).to.be.below(Math.abs(want[i]!) * 1e-5 + 1e-6, `scan at ${i}`);
    const sorted = sortStream(ctx, x);
    expectArrayEqual(await sorted.order.read(), reference.sortOrderReference(data), 'sort order');
    const f = await filter(ctx, x, { keep: 'x > 0.5' });
    expect(f.count).to.equal(reference.filterReference(data, 1, ([v]) => v! > 0.5).indices.length);
    expect(ctx.stats().programs, 'no program linked again').to.equal(programs);
    [x, s, sorted.keys, sorted.order, f.stream].forEach((t) => t?.dispose());
  });

  it('refuses bad options by name before any work', async () => {
    const rejects = async (options: unknown, pattern: RegExp) => {
      let caught: unknown;
      try {
        await warmup(ctx, options as never);
      } catch (e) {
        caught = e;
      }
      expectBrookError(() => { if (caught) throw caught; }, pattern);
    };
    await rejects({ ops: ['sum', 'fft'] }, /unknown op 'fft' in options\.ops: use sum, scan, sort, filter, read/);
    await rejects({ n: 0 }, /options\.n must be/);
    await rejects({ size: 4 }, /unknown option 'size'/);
    await rejects({ ops: 'sum' }, /options\.ops must be an array/);
    await rejects({ payload: 1 }, /options\.payload must be true or false/);
  });
});
