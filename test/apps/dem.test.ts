import { expect } from 'chai';
import { BrookContext, createDem, demParameters, reference, type Dem } from '../../src/index';
import { newContext, recordWaits } from '../helpers';

describe('apps/dem (Oat et al. 2009, section 4.1)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('collision forces through the 27-neighbourhood equal a brute-force CPU sum (eqs. 1-5)', async () => {
    const n = 400;
    const d = 1 / 16;
    const dem = createDem(ctx, { count: n, diameter: d });
    const { positions: pos, velocities: vel } = reference.demClump(n, 3);
    dem.positions.write(pos);
    dem.velocities.write(vel);
    const got = (await dem.computeForces()).readSync();
    const { force, scale } = reference.demForces(pos, vel, dem.params.spring, dem.params.damping, d);
    let contacts = 0;
    for (let i = 0; i < n; i++)
      for (let k = 0; k < 3; k++) {
        const bound = reference.demForceTolerance(scale[i * 3 + k]!); // no particle here has more than 64 contacts
        expect(Math.abs(got[i * 4 + k]! - force[i * 3 + k]!), `particle ${i} component ${k}`).to.be.at.most(bound);
        if (scale[i * 3 + k]! > 0) contacts++;
      }
    expect(contacts).to.be.greaterThan(n);
    expect(dem.lastBinning!.overflows + dem.lastBinning!.passes).to.be.greaterThan(1); // several per cell: overflowed or several passes
    dem.dispose();
  });

  it('particles fall onto the collision plane and stay inside the box (no NaN)', async () => {
    const dem = createDem(ctx, { count: 500, diameter: 1 / 32 });
    for (let s = 0; s < 150; s++) await dem.step(1 / 300, { push: [0, -10, 0] });
    const p = dem.positions.readSync();
    let meanY = 0;
    for (let i = 0; i < 500; i++) {
      for (let k = 0; k < 3; k++) expect(p[i * 4 + k], `particle ${i} coordinate ${k}`).to.be.within(0, 1); // also not NaN
      meanY += p[i * 4 + 1]! / 500;
    }
    expect(meanY, 'the block fell from y = 0.3 and more').to.be.lessThan(0.2);
    dem.dispose();
  });
  it("a step polls the binning's NaN probe before it stalls on the survivor count, one turn (no poll turn after the stall alone)", async () => {
    const dem = createDem(ctx, { count: 4096, diameter: 1 / 26 }); // the benchmark's 4,096 particles
    await dem.step(1 / 600);
    const waits = await recordWaits(ctx, () => dem.step(1 / 600));
    const firstRead = waits.indexOf('read');
    expect(waits.filter((w) => w === 'answer'), `one query answered, the probe (${waits.join(' ')})`).to.have.length(1);
    expect(waits.slice(0, firstRead).filter((w) => w === 'poll'), `one poll turn before the first count read (${waits.join(' ')})`).to.have.length(1);
    expect(waits.filter((w) => w === 'poll').length, `polls in all (${waits.join(' ')})`).to.be.at.most(3);
    dem.dispose();
  });

  /** Pairs closer than `limit` and the median height, read back from the GPU. */
  function pile(dem: Dem, limit: number): { close: number; medianY: number } {
    const p = dem.positions.readSync();
    const n = dem.count;
    let close = 0;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = p[i * 4]! - p[j * 4]!, dy = p[i * 4 + 1]! - p[j * 4 + 1]!, dz = p[i * 4 + 2]! - p[j * 4 + 2]!;
        if (dx * dx + dy * dy + dz * dz < limit * limit) close++;
      }
    const ys = Array.from({ length: n }, (_, i) => p[i * 4 + 1]!).sort((a, b) => a - b);
    return { close, medianY: ys[n >> 1]! };
  }

  it('a pushed pile keeps its particles apart with demParameters (no squashing)', async () => {
    // 512 particles of d = 1/16: about 2.4 layers on the floor; fall, then push at 2 g
    const n = 512, d = 1 / 16;
    const { spring, damping, dt } = demParameters({ count: n, diameter: d });
    expect(dt * Math.sqrt(12 * spring), 'stiffest mode inside the explicit bound').to.be.lessThan(2);
    expect(12 * damping * dt, 'damping inside the explicit bound').to.be.lessThan(2);
    const dem = createDem(ctx, { count: n, diameter: d, spring, damping });
    const steps = (t: number) => Math.ceil(t / dt);
    for (let s = 0; s < steps(0.3); s++) await dem.step(dt);
    for (let s = 0; s < steps(0.2); s++) await dem.step(dt, { push: [0, -20, 0] });
    const { close, medianY } = pile(dem, 0.5 * d);
    expect(close, 'pairs closer than half a diameter while pushed').to.equal(0);
    // 2.4 layers: the median particle sits more than a diameter up; a squashed pile sits at 0.5
    expect(medianY / d, 'median height in diameters').to.be.greaterThan(0.9);
    dem.dispose();
  });
});
