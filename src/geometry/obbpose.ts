/**
 * The traversal state of two OBB trees (Horn, GPU Gems 2 section 36.2, Listing 36-4) in float32,
 * operation by operation as the kernels of glsl/apps/collide/collide.brook compute it: the pose
 * of model B in model A's frame (`relativePose`), the state of the root pair (`rootTraverser`)
 * and of a child pair (`descendA`, `descendB`), and the per-level counts a breadth-first
 * traversal reports. The GPU app (src/apps/collide) runs these on the CPU to start its
 * traversal; the plain reference (src/reference/collide.ts) builds its tests on them.
 *
 * The state is the pose of the current B box in the current A box's frame: x_A = R x_B + T, with
 * R by rows (Rotationx, y, z).
 */
import type { ObbTree } from './obbtree';

const f = Math.fround;
export type Vec3 = [number, number, number];

/** Float32 vector operations, each operation rounded as the kernels round it. */
export const add = (a: Vec3, b: Vec3): Vec3 => [f(a[0] + b[0]), f(a[1] + b[1]), f(a[2] + b[2])];
export const sub = (a: Vec3, b: Vec3): Vec3 => [f(a[0] - b[0]), f(a[1] - b[1]), f(a[2] - b[2])];
export const scale = (a: Vec3, s: number): Vec3 => [f(a[0] * s), f(a[1] * s), f(a[2] * s)];
/** a.x*b.x + a.y*b.y + a.z*b.z, left to right, each operation rounded. */
export const dot3 = (a: Vec3, b: Vec3): number => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
export const cross3 = (a: Vec3, b: Vec3): Vec3 => [
  f(f(a[1] * b[2]) - f(a[2] * b[1])),
  f(f(a[2] * b[0]) - f(a[0] * b[2])),
  f(f(a[0] * b[1]) - f(a[1] * b[0])),
];

/** Listing 36-4's traversal state. */
export interface Traverser {
  /** Record of the A box and of the B box. */
  a: number;
  b: number;
  /** Rows of R (B box frame to A box frame) and the translation. */
  rx: Vec3;
  ry: Vec3;
  rz: Vec3;
  t: Vec3;
}

/** A rigid pose of model B in model A's frame: x_A = rows · x_B + t (float32). */
export interface RelativePose {
  rows: [Vec3, Vec3, Vec3];
  t: Vec3;
}

/** Record i of a flat array of `stride` numbers each, as a Vec3. */
export function v3(a: ArrayLike<number>, i: number, stride = 3): Vec3 {
  return [a[i * stride]!, a[i * stride + 1]!, a[i * stride + 2]!];
}

/** The box's axes in its parent's frame (z = cross(x, y) · x.w). */
export function boxAxes(tree: ObbTree, node: number): [Vec3, Vec3, Vec3] {
  const x = v3(tree.rotationx, node, 4);
  const y = v3(tree.rotationy, node);
  const z = scale(cross3(x, y), tree.rotationx[node * 4 + 3]!);
  return [x, y, z];
}

/**
 * Composes the pose of `model B in model A` with both roots: the state of the root pair.
 * `pose.rows` maps model B's coordinates into model A's.
 */
export function rootTraverser(treeA: ObbTree, treeB: ObbTree, pose: RelativePose): Traverser {
  const start: Traverser = { a: 0, b: 0, rx: pose.rows[0], ry: pose.rows[1], rz: pose.rows[2], t: pose.t };
  return descendB(descendA(start, treeA, 0), treeB, 0);
}

/** Listing 36-4's Compose for the A side: the state seen from A's child box `child`. */
export function descendA(s: Traverser, tree: ObbTree, child: number): Traverser {
  const [cx, cy, cz] = boxAxes(tree, child);
  const d = sub(s.t, v3(tree.translation, child));
  // R' = C^T R: row i = c_i.x * R.row0 + c_i.y * R.row1 + c_i.z * R.row2
  const row = (c: Vec3): Vec3 => add(add(scale(s.rx, c[0]), scale(s.ry, c[1])), scale(s.rz, c[2]));
  return { a: child, b: s.b, rx: row(cx), ry: row(cy), rz: row(cz), t: [dot3(cx, d), dot3(cy, d), dot3(cz, d)] };
}

/** Listing 36-4's invCompose for the B side: the state seen by B's child box `child`. */
export function descendB(s: Traverser, tree: ObbTree, child: number): Traverser {
  const [cx, cy, cz] = boxAxes(tree, child);
  const ct = v3(tree.translation, child);
  // R' = R C: R'[i][j] = dot(R.row_i, c_j); T' = R ct + T
  const row = (r: Vec3): Vec3 => [dot3(r, cx), dot3(r, cy), dot3(r, cz)];
  return { a: s.a, b: child, rx: row(s.rx), ry: row(s.ry), rz: row(s.rz), t: add([dot3(s.rx, ct), dot3(s.ry, ct), dot3(s.rz, ct)], s.t) };
}

/** One level of a breadth-first traversal of two OBB trees. */
export interface CollideLevel {
  /** Box pairs tested at this level. */
  tested: number;
  /** Pairs whose boxes overlap (= leafPairs + split). */
  overlapping: number;
  /** Overlapping pairs of two leaves: their triangles go to the triangle test. */
  leafPairs: number;
  /** Overlapping pairs split into two child pairs for the next level. */
  split: number;
}

/**
 * The pose of model B in model A's frame, poseA⁻¹ · poseB, from two rigid 4x4 matrices
 * (column-major, as gl-matrix), computed in float64 and rounded to float32.
 */
export function relativePose(poseA: ArrayLike<number>, poseB: ArrayLike<number>): RelativePose {
  const R = (m: ArrayLike<number>, r: number, c: number) => m[c * 4 + r]!;
  const rows: Vec3[] = [];
  const t: number[] = [];
  for (let i = 0; i < 3; i++) {
    // (RA^T RB)[i][j] = sum_k RA[k][i] RB[k][j]; t = RA^T (tB - tA)
    rows.push([0, 1, 2].map((j) => f(R(poseA, 0, i) * R(poseB, 0, j) + R(poseA, 1, i) * R(poseB, 1, j) + R(poseA, 2, i) * R(poseB, 2, j))) as Vec3);
    t.push(f([0, 1, 2].reduce((s, k) => s + R(poseA, k, i) * (R(poseB, k, 3) - R(poseA, k, 3)), 0)));
  }
  return { rows: rows as [Vec3, Vec3, Vec3], t: t as Vec3 };
}
