/**
 * Streams as images: one pixel per record, row-major in the stream's shape (a 1D stream is
 * wrapped into a near-square), so a notebook cell or a demo page shows what a pass wrote.
 *
 * ```ts
 * const fig = await streamFigure(result, { colormap: 'viridis' });   // <figure> with range caption
 * document.body.append(fig);
 * drawStream(canvas, await s.read(), s.shape, 4);                      // the demos' lower-level call
 * ```
 *
 * Scalars go through a colour map (`colormap.ts`); vectors either show their first three
 * components as red, green and blue, each normalised to its own range (`show: 'rgb'`, the
 * default for 2-4 components), or one component or the length through a colour map
 * (`show: 1`, `show: 'length'`). Non-finite values (Horn's +infinity null records, NaN) are drawn
 * magenta and counted; records past the stream's length are transparent. `highlight` marks
 * records (a diff view: those where two backends disagree, from compareBackends' `indices`):
 * the rest are drawn grey, dimmed, and the marked ones orange (HIGHLIGHT), so a few wrong
 * records stand out of any picture.
 */
import { BrookError } from '../core/errors';
import type { Stream } from '../core/stream';
import { ColormapName, COLORMAPS, colormap } from './colormap';

export interface ImageOptions {
  /** Scalar colour map (and for `show` of one component or the length); default 'gray'. */
  colormap?: ColormapName;
  /** For records of 2-4 components: 'rgb' (default), a component index, or 'length'. */
  show?: 'rgb' | number | 'length';
  /** Fixed value range for every shown channel, instead of each channel's own min..max. */
  range?: readonly [number, number];
  /** CSS size of one record in `streamFigure` (pixels are drawn 1:1 and scaled); default picks. */
  pixelSize?: number;
  /** Caption line above the range in `streamFigure`. */
  title?: string;
  /**
   * Record indices to mark (a diff view): these records are drawn HIGHLIGHT (orange), every
   * other one grey (its colour's brightness, dimmed; non-finite ones still magenta).
   */
  highlight?: ArrayLike<number>;
}

/** What an image shows: the pixels, and per shown channel the value range it was mapped from. */
export interface StreamPixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA. */
  rgba: Uint8ClampedArray<ArrayBuffer>;
  /** One entry per shown channel: its label ('x', 'y', 'z', 'value', 'length'), lo and hi. */
  ranges: { label: string; lo: number; hi: number }[];
  /** Records with a non-finite shown value (drawn magenta). */
  nonFinite: number;
  /** Records drawn HIGHLIGHT (the distinct `highlight` indices within the image); 0 without it. */
  highlighted: number;
}

const LABELS = ['x', 'y', 'z', 'w'];
const NON_FINITE: readonly number[] = [255, 0, 255];
/** The colour of `highlight`ed records (no grey and not the non-finite magenta). */
export const HIGHLIGHT: readonly [number, number, number] = [255, 150, 0];

/** The image's [height, width] for a stream shape: 2D as is, 1D wrapped into a near-square. */
export function imageShape(shape: readonly number[]): [number, number] {
  if (shape.length === 2) return [shape[0]!, shape[1]!];
  const n = shape[0]!;
  const w = Math.max(1, Math.ceil(Math.sqrt(n)));
  return [Math.max(1, Math.ceil(n / w)), w];
}

/**
 * Maps records to RGBA bytes without touching the DOM (so tests and workers can call it).
 * `data` holds `components` numbers per record; `shape` is the stream's shape.
 */
