/**
 * Brook's stream shapes on the CPU: streams of 1 to 4 dimensions in row-major order (the last
 * dimension fastest), `indexof` positions, gathers by position, the replication and stride rule
 * for inputs of another shape, and domains (sub-boxes) read and written. Positions are Brook's
 * vectors: x the fastest dimension, then y, z, w.
 */

/** A shape's extents x first (x the last, fastest dimension), 1 beyond its rank. */
export function shapeExtents(shape: readonly number[]): number[] {
  const r = [...shape].reverse();
  return [0, 1, 2, 3].map((k) => r[k] ?? 1);
}

/** The position (x first, four components) of record i in a stream of `shape`. */
export function positionOf(i: number, shape: readonly number[]): number[] {
  const e = shapeExtents(shape);
  const out: number[] = [];
  for (let k = 0; k < 4; k++) {
    out.push(i % e[k]!);
    i = Math.floor(i / e[k]!);
  }
  return out;
}

/** The record index of position `p` (x first) in a stream of `shape`, or -1 outside it. */
export function indexAt(p: readonly number[], shape: readonly number[]): number {
  const e = shapeExtents(shape);
  let i = 0;
  for (let k = 3; k >= 0; k--) {
    const c = p[k] ?? 0;
    if (c < 0 || c >= e[k]!) return -1;
    i = i * e[k]! + c;
  }
  return i;
}

/** Brook's `indexof` of every record of a stream of `shape`: four floats each, x first. */
export function indexofReference(shape: readonly number[]): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) out.set(positionOf(i, shape), i * 4);
  return out;
}

/** Record `p` (x first) of `values` (`c` components per record) in a stream of `shape`; zeros outside. */
export function gatherAt(values: ArrayLike<number>, c: number, shape: readonly number[], p: readonly number[]): number[] {
  const i = indexAt(p, shape);
  return Array.from({ length: c }, (_, k) => (i < 0 ? 0 : values[i * c + k]!));
}

/**
 * A Brook gather (brook`...` kernels, BrookGPU's rule) of a stream of `shape`: position `p` (x
 * first) floored, its components past the rank dropped, each clamped to [0, extent - 1], so a read
 * past an edge gives the nearest record; `c` components per record.
 */
export function gatherClamped(values: ArrayLike<number>, c: number, shape: readonly number[], p: readonly number[]): number[] {
  const e = shapeExtents(shape);
  const q = e.map((extent, k) => (k < shape.length ? Math.min(Math.max(Math.floor(p[k] ?? 0), 0), extent - 1) : 0));
  const i = indexAt(q, shape);
  return Array.from({ length: c }, (_, k) => values[i * c + k]!);
}

/**
 * A Brook gather by a scalar record index `i` (row-major, floored) into a stream of `n` records,
 * clamped to [0, n - 1]; `c` components per record.
 */
export function gatherClampedIndex(values: ArrayLike<number>, c: number, n: number, i: number): number[] {
  const r = Math.min(Math.max(Math.floor(i), 0), n - 1);
  return Array.from({ length: c }, (_, k) => values[r * c + k]!);
}

/**
 * An input of shape `inShape` read elementwise over an output of `outShape` by Brook's rules:
 * equal lengths record by record, else each dimension as floor(i * in / out) (a shape of lower
 * rank has extent 1 in its missing slow dimensions).
 */
export function resampleReference(values: ArrayLike<number>, c: number, inShape: readonly number[], outShape: readonly number[]): Float32Array {
  const n = outShape.reduce((a, b) => a * b, 1);
  const inLength = inShape.reduce((a, b) => a * b, 1);
  const ie = shapeExtents(inShape);
  const oe = shapeExtents(outShape);
  const out = new Float32Array(n * c);
  for (let i = 0; i < n; i++) {
    const src = inLength === n ? i : indexAt(positionOf(i, outShape).map((x, k) => Math.floor((x * ie[k]!) / oe[k]!)), inShape);
    for (let k = 0; k < c; k++) out[i * c + k] = values[src * c + k]!;
  }
  return out;
}

/** The records of the domain [start, end) (x first, end exclusive) of a stream of `shape`, row-major. */
export function domainRead(values: ArrayLike<number>, c: number, shape: readonly number[], start: readonly number[], end: readonly number[]): Float32Array {
  const ext = start.map((s, k) => end[k]! - s);
  const dshape = [...ext].reverse();
  const n = ext.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n * c);
  for (let i = 0; i < n; i++) {
    const p = positionOf(i, dshape).map((x, k) => x + (start[k] ?? 0));
    const src = indexAt(p, shape);
    for (let k = 0; k < c; k++) out[i * c + k] = values[src * c + k]!;
  }
  return out;
}

/** `values` with the domain [start, end) of a stream of `shape` replaced by `data` (row-major); the rest unchanged. */
export function domainWrite(
  values: ArrayLike<number>, c: number, shape: readonly number[], start: readonly number[], end: readonly number[], data: ArrayLike<number>,
): Float32Array {
  const out = Float32Array.from(values);
  const ext = start.map((s, k) => end[k]! - s);
  const dshape = [...ext].reverse();
  const n = ext.reduce((a, b) => a * b, 1);
  for (let i = 0; i < n; i++) {
    const dst = indexAt(positionOf(i, dshape).map((x, k) => x + (start[k] ?? 0)), shape);
    for (let k = 0; k < c; k++) out[dst * c + k] = data[i * c + k]!;
  }
  return out;
}
