/**
 * A small SVG line plot of series of [x, y] points, with optional log axes. It returns SVG
 * text, so the benchmark page shows it, the headless driver writes the same file, and a
 * notebook cell displays it.
 */
import { escapeHtml } from './table';

export interface PlotSeries {
  name: string;
  points: readonly (readonly [number, number])[];
}

export interface PlotSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly PlotSeries[];
  logX?: boolean;
  logY?: boolean;
  /** SVG size in pixels; default 640 × 400. */
  width?: number;
  height?: number;
}

/** Legend text starts this far right of the plot area; characters are about this wide. */
const LEGEND_INSET = 34;
const CHAR_WIDTH = 6.6;

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/** The plot as SVG text. Points that are not finite (or not positive on a log axis) are left out. */
export function linePlot({ title, xLabel, yLabel, series, logX = false, logY = false, width = 640, height = 400 }: PlotSpec): string {
  // the right margin holds the legend: as wide as its longest name (about 6.6 px a character
  // at 12 px sans-serif), at most 45% of the plot; a longer name is cut with an ellipsis
  const longest = Math.max(0, ...series.map((s) => s.name.length));
  const right = Math.round(Math.min(Math.max(100, LEGEND_INSET + longest * CHAR_WIDTH + 8), width * 0.45));
  const fits = Math.floor((right - LEGEND_INSET - 8) / CHAR_WIDTH);
  const pad = { left: 70, right, top: 36, bottom: 50 };
  const usable = ([x, y]: readonly [number, number]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
  const pts = series.flatMap((s) => s.points).filter(usable);
  const fx = logX ? Math.log10 : (v: number) => v;
  const fy = logY ? Math.log10 : (v: number) => v;
  let [x0, x1] = extent(pts.map(([x]) => fx(x)));
  let [y0, y1] = extent(pts.map(([, y]) => fy(y)));
  if (!logY) y0 = Math.min(0, y0);
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  const W = width - pad.left - pad.right;
  const H = height - pad.top - pad.bottom;
  const sx = (x: number) => pad.left + ((fx(x) - x0) / (x1 - x0)) * W;
  const sy = (y: number) => pad.top + H - ((fy(y) - y0) / (y1 - y0)) * H;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="${width / 2 - pad.right / 2}" y="20" text-anchor="middle" font-size="14">${escapeHtml(title)}</text>`);
  for (const t of ticks(x0, x1, logX)) {
    const X = pad.left + ((t - x0) / (x1 - x0)) * W;
    out.push(`<line x1="${X}" x2="${X}" y1="${pad.top}" y2="${pad.top + H}" stroke="#eee"/>`);
    out.push(`<text x="${X}" y="${pad.top + H + 16}" text-anchor="middle">${tick(logX ? 10 ** t : t)}</text>`);
  }
  for (const t of ticks(y0, y1, logY)) {
    const Y = pad.top + H - ((t - y0) / (y1 - y0)) * H;
    out.push(`<line x1="${pad.left}" x2="${pad.left + W}" y1="${Y}" y2="${Y}" stroke="#eee"/>`);
    out.push(`<text x="${pad.left - 6}" y="${Y + 4}" text-anchor="end">${tick(logY ? 10 ** t : t)}</text>`);
  }
  out.push(`<rect x="${pad.left}" y="${pad.top}" width="${W}" height="${H}" fill="none" stroke="#444"/>`);
  out.push(`<text x="${pad.left + W / 2}" y="${height - 12}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${pad.top + H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const good = s.points.filter(usable);
    if (good.length) out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${good.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of good) out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${c}"/>`);
    const ly = pad.top + 10 + i * 18;
    out.push(`<line x1="${pad.left + W + 10}" x2="${pad.left + W + 30}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"/>`);
    const name = s.name.length > fits ? `${s.name.slice(0, Math.max(1, fits - 1))}…` : s.name;
    out.push(`<text x="${pad.left + W + LEGEND_INSET}" y="${ly + 4}"><title>${escapeHtml(s.name)}</title>${escapeHtml(name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

function extent(values: number[]): [number, number] {
  if (!values.length) return [0, 1];
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function ticks(a: number, b: number, log: boolean): number[] {
  if (log) {
    const out: number[] = [];
    for (let t = Math.ceil(a); t <= Math.floor(b); t++) out.push(t);
    return out.length >= 2 ? out : [a, b];
  }
  const step = 10 ** Math.floor(Math.log10((b - a) / 5 || 1));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (b - a) / s <= 8) ?? step * 10;
  const out: number[] = [];
  for (let t = Math.ceil(a / nice) * nice; t <= b + 1e-12; t += nice) out.push(t);
  return out;
}

function tick(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-2)) return v.toExponential(0);
  return String(Number(v.toPrecision(3)));
}