export function streamPixels(data: ArrayLike<number>, shape: readonly number[], components: number, options: ImageOptions = {}): StreamPixels {
  if (!Number.isInteger(components) || components < 1 || components > 4) {
    throw new BrookError(`drawStream: components must be 1, 2, 3 or 4 (got ${components})`);
  }
  const cmap = options.colormap ?? 'gray';
  if (!COLORMAPS.includes(cmap)) throw new BrookError(`drawStream: colormap must be one of ${COLORMAPS.join(', ')} (got ${String(cmap)})`);
  const show = components === 1 ? 0 : (options.show ?? 'rgb');
  if (typeof show === 'number' && !(Number.isInteger(show) && show >= 0 && show < components)) {
    throw new BrookError(`drawStream: show must be 'rgb', 'length' or a component index below ${components} (got ${show})`);
  }
  const [height, width] = imageShape(shape);
  const n = Math.min(Math.floor(data.length / components), width * height);
  // The shown channels as functions of a record index.
  const channels: { label: string; at: (i: number) => number }[] =
    show === 'rgb'
      ? Array.from({ length: Math.min(components, 3) }, (_, k) => ({ label: LABELS[k]!, at: (i: number) => data[i * components + k]! }))
      : show === 'length'
        ? [{ label: 'length', at: (i: number) => { let s = 0; for (let k = 0; k < components; k++) s += data[i * components + k]! ** 2; return Math.sqrt(s); } }]
        : [{ label: components === 1 ? 'value' : LABELS[show]!, at: (i: number) => data[i * components + show]! }];
  const ranges = channels.map(({ label, at }) => {
    let lo = Infinity;
    let hi = -Infinity;
    if (options.range) [lo, hi] = options.range;
    else for (let i = 0; i < n; i++) {
      const v = at(i);
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    if (cmap === 'diverging' && channels.length === 1 && !options.range && lo <= hi) {
      const m = Math.max(Math.abs(lo), Math.abs(hi));
      [lo, hi] = [-m, m];
    }
    return { label, lo, hi };
  });
  const norm = (v: number, k: number) => {
    const { lo, hi } = ranges[k]!;
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
  };
  const rgba = new Uint8ClampedArray(new ArrayBuffer(width * height * 4));
  let nonFinite = 0;
  for (let i = 0; i < n; i++) {
    const px = i * 4;
    rgba[px + 3] = 255;
    if (channels.length === 1) {
      const v = channels[0]!.at(i);
      const c = Number.isFinite(v) ? colormap(cmap, norm(v, 0)) : (nonFinite++, NON_FINITE);
      rgba[px] = c[0]!;
      rgba[px + 1] = c[1]!;
      rgba[px + 2] = c[2]!;
      continue;
    }
    let bad = false;
    for (let k = 0; k < channels.length; k++) {
      const v = channels[k]!.at(i);
      if (!Number.isFinite(v)) bad = true;
      rgba[px + k] = Math.round(255 * Math.min(1, Math.max(0, norm(v, k))));
    }
    if (bad) {
      nonFinite++;
      [rgba[px], rgba[px + 1], rgba[px + 2]] = NON_FINITE;
    }
  }
  const highlighted = options.highlight ? markRecords(rgba, n, options.highlight) : 0;
  return { width, height, rgba, ranges, nonFinite, highlighted };
}

/** The diff view: every record grey at 60% of its brightness (magenta kept), then `marks` HIGHLIGHT. Returns the marked count. */
function markRecords(rgba: Uint8ClampedArray, n: number, marks: ArrayLike<number>): number {
  for (let i = 0; i < n; i++) {
    const px = i * 4;
    if (rgba[px] === NON_FINITE[0] && rgba[px + 1] === NON_FINITE[1] && rgba[px + 2] === NON_FINITE[2]) continue;
    const grey = Math.round(0.6 * (0.299 * rgba[px]! + 0.587 * rgba[px + 1]! + 0.114 * rgba[px + 2]!));
    rgba[px] = rgba[px + 1] = rgba[px + 2] = grey;
  }
  let count = 0;
  for (let j = 0; j < marks.length; j++) {
    const i = marks[j]!;
    if (!(Number.isInteger(i) && i >= 0)) throw new BrookError(`drawStream: highlight must hold record indices (integers >= 0), got ${String(i)} at ${j}`);
    if (i >= n) continue;
    const px = i * 4;
    if (rgba[px] === HIGHLIGHT[0] && rgba[px + 1] === HIGHLIGHT[1] && rgba[px + 2] === HIGHLIGHT[2]) continue; // marked twice
    [rgba[px], rgba[px + 1], rgba[px + 2]] = HIGHLIGHT;
    count++;
  }
  return count;
}

/**
 * Draws records into `canvas` (resized to the image) and returns what `streamPixels` computed.
 * The demos' call: `drawStream(canvas, data, shape, components)`.
 */
export function drawStream(
  canvas: HTMLCanvasElement | OffscreenCanvas,
  data: ArrayLike<number>,
  shape: readonly number[],
  components: number,
  options: ImageOptions = {},
): StreamPixels & { lo: number[]; hi: number[] } {
  const pixels = streamPixels(data, shape, components, options);
  canvas.width = pixels.width;
  canvas.height = pixels.height;
  const g = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!g) throw new BrookError('drawStream: the canvas has no 2D context (is it already used for WebGL?)');
  g.putImageData(new ImageData(pixels.rgba, pixels.width, pixels.height), 0, 0);
  return { ...pixels, lo: pixels.ranges.map((r) => r.lo), hi: pixels.ranges.map((r) => r.hi) };
}

