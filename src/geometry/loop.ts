/**
 * The mesh side of Horn's adaptive Loop subdivision (GPU Gems 2 ch. 36, section 36.3), in plain
 * TypeScript; the patch algorithm is in subdivide.ts.
 *
 * - `loopSubdivide(mesh, depth)`: plain Loop subdivision of an indexed closed mesh in float64
 *   (Loop's vertex weights β(n) = (5/8 − (3/8 + cos(2π/n)/4)²)/n, edge points 3/8, 3/8, 1/8,
 *   1/8), the four children of triangle t at 4t … 4t+3 in the GPU's order. Independent of the
 *   GPU's data layout: the non-adaptive GPU result is compared with it.
 * - `buildPatches(mesh)`: the section's self-contained triangles: per triangle Listing 36-5's
 *   `STri` (A, B, C) and `Neighbor` (AB, BBC, ABB, BC, ACC, BCC, AC, AAB, AAC), 12 float4, in
 *   the patch layout described in subdivide.ts.
 * - `loopWeights()` and the options and results of adaptive subdivision: what the GPU app
 *   (src/apps/subdivide) runs and reports, shared with the reference (src/reference/subdivide.ts).
 */
import { BrookError } from '../core/errors';

export interface IndexedMesh {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

/** Loop's vertex weight β(n). */
export function loopBeta(n: number): number {
  const c = 3 / 8 + Math.cos((2 * Math.PI) / n) / 4;
  return (5 / 8 - c * c) / n;
}

/** Directed edge map and corner rings of a closed, consistently oriented mesh. */
function rings(mesh: IndexedMesh, where: string) {
  const idx = mesh.indices;
  const nv = mesh.positions.length / 3;
  const third = new Map<number, number>(); // directed edge u->w  (key u*nv+w) -> third vertex
  for (let t = 0; t < idx.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const u = idx[t * 3 + k]!;
      const w = idx[t * 3 + ((k + 1) % 3)]!;
      const x = idx[t * 3 + ((k + 2) % 3)]!;
      const key = u * nv + w;
      if (third.has(key)) throw new BrookError(`${where}: edge ${u}→${w} belongs to two triangles with the same orientation (the mesh must be a closed, consistently oriented manifold)`);
      third.set(key, x);
    }
  }
  for (const key of third.keys()) {
    const u = Math.floor(key / nv);
    const w = key % nv;
    if (!third.has(w * nv + u)) throw new BrookError(`${where}: edge ${u}–${w} has one triangle only: the mesh is not closed (weld duplicate vertices with weldVertices first)`);
  }
  /** The neighbours of v in order, starting at `next` and ending at `prev`. */
  const ring = (v: number, next: number): number[] => {
    const out = [next];
    let cur = next;
    for (let guard = 0; guard < 64; guard++) {
      const x = third.get(cur * nv + v);
      if (x === undefined) throw new BrookError(`${where}: the triangles around vertex ${v} do not close`);
      if (x === next) return out;
      out.push(x);
      cur = x;
    }
    throw new BrookError(`${where}: vertex ${v} has more than 64 neighbours`);
  };
  return { ring, third, nv };
}

/**
 * Plain Loop subdivision, `depth` rounds, float64 (see the module comment); the children of
 * triangle t are 4t + k: (A', AB, CA), (AB, B', BC), (CA, BC, C'), (BC, CA, AB).
 */
export function loopSubdivide(mesh: IndexedMesh, depth: number): { positions: Float64Array; indices: Uint32Array } {
  let pos = Float64Array.from(mesh.positions);
  let idx = Uint32Array.from(mesh.indices);
  for (let d = 0; d < depth; d++) {
    const { ring } = rings({ positions: pos, indices: idx }, 'loopSubdivide');
    const nv = pos.length / 3;
    const next: number[] = [];
    const moved = new Float64Array(nv * 3);
    const done = new Uint8Array(nv);
    const edgeVertex = new Map<string, number>();
    const p = (v: number) => [pos[v * 3]!, pos[v * 3 + 1]!, pos[v * 3 + 2]!];
    for (let t = 0; t < idx.length / 3; t++) {
      const c = [idx[t * 3]!, idx[t * 3 + 1]!, idx[t * 3 + 2]!];
      for (let k = 0; k < 3; k++) {
        const v = c[k]!;
        if (!done[v]) {
          const r = ring(v, c[(k + 1) % 3]!);
          const beta = loopBeta(r.length);
          const s = [0, 0, 0];
          for (const u of r) p(u).forEach((x, i) => (s[i]! += x));
          const pv = p(v);
          for (let i = 0; i < 3; i++) moved[v * 3 + i] = (1 - r.length * beta) * pv[i]! + beta * s[i]!;
          done[v] = 1;
        }
      }
    }
    // edge points (second pass, with both opposite vertices)
    const { third } = rings({ positions: pos, indices: idx }, 'loopSubdivide');
    const newPos: number[] = Array.from(moved);
    const edgeId = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let id = edgeVertex.get(key);
      if (id === undefined) {
        const o1 = third.get(a * nv + b)!;
        const o2 = third.get(b * nv + a)!;
        const [pa, pb, p1, p2] = [p(a), p(b), p(o1), p(o2)];
        id = newPos.length / 3;
        for (let i = 0; i < 3; i++) newPos.push((3 / 8) * (pa[i]! + pb[i]!) + (1 / 8) * (p1[i]! + p2[i]!));
        edgeVertex.set(key, id);
      }
      return id;
    };
    for (let t = 0; t < idx.length / 3; t++) {
      const [A, B, C] = [idx[t * 3]!, idx[t * 3 + 1]!, idx[t * 3 + 2]!];
      const ab = edgeId(A, B);
      const bc = edgeId(B, C);
      const ca = edgeId(C, A);
      next.push(A, ab, ca, ab, B, bc, ca, bc, C, bc, ca, ab);
    }
    pos = Float64Array.from(newPos);
    idx = Uint32Array.from(next);
  }
  return { positions: pos, indices: idx };
}

