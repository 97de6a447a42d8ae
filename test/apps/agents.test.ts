import { expect } from 'chai';
import { BrookContext, DIRECTIONS, createAgents, reference } from '../../src/index';
import { newContext, rng } from '../helpers';

describe('apps/agents (Oat et al. 2009, section 4.2)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('each agent picks a direction of maximal fitness (eqs. 6-7) against a brute-force CPU evaluation', async () => {
    const n = 600;
    const crowd = createAgents(ctx, { count: n, radius: 0.01, seed: 2 });
    // a crowded random state with random velocities, so many directions collide
    const r = rng(6);
    const state = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) state.set([0.3 + 0.4 * r(), 0.3 + 0.4 * r(), (r() - 0.5) * 0.16, (r() - 0.5) * 0.16], i * 4);
    crowd.state.write(state);
    const goals = crowd.goals.readSync();
    const choice = (await crowd.decide()).readSync();
    const o = { radius: crowd.radius, speed: crowd.speed, horizon: crowd.horizon, weight: crowd.weight };
    let blocked = 0;
    for (let i = 0; i < n; i++) {
      const best = reference.agentBestFitness(state, goals, i, DIRECTIONS, o);
      // float32 against float64: fitness values agree to 1e-4 (a square root and a division per pair)
      expect(choice[i * 4 + 2], `agent ${i}: the fitness of its choice`).to.be.closeTo(best, 1e-4);
      const chosen = reference.agentFitness(state, goals, i, choice[i * 4]! / o.speed, choice[i * 4 + 1]! / o.speed, o);
      expect(chosen, `agent ${i}: the CPU fitness of the GPU's direction`).to.be.closeTo(best, 1e-4);
      if (choice[i * 4 + 3]! < o.horizon) blocked++;
    }
    expect(blocked, 'some chosen directions still meet someone within the horizon').to.be.greaterThan(0);
    crowd.dispose();
  });

  it('agents walk to their goals without leaving the world', async () => {
    const crowd = createAgents(ctx, { count: 200, seed: 3 });
    const start = crowd.state.readSync() as Float32Array;
    const goals = crowd.goals.readSync();
    const dist = (s: Float32Array) => Array.from({ length: 200 }, (_, i) => Math.hypot(goals[i * 2]! - s[i * 4]!, goals[i * 2 + 1]! - s[i * 4 + 1]!)).reduce((a, b) => a + b, 0);
    for (let k = 0; k < 40; k++) await crowd.step(1 / 30);
    const now = crowd.state.readSync() as Float32Array;
    for (let i = 0; i < 200 * 4; i++) expect(Number.isFinite(now[i]!)).to.equal(true);
    for (let i = 0; i < 200; i++) for (const k of [0, 1]) expect(now[i * 4 + k]).to.be.within(0, 1);
    expect(dist(now), 'closer to the goals').to.be.lessThan(dist(start) - 200 * 0.05);
    crowd.dispose();
  });
});
