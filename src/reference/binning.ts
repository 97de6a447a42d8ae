/**
 * CPU reference of spatial binning: the same float32 cell arithmetic, bins in ascending id order;
 * points outside the grid (infinite ones too) in the nearest cell, points with a NaN coordinate
 * in none.
 */
export function binReference(
  positions: ArrayLike<number>,
  cells: readonly [number, number, number],
  origin: readonly [number, number, number],
  cellSize: number,
): { width: number; height: number; bins: number[][] } {
  const f = Math.fround;
  const [gx, gy, gz] = cells;
  const tilesX = Math.ceil(Math.sqrt(gz));
  const width = gx * tilesX;
  const height = gy * Math.ceil(gz / tilesX);
  const inv = f(1 / cellSize);
  const bins: number[][] = Array.from({ length: width * height }, () => []);
  for (let id = 0; id < positions.length / 4; id++) {
    // a NaN coordinate has no cell: the point is in no bin; ±Infinity clamps to the last cell
    if ([0, 1, 2].some((k) => Number.isNaN(positions[id * 4 + k]!))) continue;
    const c = [0, 1, 2].map((k) => Math.min(Math.max(Math.floor(f(f(positions[id * 4 + k]! - f(origin[k]!)) * inv)), 0), cells[k]! - 1));
    const px = (c[2]! % tilesX) * gx + c[0]!;
    const py = Math.floor(c[2]! / tilesX) * gy + c[1]!;
    bins[py * width + px]!.push(id); // ids arrive in ascending order
  }
  return { width, height, bins };
}
