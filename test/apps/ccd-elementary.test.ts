import { expect } from 'chai';
import { BrookContext, reference, testQueriesOnGpu } from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';
import { QUERY_SETS, loadQuerySet, report, type QuerySet } from './ccd-data';

/** Counts false negatives and positives of verdicts against the ground truth. */
function score(set: QuerySet, hit: (i: number) => boolean): { fn: number[]; fp: number } {
  const fn: number[] = [];
  let fp = 0;
  for (let i = 0; i < set.count; i++) {
    if (set.truth[i] && !hit(i)) fn.push(i);
    if (!set.truth[i] && hit(i)) fp++;
  }
  return { fn, fp };
}

describe('apps/ccd elementary tests (Provot 1997, Tang et al. 2010)', () => {
  let ctx: BrookContext;
  const sets: QuerySet[] = [];
  before(async () => {
    ctx = newContext();
    for (const s of QUERY_SETS) sets.push(await loadQuerySet(s));
  });
  after(() => ctx.dispose());

  it('the data sets load with the published counts', () => {
    expect(sets.map((s) => [s.count, s.truth.filter(Boolean).length])).to.deep.equal([[125, 35], [125, 89], [54, 21], [20, 15], [92, 27], [263, 107]]);
    expect(sets.map((s) => s.exact)).to.deep.equal([true, true, true, false, true, true]);
  });

  it('the non-penetration filter never rejects a colliding query, and rejects some', () => {
    let rejected = 0;
    for (const s of sets) {
      for (let i = 0; i < s.count; i++) {
        const q = s.coords.subarray(i * 24, i * 24 + 24);
        const culled = reference.nonPenetrationFilter(s.kind, q);
        if (s.truth[i]) expect(culled, `${s.name} query ${i}`).to.equal(false);
        if (culled) rejected++;
      }
    }
    expect(rejected).to.be.greaterThan(0);
    report(`non-penetration filter (double): ${rejected} of ${sets.reduce((a, s) => a + s.count, 0)} queries culled`);
  });

  it('CPU float32 and float64 inclusion tests: zero false negatives on every set', function () {
    this.timeout(60_000);
    for (const s of sets) {
      for (const precision of ['float32', 'float64'] as const) {
        let capped = 0;
        const { fn, fp } = score(s, (i) => {
          const r = reference.ccdInclusion(s.kind, s.coords.subarray(i * 24, i * 24 + 24), precision);
          if (r.capped) capped++;
          return r.hit;
        });
        expect(fn, `${s.name} ${precision}: false negatives`).to.deep.equal([]);
        report(`${s.name}, CPU ${precision}: 0 false negatives, ${fp} false positives (${capped} by the visit cap) of ${s.count - s.truth.filter(Boolean).length} negatives`);
      }
    }
  });

  it("Provot's double cubic against the ground truth (reported)", () => {
    for (const s of sets) {
      const { fn, fp } = score(s, (i) => reference.ccdProvot(s.kind, s.coords.subarray(i * 24, i * 24 + 24)));
      report(`${s.name}, Provot double: ${fn.length} false negatives, ${fp} false positives`);
    }
    // a case it must get: a vertex falling straight through the middle of a triangle
    const q = [0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(reference.ccdProvot('vf', q)).to.equal(true);
    expect(reference.ccdProvot('vf', q.map((x, k) => (k % 3 === 0 && k % 12 === 0 ? x + 2 : x)))).to.equal(false);
  });

  it('GPU kernel: zero false negatives on every set (the float32-exact ones and the rounded data_0_1 with input radii)', async function () {
    this.timeout(120_000);
    for (const s of sets) {
      const verdict = await testQueriesOnGpu(ctx, s.kind, s.coords);
      let capped = 0;
      const { fn, fp } = score(s, (i) => {
        if (verdict[i * 2] === 2) capped++;
        return verdict[i * 2]! > 0;
      });
      expect(fn, `${s.name} GPU: false negatives`).to.deep.equal([]);
      for (let i = 0; i < s.count; i++) expect(verdict[i * 2], `${s.name} query ${i} verdict`).to.be.oneOf([0, 1, 2]);
      report(`${s.name}, GPU: 0 false negatives, ${fp} false positives (${capped} by the visit cap)`);
    }
    expectNoGLError(ctx);
  });

  it('GPU verdicts follow the geometry: a miss moved into a hit and back', async () => {
    const hit = [0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0];
    const miss = hit.map((x, k) => (k === 0 || k === 12 ? x + 2 : x));
    const v = await testQueriesOnGpu(ctx, 'vf', [...hit, ...miss]);
    expect([v[0], v[2]]).to.deep.equal([1, 0]);
  });
});
