import { expect } from 'chai';
import { BrookContext, createCcd, reference } from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';
import { report } from './ccd-data';

describe('ccd steady frames', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('ccd steady: frames run ahead from the front create no texture, framebuffer or program (the first included), with the CPU front and pairs', async function () {
    this.timeout(120_000);
    const c = new reference.ClothBall(24, 1);
    for (let i = 0; i < 40; i++) c.advance();
    const scene = c.scene();
    const ccd = createCcd(ctx, scene);
    const orphans = reference.orphanSets(scene);
    const f32 = (kind: 'vf' | 'ee', q: Float64Array) => reference.ccdInclusion(kind, q, 'float32').hit;
    const gl = ctx.gl as unknown as Record<string, (...a: unknown[]) => unknown>;
    const made = { textures: 0, framebuffers: 0, programs: 0 };
    const names = { textures: 'createTexture', framebuffers: 'createFramebuffer', programs: 'createProgram' } as const;
    const saved = Object.values(names).map((n) => [n, gl[n]!] as const);
    for (const [key, name] of Object.entries(names) as Array<[keyof typeof made, string]>) {
      const f = gl[name]!.bind(ctx.gl);
      gl[name] = (...a: unknown[]) => (made[key]++, f(...a));
    }
    const rows: string[] = [];
    try {
      let cpu = reference.ccdReferenceStep(scene, ccd.bvh, orphans, f32);
      // frame 0 from the root, frame 1 the first from the front (its counts read step by step), then run ahead
      for (let f = 0; f < 5; f++) {
        const before = { ...made };
        const r = await ccd.step();
        const d = { textures: made.textures - before.textures, framebuffers: made.framebuffers - before.framebuffers, programs: made.programs - before.programs };
        if (f > 0) cpu = reference.ccdReferenceStep(scene, ccd.bvh, orphans, f32, cpu.front);
        expect(r.pairs, `frame ${f}: pairs`).to.deep.equal(cpu.pairs);
        expect(reference.frontKeys(await ccd.readFront()), `frame ${f}: front`).to.deep.equal(reference.frontKeys(cpu.front));
        expect(r.stats.fromRoot, `frame ${f}: from the root`).to.equal(f === 0);
        if (f >= 2) {
          expect(r.stats.roundTrips, `frame ${f}: run ahead`).to.be.lessThan(6);
          expect(d, `frame ${f}: made`).to.deep.equal({ textures: 0, framebuffers: 0, programs: 0 });
        }
        rows.push(`frame ${f}: ${d.textures} textures, ${d.framebuffers} framebuffers, ${d.programs} programs made, ${r.stats.roundTrips} round trips`);
      }
    } finally {
      for (const [n, f] of saved) gl[n] = f;
    }
    report(`cloth 24x24, the same positions stepped 5 times: ${rows.join('; ')}`);
    ccd.dispose();
    expectNoGLError(ctx);
  });
});
