/**
 * CPU references for Horn's OBB-tree collision detection (GPU Gems 2, section 36.2), in float32
 * operation by operation, in the same order as the kernels of glsl/apps/collide/collide.brook:
 *
 * - `collideRecursive`: Listing 36-4 as printed (depth-first, recursive), returning every
 *   colliding triangle pair instead of the first `true`;
 * - `collideBreadthFirst`: the same traversal level by level, as the GPU runs it, with the
 *   per-level counts (pairs tested, overlapping, leaf pairs, split) the GPU must reproduce;
 * - `collideBruteForce`: every triangle pair through the same triangle test.
 *
 * The triangle test (`triContact`) is Möller's interval test (1997) as RAPID and BrookGPU use
 * it, with a coplanar 2D test instead of BrookGPU's "coplanar counts as contact". Distances to
 * a plane smaller than `TRI_TOLERANCE` × |N|₁ × (the pair's size) are taken as zero, interval
 * ends closer than `TRI_TOLERANCE` × (their size) as touching, and in the coplanar test signed
 * areas below `TRI_TOLERANCE` × size² as zero: touching triangles count as colliding, and the
 * GPU and the CPU, which may round an operation differently (fused multiply-adds), agree.
 *
 * The traversal state (Listing 36-4's `Traverser`), the poses and the float32 vector operations
 * are in src/geometry/obbpose.ts (the GPU app starts its traversal with them) and re-exported here.
 */
import { add, cross3, descendA, descendB, dot3, rootTraverser, scale, sub, v3, type CollideLevel, type RelativePose, type Traverser, type Vec3 } from '../geometry/obbpose';
import type { ObbTree } from '../geometry/obbtree';

// the traversal state, its poses and float32 vectors are geometry's (the GPU app runs them too)
export { boxAxes, cross3, descendA, descendB, dot3, relativePose, rootTraverser } from '../geometry/obbpose';
export type { CollideLevel, RelativePose, Traverser, Vec3 } from '../geometry/obbpose';

const f = Math.fround;

/** Relative tolerance of the triangle test (see the module comment). */
export const TRI_TOLERANCE = Math.fround(1e-5);
/** Added to |R| in the separating-axis test, as RAPID does (its `reps`). */
export const OBB_REPS = Math.fround(1e-6);

const l1 = (a: Vec3): number => f(f(Math.abs(a[0]) + Math.abs(a[1])) + Math.abs(a[2]));

/** RAPID's separating-axis test of box half-sizes `a` and `b` under the state: true when they overlap. */
export function obbOverlap(s: Traverser, a: Vec3, b: Vec3): boolean {
  const B = [s.rx, s.ry, s.rz];
  const T = s.t;
  const Bf = B.map((r) => [f(Math.abs(r[0]) + OBB_REPS), f(Math.abs(r[1]) + OBB_REPS), f(Math.abs(r[2]) + OBB_REPS)] as Vec3);
  const m = (x: number, y: number) => f(x * y);
  const s3 = (x: number, y: number, z: number) => f(f(x + y) + z);
  const s4 = (w: number, x: number, y: number, z: number) => f(f(f(w + x) + y) + z);
  // A's axes
  for (let i = 0; i < 3; i++) {
    if (Math.abs(T[i]!) > f(a[i]! + dot3(b, Bf[i]!))) return false;
  }
  // B's axes
  for (let j = 0; j < 3; j++) {
    const sp = s3(m(T[0], B[0]![j]!), m(T[1], B[1]![j]!), m(T[2], B[2]![j]!));
    const r = s4(b[j]!, m(a[0], Bf[0]![j]!), m(a[1], Bf[1]![j]!), m(a[2], Bf[2]![j]!));
    if (Math.abs(sp) > r) return false;
  }
  // A_i x B_j
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3;
    const i2 = (i + 2) % 3;
    for (let j = 0; j < 3; j++) {
      const j1 = (j + 1) % 3;
      const j2 = (j + 2) % 3;
      const sp = f(m(T[i2], B[i1]![j]!) - m(T[i1], B[i2]![j]!));
      const r = s4(m(a[i1], Bf[i2]![j]!), m(a[i2], Bf[i1]![j]!), m(b[j1], Bf[i]![j2]!), m(b[j2], Bf[i]![j1]!));
      if (Math.abs(sp) > r) return false;
    }
  }
  return true;
}

const closestOnSegment = (p: Vec3, a: Vec3, b: Vec3): Vec3 => {
  const ab = sub(b, a);
  const l = dot3(ab, ab);
  return l > 0 ? add(a, scale(ab, Math.min(Math.max(f(dot3(sub(p, a), ab) / l), 0), 1))) : a;
};

function closestOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot3(ab, ap), d2 = dot3(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot3(ab, bp), d4 = dot3(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = f(f(d1 * d4) - f(d3 * d2));
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return closestOnSegment(p, a, b);
  const cp = sub(p, c);
  const d5 = dot3(ab, cp), d6 = dot3(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = f(f(d5 * d2) - f(d1 * d6));
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return closestOnSegment(p, a, c);
  const va = f(f(d3 * d6) - f(d5 * d4));
  if (va <= 0 && f(d4 - d3) >= 0 && f(d5 - d6) >= 0) return closestOnSegment(p, b, c);
  const den = f(f(va + vb) + vc);
  if (!(den > 0)) return closestOnSegment(p, a, b);
  return add(add(a, scale(ab, f(vb / den))), scale(ac, f(vc / den)));
}

const dist2 = (p: Vec3, q: Vec3): number => dot3(sub(p, q), sub(p, q));

function segmentDist2(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3): number {
  let best = Math.min(dist2(p0, closestOnSegment(p0, q0, q1)), dist2(p1, closestOnSegment(p1, q0, q1)), dist2(q0, closestOnSegment(q0, p0, p1)), dist2(q1, closestOnSegment(q1, p0, p1)));
  const d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
  const a = dot3(d1, d1), b = dot3(d1, d2), e = dot3(d2, d2), c = dot3(d1, r), g = dot3(d2, r);
  const den = f(f(a * e) - f(b * b));
  if (den > 0) {
    const s = f(f(f(b * g) - f(c * e)) / den), t = f(f(f(a * g) - f(b * c)) / den);
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = Math.min(best, dist2(add(p0, scale(d1, s)), add(q0, scale(d2, t))));
  }
  return best;
}

function pierceDist2(e0: Vec3, e1: Vec3, N: Vec3, d: number, a: Vec3, b: Vec3, c: Vec3): number {
  const s0 = f(dot3(N, e0) + d), s1 = f(dot3(N, e1) + d);
  if (f(s0 * s1) > 0 || s0 === s1) return 3.0e38;
  const x = add(e0, scale(sub(e1, e0), f(s0 / f(s0 - s1))));
  return dist2(x, closestOnTriangle(x, a, b, c));
}

/** The squared distance between triangles V and U in float32 (glsl/apps/collide/collide.brook
 * triDist2): vertices against faces, edges against edges, edges piercing faces. */
export function triangleDistance2(V0: Vec3, V1: Vec3, V2: Vec3, U0: Vec3, U1: Vec3, U2: Vec3): number {
  const N1 = cross3(sub(V1, V0), sub(V2, V0)), d1 = f(-dot3(N1, V0));
  const N2 = cross3(sub(U1, U0), sub(U2, U0)), d2 = f(-dot3(N2, U0));
  const V = [V0, V1, V2], U = [U0, U1, U2];
  let best = Infinity;
  for (const v of V) best = Math.min(best, dist2(v, closestOnTriangle(v, U0, U1, U2)));
  for (const u of U) best = Math.min(best, dist2(u, closestOnTriangle(u, V0, V1, V2)));
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) best = Math.min(best, segmentDist2(V[i]!, V[(i + 1) % 3]!, U[j]!, U[(j + 1) % 3]!));
  for (let i = 0; i < 3; i++) best = Math.min(best, pierceDist2(V[i]!, V[(i + 1) % 3]!, N2, d2, U0, U1, U2));
  for (let i = 0; i < 3; i++) best = Math.min(best, pierceDist2(U[i]!, U[(i + 1) % 3]!, N1, d1, V0, V1, V2));
  return best;
}

/** The pair's size as the triangle test measures it (the l1 norms of its edges and of U0 - V0). */
export function triangleSize(V0: Vec3, V1: Vec3, V2: Vec3, U0: Vec3, U1: Vec3, U2: Vec3): number {
  return Math.max(l1(sub(V1, V0)), l1(sub(V2, V0)), l1(sub(U1, U0)), l1(sub(U2, U0)), l1(sub(U0, V0)));
}

/**
 * The triangle test: Möller's (below) with its tolerances, then the distance check — a pair the
 * tolerant test calls touching is reported only when the triangles come within TRI_TOLERANCE ×
 * size of each other (triangleDistance2), so the tolerance bounds every reported pair's distance.
 */
export function triContact(V0: Vec3, V1: Vec3, V2: Vec3, U0: Vec3, U1: Vec3, U2: Vec3): boolean {
  const reach = f(TRI_TOLERANCE * triangleSize(V0, V1, V2, U0, U1, U2));
  return mollerContact(V0, V1, V2, U0, U1, U2) && triangleDistance2(V0, V1, V2, U0, U1, U2) <= f(reach * reach);
}

/** Möller's triangle-triangle test with the tolerances of the module comment. */
export function mollerContact(V0: Vec3, V1: Vec3, V2: Vec3, U0: Vec3, U1: Vec3, U2: Vec3): boolean {
  const E1 = sub(V1, V0);
  const E2 = sub(V2, V0);
  const F1 = sub(U1, U0);
  const F2 = sub(U2, U0);
  const size = Math.max(l1(E1), l1(E2), l1(F1), l1(F2), l1(sub(U0, V0)));
  const N1 = cross3(E1, E2);
  const d1 = f(-dot3(N1, V0));
  const tolU = f(f(TRI_TOLERANCE * l1(N1)) * size);
  const zero = (x: number, tol: number) => (Math.abs(x) <= tol ? 0 : x);
  const du: Vec3 = [zero(f(dot3(N1, U0) + d1), tolU), zero(f(dot3(N1, U1) + d1), tolU), zero(f(dot3(N1, U2) + d1), tolU)];
  if (f(du[0] * du[1]) > 0 && f(du[0] * du[2]) > 0) return false;
  const N2 = cross3(F1, F2);
  const d2 = f(-dot3(N2, U0));
  const tolV = f(f(TRI_TOLERANCE * l1(N2)) * size);
  const dv: Vec3 = [zero(f(dot3(N2, V0) + d2), tolV), zero(f(dot3(N2, V1) + d2), tolV), zero(f(dot3(N2, V2) + d2), tolV)];
  if (f(dv[0] * dv[1]) > 0 && f(dv[0] * dv[2]) > 0) return false;
  if (du[0] === 0 && du[1] === 0 && du[2] === 0) return coplanarContact(N1, V0, V1, V2, U0, U1, U2, size);
  const D = cross3(N1, N2);
  const ad = [Math.abs(D[0]), Math.abs(D[1]), Math.abs(D[2])];
  const k = ad[2]! > ad[0]! && ad[2]! >= ad[1]! ? 2 : ad[1]! > ad[0]! ? 1 : 0;
  const i1 = interval([V0[k], V1[k], V2[k]], dv);
  const i2 = interval([U0[k], U1[k], U2[k]], du);
  if (!i1 || !i2) return coplanarContact(N1, V0, V1, V2, U0, U1, U2, size);
  const tolI = f(TRI_TOLERANCE * f(f(f(i1[1] - i1[0]) + f(i2[1] - i2[0])) + size));
  return !(f(i1[1] + tolI) < i2[0] || f(i2[1] + tolI) < i1[0]);
}

/** The interval [lo, hi] of a triangle on the intersection line, or null when coplanar. */
function interval(p: Vec3, d: Vec3): [number, number] | null {
  // which vertex is alone on its side (Möller's COMPUTE_INTERVALS)
  let o: [number, number, number];
  if (f(d[0] * d[1]) > 0) o = [2, 0, 1];
  else if (f(d[0] * d[2]) > 0) o = [1, 0, 2];
  else if (f(d[1] * d[2]) > 0 || d[0] !== 0) o = [0, 1, 2];
  else if (d[1] !== 0) o = [1, 0, 2];
  else if (d[2] !== 0) o = [2, 0, 1];
  else return null;
  const [a, b, c] = o;
  const t1 = f(p[a] + f(f(f(p[b] - p[a]) * d[a]) / f(d[a] - d[b])));
  const t2 = f(p[a] + f(f(f(p[c] - p[a]) * d[a]) / f(d[a] - d[c])));
  return t1 <= t2 ? [t1, t2] : [t2, t1];
}

/** Coplanar triangles: projected on the plane of the two largest normal components. */
function coplanarContact(N: Vec3, V0: Vec3, V1: Vec3, V2: Vec3, U0: Vec3, U1: Vec3, U2: Vec3, size: number): boolean {
  const an = [Math.abs(N[0]), Math.abs(N[1]), Math.abs(N[2])];
  // drop the largest component: project on (i0, i1)
  const [i0, i1] = an[0]! > an[1]! ? (an[0]! > an[2]! ? [1, 2] : [0, 1]) : an[2]! > an[1]! ? [0, 1] : [0, 2];
  const P = (v: Vec3): [number, number] => [v[i0!]!, v[i1!]!];
  const v = [P(V0), P(V1), P(V2)];
  const u = [P(U0), P(U1), P(U2)];
  const tol = f(f(TRI_TOLERANCE * size) * size);
  const orient = (a: number[], b: number[], c: number[]) => {
    const o = f(f(f(b[0]! - a[0]!) * f(c[1]! - a[1]!)) - f(f(b[1]! - a[1]!) * f(c[0]! - a[0]!)));
    return Math.abs(o) <= tol ? 0 : o;
  };
  const segments = (p1: number[], p2: number[], q1: number[], q2: number[]) => {
    const o1 = orient(p1, p2, q1);
    const o2 = orient(p1, p2, q2);
    const o3 = orient(q1, q2, p1);
    const o4 = orient(q1, q2, p2);
    if (o1 === 0 && o2 === 0) {
      // collinear: overlapping ranges on both coordinates
      return (
        Math.max(Math.min(p1[0]!, p2[0]!), Math.min(q1[0]!, q2[0]!)) <= Math.min(Math.max(p1[0]!, p2[0]!), Math.max(q1[0]!, q2[0]!)) &&
        Math.max(Math.min(p1[1]!, p2[1]!), Math.min(q1[1]!, q2[1]!)) <= Math.min(Math.max(p1[1]!, p2[1]!), Math.max(q1[1]!, q2[1]!))
      );
    }
    return f(o1 * o2) <= 0 && f(o3 * o4) <= 0;
  };
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (segments(v[i]!, v[(i + 1) % 3]!, u[j]!, u[(j + 1) % 3]!)) return true;
  const inside = (p: number[], t: number[][]) => {
    const a = orient(t[0]!, t[1]!, p);
    const b = orient(t[1]!, t[2]!, p);
    const c = orient(t[2]!, t[0]!, p);
    return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
  };
  return inside(v[0]!, u) || inside(u[0]!, v);
}

/** The triangle pair (a of A, b of B) under the relative pose, through `triContact`. */
export function trianglesHaveContact(treeA: ObbTree, ta: number, treeB: ObbTree, tb: number, pose: RelativePose): boolean {
  const move = (p: Vec3): Vec3 => add([dot3(pose.rows[0], p), dot3(pose.rows[1], p), dot3(pose.rows[2], p)], pose.t);
  return triContact(
    v3(treeA.triA, ta), v3(treeA.triB, ta), v3(treeA.triC, ta),
    move(v3(treeB.triA, tb)), move(v3(treeB.triB, tb)), move(v3(treeB.triC, tb)),
  );
}

const isLeaf = (tree: ObbTree, node: number) => tree.radius[node * 4 + 3] !== 0;
const radius = (tree: ObbTree, node: number): Vec3 => v3(tree.radius, node, 4);
/** Listing 36-4's AisBigger: A is split when B is a leaf or A's longest half-size is larger. */
const aIsBigger = (A: ObbTree, a: number, B: ObbTree, b: number) =>
  isLeaf(B, b) || (!isLeaf(A, a) && A.radius[a * 4]! > B.radius[b * 4]!);

/**
 * Listing 36-4, side by side with the book:
 * ```
 * bool collide (BBox mA[], BBox mB[], Triangle tri[], Traverser state){
 *   BBox A = mA[state.index.xy]; BBox B = mB[state.index.zw]
 *   if (bb_overlap(state, A.Radius, B.Radius)){
 *     if (isLeaf(A) && isLeaf(B)) return tri_overlap(tri[A.Children], tri[B.Children])
 *     else if (AisBigger(A, B)) { state = Compose(...); index.xy = LeftChild(A); ... RightChild(A) }
 *     else { state = invCompose(...); index.zw = LeftChild(B); ... RightChild(B) }
 *   }
 *   return false;
 * }
 * ```
 * Each child has its own frame here (RAPID's relative frames), so Compose takes the child's
 * Translation and Rotation; and instead of `ret || collide(...)` every pair is collected.
 */
export function collideRecursive(mA: ObbTree, mB: ObbTree, pose: RelativePose, state = rootTraverser(mA, mB, pose), hits: Array<[number, number]> = []): Array<[number, number]> {
  const A = state.a;
  const B = state.b;
  if (obbOverlap(state, radius(mA, A), radius(mB, B))) {
    if (isLeaf(mA, A) && isLeaf(mB, B)) {
      const ta = mA.children[A * 2]!;
      const tb = mB.children[B * 2]!;
      if (trianglesHaveContact(mA, ta, mB, tb, pose)) hits.push([ta, tb]);
    } else if (aIsBigger(mA, A, mB, B)) {
      const left = mA.children[A * 2]!;
      collideRecursive(mA, mB, pose, descendA(state, mA, left), hits);
      collideRecursive(mA, mB, pose, descendA(state, mA, left + 1), hits);
    } else {
      const left = mB.children[B * 2]!;
      collideRecursive(mA, mB, pose, descendB(state, mB, left), hits);
      collideRecursive(mA, mB, pose, descendB(state, mB, left + 1), hits);
    }
  }
  return hits;
}

/** One level of the breadth-first traversal. */
export interface CollideResult {
  /** Colliding triangle pairs (index in A, index in B): leaf pairs in the order found, level by level. */
  pairs: Array<[number, number]>;
  levels: CollideLevel[];
  /** Triangle pairs tested (all leaf pairs). */
  triangleTests: number;
  /** The leaf pairs tested (collideBreadthFirst only). */
  leaves?: Array<[number, number]>;
}

/** The traversal level by level, as the GPU runs it (same order, same counts). */
export function collideBreadthFirst(mA: ObbTree, mB: ObbTree, pose: RelativePose): CollideResult {
  let pairs: Traverser[] = [rootTraverser(mA, mB, pose)];
  const leaves: Array<[number, number]> = [];
  const levels: CollideLevel[] = [];
  while (pairs.length > 0) {
    const next: Traverser[] = [];
    const level: CollideLevel = { tested: pairs.length, overlapping: 0, leafPairs: 0, split: 0 };
    for (const s of pairs) {
      if (!obbOverlap(s, radius(mA, s.a), radius(mB, s.b))) continue;
      level.overlapping++;
      if (isLeaf(mA, s.a) && isLeaf(mB, s.b)) {
        level.leafPairs++;
        leaves.push([mA.children[s.a * 2]!, mB.children[s.b * 2]!]);
      } else if (aIsBigger(mA, s.a, mB, s.b)) {
        level.split++;
        const left = mA.children[s.a * 2]!;
        next.push(descendA(s, mA, left), descendA(s, mA, left + 1));
      } else {
        level.split++;
        const left = mB.children[s.b * 2]!;
        next.push(descendB(s, mB, left), descendB(s, mB, left + 1));
      }
    }
    levels.push(level);
    pairs = next;
  }
  const hits = leaves.filter(([ta, tb]) => trianglesHaveContact(mA, ta, mB, tb, pose));
  return { pairs: hits, levels, triangleTests: leaves.length, leaves };
}

/**
 * Every triangle of A against every triangle of B (the answer the traversal must give).
 * `cull: true` skips pairs whose axis-aligned bounds, widened by 1e-4 of the two models' size,
 * do not meet: the triangle test's tolerances reach about 1e-5 of a pair's size, so no pair it
 * could call touching is skipped; it makes the dragon's 7.4 million pairs affordable in a test.
 */
export function collideBruteForce(mA: ObbTree, mB: ObbTree, pose: RelativePose, options: { cull?: boolean } = {}): Array<[number, number]> {
  const move = (p: Vec3): Vec3 => add([dot3(pose.rows[0], p), dot3(pose.rows[1], p), dot3(pose.rows[2], p)], pose.t);
  const bounds = (tree: ObbTree, moved: boolean) => {
    const b = new Float64Array(tree.triangleCount * 6);
    for (let t = 0; t < tree.triangleCount; t++) {
      const ps = [v3(tree.triA, t), v3(tree.triB, t), v3(tree.triC, t)].map((p) => (moved ? move(p) : p));
      for (let i = 0; i < 3; i++) {
        b[t * 6 + i] = Math.min(ps[0]![i]!, ps[1]![i]!, ps[2]![i]!);
        b[t * 6 + 3 + i] = Math.max(ps[0]![i]!, ps[1]![i]!, ps[2]![i]!);
      }
    }
    return b;
  };
  const ba = bounds(mA, false);
  const bb = bounds(mB, true);
  let extent = 0;
  for (const b of [ba, bb]) for (let i = 0; i < b.length; i++) extent = Math.max(extent, Math.abs(b[i]!));
  const pad = 1e-4 * extent;
  const hits: Array<[number, number]> = [];
  for (let a = 0; a < mA.triangleCount; a++) {
    for (let b = 0; b < mB.triangleCount; b++) {
      if (options.cull) {
        let apart = false;
        for (let i = 0; i < 3 && !apart; i++) apart = ba[a * 6 + i]! > bb[b * 6 + 3 + i]! + pad || bb[b * 6 + i]! > ba[a * 6 + 3 + i]! + pad;
        if (apart) continue;
      }
      if (trianglesHaveContact(mA, a, mB, b, pose)) hits.push([a, b]);
    }
  }
  return hits;
}
