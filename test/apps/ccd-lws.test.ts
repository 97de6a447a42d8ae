import { expect } from 'chai';
import { BrookContext, createCcd, reference } from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';
import { report } from './ccd-data';

describe('apps/ccd load balancing: static compaction vs lazy work stealing (Algorithms 1-4)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  // BART-like objects (inter-object) and a crumpled cloth on a ball (self-collision)
  const cloth = () => {
    const c = new reference.ClothBall(12, 1);
    for (let i = 0; i < 50; i++) c.advance();
    return c.scene();
  };
  const scenes: Array<[string, () => reference.CcdScene]> = [
    ['BART-like 256', () => reference.bartScene(256, 40)],
    ['cloth on a ball', cloth],
  ];
  for (const [name, make] of scenes) {
    it(`${name}: identical fronts and colliding pairs, from the root and from the saved front, 1 and 4 blocks`, async function () {
      this.timeout(300_000);
      const scene = make();
      const before = ctx.stats().textures - ctx.stats().pooledTextures;
      const a = createCcd(ctx, scene), b = createCcd(ctx, scene), c = createCcd(ctx, scene);
      const sa = await a.step({ balance: 'static', fromRoot: true });
      const sb = await b.step({ balance: 'lws', fromRoot: true, lws: { blocks: 4, threads: 16 } });
      const sc = await c.step({ balance: 'lws', fromRoot: true, lws: { blocks: 1, threads: 16 } });
      const fa = reference.frontKeys(await a.readFront());
      expect(fa.length).to.be.greaterThan(10);
      expect(reference.frontKeys(await b.readFront()), 'lws front, 4 blocks').to.deep.equal(fa);
      expect(reference.frontKeys(await c.readFront()), 'lws front, 1 block').to.deep.equal(fa);
      expect(sb.pairs).to.deep.equal(sa.pairs);
      expect(sc.pairs).to.deep.equal(sa.pairs);
      // every BVTT node was processed exactly once: as many as the static traversal's
      expect(sb.stats.nodesProcessed).to.equal(sa.stats.nodesProcessed);
      expect(sc.stats.nodesProcessed).to.equal(sa.stats.nodesProcessed);
      // the CPU reference agrees on the front
      expect(fa).to.deep.equal(reference.frontKeys(reference.ccdReferenceStep(scene, a.bvh, reference.orphanSets(scene), () => false).front));
      // and from the saved front (the next step)
      const ra = await a.step({ balance: 'static' }), rb = await b.step({ balance: 'lws', lws: { blocks: 4, threads: 16 } });
      expect(rb.stats.fromRoot).to.equal(false);
      expect(rb.pairs).to.deep.equal(ra.pairs);
      expect(reference.frontKeys(await b.readFront())).to.deep.equal(reference.frontKeys(await a.readFront()));
      const l = sb.stats.lws!;
      report(`${name}: front ${sb.stats.frontSize}, ${sa.pairs.length} pairs; static ${sa.stats.iterations} iterations / ${sa.stats.passes} passes / ${sa.stats.roundTrips} round trips; ` +
        `lws 4x16 ${sb.stats.iterations} iterations (+${l.extraIterations} in flight) / ${sb.stats.passes} passes / ${sb.stats.roundTrips} round trips, utilisation ${sb.stats.utilisation.toFixed(2)}, moved ${l.moved}, stolen ${l.stolen} in ${l.steals} steals; ` +
        `1 block ${sc.stats.iterations} iterations: ratio ${(sc.stats.iterations / sb.stats.iterations).toFixed(2)}`);
      expect(sb.stats.iterations, 'four blocks finish in fewer iterations than one').to.be.lessThan(sc.stats.iterations);
      a.dispose();
      b.dispose();
      c.dispose();
      expect(ctx.stats().textures - ctx.stats().pooledTextures, 'no texture left behind').to.be.at.most(before);
      expectNoGLError(ctx);
    });
  }

  it('work moves to the deques and is stolen, and a ring too small reruns larger with the same result', async function () {
    this.timeout(300_000);
    const scene = reference.bartScene(256, 40);
    const a = createCcd(ctx, scene), b = createCcd(ctx, scene);
    const sa = await a.step({ balance: 'static' });
    // a small stack (the least: (pop + 6) x threads) pushes to the deques early; many blocks steal
    const sb = await b.step({ balance: 'lws', lws: { blocks: 8, threads: 4, stackCap: 40, dequeCap: 8 } });
    expect(sb.pairs).to.deep.equal(sa.pairs);
    expect(reference.frontKeys(await b.readFront())).to.deep.equal(reference.frontKeys(await a.readFront()));
    const l = sb.stats.lws!;
    expect(l.moved, 'nodes pushed to deques').to.be.greaterThan(0);
    expect(l.stolen, 'nodes stolen').to.be.greaterThan(0);
    expect(l.reruns, 'reruns after a ring overflow').to.be.greaterThan(0);
    // 16 blocks: the claims matrix (272 records) is 9 texture rows, pooled 10 high
    const c = createCcd(ctx, scene);
    const sc = await c.step({ balance: 'lws', lws: { blocks: 16, threads: 4 } });
    expect(sc.pairs).to.deep.equal(sa.pairs);
    expect(reference.frontKeys(await c.readFront())).to.deep.equal(reference.frontKeys(await a.readFront()));
    c.dispose();
    a.dispose();
    b.dispose();
  });
  it("a small memoryBudget: the loop compacts its front slots into the front so far when they would pass it (flushes), peakBytes within the budget, the front, pairs and nodes as static's", async function () {
    this.timeout(300_000);
    const scene = cloth();
    const before = ctx.stats().textures - ctx.stats().pooledTextures;
    // 2 blocks of 8 threads: 16 KiB of rings, and 1 KiB of front slots an iteration (the default
    // budget holds them all: no flush)
    const lws = { blocks: 2, threads: 8 };
    const BUDGET = 196608;
    const a = createCcd(ctx, scene), whole = createCcd(ctx, scene), tight = createCcd(ctx, scene, { memoryBudget: BUDGET });
    for (const fromRoot of [true, false]) {
      const from = fromRoot ? 'from the root' : 'from the front';
      const sa = await a.step({ balance: 'static', fromRoot });
      const sw = await whole.step({ balance: 'lws', fromRoot, lws });
      const st = await tight.step({ balance: 'lws', fromRoot, lws });
      report(`lws 2x8 ${from}, ${BUDGET}-byte budget: ${st.stats.lws!.flushes} flushes, peak ${st.stats.peakBytes} bytes, ${st.stats.passes} passes / ${st.stats.roundTrips} round trips; ` +
        `default budget: peak ${sw.stats.peakBytes} bytes, ${sw.stats.passes} passes / ${sw.stats.roundTrips} round trips; ${sw.stats.iterations} iterations, front ${sw.stats.frontSize}; static peak ${sa.stats.peakBytes}`);
      expect(st.stats.fromRoot, from).to.equal(fromRoot);
      const keys = reference.frontKeys(await a.readFront());
      expect(keys.length, from).to.be.greaterThan(10);
      expect(reference.frontKeys(await tight.readFront()), `front ${from}`).to.deep.equal(keys);
      expect(reference.frontKeys(await whole.readFront()), `front ${from}, default budget`).to.deep.equal(keys);
      expect(st.pairs, `pairs ${from}`).to.deep.equal(sa.pairs);
      expect(st.stats.nodesProcessed, `nodes processed ${from}`).to.equal(sa.stats.nodesProcessed);
      expect(st.stats.iterations, `iterations ${from}: a flush changes no block's work`).to.equal(sw.stats.iterations);
      expect(sw.stats.lws!.flushes, `the default budget ${from}: no flush`).to.equal(0);
      // (from the root the default budget's frame holds more than this one: else the spec tests nothing there)
      if (fromRoot) expect(sw.stats.peakBytes, `${from}: the default budget's frame holds more than ${BUDGET} bytes`).to.be.greaterThan(BUDGET);
      expect(st.stats.lws!.flushes, `flushes ${from}`).to.be.greaterThan(0);
      expect(st.stats.peakBytes, `stats.peakBytes ${from}`).to.be.at.most(BUDGET);
    }
    a.dispose();
    whole.dispose();
    tight.dispose();
    expect(ctx.stats().textures - ctx.stats().pooledTextures, 'no texture left behind').to.be.at.most(before);
    expectNoGLError(ctx);
  });
});
