import { expect } from 'chai';
import { BrookContext, brook, embed, EmbedHandle, waitFrames } from '../../src/index';
import { expectBrookError, newContext } from '../helpers';

/** The embed's root is gone, its context dead (WebGL context released) and any use throws. */
function expectDisposed(host: HTMLElement, h: EmbedHandle): void {
  h.dispose();
  h.dispose(); // idempotent
  expect(h.disposed).to.equal(true);
  expect(host.contains(h.root)).to.equal(false);
  expect(h.ctx.gl.isContextLost(), 'WebGL context released').to.equal(true);
  expectBrookError(() => h.ctx.stream('float', 4), /disposed/);
}

describe('view/embed', () => {
  let host: HTMLElement;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it('filter: passes drawn, trace shown, result equal to the CPU reference; dispose frees everything', async () => {
    const h = embed(host, { demo: 'filter', n: 1024, density: 0.3, method: 'scan-multipass' });
    await h.ready;
    const s = h.state as { count: number; expected: number; matches: boolean; passes: number };
    expect(s.matches, 'indices equal to the CPU reference').to.equal(true);
    expect(s.count).to.equal(s.expected);
    expect(s.count).to.be.greaterThan(200).and.lessThan(420); // ~30 % of 1024
    expect(h.root.querySelectorAll('.bg-trace tbody tr').length).to.equal(s.passes).and.equal(h.passes.length).and.be.greaterThan(3);
    expect(h.root.querySelectorAll('.bg-view figure').length).to.be.greaterThan(3);
    expect(h.root.querySelectorAll('.bg-controls select, .bg-controls input').length).to.be.at.least(3);
    expectDisposed(host, h);
  });

  for (const options of [
    { demo: 'fluid', size: 32 },
    { demo: 'nbody', n: 256 },
    { demo: 'dem', n: 1024 },
  ] as const) {
    it(`${options.demo}: animates with its controls and a traced step; dispose stops it and frees the context`, async () => {
      const h = embed(host, { ...options, viewSize: 96 });
      await h.ready;
      expect(h.passes.length, 'passes in one traced step').to.be.greaterThan(0);
      expect(h.root.querySelectorAll('.bg-trace tbody tr').length).to.equal(h.passes.length);
      const t0 = performance.now();
      while ((h.state as { steps: number }).steps < 3 && performance.now() - t0 < 60_000) await waitFrames(1);
      expect((h.state as { steps: number }).steps, 'steps taken by the animation').to.be.at.least(3);
      expect(h.root.querySelector('.bg-error')!.textContent).to.equal('');
      expectDisposed(host, h);
      const steps = (h.state as { steps: number }).steps;
      await waitFrames(2);
      expect((h.state as { steps: number }).steps, 'no step after dispose').to.equal(steps);
    });
  }

  it('mounting and disposing 24 embeds leaves an older live context working (contexts are released)', async () => {
    const keep: BrookContext = newContext();
    try {
      for (let i = 0; i < 24; i++) {
        const h = embed(host, { demo: 'filter', n: 1024, density: 0.5 });
        await h.ready;
        expect((h.state as { matches: boolean }).matches).to.equal(true);
        h.dispose();
      }
      expect(keep.isLost, 'the older context was not dropped by the browser').to.equal(false);
      const { inc } = brook`kernel void inc(float a<>, out float b<>) { b = a + 1.0; }`;
      const a = keep.stream('float', 3, [1, 2, 3]);
      const b = keep.stream('float', 3);
      keep.run(inc!, { a, b });
      expect(Array.from(await b.read())).to.deep.equal([2, 3, 4]);
    } finally {
      keep.dispose();
    }
  });

  it('refuses an unknown demo or a missing element with a BrookError', () => {
    expectBrookError(() => embed(host, { demo: 'nope' } as never), /options.demo must be one of filter, fluid, nbody, dem/);
    expectBrookError(() => embed(null as never, { demo: 'filter' }), /element must be a DOM element/);
    expect(host.children.length).to.equal(0);
  });
});
