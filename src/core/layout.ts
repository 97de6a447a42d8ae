/**
 * Stream layouts: how a shape of records maps onto a 2D texture. stream.ts re-exports them.
 */
import { check } from './errors';
import { describeValue } from './validate';

/** A 1D length or a 2D `[height, width]` shape. */
export type StreamShape = number | readonly [number, number];

export interface Layout {
  /** Logical record count. */
  length: number;
  /** 1 for a 1D stream, 2 for a 2D one. */
  dims: 1 | 2;
  /** Logical shape: [n] or [height, width]. */
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
    const capacity = maxTextureSize * maxTextureSize;
    check(
      n <= capacity,
      () => `a stream of ${n} records exceeds this device's capacity of ${capacity} (MAX_TEXTURE_SIZE ${maxTextureSize} squared): split the data into several streams`,
    );
    let width = 1;
    while (width * width < n) width *= 2;
    width = Math.min(width, maxTextureSize);
    return { length: n, dims: 1, shape: [n], width, height: Math.ceil(n / width) };
  }
  check(
    Array.isArray(shape) && shape.length === 2,
    () => `a stream shape is a length n or a 2D [height, width], got ${describeValue(shape)}`,
  );
  const [h, w] = shape;
  check(
    Number.isInteger(h) && Number.isInteger(w) && h >= 1 && w >= 1,
    () => `a 2D stream shape must be two positive integers [height, width], got [${h}, ${w}]`,
  );
  check(
    h <= maxTextureSize && w <= maxTextureSize,
    () => `a 2D stream of [${h}, ${w}] exceeds MAX_TEXTURE_SIZE ${maxTextureSize} on this device`,
  );
  return { length: h * w, dims: 2, shape: [h, w], width: w, height: h };
}
