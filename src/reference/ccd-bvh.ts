/**
 * The CPU side of continuous collision detection on deforming meshes (da Silva, Esperança &
 * Marroquim 2014, section 2): the scene, its bounding volume hierarchy (built once, here; refit
 * every frame), the orphan sets of adjacent triangles (Tang et al. 2008), and a plain reference
 * of the whole pipeline (refit, BVTT traversal from the root or from last frame's front,
 * elementary tests in double precision) for the GPU version in src/apps/ccd to be checked against.
 *
 * Bounding volumes are axis-aligned boxes swept over the step: a triangle's box holds its three
 * vertices at t = 0 and t = 1, so (vertices moving linearly) it holds the triangle for all of
 * [0, 1]. AABBs rather than k-DOPs or OBBs because a refit is min/max only — exact in float32, so
 * the GPU's boxes, overlap tests and hence its traversal are bit-identical to this reference —
 * and an AABB is two texels: the paper's front update is memory bound, and an 18-DOP would read
 * 4.5 times as much per node; an OBB would need its axes refit for a deforming mesh.
 *
 * The BVH is a binary tree by median split (of the triangle centroids at t = 0, along the box's
 * longest axis), nodes numbered breadth first. Each node is (left, right, triangle, level):
 * internal nodes have triangle -1, leaves have left = right = -1.
 */

/** A deforming triangle scene over one step: positions at t = 0 and t = 1 (xyz per vertex). */
export interface CcdScene {
  x0: Float32Array;
  x1: Float32Array;
  /** Three vertex indices per triangle. */
  tris: Int32Array;
  /** Object of each triangle (default: all 0). */
  objects?: Int32Array;
  /** Test triangles of one object against each other (self-collision). Default true. */
  self?: boolean;
}

export interface Bvh {
  /** 4 per node: left, right, triangle, level. Node 0 is the root. */
  nodes: Int32Array;
  /** Object of every triangle under the node, or -1 when they differ. */
  nodeObject: Int32Array;
  count: number;
  /** Levels (the root is level 0). */
  depth: number;
}

export function triangleCount(scene: CcdScene): number {
  return scene.tris.length / 3;
}

/** Builds the hierarchy once (topology and object ids are fixed; boxes are refit every frame). */
export function buildBvh(scene: CcdScene): Bvh {
  const n = triangleCount(scene);
  if (n < 1) throw new Error('buildBvh: the scene has no triangles');
  const cx = new Float64Array(n * 3);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const v = scene.tris[t * 3 + k]!;
      for (let c = 0; c < 3; c++) cx[t * 3 + c]! += scene.x0[v * 3 + c]! / 3;
    }
  }
  const order = Int32Array.from({ length: n }, (_, i) => i);
  // breadth-first: a queue of [lo, hi) ranges of `order`, each a node
  const ranges: Array<[number, number, number]> = [[0, n, 0]];
  const nodes: number[] = [];
  for (let head = 0; head < ranges.length; head++) {
    const [lo, hi, level] = ranges[head]!;
    if (hi - lo === 1) {
      nodes.push(-1, -1, order[lo]!, level);
      continue;
    }
    // longest axis of the centroids' extent
    const mn = [Infinity, Infinity, Infinity], mx = [-Infinity, -Infinity, -Infinity];
    for (let i = lo; i < hi; i++) for (let c = 0; c < 3; c++) (mn[c] = Math.min(mn[c]!, cx[order[i]! * 3 + c]!)), (mx[c] = Math.max(mx[c]!, cx[order[i]! * 3 + c]!));
    const axis = [0, 1, 2].reduce((a, c) => (mx[c]! - mn[c]! > mx[a]! - mn[a]! ? c : a), 0);
    const part = Array.from(order.subarray(lo, hi)).sort((a, b) => cx[a * 3 + axis]! - cx[b * 3 + axis]! || a - b);
    order.set(part, lo);
    const mid = lo + Math.ceil((hi - lo) / 2);
    const left = ranges.length;
    ranges.push([lo, mid, level + 1], [mid, hi, level + 1]);
    nodes.push(left, left + 1, -1, level);
  }
  const count = ranges.length;
  const nodeArr = Int32Array.from(nodes);
  const nodeObject = new Int32Array(count);
  let depth = 0;
  for (let i = count - 1; i >= 0; i--) {
    depth = Math.max(depth, nodeArr[i * 4 + 3]! + 1);
    const tri = nodeArr[i * 4 + 2]!;
    if (tri >= 0) nodeObject[i] = scene.objects ? scene.objects[tri]! : 0;
    else {
      const a = nodeObject[nodeArr[i * 4]!]!, b = nodeObject[nodeArr[i * 4 + 1]!]!;
      nodeObject[i] = a === b ? a : -1;
    }
  }
  return { nodes: nodeArr, nodeObject, count, depth };
}

