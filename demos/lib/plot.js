// A small SVG line plot: series of [x, y] points, optional log axes. Returns SVG text, so the
// benchmark page shows it and the headless driver writes the same file.
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

export function linePlot({ title, xLabel, yLabel, series, logX = false, logY = false, width = 640, height = 400 }) {
  const pad = { left: 70, right: 160, top: 36, bottom: 50 };
  const pts = series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0));
  const fx = logX ? Math.log10 : (v) => v;
  const fy = logY ? Math.log10 : (v) => v;
  let [x0, x1] = extent(pts.map(([x]) => fx(x)));
  let [y0, y1] = extent(pts.map(([, y]) => fy(y)));
  if (!logY) y0 = Math.min(0, y0);
  if (x0 === x1) { x0 -= 1; x1 += 1; }
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const W = width - pad.left - pad.right;
  const H = height - pad.top - pad.bottom;
  const sx = (x) => pad.left + ((fx(x) - x0) / (x1 - x0)) * W;
  const sy = (y) => pad.top + H - ((fy(y) - y0) / (y1 - y0)) * H;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="${width / 2 - pad.right / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`);
  for (const t of ticks(x0, x1, logX)) {
    const X = pad.left + ((t - x0) / (x1 - x0)) * W;
    out.push(`<line x1="${X}" x2="${X}" y1="${pad.top}" y2="${pad.top + H}" stroke="#eee"/>`);
    out.push(`<text x="${X}" y="${pad.top + H + 16}" text-anchor="middle">${fmt(logX ? 10 ** t : t)}</text>`);
  }
  for (const t of ticks(y0, y1, logY)) {
    const Y = pad.top + H - ((t - y0) / (y1 - y0)) * H;
    out.push(`<line x1="${pad.left}" x2="${pad.left + W}" y1="${Y}" y2="${Y}" stroke="#eee"/>`);
    out.push(`<text x="${pad.left - 6}" y="${Y + 4}" text-anchor="end">${fmt(logY ? 10 ** t : t)}</text>`);
  }
  out.push(`<rect x="${pad.left}" y="${pad.top}" width="${W}" height="${H}" fill="none" stroke="#444"/>`);
  out.push(`<text x="${pad.left + W / 2}" y="${height - 12}" text-anchor="middle">${esc(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${pad.top + H / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const good = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0));
    if (good.length) out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${good.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of good) out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${c}"/>`);
    const ly = pad.top + 10 + i * 18;
    out.push(`<line x1="${pad.left + W + 10}" x2="${pad.left + W + 30}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"/>`);
    out.push(`<text x="${pad.left + W + 34}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

function extent(values) {
  if (!values.length) return [0, 1];
  return [Math.min(...values), Math.max(...values)];
}

function ticks(a, b, log) {
  if (log) {
    const out = [];
    for (let t = Math.ceil(a); t <= Math.floor(b); t++) out.push(t);
    return out.length >= 2 ? out : [a, b];
  }
  const step = 10 ** Math.floor(Math.log10((b - a) / 5 || 1));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (b - a) / s <= 8) ?? step * 10;
  const out = [];
  for (let t = Math.ceil(a / nice) * nice; t <= b + 1e-12; t += nice) out.push(t);
  return out;
}

function fmt(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-2)) return v.toExponential(0);
  return String(Number(v.toPrecision(3)));
}

function esc(s) {
  return String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
}
