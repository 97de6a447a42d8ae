/**
 * A plain reference of continuous collision detection on deforming meshes (da Silva, Esperança &
 * Marroquim 2014, section 2) for the GPU version in src/apps/ccd to be checked against: refit,
 * BVTT traversal from the root or from last frame's front, elementary tests in double precision.
 * The scene, its hierarchy and the orphan sets are built in src/geometry/bvh.ts (re-exported here).
 */
import { type Bvh, type CcdScene, canonicalEdges, edge, refitBvh } from '../geometry/bvh';

export { buildBvh, orphanSets, refitBvh, triangleCount } from '../geometry/bvh';
export type { Bvh, CcdScene } from '../geometry/bvh';

/** A BVTT node: a pair of BVH nodes. */
export type NodePair = [number, number];

/** How the traversal ended at a front node. */
export const FRONT_SEPARATE = 2; // boxes apart, or a pair the scene does not test
export const FRONT_LEAVES = 3; // two overlapping leaves: a candidate triangle pair
export const FRONT_ADJACENT = 4; // two overlapping leaves sharing a vertex: left to the orphan sets

function sharesVertex(scene: CcdScene, a: number, b: number): boolean {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (scene.tris[a * 3 + i] === scene.tris[b * 3 + j]) return true;
  return false;
}

/**
 * One BVTT node's step, as the GPU traversal kernel does it: returns its children (work) or, when
 * the traversal ends there, the front kind (FRONT_*). Self pairs (a, a) split into (L, L), (R, R),
 * (L, R); other pairs split the shallower node (the left one on a tie).
 */
export function bvttStep(bvh: Bvh, box: { lo: Float32Array; hi: Float32Array }, scene: CcdScene, a: number, b: number): { children: NodePair[] } | { front: number } {
  const N = bvh.nodes;
  const self = scene.self ?? true;
  const oa = bvh.nodeObject[a]!, ob = bvh.nodeObject[b]!;
  if (!self && oa >= 0 && oa === ob) return { front: FRONT_SEPARATE };
  const leafA = N[a * 4 + 2]! >= 0, leafB = N[b * 4 + 2]! >= 0;
  if (a === b) {
    if (leafA) return { front: FRONT_SEPARATE };
    const l = N[a * 4]!, r = N[a * 4 + 1]!;
    return { children: [[l, l], [r, r], [l, r]] };
  }
  for (let c = 0; c < 3; c++) if (box.lo[a * 4 + c]! > box.hi[b * 4 + c]! || box.lo[b * 4 + c]! > box.hi[a * 4 + c]!) return { front: FRONT_SEPARATE };
  if (leafA && leafB) return { front: sharesVertex(scene, N[a * 4 + 2]!, N[b * 4 + 2]!) ? FRONT_ADJACENT : FRONT_LEAVES };
  const splitA = !leafA && (leafB || N[a * 4 + 3]! <= N[b * 4 + 3]!);
  if (splitA) return { children: [[N[a * 4]!, b], [N[a * 4 + 1]!, b]] };
  return { children: [[a, N[b * 4]!], [a, N[b * 4 + 1]!]] };
}

export interface TraversalResult {
  /** The front: every BVTT node where the traversal ended, with its kind (a, b, kind per entry). */
  front: Int32Array;
  /** Candidate triangle pairs (two per pair), from the FRONT_LEAVES nodes. */
  candidates: Int32Array;
  /** Work items per step (the first is the start list). */
  steps: number[];
}

/**
 * Breadth-first BVTT traversal from `start` (default: the root pair), one step per level of the
 * work list — the same steps the GPU takes.
 */
export function traverseBvtt(bvh: Bvh, box: { lo: Float32Array; hi: Float32Array }, scene: CcdScene, start?: ArrayLike<number>): TraversalResult {
  let work: number[] = start ? Array.from(start) : [0, 0];
  const front: number[] = [], candidates: number[] = [], steps: number[] = [];
  while (work.length > 0) {
    steps.push(work.length / 2);
    const next: number[] = [];
    for (let i = 0; i < work.length; i += 2) {
      const a = work[i]!, b = work[i + 1]!;
      const r = bvttStep(bvh, box, scene, a, b);
      if ('children' in r) for (const [x, y] of r.children) next.push(x, y);
      else {
        front.push(a, b, r.front);
        if (r.front === FRONT_LEAVES) candidates.push(bvh.nodes[a * 4 + 2]!, bvh.nodes[b * 4 + 2]!);
      }
    }
    work = next;
  }
  return { front: Int32Array.from(front), candidates: Int32Array.from(candidates), steps };
}

