/**
 * Tables of measurements as HTML (pages, notebook cells) and as aligned text (the headless
 * benchmark driver prints the same rows). Cells are numbers (formatted by `formatNumber`),
 * strings (escaped), or null/undefined (shown as '-').
 */

export type Cell = number | string | null | undefined;

export interface TableSpec {
  title: string;
  columns: string[];
  rows: Cell[][];
}

/** A number the way the tables print it: integers whole, 3 significant digits below 100. */
export function formatNumber(v: Cell): string {
  if (typeof v !== 'number') return v === null || v === undefined ? '-' : String(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The table as HTML text: a heading and a `<table class="bench">`. */
export function htmlTable({ title, columns, rows }: TableSpec): string {
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(formatNumber(v))}</td>`).join('')}</tr>`).join('');
  return `<h3>${escapeHtml(title)}</h3><table class="bench"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The table as aligned plain text (title, header, rule, rows). */
export function textTable({ title, columns, rows }: TableSpec): string {
  const cells = [columns, ...rows.map((r) => r.map(formatNumber))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: Cell[]) => r.map((v, i) => String(v ?? '').padStart(widths[i]!)).join('  ');
  return [title, line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
