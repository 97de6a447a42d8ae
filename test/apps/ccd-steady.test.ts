import { expect } from 'chai';
import { BrookContext, createCcd, reference } from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';
import { report } from './ccd-data';

/** Counts the textures, framebuffers and programs `ctx`'s GL makes from now until `restore()`. */
function countMade(ctx: BrookContext): { made: { textures: number; framebuffers: number; programs: number }; restore: () => void } {
  const gl = ctx.gl as unknown as Record<string, (...a: unknown[]) => unknown>;
  const made = { textures: 0, framebuffers: 0, programs: 0 };
  const names = { textures: 'createTexture', framebuffers: 'createFramebuffer', programs: 'createProgram' } as const;
  const saved = Object.values(names).map((n) => [n, gl[n]!] as const);
  for (const [key, name] of Object.entries(names) as Array<[keyof typeof made, string]>) {
    const f = gl[name]!.bind(ctx.gl);
    gl[name] = (...a: unknown[]) => (made[key]++, f(...a));
  }
  return { made, restore: () => saved.forEach(([n, f]) => (gl[n] = f)) };
}

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
    const { made, restore } = countMade(ctx);
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
      restore();
    }
    report(`cloth 24x24, the same positions stepped 5 times: ${rows.join('; ')}`);
    ccd.dispose();
    expectNoGLError(ctx);
  });

  it('ccd steady: after a warm-up pass over an animation, its replay on a new Ccd makes no texture, framebuffer or program in any frame (but the framebuffer of its own boxes), static and LWS, with the CPU pairs', async function () {
    this.timeout(300_000);
    // a cloth falling on a ball: each frame new positions, so its lists, fronts and joins drift
    const c = new reference.ClothBall(16, 1);
    for (let i = 0; i < 40; i++) c.advance();
    const frames: reference.CcdScene[] = [];
    for (let f = 0; f < 5; f++) frames.push(c.scene()), c.advance();
    const orphans = reference.orphanSets(frames[0]!);
    const f32 = (kind: 'vf' | 'ee', q: Float64Array) => reference.ccdInclusion(kind, q, 'float32').hit;
    const { made, restore } = countMade(ctx);
    const rows: string[] = [];
    try {
      for (const [label, options] of [['static', { balance: 'static' }], ['lws 4x32', { balance: 'lws', lws: { blocks: 4, threads: 32 } }]] as const) {
        // the frames in order from the root on a new Ccd (its hierarchy and streams made outside
        // the frames), the pairs held against the CPU's (from its own front)
        const play = async () => {
          const per: Array<typeof made> = [];
          let cpu: ReturnType<typeof reference.ccdReferenceStep> | null = null;
          const ccd = createCcd(ctx, frames[0]!);
          for (const [f, s] of frames.entries()) {
            ccd.setPositions(s.x0, s.x1);
            const before = { ...made };
            const r = await ccd.step(options);
            per.push({ textures: made.textures - before.textures, framebuffers: made.framebuffers - before.framebuffers, programs: made.programs - before.programs });
            cpu = reference.ccdReferenceStep(s, ccd.bvh, orphans, f32, r.stats.fromRoot ? undefined : cpu!.front);
            expect(r.pairs, `${label} frame ${f}: pairs`).to.deep.equal(cpu.pairs);
            expect(r.stats.fromRoot, `${label} frame ${f}: from the root`).to.equal(f === 0);
          }
          ccd.dispose();
          return per;
        };
        const warm = await play();
        const replay = await play();
        // (a Ccd carries last frames' list and compaction sizes: a new one repeats the warm-up
        // exactly); frame 0's refit is the first draw into the new Ccd's own boxes (one pass into
        // both): their framebuffer, and nothing else
        for (const [f, m] of replay.entries()) expect(m, `${label}, replayed frame ${f}: made`).to.deep.equal({ textures: 0, framebuffers: f === 0 ? 1 : 0, programs: 0 });
        const line = (per: Array<typeof made>) => per.map((m) => `${m.textures}/${m.framebuffers}/${m.programs}`).join(' ');
        rows.push(`${label}: warm-up ${line(warm)}, replay ${line(replay)}`);
      }
    } finally {
      restore();
    }
    report(`cloth 16x16 falling on a ball, 5 frames, textures/framebuffers/programs made per frame: ${rows.join('; ')}`);
    expectNoGLError(ctx);
  });
});