/** The feature records (as in orphanSets) of the 6 vertex-face and 9 edge-edge tests of a triangle pair. */
export function pairFeatures(scene: CcdScene, a: number, b: number): number[][] {
  const out: number[][] = [];
  for (const [p, f] of [[a, b], [b, a]] as const) for (let k = 0; k < 3; k++) out.push([scene.tris[p * 3 + k]!, f, -1, 0]);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out.push(canonicalEdges(edge(scene, a, i), edge(scene, b, j)));
  return out;
}

/** The 24 coordinates of a feature record's query (Wang et al.'s row order). */
export function featureQuery(scene: CcdScene, r: ArrayLike<number>): { kind: 'vf' | 'ee'; coords: Float64Array } {
  const vs = r[2] === -1 ? [r[0]!, scene.tris[r[1]! * 3]!, scene.tris[r[1]! * 3 + 1]!, scene.tris[r[1]! * 3 + 2]!] : [r[0]!, r[1]!, r[2]!, r[3]!];
  const coords = new Float64Array(24);
  vs.forEach((v, k) => {
    for (let c = 0; c < 3; c++) (coords[k * 3 + c] = scene.x0[v * 3 + c]!), (coords[(k + 4) * 3 + c] = scene.x1[v * 3 + c]!);
  });
  return { kind: r[2] === -1 ? 'vf' : 'ee', coords };
}

/** The key of a feature record in a set of colliding pairs: 'vf v f' or 'ee a0 a1 b0 b1'. */
export function featureKey(r: ArrayLike<number>): string {
  return r[2] === -1 ? `vf ${r[0]} ${r[1]}` : `ee ${r[0]} ${r[1]} ${r[2]} ${r[3]}`;
}

export interface CcdReferenceResult extends TraversalResult {
  /** Colliding feature pairs (featureKey), sorted. */
  pairs: string[];
}

/**
 * The whole pipeline on the CPU: refit, traversal (from `start`, a front of (a, b, kind)
 * triples, or the root), the elementary tests of every candidate's 15 feature pairs and of the
 * orphan sets, by `test` (default Provot's double-precision cubic).
 */
export function ccdReferenceStep(
  scene: CcdScene,
  bvh: Bvh,
  orphans: Int32Array,
  test: (kind: 'vf' | 'ee', coords: Float64Array) => boolean,
  start?: Int32Array,
): CcdReferenceResult {
  const box = refitBvh(bvh, scene);
  const startPairs = start ? Int32Array.from({ length: (start.length / 3) * 2 }, (_, i) => start[Math.floor(i / 2) * 3 + (i % 2)]!) : undefined;
  const t = traverseBvtt(bvh, box, scene, startPairs);
  const pairs = new Set<string>();
  const check = (r: ArrayLike<number>) => {
    const key = featureKey(r);
    if (pairs.has(key)) return;
    const q = featureQuery(scene, r);
    if (test(q.kind, q.coords)) pairs.add(key);
  };
  for (let i = 0; i < t.candidates.length; i += 2) for (const r of pairFeatures(scene, t.candidates[i]!, t.candidates[i + 1]!)) check(r);
  for (let i = 0; i < orphans.length; i += 4) check(orphans.subarray(i, i + 4));
  return { ...t, pairs: [...pairs].sort() };
}

/** Sorted keys of a front (a, b, kind triples), for comparing fronts as sets. */
export function frontKeys(front: ArrayLike<number>): string[] {
  const keys: string[] = [];
  for (let i = 0; i + 2 < front.length; i += 3) keys.push(`${front[i]} ${front[i + 1]} ${front[i + 2]}`);
  return keys.sort();
}
