/**
 * OBB trees for Horn's collision detection (GPU Gems 2, section 36.2), built on the CPU top-down
 * as RAPID builds them (Gottschalk, Lin & Manocha 1996): each node's box is oriented along the
 * eigenvectors of the covariance of its triangles' vertices, and its triangles are split at
 * the mean of their centroids along the box's longest axis, until one triangle is left.
 *
 * ```ts
 * const tree = buildObbTree(mesh.positions, mesh.indices);
 * tree.nodeCount; // 2 × triangles: the root, a gap, then children in pairs
 * ```
 *
 * The tree is stored as Listing 36-3's `BBox` and `Tri` structs, one array per field
 * (structure of arrays, the layout a struct stream flattens to):
 * - `rotationx` (4 per node): the box's x axis in its parent's frame; w = +1 (the builder
 *   always makes the frame right-handed, so z = cross(x, y) · w = cross(x, y));
 * - `rotationy` (3): the box's y axis in its parent's frame;
 * - `translation` (3): the box's centre in its parent's frame (the root's: in the model's);
 *   the listing's comment says "the bottom corner", RAPID stores the centre and half-sizes,
 *   and so does brookgl;
 * - `radius` (4): the half-sizes along x ≥ y ≥ z (x is the longest axis, the split axis),
 *   w = 1 for a leaf;
 * - `children` (2): a leaf's triangle index, or a node's left child index, the right child
 *   being the next record (x + 1, as the listing's `Children.xy + float2(1, 0)`). brookgl
 *   indexes streams by record, so `children.y` is 0; left children sit at even records, which
 *   is why record 1 is an unused gap.
 * Frames are relative to the parent, as in RAPID: the traversal composes them on the way down
 * (Listing 36-4's Compose / invCompose). Half-sizes are widened by `OBB_PADDING` of the root's
 * size so that float32 rounding of the composed frames never leaves a vertex outside its box.
 */
import { BrookError } from '../core/errors';

/** Relative padding of every box (× the root's largest half-size). */
export const OBB_PADDING = 1e-5;

/** An OBB tree in Listing 36-3's fields (see the module comment). */
export interface ObbTree {
  /** Records in the BBox arrays (2 × triangles; record 1 is a gap). */
  nodeCount: number;
  triangleCount: number;
  /** Levels below the root of the deepest leaf. */
  depth: number;
  rotationx: Float32Array;
  rotationy: Float32Array;
  translation: Float32Array;
  radius: Float32Array;
  children: Float32Array;
  /** Tri structs: the triangles' corners A, B, C (3 floats each) in the model's frame. */
  triA: Float32Array;
  triB: Float32Array;
  triC: Float32Array;
}

/** The most triangles a tree may hold: record indices are float32 in the kernels (exact to 2^24). */
export const OBB_MAX_TRIANGLES = 2 ** 23;

type M3 = number[]; // row-major 3x3, float64
type V3 = [number, number, number];

/**
 * Builds the OBB tree of a triangle mesh. `positions` holds xyz per vertex, `indices` three
 * vertex indices per triangle.
 */
