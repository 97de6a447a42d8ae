/**
 * Bounding volume hierarchies of deforming triangle scenes (da Silva, Esperança & Marroquim 2014,
 * section 2) and the orphan sets of adjacent triangles (Tang et al. 2008): built once on the CPU
 * for the continuous collision detection of src/apps/ccd and its reference (src/reference/ccdbvh.ts).
 *
 * Bounding volumes are axis-aligned boxes swept over the step: a triangle's box holds its three
 * vertices at t = 0 and t = 1, so (vertices moving linearly) it holds the triangle for all of
 * [0, 1]. AABBs rather than k-DOPs or OBBs because a refit is min/max only — exact in float32, so
 * the GPU's boxes, overlap tests and hence its traversal are bit-identical to the reference —
 * and an AABB is two texels: the paper's front update is memory bound, and an 18-DOP would read
 * 4.5 times as much per node; an OBB would need its axes refit for a deforming mesh.
 *
 * The BVH is a binary tree by median split (of the triangle centroids at t = 0, along the box's
 * longest axis), nodes numbered breadth first. Each node is (left, right, triangle, level):
 * internal nodes have triangle -1, leaves have left = right = -1.
 */


/** The two kinds of elementary CCD query: vertex-face and edge-edge. */
export type CcdKind = 'vf' | 'ee';

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

/** Edge k of triangle t, its vertex indices in increasing order. */
export function edge(scene: CcdScene, t: number, k: number): [number, number] {
  const a = scene.tris[t * 3 + k]!, b = scene.tris[t * 3 + ((k + 1) % 3)]!;
  return a < b ? [a, b] : [b, a];
}

/** An edge-edge record (a0, a1, b0, b1): the smaller edge first. */
export function canonicalEdges(e: [number, number], g: [number, number]): number[] {
  return e[0] < g[0] || (e[0] === g[0] && e[1] < g[1]) ? [...e, ...g] : [...g, ...e];
}