/** Float components per patch: 12 float4 (STri A, B, C; Neighbor AB, BBC, ABB, BC, ACC, BCC, AC, AAB, AAC). */
export const PATCH_FLOATS = 48;
/** The order of the 12 float4 of a patch. */
export const PATCH_FIELDS = ['A', 'B', 'C', 'AB', 'BBC', 'ABB', 'BC', 'ACC', 'BCC', 'AC', 'AAB', 'AAC'] as const;
const F = Object.fromEntries(PATCH_FIELDS.map((n, i) => [n, i])) as Record<(typeof PATCH_FIELDS)[number], number>;

/**
 * Builds the self-contained triangles of a closed mesh (weld it first): 12 float4 per triangle,
 * flags 0, missing extras w = −1. Refuses open or non-manifold meshes and valences outside 4-6.
 */
export function buildPatches(mesh: IndexedMesh): Float32Array {
  const where = 'subdivide: the mesh';
  if (!mesh || !mesh.positions || !mesh.indices || mesh.indices.length % 3 !== 0 || mesh.indices.length === 0 || mesh.positions.length % 3 !== 0) {
    throw new BrookError('subdivide(ctx, mesh): mesh must be { positions: xyz per vertex, indices: three per triangle }');
  }
  const nv = mesh.positions.length / 3;
  for (let i = 0; i < mesh.indices.length; i++) {
    const v = mesh.indices[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= nv) throw new BrookError(`${where}: indices[${i}] = ${v} is not a vertex index in 0..${nv - 1}`);
  }
  const { ring } = rings(mesh, where);
  const nt = mesh.indices.length / 3;
  const out = new Float32Array(nt * PATCH_FLOATS);
  const P = mesh.positions;
  const put = (t: number, field: number, v: number | null, w = 0) => {
    const o = t * PATCH_FLOATS + field * 4;
    if (v === null) {
      out.set([0, 0, 0, -1], o);
    } else {
      out.set([P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!, w], o);
    }
  };
  // per corner k: [next, e1, x1, x2, e2, prev] go to fields (corner, e1, x1, x2, e2)
  const slots = [
    { corner: F.A, e1: F.AB, x1: F.AAB, x2: F.AAC, e2: F.AC },
    { corner: F.B, e1: F.BC, x1: F.BBC, x2: F.ABB, e2: F.AB },
    { corner: F.C, e1: F.AC, x1: F.ACC, x2: F.BCC, e2: F.BC },
  ];
  for (let t = 0; t < nt; t++) {
    const c = [mesh.indices[t * 3]!, mesh.indices[t * 3 + 1]!, mesh.indices[t * 3 + 2]!];
    for (let k = 0; k < 3; k++) {
      const v = c[k]!;
      const r = ring(v, c[(k + 1) % 3]!);
      if (r.length < 4 || r.length > 6) {
        throw new BrookError(
          `${where}: vertex ${v} has valence ${r.length}; Listing 36-5 holds at most six neighbours and the patch needs at least four (supported: valence 4 to 6)`,
        );
      }
      const s = slots[k]!;
      put(t, s.corner, v);
      put(t, s.e1, r[1]!);
      put(t, s.e2, r[r.length - 2]!);
      put(t, s.x1, r.length >= 5 ? r[2]! : null);
      put(t, s.x2, r.length === 6 ? r[3]! : null);
    }
  }
  return out;
}

/** Float32 vertex weights: [β, 1 − nβ] for n = 4, 5, 6 (the kernels' uniforms). */
export function loopWeights(): Float32Array {
  const f = Math.fround;
  const w = new Float32Array(6);
  for (let n = 4; n <= 6; n++) {
    w[(n - 4) * 2] = f(loopBeta(n));
    w[(n - 4) * 2 + 1] = f(1 - n * loopBeta(n));
  }
  return w;
}

export interface SubdivideOptions {
  /** The per-edge flatness bound ε (see the module comment). Default 0.05. */
  epsilon?: number;
  /** Rounds of splitting. Default 3. */
  maxDepth?: number;
  /** false: every triangle splits every round (plain Loop). Default true. */
  adaptive?: boolean;
}

/** One round: triangles in, finished, split, slivers added. */
export interface SubdivideRound {
  round: number;
  triangles: number;
  finished: number;
  split: number;
  slivers: number;
}

export interface SubdivideResult {
  /** xyz of A, B, C per output triangle. */
  positions: Float32Array;
  /** Per output triangle: the round it finished in (maxDepth for those still splitting at the end), +0.5 for a sliver. */
  tags: Float32Array;
  count: number;
  rounds: SubdivideRound[];
}