/** Node boxes (lo and hi, 4 floats per node, w unused) swept over the step; exact in float32. */
export function refitBvh(bvh: Bvh, scene: CcdScene): { lo: Float32Array; hi: Float32Array } {
  const lo = new Float32Array(bvh.count * 4), hi = new Float32Array(bvh.count * 4);
  for (let i = bvh.count - 1; i >= 0; i--) {
    const tri = bvh.nodes[i * 4 + 2]!;
    for (let c = 0; c < 3; c++) {
      let mn = Infinity, mx = -Infinity;
      if (tri >= 0) {
        for (let k = 0; k < 3; k++) {
          const v = scene.tris[tri * 3 + k]!;
          mn = Math.min(mn, scene.x0[v * 3 + c]!, scene.x1[v * 3 + c]!);
          mx = Math.max(mx, scene.x0[v * 3 + c]!, scene.x1[v * 3 + c]!);
        }
      } else {
        const l = bvh.nodes[i * 4]!, r = bvh.nodes[i * 4 + 1]!;
        mn = Math.min(lo[l * 4 + c]!, lo[r * 4 + c]!);
        mx = Math.max(hi[l * 4 + c]!, hi[r * 4 + c]!);
      }
      lo[i * 4 + c] = mn;
      hi[i * 4 + c] = mx;
    }
  }
  return { lo, hi };
}

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

/**
 * The orphan sets (Tang et al. 2008): for every pair of triangles sharing a vertex (which the
 * traversal skips), the vertex-face pairs of a vertex not in the face and the edge-edge pairs of
 * edges sharing no vertex — each listed once. Records as the GPU stores them: vertex-face
 * (v, face, -1, 0), edge-edge (a0, a1, b0, b1) with a0 < a1, b0 < b1 and (a0, a1) < (b0, b1).
 */
export function orphanSets(scene: CcdScene): Int32Array {
  const n = triangleCount(scene), nv = scene.x0.length / 3, T = scene.tris;
  const self = scene.self ?? true;
  if (!self && !scene.objects) return new Int32Array(0);
  const obj = (t: number) => (scene.objects ? scene.objects[t]! : 0);
  const tested = (a: number, b: number) => self || obj(a) !== obj(b);
  // triangles around each vertex (compressed rows)
  const start = new Int32Array(nv + 1);
  for (let i = 0; i < n * 3; i++) start[T[i]! + 1]!++;
  for (let v = 0; v < nv; v++) start[v + 1]! += start[v]!;
  const around = new Int32Array(n * 3), fill = start.slice(0, nv);
  for (let t = 0; t < n; t++) for (let k = 0; k < 3; k++) around[fill[T[t * 3 + k]!]!++] = t;
  // edge ids, and the triangles of each edge
  const edgeId = new Map<number, number>();
  const ends: number[] = [], edgeTris: number[][] = [];
  const triEdges = new Int32Array(n * 3);
  for (let t = 0; t < n; t++) for (let k = 0; k < 3; k++) {
    const [a, b] = edge(scene, t, k);
    let id = edgeId.get(a * nv + b);
    if (id === undefined) edgeId.set(a * nv + b, (id = ends.length / 2)), ends.push(a, b), edgeTris.push([]);
    edgeTris[id]!.push(t);
    triEdges[t * 3 + k] = id;
  }
  const ne = ends.length / 2;
  const out: number[] = [];
  // vertex-face: face f against every vertex, not its own, of a triangle sharing a vertex with it
  const vStamp = new Int32Array(nv).fill(-1);
  for (let f = 0; f < n; f++) {
    for (let k = 0; k < 3; k++) {
      const u = T[f * 3 + k]!;
      for (let i = start[u]!; i < start[u + 1]!; i++) {
        const a = around[i]!;
        if (a === f || !tested(a, f)) continue;
        for (let j = 0; j < 3; j++) {
          const v = T[a * 3 + j]!;
          if (v === T[f * 3] || v === T[f * 3 + 1] || v === T[f * 3 + 2] || vStamp[v] === f) continue;
          vStamp[v] = f;
          out.push(v, f, -1, 0);
        }
      }
    }
  }
  // edge-edge: edge e against every disjoint edge (of higher id) of a triangle sharing a vertex
  // with a triangle of e
  const eStamp = new Int32Array(ne).fill(-1);
  for (let e = 0; e < ne; e++) {
    const e0 = ends[e * 2]!, e1 = ends[e * 2 + 1]!;
    for (const a of edgeTris[e]!) {
      for (let k = 0; k < 3; k++) {
        const w = T[a * 3 + k]!;
        for (let i = start[w]!; i < start[w + 1]!; i++) {
          const b = around[i]!;
          if (b === a || !tested(a, b)) continue;
          for (let j = 0; j < 3; j++) {
            const g = triEdges[b * 3 + j]!;
            if (g <= e || eStamp[g] === e) continue;
            const g0 = ends[g * 2]!, g1 = ends[g * 2 + 1]!;
            if (g0 === e0 || g0 === e1 || g1 === e0 || g1 === e1) continue;
            eStamp[g] = e;
            out.push(...canonicalEdges([e0, e1], [g0, g1]));
          }
        }
      }
    }
  }
  return Int32Array.from(out);
}

function edge(scene: CcdScene, t: number, k: number): [number, number] {
  const a = scene.tris[t * 3 + k]!, b = scene.tris[t * 3 + ((k + 1) % 3)]!;
  return a < b ? [a, b] : [b, a];
}

function canonicalEdges(e: [number, number], g: [number, number]): number[] {
  return e[0] < g[0] || (e[0] === g[0] && e[1] < g[1]) ? [...e, ...g] : [...g, ...e];
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
