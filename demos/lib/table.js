// Tables as HTML (pages) and as aligned text (the headless driver prints the same rows).
export function htmlTable({ title, columns, rows }) {
  const head = columns.map((c) => `<th>${c}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${format(v)}</td>`).join('')}</tr>`).join('');
  return `<h3>${title}</h3><table class="bench"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function textTable({ title, columns, rows }) {
  const cells = [columns, ...rows.map((r) => r.map(format))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r) => r.map((v, i) => String(v).padStart(widths[i])).join('  ');
  return [title, line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function format(v) {
  if (typeof v !== 'number') return v === null || v === undefined ? '-' : String(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}
