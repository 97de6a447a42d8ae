// The tally of test/both.ts: every plain run of the brook specs before this one was compared with
// the CPU backend, explained by a documented rule, or refused by the CPU backend as GPU-only.
import { expect } from 'chai';
import { BY_RULE, LEFT_ALONE, tally } from '../both';

describe('brook/both backends: the brook specs\' runs compared with the CPU backend', () => {
  it('compared, differing by a documented rule, or skipped as GPU-only: every run counted', () => {
    const skippedKernels = new Set([...tally.skipped.values()].flatMap((s) => [...s]));
    const lines = [
      `      · both backends: ${tally.runs} runs of the brook specs, ${tally.compared} compared (${tally.kernels.size} kernels, ${tally.records} records), ` +
        `${[...tally.byRule.values()].reduce((a, b) => a + b, 0)} records differing by a documented rule (${[...tally.byRule.keys()].map((k) => `${k}: ${BY_RULE[k]}`).join('; ') || 'none'}), ` +
        `${tally.skippedRuns} runs skipped (${skippedKernels.size} kernels), ${tally.withOptions} runs with run options or a bound write mask (GPU only), ${tally.gpuRefused} runs the GPU refused (expected BrookErrors), ${tally.leftAlone} runs in specs left alone (${Object.keys(LEFT_ALONE).length}: ${Object.values(LEFT_ALONE).join('; ')})`,
      ...[...tally.skipped].map(([why, ks]) => `      · skipped: ${why} (${[...ks].slice(0, 8).join(', ')}${ks.size > 8 ? `, … ${ks.size} kernels` : ''})`),
    ];
    (window as unknown as { __brookReport?: (e: { type: string; text: string }) => void }).__brookReport?.({ type: 'info', text: lines.join('\n') });
    expect(tally.runs, 'runs seen in the brook specs').to.be.greaterThan(0);
    expect(tally.compared, 'runs compared').to.be.greaterThan(0);
    expect(tally.compared + tally.skippedRuns + tally.withOptions + tally.gpuRefused + tally.leftAlone, 'every run counted once').to.equal(tally.runs);
    for (const k of tally.byRule.keys()) expect(BY_RULE[k], `kernel ${k} differs: its rule`).to.be.a('string');
  });
});
