/** CPU references for filtering and sorting (Array.prototype.filter and a stable sort). */

/**
 * Keeps the records (of `components` numbers) for which `keep(record, index)` holds, in order:
 * src/idioms/hostfilter.ts's filterOnHost, which the filter embed runs (a view imports nothing
 * from src/reference).
 */
export { filterOnHost as filterReference } from '../idioms/hostfilter';

const view = new DataView(new ArrayBuffer(4));

/** The order brookgl's sort uses: float32 bits mapped so that unsigned order is float order; NaN last. */
export function sortableKey(x: number): number {
  view.setFloat32(0, x);
  const bits = view.getUint32(0);
  if ((bits & 0x7fffffff) > 0x7f800000) return 0xffffffff;
  return bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0;
}

/** Stable ascending sort of float keys (-0 before +0, NaN last); returns the permutation. */
export function sortOrderReference(keys: ArrayLike<number>): number[] {
  const idx = Array.from({ length: keys.length }, (_, i) => i);
  const k = Array.from(keys, (x) => sortableKey(Math.fround(x)));
  return idx.sort((a, b) => k[a]! - k[b]! || a - b);
}