export function buildObbTree(positions: ArrayLike<number>, indices: ArrayLike<number>): ObbTree {
  if (!positions || typeof positions.length !== 'number' || positions.length % 3 !== 0 || positions.length === 0) {
    throw new BrookError('buildObbTree(positions, indices): positions must hold x, y, z for each vertex (a length divisible by 3)');
  }
  if (!indices || typeof indices.length !== 'number' || indices.length % 3 !== 0 || indices.length === 0) {
    throw new BrookError('buildObbTree(positions, indices): indices must hold three vertex indices per triangle (a length divisible by 3)');
  }
  const vertexCount = positions.length / 3;
  const triangleCount = indices.length / 3;
  if (triangleCount > OBB_MAX_TRIANGLES) {
    throw new BrookError(`buildObbTree: ${triangleCount} triangles exceed ${OBB_MAX_TRIANGLES} (node indices are float32 in the kernels)`);
  }
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= vertexCount) {
      throw new BrookError(`buildObbTree: indices[${i}] = ${v} is not a vertex index in 0..${vertexCount - 1}`);
    }
  }
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i]!)) throw new BrookError(`buildObbTree: positions[${i}] = ${positions[i]} is not finite`);
  }
  const corner = (t: number, k: number): V3 => {
    const v = indices[t * 3 + k]! * 3;
    return [Math.fround(positions[v]!), Math.fround(positions[v + 1]!), Math.fround(positions[v + 2]!)];
  };
  const triA = new Float32Array(triangleCount * 3);
  const triB = new Float32Array(triangleCount * 3);
  const triC = new Float32Array(triangleCount * 3);
  for (let t = 0; t < triangleCount; t++) {
    triA.set(corner(t, 0), t * 3);
    triB.set(corner(t, 1), t * 3);
    triC.set(corner(t, 2), t * 3);
  }

  const nodeCount = Math.max(2, 2 * triangleCount);
  const tree: ObbTree = {
    nodeCount, triangleCount, depth: 0,
    rotationx: new Float32Array(nodeCount * 4), rotationy: new Float32Array(nodeCount * 3),
    translation: new Float32Array(nodeCount * 3), radius: new Float32Array(nodeCount * 4),
    children: new Float32Array(nodeCount * 2), triA, triB, triC,
  };
  // Breadth-first: a queue of (node record, its triangles, its parent's absolute frame, depth).
  type Job = { node: number; tris: number[]; parentR: M3; parentC: V3; depth: number };
  const all = Array.from({ length: triangleCount }, (_, i) => i);
  const rootBox = fitBox(all, tree);
  const pad = OBB_PADDING * rootBox.half[0];
  const queue: Job[] = [{ node: 0, tris: all, parentR: [1, 0, 0, 0, 1, 0, 0, 0, 1], parentC: [0, 0, 0], depth: 0 }];
  let next = 2;
  for (let q = 0; q < queue.length; q++) {
    const { node, tris, parentR, parentC, depth } = queue[q]!;
    const box = q === 0 ? rootBox : fitBox(tris, tree);
    // frame relative to the parent: R_rel = Rp^T R, c_rel = Rp^T (c - cp)
    const R = box.R;
    const rel = (col: number): V3 => [0, 1, 2].map((i) => parentR[i]! * R[col]! + parentR[3 + i]! * R[3 + col]! + parentR[6 + i]! * R[6 + col]!) as V3;
    const d: V3 = [box.center[0] - parentC[0], box.center[1] - parentC[1], box.center[2] - parentC[2]];
    const t = [0, 1, 2].map((i) => parentR[i]! * d[0] + parentR[3 + i]! * d[1] + parentR[6 + i]! * d[2]);
    tree.rotationx.set([...rel(0), 1], node * 4);
    tree.rotationy.set(rel(1), node * 3);
    tree.translation.set(t, node * 3);
    tree.radius.set([box.half[0] + pad, box.half[1] + pad, box.half[2] + pad, tris.length === 1 ? 1 : 0], node * 4);
    tree.depth = Math.max(tree.depth, depth);
    if (tris.length === 1) {
      tree.children.set([tris[0]!, 0], node * 2);
      continue;
    }
    const [left, right] = splitAtMean(tris, box, tree);
    tree.children.set([next, 0], node * 2);
    queue.push({ node: next, tris: left, parentR: R, parentC: box.center, depth: depth + 1 });
    queue.push({ node: next + 1, tris: right, parentR: R, parentC: box.center, depth: depth + 1 });
    next += 2;
  }
  return tree;
}

interface Box {
  /** Columns are the axes (row-major storage: R[row * 3 + col]); x the longest. */
  R: M3;
  center: V3;
  half: V3;
}

function vertexOf(tree: ObbTree, t: number, k: number): V3 {
  const a = k === 0 ? tree.triA : k === 1 ? tree.triB : tree.triC;
  return [a[t * 3]!, a[t * 3 + 1]!, a[t * 3 + 2]!];
}

