/**
 * A small SVG line plot of series of [x, y] points, with optional log axes. It returns SVG
 * text, so the benchmark page shows it, the headless driver writes the same file, and a
 * notebook cell displays it.
 *
 * A series' colour follows its name (or its `key`) alone, not its place in the list, so the
 * same method has the same colour in every plot that shows it (a paper page's plot beside the
 * recorded ones, the three grid sizes of one suite); two series of one plot that share a colour
 * are told apart by dashes and square markers. The x axis names every measured x where their
 * labels fit (up to 16 of them: a benchmark's sizes, 64k and 128k); otherwise, as the y axis,
 * log axes are labelled at every decade
 * (with 2 and 5 between when fewer than two decades are in range); the title and the legend
 * wrap instead of being cut, and the picture grows to hold them.
 */
import { escapeHtml } from './table';

export interface PlotSeries {
  name: string;
  points: readonly (readonly [number, number])[];
  /** What picks the colour; default `name`. Give a paper's series the key of the method it matches. */
  key?: string;
  /** A dashed line with hollow markers: values from elsewhere (a paper's figure) drawn under ours. */
  dashed?: boolean;
}

export interface PlotSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly PlotSeries[];
  logX?: boolean;
  logY?: boolean;
  /** SVG size in pixels; default 640 × 400. The height grows when the title or legend needs room. */
  width?: number;
  height?: number;
}

/** Legend text starts this far right of the plot area; characters are about this wide at 12 px (14 px for the title). */
const LEGEND_INSET = 34;
const CHAR_WIDTH = 6.6;
const TITLE_CHAR_WIDTH = 7.8;
const LINE = 15;

/** Twelve colours far enough apart to tell lines by; a name's hash picks its start in this list. */
export const PLOT_COLORS = [
  '#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b',
  '#e377c2', '#17becf', '#7f7f7f', '#bcbd22', '#111111', '#f4b400',
];

/** FNV-1a of a string: a stable hash, the same in every browser and in Node. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The colour of a series' key: PLOT_COLORS[hash(key) % 12], the same in every plot whatever else it shows. */
export function seriesColor(key: string): string {
  return PLOT_COLORS[hash(key) % PLOT_COLORS.length];
}

/** Dash patterns that tell apart series of one plot whose keys share a colour: the first keeps a solid line. */
const SHARED_DASH = ['', '2 3', '9 3 2 3', '1 2'];

/**
 * Colour and dash of each series: the colour from its key alone, so one method keeps one colour
 * across plots; where two keys of this plot share a colour, the later one in sorted order gets a
 * dash pattern and square markers instead of another colour. A `dashed` series (a paper's values)
 * is drawn dashed in any case.
 */
export function seriesStyles(series: readonly Pick<PlotSeries, 'name' | 'key' | 'dashed'>[]): { color: string; dash: string; square: boolean }[] {
  const keys = series.map((s) => s.key ?? s.name);
  const rank = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const k of [...new Set(keys)].sort()) {
    const c = seriesColor(k);
    rank.set(k, seen.get(c) ?? 0);
    seen.set(c, (seen.get(c) ?? 0) + 1);
  }
  return series.map((s, i) => {
    const r = rank.get(keys[i])!;
    return { color: seriesColor(keys[i]), dash: s.dashed ? '6 4' : SHARED_DASH[r % SHARED_DASH.length], square: r > 0 };
  });
}

/** Words of `text` in lines of at most `chars` characters (a longer word is split). */
export function wrapText(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > chars) {
      if (line) lines.push(line);
      lines.push(word.slice(0, chars));
      word = word.slice(chars);
      line = '';
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= chars) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}

