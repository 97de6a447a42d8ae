// The tally of test/both.ts (the run's last spec): every plain run of the specs of its SUITES before it was compared with
// the CPU backend, explained by a documented rule, refused by the CPU backend as GPU-only, or counted as GPU-only (run options, GPU refusals).
import { expect } from 'chai';
import { BY_RULE, LEFT_ALONE, SUITES, tally } from '../both';

describe('brook/both backends: the brook specs\' runs compared with the CPU backend', () => {
  it('compared, differing by a documented rule, or skipped as GPU-only: every run counted', () => {
    // every run has exactly one outcome (test/both.ts counts each run once, where its outcome is known)
    const runs = tally.compared + tally.skippedRuns + tally.withOptions + tally.gpuRefused + tally.leftAlone + tally.unexplained;
    const skippedKernels = new Set([...tally.skipped.values()].flatMap((s) => [...s.kernels]));
    const lines = [
      `      · both backends: ${runs} runs of the specs (suites ${SUITES.join(', ')}), ${tally.compared} compared (${tally.kernels.size} kernels, ${tally.records} records), ` +
        `${[...tally.byRule.values()].reduce((a, b) => a + b, 0)} records differing by a documented rule (${[...tally.byRule.keys()].map((k) => `${k}: ${BY_RULE[k]}`).join('; ') || 'none'}), ` +
        `${tally.skippedRuns} runs skipped (${skippedKernels.size} kernels), ${tally.withOptions} runs with run options other than mask, invert and region (GPU only), ${tally.gpuRefused} runs the GPU refused (expected BrookErrors), ${tally.leftAlone} runs in specs left alone (${Object.keys(LEFT_ALONE).length}: ${Object.values(LEFT_ALONE).join('; ')})`,
      ...[...tally.unexplainedKernels].map(([k, m]) => `      · UNEXPLAINED ${k}: ${m}`),
      ...[...tally.skipped].map(([why, { kernels: ks, runs: n }]) => `      · skipped, ${n} runs of ${ks.size} kernels: ${why} (${[...ks].slice(0, 8).join(', ')}${ks.size > 8 ? ', …' : ''})`),
    ];
    (window as unknown as { __brookReport?: (e: { type: string; text: string }) => void }).__brookReport?.({ type: 'info', text: lines.join('\n') });
    expect(tally.compared, 'runs compared').to.be.greaterThan(0);
    expect(tally.kernels.size, 'kernels compared').to.be.within(1, tally.compared);
    expect(tally.records, 'records compared').to.be.at.least(tally.compared);
    expect(tally.skippedRuns, 'skipped runs against their kernels').to.be.at.least(skippedKernels.size);
    expect([...tally.skipped.values()].reduce((a, s) => a + s.runs, 0), 'skipped runs by reason').to.equal(tally.skippedRuns);
    expect(tally.unexplained, 'runs that differed with no documented rule (each failed its own spec)').to.equal(0);
    for (const k of tally.byRule.keys()) expect(BY_RULE[k], `kernel ${k} differs: its rule`).to.be.a('string');
  });
});
