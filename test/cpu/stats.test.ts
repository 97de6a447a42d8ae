// A CPU context's stats() has the shape of a GPU context's (src/core/context.ts Stats): every key,
// each a number, so a spec that compares counts before and after (domain.test's) compares numbers
// on either backend. The GL counts are 0 on the CPU; streams and bytes follow its live streams.
import { expect } from 'chai';
import { BrookContext, createContext, type Stats } from '../../src/index';

/** Every key of Stats: the Record type makes tsc fail here when Stats gains or loses one. */
const STATS_KEYS: Record<keyof Stats, true> = {
  textures: true,
  textureBytes: true,
  renderbuffers: true,
  renderbufferBytes: true,
  framebuffers: true,
  programs: true,
  vertexArrays: true,
  buffers: true,
  queries: true,
  syncs: true,
  pooledTextures: true,
  readSpares: true,
  readSpareBytes: true,
};

describe('cpu/stats(): a GPU context\'s Stats keys, numbers only', () => {
  it('has every Stats key as a finite number (GL counts 0) and counts its streams and bytes', () => {
    const ctx = createContext({ backend: 'cpu' }) as unknown as BrookContext;
    try {
      const st = ctx.stats() as Stats & { streams: number; bytes: number };
      for (const k of Object.keys(STATS_KEYS) as Array<keyof Stats>) {
        expect(st[k], `stats().${k}`).to.be.a('number');
        expect(Number.isFinite(st[k]), `stats().${k} is finite`).to.equal(true);
        expect(st[k], `stats().${k}: no GL objects on the CPU`).to.equal(0);
      }
      for (const [k, v] of Object.entries(st)) expect(v, `stats().${k}`).to.be.a('number');
      const a = ctx.stream('float4', 10);
      const b = ctx.stream('char', [3, 5]);
      const after = ctx.stats() as Stats & { streams: number; bytes: number };
      expect(after.streams - st.streams).to.equal(2);
      expect(after.bytes - st.bytes).to.equal(160 + 15);
      // a spec's before-and-after check (domain.test) compares numbers, not NaN
      expect(after.textures - after.pooledTextures).to.equal(0);
      [a, b].forEach((s) => s.dispose());
      expect((ctx.stats() as Stats & { streams: number }).streams).to.equal(st.streams);
    } finally {
      ctx.dispose();
    }
  });

  if (typeof window !== 'undefined') {
    it('has the same Stats keys as a GPU context\'s stats()', () => {
      const gpu = createContext();
      const cpu = createContext({ backend: 'cpu' }) as unknown as BrookContext;
      try {
        const g = Object.keys(gpu.stats()).sort();
        expect(g, 'the GPU context\'s keys are Stats\'s').to.deep.equal(Object.keys(STATS_KEYS).sort());
        expect(Object.keys(cpu.stats()).filter((k) => k in STATS_KEYS).sort()).to.deep.equal(g);
      } finally {
        gpu.dispose();
        cpu.dispose();
      }
    });
  }
});
