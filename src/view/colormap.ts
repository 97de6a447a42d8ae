/**
 * Colour maps for scalar streams: a value t in [0, 1] to an [r, g, b] byte triple.
 *
 * `gray` is the demos' original map; `viridis` is perceptually uniform (anchor colours of the
 * matplotlib map, interpolated linearly between nine stops); `diverging` runs blue–white–red
 * and is meant for signed data with the range made symmetric about zero (see `image.ts`).
 */

/** The names `drawStream` and `streamFigure` accept as `colormap`. */
export type ColormapName = 'gray' | 'viridis' | 'diverging';

export const COLORMAPS: readonly ColormapName[] = ['gray', 'viridis', 'diverging'];

const STOPS: Record<Exclude<ColormapName, 'gray'>, readonly (readonly [number, number, number])[]> = {
  viridis: [
    [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
  ],
  diverging: [
    [33, 102, 172], [103, 169, 207], [209, 229, 240], [247, 247, 247],
    [253, 219, 199], [239, 138, 98], [178, 24, 43],
  ],
};

/** The colour of `t` (clamped to [0, 1]) in the map `name`, as bytes. */
export function colormap(name: ColormapName, t: number): [number, number, number] {
  const u = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t));
  if (name === 'gray') {
    const v = Math.round(255 * u);
    return [v, v, v];
  }
  const stops = STOPS[name];
  const x = u * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!;
  const b = stops[i + 1]!;
  return [0, 1, 2].map((c) => Math.round(a[c]! + (b[c]! - a[c]!) * f)) as [number, number, number];
}
