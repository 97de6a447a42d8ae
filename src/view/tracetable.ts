/**
 * The pass-by-pass trace (`await ctx.trace.stop()`) as a table: one row per pass with its
 * kernel, kind ('kernel', 'copy', 'peel', ...), records, texture size, the streams it read and wrote, and its GPU time.
 */
import type { PassRecord } from '../core/trace';
import { escapeHtml, textTable } from './table';

const COLUMNS = ['pass', 'kernel', 'kind', 'records', 'texture', 'reads', 'writes', 'GPU ms'];

/** The trace as HTML text: a `<table class="trace">`. */
export function traceTable(passes: readonly PassRecord[]): string {
  const left = 'style="text-align:left"';
  const rows = passes
    .map(
      (p) =>
        `<tr><td>${p.pass}</td><td ${left}>${escapeHtml(p.kernel)}</td><td>${escapeHtml(p.kind)}</td><td>${p.records}</td><td>${p.width}×${p.height}</td>` +
        `<td ${left}>${p.inputs.map(escapeHtml).join('<br>') || '-'}</td><td ${left}>${p.outputs.map(escapeHtml).join('<br>')}</td>` +
        `<td>${p.gpuMs === null ? '-' : p.gpuMs.toFixed(3)}</td></tr>`,
    )
    .join('');
  return `<table class="trace"><thead><tr>${COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The trace as aligned plain text, for a console or a notebook's text output. */
export function traceText(passes: readonly PassRecord[], title = `${passes.length} passes`): string {
  return textTable({
    title,
    columns: COLUMNS,
    rows: passes.map((p) => [p.pass, p.kernel, p.kind, p.records, `${p.width}x${p.height}`, p.inputs.join('; ') || '-', p.outputs.join('; '), p.gpuMs]),
  });
}
