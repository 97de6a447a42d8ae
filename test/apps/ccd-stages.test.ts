import { expect } from 'chai';
import { BrookContext, CCD_STAGES, createCcd, reference } from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';
import { report } from './ccd-data';
import { refuses } from '../reliability/util';

describe("apps/ccd Table 1's stage breakdown (passes and GPU time per stage)", () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const balance of ['static', 'lws'] as const) {
    it(`${balance}: every pass of the frame in ctx.trace belongs to one stage; GPU times per stage and kernel add up`, async function () {
      this.timeout(120_000);
      const scene = reference.bartScene(64, 40);
      const ccd = createCcd(ctx, scene);
      const lws = { blocks: 4, threads: 16 };
      const plain = await ccd.step({ balance, lws, fromRoot: true });
      // unprofiled: the pipeline's own counts per stage, no GPU times
      expect(CCD_STAGES.reduce((a, s) => a + plain.stats.stages[s].passes, 0)).to.equal(plain.stats.passes);
      expect(plain.stats.gpuMs).to.equal(null);
      expect(CCD_STAGES.map((s) => plain.stats.stages[s].wallMs), 'no stage fences unless asked').to.deep.equal([null, null, null, null, null]);
      expect(plain.stats.kernels).to.deep.equal([]);
      for (const fromRoot of [true, false]) {
        ctx.trace.start();
        const { pairs, stats } = await ccd.step({ balance, lws, fromRoot, profile: true });
        const trace = await ctx.trace.stop();
        expect(pairs).to.deep.equal(plain.pairs);
        const sum = CCD_STAGES.reduce((a, s) => a + stats.stages[s].passes, 0);
        expect(sum, 'stage passes = passes in ctx.trace').to.equal(trace.length);
        expect(stats.passes, "the pipeline's own count = ctx.trace").to.equal(trace.length);
        expect(stats.stages.refit.passes, 'one refit pass per level').to.equal(ccd.bvh.depth);
        expect(stats.stages.traversal.passes).to.be.greaterThan(0);
        expect(stats.stages.balancing.passes).to.be.greaterThan(0);
        expect(stats.stages.elementary.passes).to.be.greaterThan(0);
        if (balance === 'lws') {
          // evalCollision and the termination pass per iteration (plus the loop's queries in flight)
          const evals = trace.filter((r) => r.kernel === 'LwsEvalCollision').length;
          expect(evals).to.be.at.least(stats.iterations);
          expect(stats.stages.traversal.passes).to.equal(evals + trace.filter((r) => r.kernel === 'LwsLive').length);
          expect(stats.stages.balancing.wallMs, 'lws balancing has no wall time of its own').to.equal(null);
        } else {
          // one traversal pass per step, and (steps run ahead from last frame's list sizes) per
          // step past the end that the group's count read found empty
          expect(stats.stages.traversal.passes, 'a traversal pass per step').to.be.at.least(stats.iterations);
          expect(trace.filter((r) => r.kernel === 'CcdTraverse').length).to.equal(stats.stages.traversal.passes);
          expect(stats.stages.balancing.wallMs, 'a profiled frame has stage fences').to.be.a('number');
        }
        expect(stats.kernels.reduce((a, k) => a + k.passes, 0), 'kernel table covers every pass').to.equal(trace.length);
        if (ctx.caps.timerQuery && stats.gpuMs !== null) {
          // no disjoint measurement: every stage's and kernel's GPU time is the sum of its passes'
          expect(trace.every((r) => r.gpuMs !== null && r.gpuMs >= 0)).to.equal(true);
          const total = trace.reduce((a, r) => a + r.gpuMs!, 0);
          expect(stats.gpuMs).to.be.closeTo(total, 1e-6 * Math.max(1, total));
          const byStage = CCD_STAGES.reduce((a, s) => a + stats.stages[s].gpuMs!, 0);
          expect(byStage).to.be.closeTo(total, 1e-6 * Math.max(1, total));
          expect(stats.kernels.reduce((a, k) => a + k.gpuMs!, 0)).to.be.closeTo(total, 1e-6 * Math.max(1, total));
        }
        report(`${balance} BART64 ${fromRoot ? 'from the root' : 'from the front'}: ${CCD_STAGES.map((s) => `${s} ${stats.stages[s].passes} passes ${stats.stages[s].gpuMs?.toFixed(2) ?? '-'} GPU ms`).join(', ')}`);
      }
      // a profiled frame outside a trace starts and stops one of its own
      const own = await ccd.step({ balance, lws, profile: true });
      expect(ctx.trace.active).to.equal(false);
      expect(CCD_STAGES.reduce((a, s) => a + own.stats.stages[s].passes, 0)).to.equal(own.stats.passes);
      expect(own.stats.kernels.length).to.be.greaterThan(0);
      ccd.dispose();
      expectNoGLError(ctx);
    });
  }

  it('refuses bad lazy-work-stealing options and positions by name, before any pass, stats unchanged', async () => {
    const ccd = createCcd(ctx, reference.bartScene(64, 40), { lws: { threads: 16 } });
    const bad: Array<[object, RegExp]> = [
      [{ blocks: 0 }, /options.lws.blocks must be in \[1, 32\]|options.lws.blocks/],
      [{ blocks: 33 }, /options.lws.blocks/],
      [{ blocks: 2.5 }, /options.lws.blocks must be an integer/],
      [{ threads: 0 }, /options.lws.threads/],
      [{ threads: 2048 }, /options.lws.threads/],
      [{ stackCap: 128 }, /options.lws.stackCap \(at least \(pop \+ 6\) x threads\)/], // (4 + 6) x 16 (threads given at creation) = 160
      [{ pop: 1, stackCap: 100 }, /options.lws.stackCap/], // (1 + 6) x 16 = 112
      [{ pop: 0 }, /options.lws.pop/],
      [{ pop: 5 }, /options.lws.pop/],
      [{ steps: 0 }, /options.lws.steps/],
      [{ steps: 1.5 }, /options.lws.steps/],
      [{ threads: 8, dequeCap: 4 }, /options.lws.dequeCap/],
      [{ inFlight: 0 }, /options.lws.inFlight/],
    ];
    for (const [lws, pattern] of bad) await refuses(ctx, () => ccd.step({ balance: 'lws', lws }), pattern, JSON.stringify(lws));
    const x = new Float32Array(ccd.scene.x0);
    x[7] = NaN;
    await refuses(ctx, () => ccd.setPositions(x, ccd.scene.x1 as Float32Array), /setPositions: x0\[7\] is NaN/);
    await refuses(ctx, () => ccd.setPositions(x.subarray(3), x), /setPositions: x0 must hold/);
    ccd.dispose();
    await refuses(ctx, () => ccd.step(), /disposed/);
  });

  it('refuses a non-boolean profile option', async () => {
    const ccd = createCcd(ctx, reference.bartScene(64, 40));
    let err: unknown;
    try {
      await ccd.step({ profile: 'yes' as unknown as boolean });
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/BrookError.*profile/);
    await refuses(ctx, () => ccd.step({ fences: 1 as unknown as boolean }), /options\.fences must be true or false/);
    ccd.dispose();
  });
});