/** The plot as SVG text. Points that are not finite (or not positive on a log axis) are left out. */
export function linePlot({ title, xLabel, yLabel, series, logX = false, logY = false, width = 640, height = 400 }: PlotSpec): string {
  // the right margin holds the legend: as wide as its longest name, at most 40 % of the picture;
  // longer names wrap onto more lines
  const longest = Math.max(0, ...series.map((s) => s.name.length));
  const right = Math.round(Math.min(Math.max(100, LEGEND_INSET + longest * CHAR_WIDTH + 8), width * 0.4));
  const fits = Math.max(4, Math.floor((right - LEGEND_INSET - 8) / CHAR_WIDTH));
  const legend = series.map((s) => wrapText(s.name, fits));
  const legendHeight = legend.reduce((h, l) => h + l.length * LINE + 5, 0);
  const titleLines = wrapText(title, Math.max(10, Math.floor((width - 20) / TITLE_CHAR_WIDTH)));
  const pad = { left: 70, right, top: 18 + titleLines.length * 17, bottom: 50 };
  height = Math.max(height, pad.top + pad.bottom + legendHeight + 10);

  const usable = ([x, y]: readonly [number, number]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
  const pts = series.flatMap((s) => s.points).filter(usable);
  const fx = logX ? Math.log10 : (v: number) => v;
  const fy = logY ? Math.log10 : (v: number) => v;
  let [x0, x1] = extent(pts.map(([x]) => fx(x)));
  let [y0, y1] = extent(pts.map(([, y]) => fy(y)));
  if (!logY) y0 = Math.min(0, y0);
  if (x0 === x1) [x0, x1] = logX ? [x0 - 0.5, x1 + 0.5] : [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = logY ? [y0 - 0.5, y1 + 0.5] : [y0 - 1, y1 + 1];
  const W = width - pad.left - pad.right;
  const H = height - pad.top - pad.bottom;
  // the x axis names every measured x where their labels fit (a benchmark's sizes), else round ticks
  const measured = measuredTicks(pts.map(([x]) => x), (x) => ((fx(x) - x0) / (x1 - x0)) * W);
  const xTicks = measured ? measured.map(fx) : logX ? logTicks(x0, x1) : linearTicks(x0, x1);
  const xLabelOf = (t: number, i: number) => (measured ? xValueLabel(measured[i]) : tickLabel(logX ? 10 ** t : t));
  const yTicks = logY ? logTicks(y0, y1) : linearTicks(y0, y1);
  const sx = (x: number) => pad.left + ((fx(x) - x0) / (x1 - x0)) * W;
  const sy = (y: number) => pad.top + H - ((fy(y) - y0) / (y1 - y0)) * H;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text class="title" x="${width / 2}" y="20" text-anchor="middle" font-size="14">${titleLines.map((l, i) => `<tspan x="${width / 2}" dy="${i ? 17 : 0}">${escapeHtml(l)}</tspan>`).join('')}</text>`);
  for (const [i, t] of xTicks.entries()) {
    const X = pad.left + ((t - x0) / (x1 - x0)) * W;
    out.push(`<line x1="${X}" x2="${X}" y1="${pad.top}" y2="${pad.top + H}" stroke="#eee"/>`);
    out.push(`<text class="tick" x="${X}" y="${pad.top + H + 16}" text-anchor="middle">${xLabelOf(t, i)}</text>`);
  }
  for (const t of yTicks) {
    const Y = pad.top + H - ((t - y0) / (y1 - y0)) * H;
    out.push(`<line x1="${pad.left}" x2="${pad.left + W}" y1="${Y}" y2="${Y}" stroke="#eee"/>`);
    out.push(`<text class="tick" x="${pad.left - 6}" y="${Y + 4}" text-anchor="end">${tickLabel(logY ? 10 ** t : t)}</text>`);
  }
  out.push(`<rect x="${pad.left}" y="${pad.top}" width="${W}" height="${H}" fill="none" stroke="#444"/>`);
  out.push(`<text x="${pad.left + W / 2}" y="${height - 12}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${pad.top + H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`);
  const styles = seriesStyles(series);
  let ly = pad.top + 10;
  series.forEach((s, i) => {
    const { color: c, dash: d, square } = styles[i];
    const good = s.points.filter(usable);
    const dash = d ? ` stroke-dasharray="${d}"` : '';
    const mark = s.dashed ? `fill="white" stroke="${c}" stroke-width="1.5"` : `fill="${c}"`;
    if (good.length) out.push(`<polyline fill="none" stroke="${c}" stroke-width="2"${dash} points="${good.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of good) {
      const [X, Y, r] = [sx(x), sy(y), s.dashed ? 4 : 3];
      out.push(square ? `<rect x="${(X - r).toFixed(1)}" y="${(Y - r).toFixed(1)}" width="${2 * r}" height="${2 * r}" ${mark}/>` : `<circle cx="${X.toFixed(1)}" cy="${Y.toFixed(1)}" r="${r}" ${mark}/>`);
    }
    out.push(`<line x1="${pad.left + W + 10}" x2="${pad.left + W + 30}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"${dash}/>`);
    const lines = legend[i];
    out.push(`<text class="legend" x="${pad.left + W + LEGEND_INSET}" y="${ly + 4}"><title>${escapeHtml(s.name)}</title>${lines.map((l, k) => `<tspan x="${pad.left + W + LEGEND_INSET}" dy="${k ? LINE : 0}">${escapeHtml(l)}</tspan>`).join('')}</text>`);
    ly += lines.length * LINE + 5;
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

/**
 * Ticks of a log axis whose range is [a, b] in log10 units, returned in log10 units: every
 * decade in range; when fewer than two decades fall in it, also 2 and 5 times each decade;
 * when still fewer than two ticks, 1 to 9 times each decade; at worst the two ends.
 */
export function logTicks(a: number, b: number): number[] {
  const eps = 1e-9;
  for (const mantissas of [[1], [1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
    const out: number[] = [];
    for (let d = Math.floor(a) - 1; d <= Math.ceil(b); d++)
      for (const m of mantissas) {
        const t = d + Math.log10(m);
        if (t >= a - eps && t <= b + eps) out.push(t);
      }
    if (out.length >= 2) return out;
  }
  return [a, b];
}

/** Ticks of a linear axis on [a, b]: steps of 1, 2 or 5 times a power of ten, at most 8 of them. */
export function linearTicks(a: number, b: number): number[] {
  const step = 10 ** Math.floor(Math.log10((b - a) / 5 || 1));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (b - a) / s <= 8) ?? step * 10;
  const out: number[] = [];
  for (let t = Math.ceil(a / nice) * nice; t <= b + 1e-12; t += nice) out.push(Number(t.toPrecision(12)));
  return out;
}

/** At most this many measured x values are labelled one by one (more fall back to round ticks). */
const MEASURED_TICKS = 16;

/**
 * The measured x values as the x axis's ticks, when there are at most MEASURED_TICKS of them and
 * their labels (xValueLabel) fit side by side at their places (`at`: pixels from the axis's left
 * end); otherwise null. A plot of two or three sizes then names them, 64k and 128k, instead of
 * round ticks that stop before the last point (70000 ... 1e5 beside a 131,072 point).
 */
export function measuredTicks(xs: readonly number[], at: (x: number) => number): number[] | null {
  const values = [...new Set(xs.filter(Number.isFinite))].sort((a, b) => a - b);
  if (!values.length || values.length > MEASURED_TICKS) return null;
  for (let i = 1; i < values.length; i++) {
    const room = ((xValueLabel(values[i - 1]).length + xValueLabel(values[i]).length) / 2) * CHAR_WIDTH + 6;
    if (at(values[i]) - at(values[i - 1]) < room) return null;
  }
  return values;
}

/**
 * A measured x as a label that names it exactly where it can: multiples of 1024 as 64k, 128k
 * (of 2^20 as 1M, 4M: the sizes' own units), other integers below 100,000 as they are, the rest
 * with three significant digits (1.5e6, 0.125).
 */
export function xValueLabel(v: number): string {
  const a = Math.abs(v);
  if (Number.isInteger(v) && a >= 1024) {
    if (a % 2 ** 20 === 0) return `${v / 2 ** 20}M`;
    if (a % 1024 === 0) return `${v / 1024}k`;
  }
  if (Number.isInteger(v) && a < 1e5) return String(v);
  return tickLabel(v).includes('e') ? v.toExponential(2).replace(/\.?0+e/, 'e').replace('+', '') : String(Number(v.toPrecision(3)));
}

/** A tick's text: up to 4 digits plain, larger and smaller as 1e5, 2e-3. */
export function tickLabel(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-2)) return v.toExponential(0).replace('+', '');
  return String(Number(v.toPrecision(3)));
}
