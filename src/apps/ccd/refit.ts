/**
 * The refit of a CCD frame (da Silva et al. section 2.1): the swept AABBs of the hierarchy,
 * bottom-up, one pass per level — each node's box over its children's (or, at a leaf, over its
 * triangle's vertices at t = 0 and t = 1).
 */
import type { Stream } from '../../core/stream';
import type { CcdHost } from './host';
import { CCD_REFIT } from './kernels';

export interface RefitStreams {
  nodes: Stream;
  tris: Stream;
  x0: Stream;
  x1: Stream;
  boxLo: Stream;
  boxHi: Stream;
  /** Levels of the hierarchy (the root's is 0). */
  depth: number;
}

/** Refits the boxes bottom-up, one pass per level (in stage refit). */
export function refit(host: CcdHost, s: RefitStreams): void {
  host.stage('refit');
  for (let level = s.depth - 1; level >= 0; level--) {
    const lo = s.boxLo, hi = s.boxHi;
    host.run(CCD_REFIT, { node: s.nodes, loIn: lo, hiIn: hi, boxLo: lo, boxHi: hi, tris: s.tris, x0: s.x0, x1: s.x1, level, lo, hi });
  }
}
