/**
 * Stream layouts: how a shape of records maps onto a 2D texture. stream.ts re-exports them.
 *
 * Every layout keeps Brook's row-major record order: record i (the shape's last dimension
 * fastest) lives at texel (i mod width, i div width).
 * - 1D, n records: width a power of two near sqrt(n) (Horn's 1D-to-2D address translation).
 * - 2D, [height, width]: the texture is exactly that shape (an image).
 * - 3D [d, h, w] and 4D [c, d, h, w]: the last dimension along x (width w), the others folded
 *   into rows (c·d·h rows), so a 3D stream reads as its d slices stacked downwards. When w or
 *   the row count exceeds MAX_TEXTURE_SIZE, the records are laid out as a 1D stream of the same
 *   length would be (power-of-two width), as BrookGPU's runtime did for every rank above 2.
 */
import { check } from './errors';
import { describeValue } from './checks';

/** A 1D length, or a shape of 2 to 4 extents, slowest first: `[height, width]`, `[d, h, w]`, `[c, d, h, w]`. */
export type StreamShape = number | readonly number[];

export interface Layout {
  /** Logical record count. */
  length: number;
  /** The rank: 1 for a 1D stream, 2 for a 2D one, 3 or 4. */
  dims: 1 | 2 | 3 | 4;
  /** Logical shape, slowest dimension first: [n], [height, width], [d, h, w] or [c, d, h, w]. */
  shape: readonly number[];
  /** Texture size in texels. */
  width: number;
  height: number;
}

/** The texture layout of a shape, or a BrookError saying why the device cannot hold it. */
export function layoutFor(shape: StreamShape, maxTextureSize: number): Layout {
  if (typeof shape === 'number') {
    const n = shape;
    check(Number.isInteger(n) && n >= 1, () => `a stream length must be a positive integer, got ${n}`);
    const width = linearWidth(n, maxTextureSize);
    return { length: n, dims: 1, shape: [n], width, height: Math.ceil(n / width) };
  }
  check(
    Array.isArray(shape) && shape.length >= 2 && shape.length <= 4,
    () => `a stream shape is a length n or a 2D [height, width], got ${describeValue(shape)} (3D and 4D shapes are arrays too: [d, h, w], [c, d, h, w])`,
  );
  const dims = shape.length as 2 | 3 | 4;
  check(
    shape.every((e) => Number.isInteger(e) && e >= 1),
    () => `a ${dims}D stream shape must be ${dims} positive integers [${dims === 2 ? 'height, width' : dims === 3 ? 'd, h, w' : 'c, d, h, w'}], got [${shape.map((e) => describeValue(e)).join(', ')}]`,
  );
  const w = shape[dims - 1]!;
  const length = shape.reduce((a, b) => a * b, 1);
  if (dims === 2) {
    const h = shape[0]!;
    check(
      h <= maxTextureSize && w <= maxTextureSize,
      () => `a 2D stream of [${h}, ${w}] exceeds MAX_TEXTURE_SIZE ${maxTextureSize} on this device`,
    );
    return { length, dims, shape: [h, w], width: w, height: h };
  }
  const rows = length / w;
  if (w <= maxTextureSize && rows <= maxTextureSize) return { length, dims, shape: [...shape], width: w, height: rows };
  const width = linearWidth(length, maxTextureSize);
  return { length, dims, shape: [...shape], width, height: Math.ceil(length / width) };
}

/** The power-of-two texture width of n records laid out linearly (1D streams). */
function linearWidth(n: number, maxTextureSize: number): number {
  const capacity = maxTextureSize * maxTextureSize;
  check(
    n <= capacity,
    () => `a stream of ${n} records exceeds this device's capacity of ${capacity} (MAX_TEXTURE_SIZE ${maxTextureSize} squared): split the data into several streams`,
  );
  let width = 1;
  while (width * width < n) width *= 2;
  return Math.min(width, maxTextureSize);
}

/** A shape's extents as Brook's vectors order them: x the fastest (last) dimension, then y, z, w; 1 beyond the rank. */
export function extentsXYZW(shape: readonly number[]): [number, number, number, number] {
  const r = [...shape].reverse();
  return [r[0] ?? 1, r[1] ?? 1, r[2] ?? 1, r[3] ?? 1];
}