/** A value range in words: "x 0 … 1, y -2.5 … 3" (and the non-finite count). */
export function describeRange(pixels: Pick<StreamPixels, 'ranges' | 'nonFinite'>): string {
  const parts = pixels.ranges.map(({ label, lo, hi }) => (lo > hi ? `${label}: no finite values` : `${label} ${short(lo)} … ${short(hi)}`));
  if (pixels.nonFinite) parts.push(`${pixels.nonFinite} non-finite (magenta)`);
  return parts.join(', ');
}

/**
 * A `<figure>` showing a stream (read from the GPU) or a typed array, scaled up with crisp
 * pixels, captioned with its type, size and value range, with a colour bar for scalar maps.
 */
export async function streamFigure(
  source: Stream | { data: ArrayLike<number>; shape: readonly number[]; components: number; label?: string },
  options: ImageOptions = {},
): Promise<HTMLElement> {
  const isStream = 'read' in source && typeof source.read === 'function';
  const data = isStream ? await (source as Stream).read() : (source as { data: ArrayLike<number> }).data;
  const shape = source.shape;
  const components = isStream ? (source as Stream).info.components : (source as { components: number }).components;
  const figure = document.createElement('figure');
  figure.className = 'brookgl-stream';
  figure.style.cssText = 'display:inline-block;margin:4px 8px;font:12px sans-serif;vertical-align:top';
  const canvas = document.createElement('canvas');
  const pixels = drawStream(canvas, data, shape, components, options);
  const size = options.pixelSize ?? Math.max(1, Math.floor(256 / Math.max(pixels.width, pixels.height)));
  canvas.style.cssText = `width:${pixels.width * size}px;height:${pixels.height * size}px;image-rendering:pixelated;display:block;border:1px solid #ccc`;
  figure.append(canvas);
  const single = pixels.ranges.length === 1;
  if (single) figure.append(colorBar(options.colormap ?? 'gray', pixels.width * size));
  const caption = document.createElement('figcaption');
  const what = isStream ? `${(source as Stream).type} × ${(source as Stream).length}` : `${components}-component × ${Math.floor(data.length / components)}`;
  const marked = options.highlight ? `${pixels.highlighted} record${pixels.highlighted === 1 ? '' : 's'} highlighted` : '';
  caption.textContent = [options.title, what, describeRange(pixels), marked].filter(Boolean).join(' · ');
  caption.dataset.ranges = JSON.stringify(pixels.ranges);
  figure.append(caption);
  return figure;
}

function colorBar(name: ColormapName, width: number): HTMLCanvasElement {
  const bar = document.createElement('canvas');
  bar.width = 128;
  bar.height = 1;
  const g = bar.getContext('2d')!;
  const img = g.createImageData(128, 1);
  for (let i = 0; i < 128; i++) {
    const [r, gr, b] = colormap(name, i / 127);
    img.data.set([r, gr, b, 255], i * 4);
  }
  g.putImageData(img, 0, 0);
  bar.style.cssText = `width:${Math.max(64, width)}px;height:8px;display:block`;
  return bar;
}

function short(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
}
