// The puzzle book (src/view/puzzles): every puzzle's solution passes every case on the GPU, its
// starter and each deliberately wrong answer fail with the wrong records named, and a compile
// error names the student's line.
import { expect } from 'chai';
import { BrookContext, PUZZLES, checkPuzzle, puzzleReport } from '../../src/index';
import { newContext } from '../helpers';

describe('view/puzzles', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('has 14 to 18 puzzles in the book, numbered in order, each with hints, a cited solution and a wrong answer', () => {
    expect(PUZZLES.length).to.be.within(14, 18);
    PUZZLES.forEach((p, i) => {
      expect(p.n).to.equal(i + 1);
      expect(p.hints.length, p.id).to.be.at.least(2);
      expect(p.source, p.id).to.match(/Buck|Horn|Harris|Nyland|Oat|brookgl/);
      expect(p.wrong.length, p.id).to.be.at.least(1);
      expect(p.sizes.some(([n]) => n === 1), `${p.id} checks a size of 1`).to.equal(true);
    });
  });

  for (const p of PUZZLES) {
    it(`${p.n}. ${p.title}: the solution passes, the starter and ${p.wrong.map((w) => w.what).join('; ')} fail`, async () => {
      const live = () => ctx.stats().textures - ctx.stats().pooledTextures;
      const before = live();
      const good = await checkPuzzle(ctx, p.n, p.solution);
      expect(good.error, puzzleReport(good)).to.equal(null);
      expect(good.pass, puzzleReport(good)).to.equal(true);
      expect(good.cases.length).to.equal(p.sizes.length);
      for (const c of good.cases) expect(c.wrong).to.equal(0);
      for (const [what, source] of [['the starter', p.starter], ...p.wrong.map((w) => [w.what, w.source])] as [string, string][]) {
        const r = await checkPuzzle(ctx, p.n, source);
        expect(r.pass, `${what} must fail:\n${puzzleReport(r)}`).to.equal(false);
        if (r.error === null) {
          const bad = r.diagnosis!;
          expect(bad, `${what}: a failing case is diagnosed`).to.not.equal(null);
          expect(bad.pass).to.equal(false);
          expect(bad.first, `${what}: the first wrong record is named`).to.not.equal(null);
          expect(bad.wrongMask.reduce((a, b) => a + b, 0)).to.be.greaterThan(0);
          expect(bad.passes.length, `${what}: the pass trace of the failing run`).to.be.greaterThan(0);
          expect(bad.first!.expected).to.not.equal(bad.first!.actual);
        }
      }
      expect(live(), 'no stream left behind (pooled textures aside)').to.equal(before);
      expect(ctx.stats().renderbuffers, 'no z mask left behind').to.equal(0);
    });
  }

  it('a compile error names the student\'s line; a missing kernel names the one the host runs', async () => {
    const r = await checkPuzzle(ctx, 1, 'kernel void square(float a<>, out float o<>) {\n  float b = a;\n  o = undefinedName * b;\n}');
    expect(r.pass).to.equal(false);
    expect(r.error?.line, r.error?.message).to.equal(3);
    const none = await checkPuzzle(ctx, 7, 'kernel void one(float a<>, out float o<>) { o = a; }\nkernel void two(float a<>, out float o<>) { o = a; }');
    expect(none.error?.message).to.match(/the host runs a kernel named Scan/);
    const unused = await checkPuzzle(ctx, 12, 'kernel void address(iter float i<>, out float dest<>) {\n  dest = i;\n}');
    expect(unused.error?.message, `a parameter left out: ${unused.error?.message}`).to.match(/has no parameter 'n'[\s\S]*keep its parameter list \(iter float i<>, float n, out float dest<>\)/);
  });

  it('the exactness puzzle sums past 2^24: an int total is exact where a float one is not', async () => {
    const p = PUZZLES.find((q) => q.id === 'exact')!;
    const good = await checkPuzzle(ctx, p.n, p.solution);
    for (const c of good.cases) expect(c.case.expected.data[0]).to.be.greaterThan(2 ** 24);
    const bad = await checkPuzzle(ctx, p.n, p.starter);
    expect(bad.cases[0]!.first!.actual).to.equal('16777216');
    expect(bad.cases[0]!.first!.expected).to.equal('16777217');
  });
});
