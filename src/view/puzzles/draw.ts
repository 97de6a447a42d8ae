/**
 * A puzzle's streams as images (the page and the notebook widget): the view module's stream
 * pixels, with the wrong records of a failed check painted red over the output.
 */
import { streamPixels, type StreamPixels } from '../image';
import type { PuzzleData } from './book';

/** The colour of a wrong record: pure red (the gray and viridis maps the puzzles use have none). */
export const WRONG_RECORD_RGB: readonly number[] = [255, 0, 0];

/**
 * Pixels of a puzzle stream (its shape; 1D wrapped into a near-square), scalars in gray, vectors
 * as RGB; with `wrong` (one byte per record, 1 = wrong), those records red. `data` may be
 * shorter than the shape (a compaction that kept too few records): the missing records are
 * drawn as non-finite (magenta) unless marked wrong.
 */
export function puzzlePixels(d: Pick<PuzzleData, 'shape' | 'components'>, data: ArrayLike<number>, wrong?: Uint8Array): StreamPixels {
  const n = d.shape.reduce((a, b) => a * b, 1);
  let values = data;
  if (data.length < n * d.components) {
    const padded = new Float32Array(n * d.components).fill(NaN);
    for (let i = 0; i < data.length; i++) padded[i] = data[i]!;
    values = padded;
  }
  const px = streamPixels(values, d.shape.length === 2 ? d.shape : [n], d.components);
  if (wrong) for (let i = 0; i < n; i++) if (wrong[i]) px.rgba.set([...WRONG_RECORD_RGB, 255], i * 4);
  return px;
}