function fitBox(tris: number[], tree: ObbTree): Box {
  // covariance of the triangles' corners
  const corners = [tree.triA, tree.triB, tree.triC];
  const n = tris.length * 3;
  let mx = 0;
  let my = 0;
  let mz = 0;
  for (const t of tris) {
    for (const c of corners) {
      mx += c[t * 3]!;
      my += c[t * 3 + 1]!;
      mz += c[t * 3 + 2]!;
    }
  }
  mx /= n;
  my /= n;
  mz /= n;
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0; // prettier-ignore
  for (const t of tris) {
    for (const c of corners) {
      const x = c[t * 3]! - mx;
      const y = c[t * 3 + 1]! - my;
      const z = c[t * 3 + 2]! - mz;
      xx += x * x;
      xy += x * y;
      xz += x * z;
      yy += y * y;
      yz += y * z;
      zz += z * z;
    }
  }
  const C = [xx / n, xy / n, xz / n, xy / n, yy / n, yz / n, xz / n, yz / n, zz / n];
  const axes = jacobiEigenvectors(C);
  // extents along each axis
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const t of tris) {
    for (const c of corners) {
      const x = c[t * 3]!;
      const y = c[t * 3 + 1]!;
      const z = c[t * 3 + 2]!;
      for (let a = 0; a < 3; a++) {
        const e = axes[a]!;
        const s = x * e[0]! + y * e[1]! + z * e[2]!;
        if (s < lo[a]!) lo[a] = s;
        if (s > hi[a]!) hi[a] = s;
      }
    }
  }
  const order = [0, 1, 2].sort((a, b) => hi[b]! - lo[b]! - (hi[a]! - lo[a]!) || a - b);
  const ax = order.map((a) => axes[a]!);
  // right-handed: z = x × y
  const [x, y] = [ax[0]!, ax[1]!];
  ax[2] = [x[1]! * y[2]! - x[2]! * y[1]!, x[2]! * y[0]! - x[0]! * y[2]!, x[0]! * y[1]! - x[1]! * y[0]!];
  const mid = order.map((a) => (lo[a]! + hi[a]!) / 2);
  const half = order.map((a) => (hi[a]! - lo[a]!) / 2) as V3;
  if (order[2] !== undefined && dot(ax[2]!, axes[order[2]]!) < 0) mid[2] = -mid[2]!; // z flipped with the handedness
  const center: V3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) for (let i = 0; i < 3; i++) center[i] += ax[a]![i]! * mid[a]!;
  const R: M3 = [];
  for (let row = 0; row < 3; row++) for (let col = 0; col < 3; col++) R.push(ax[col]![row]!);
  return { R, center, half };
}

const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/** Splits at the mean of the centroids along the box's x axis; a one-sided split halves by order. */
function splitAtMean(tris: number[], box: Box, tree: ObbTree): [number[], number[]] {
  const axis = [box.R[0]!, box.R[3]!, box.R[6]!];
  const key = tris.map((t) => {
    let s = 0;
    for (let k = 0; k < 3; k++) s += dot(vertexOf(tree, t, k), axis) / 3;
    return s;
  });
  const mean = key.reduce((a, b) => a + b, 0) / key.length;
  const left: number[] = [];
  const right: number[] = [];
  tris.forEach((t, i) => (key[i]! < mean ? left : right).push(t));
  if (left.length > 0 && right.length > 0) return [left, right];
  const sorted = tris.map((t, i) => [key[i]!, t] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const h = Math.floor(sorted.length / 2);
  return [sorted.slice(0, h).map((x) => x[1]), sorted.slice(h).map((x) => x[1])];
}

/** Unit eigenvectors of a symmetric 3x3 matrix (row-major), by cyclic Jacobi rotations. */
export function jacobiEigenvectors(m: number[]): number[][] {
  const a = m.slice();
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[1]!) + Math.abs(a[2]!) + Math.abs(a[5]!);
    const scale = Math.abs(a[0]!) + Math.abs(a[4]!) + Math.abs(a[8]!);
    if (off <= 1e-15 * scale || off === 0) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = a[p * 3 + q]!;
      if (apq === 0) continue;
      const theta = (a[q * 3 + q]! - a[p * 3 + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        // columns p, q of a, then rows p, q
        const akp = a[k * 3 + p]!;
        const akq = a[k * 3 + q]!;
        a[k * 3 + p] = c * akp - s * akq;
        a[k * 3 + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p * 3 + k]!;
        const aqk = a[q * 3 + k]!;
        a[p * 3 + k] = c * apk - s * aqk;
        a[q * 3 + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k * 3 + p]!;
        const vkq = v[k * 3 + q]!;
        v[k * 3 + p] = c * vkp - s * vkq;
        v[k * 3 + q] = s * vkp + c * vkq;
      }
    }
  }
  return [0, 1, 2].map((col) => {
    const e = [v[col]!, v[3 + col]!, v[6 + col]!];
    const len = Math.hypot(e[0]!, e[1]!, e[2]!);
    return e.map((x) => x / len);
  });
}
