/**
 * OBB-tree collision detection on the GPU (Horn, GPU Gems 2 ch. 36, section 36.2): Listing
 * 36-4 made breadth-first, the filter of section 36.1 between levels.
 *
 * ```ts
 * const tree = buildObbTree(mesh.positions, mesh.indices);
 * const hits = await collide(ctx, tree, poseA, tree, poseB);  // poses: rigid 4x4, column-major
 * hits.pairs;   // Uint32Array: triangle of A, triangle of B, ... for every colliding pair
 * hits.levels;  // per level: box pairs tested, overlapping, leaf pairs, split
 * ```
 *
 * Each level is one pass of the `Collide` kernel (glsl/apps/collide/collide.brook) over twice
 * as many records as there are box pairs: a pair whose boxes are disjoint writes two null
 * records, an overlapping pair of leaves writes its triangle pair once, any other overlapping
 * pair writes the two pairs of the larger box's children. Two filters then take the box pairs
 * (the next level) and the leaf pairs (appended to the list of all leaf pairs found so far).
 * When no box pair is left, `TrianglesHaveContact` tests every leaf pair's triangles and a last
 * filter keeps the colliding ones. The counts are exact (the filter's), and equal to the CPU
 * breadth-first traversal's (`reference.collideBreadthFirst`), which runs the same arithmetic.
 *
 * The kernels are written in Brook against Listing 36-3's structs as printed (`Tri`, `BBox`)
 * and the section's `Traverser`: struct streams, one texture per field. A Traverser output is
 * five render targets, so the level kernel needs MAX_DRAW_BUFFERS ≥ 5 (8 on SwiftShader and on
 * desktop GPUs; WebGL2 promises only 4), and its three struct gathers 15 texture units.
 */
import COLLIDE_BROOK from '../../../glsl/apps/collide/collide.brook';
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import { iter, type KernelSpec } from '../../core/kernelspec';
import { parseBrook } from '../../brook/compile';
import type { Stream } from '../../core/stream';
import { structStream, type StructStream } from '../../core/struct';
import { checkContext } from '../../core/validate';
import { filter } from '../../idioms/filter';
import { relativePose, rootTraverser, type CollideLevel } from '../../geometry/obbpose';
import type { ObbTree } from '../../geometry/obbtree';

export type { CollideLevel } from '../../geometry/obbpose';

/** What `collide` returns. */
export interface CollisionResult {
  /** Colliding triangle pairs, interleaved (triangle of A, triangle of B), level by level in traversal order. */
  pairs: Uint32Array;
  count: number;
  /** Per level of the traversal: box pairs tested, overlapping, leaf pairs, split. */
  levels: CollideLevel[];
  /** Leaf pairs whose triangles were tested. */
  triangleTests: number;
}

let kernels: Record<string, KernelSpec> | null = null;
/** The Brook kernels of glsl/apps/collide/collide.brook, parsed once. */
export function collideKernels(): Record<string, KernelSpec> {
  return (kernels ??= parseBrook(COLLIDE_BROOK));
}

/** An OBB tree on one context: Listing 36-3's BBox and Tri struct streams. */
export interface GpuObbTree {
  tree: ObbTree;
  boxes: StructStream;
  triangles: StructStream;
  dispose(): void;
}

/** Uploads an OBB tree as a BBox stream and a Tri stream. */
export function uploadObbTree(ctx: BrookContext, tree: ObbTree): GpuObbTree {
  checkTree(tree, 'uploadObbTree(ctx, tree)');
  const { Collide, TrianglesHaveContact } = collideKernels();
  const boxes = structStream(ctx, Collide!.structs!.BBox!, tree.nodeCount);
  let triangles: StructStream | null = null;
  try {
    const f = boxes.fields;
    f.Rotationx!.write(tree.rotationx);
    f.Rotationy!.write(tree.rotationy);
    f.Translation!.write(tree.translation);
    f.Radius!.write(tree.radius);
    f.Children!.write(tree.children);
    triangles = structStream(ctx, TrianglesHaveContact!.structs!.Tri!, tree.triangleCount);
    triangles.fields.A!.write(tree.triA);
    triangles.fields.B!.write(tree.triB);
    triangles.fields.C!.write(tree.triC);
    const t = triangles;
    return { tree, boxes, triangles: t, dispose: () => (boxes.dispose(), t.dispose()) };
  } catch (e) {
    boxes.dispose();
    triangles?.dispose();
    throw e;
  }
}

function checkTree(tree: ObbTree, where: string): void {
  if (!tree || !(tree.radius instanceof Float32Array) || !(tree.nodeCount > 0)) {
    throw new BrookError(`${where}: expected an OBB tree from buildObbTree(positions, indices)`);
  }
}

/** How far from rigid a pose may be: |R^T R - I| and the bottom row's deviation from (0, 0, 0, 1),
 * entrywise (a float32 rotation built from angles is within ~1e-7). */
export const POSE_RIGID_TOLERANCE = 1e-4;

function checkPose(pose: ArrayLike<number>, name: string): void {
  if (!pose || pose.length !== 16 || !Array.from(pose).every(Number.isFinite)) {
    throw new BrookError(`collide: ${name} must be a rigid 4x4 matrix (16 finite numbers, column-major, as gl-matrix's mat4)`);
  }
  // columns of R: pose[0..2], pose[4..6], pose[8..10]
  const c = [0, 4, 8].map((o) => [pose[o]!, pose[o + 1]!, pose[o + 2]!]);
  let off = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) off = Math.max(off, Math.abs(c[i]![0]! * c[j]![0]! + c[i]![1]! * c[j]![1]! + c[i]![2]! * c[j]![2]! - (i === j ? 1 : 0)));
  const [a, b, d] = c as [number[], number[], number[]];
  const det = a[0]! * (b[1]! * d[2]! - b[2]! * d[1]!) - b[0]! * (a[1]! * d[2]! - a[2]! * d[1]!) + d[0]! * (a[1]! * b[2]! - a[2]! * b[1]!);
  const bottom = Math.max(Math.abs(pose[3]!), Math.abs(pose[7]!), Math.abs(pose[11]!), Math.abs(pose[15]! - 1));
  if (det < 0 || off > POSE_RIGID_TOLERANCE || bottom > POSE_RIGID_TOLERANCE) {
    const what = det < 0 ? `a reflection (det R = ${det.toPrecision(4)})` : off > POSE_RIGID_TOLERANCE ? `not orthonormal (det R = ${det.toPrecision(4)})` : 'not affine';
    throw new BrookError(
      `collide: ${name} is not a rigid motion: ${what}; max |R^T R - I| = ${off.toPrecision(3)}, bottom row off (0, 0, 0, 1) by ${bottom.toPrecision(3)} ` +
        `(tolerance ${POSE_RIGID_TOLERANCE}); pass a rotation and a translation only (e.g. gl-matrix's mat4.fromRotationTranslation), no scale, shear or mirror`,
    );
  }
}

/** Checks the device can run the level kernel. */
function checkCaps(ctx: BrookContext): void {
  if (ctx.caps.maxDrawBuffers < 5) {
    throw new BrookError(
      `collide: the Collide kernel writes a Traverser (5 outputs) but this device has MAX_DRAW_BUFFERS ${ctx.caps.maxDrawBuffers}`,
    );
  }
  if (ctx.caps.maxTextureImageUnits < 15) {
    throw new BrookError(`collide: the Collide kernel gathers from 15 streams but this device has ${ctx.caps.maxTextureImageUnits} texture units`);
  }
}

/**
 * A collision query between two trees on one context, with the trees uploaded once: what the
 * demo and the benchmark use for many poses. `collide` is the one-shot form.
 */
export function createCollider(ctx: BrookContext, treeA: ObbTree, treeB: ObbTree) {
  checkContext(ctx, 'createCollider');
  checkTree(treeA, 'createCollider(ctx, treeA, treeB): treeA');
  checkTree(treeB, 'createCollider(ctx, treeA, treeB): treeB');
  checkCaps(ctx);
  const a = uploadObbTree(ctx, treeA);
  let b: GpuObbTree;
  try {
    b = treeB === treeA ? a : uploadObbTree(ctx, treeB);
  } catch (e) {
    a.dispose();
    throw e;
  }
  return {
    /** Runs the query for model poses `poseA` and `poseB` (rigid 4x4, column-major). */
    collide: (poseA: ArrayLike<number>, poseB: ArrayLike<number>) => runCollide(ctx, a, poseA, b, poseB),
    dispose() {
      a.dispose();
      if (b !== a) b.dispose();
    },
  };
}

/**
 * Finds every pair of colliding triangles between model A at `poseA` and model B at `poseB`
 * (rigid 4x4 matrices, column-major). Uploads the trees, runs the traversal, frees everything.
 */
export async function collide(
  ctx: BrookContext,
  treeA: ObbTree,
  poseA: ArrayLike<number>,
  treeB: ObbTree,
  poseB: ArrayLike<number>,
): Promise<CollisionResult> {
  checkContext(ctx, 'collide');
  checkPose(poseA, 'poseA');
  checkPose(poseB, 'poseB');
  const c = createCollider(ctx, treeA, treeB);
  try {
    return await c.collide(poseA, poseB);
  } finally {
    c.dispose();
  }
}

async function runCollide(ctx: BrookContext, A: GpuObbTree, poseA: ArrayLike<number>, B: GpuObbTree, poseB: ArrayLike<number>): Promise<CollisionResult> {
  checkPose(poseA, 'poseA');
  checkPose(poseB, 'poseB');
  const k = collideKernels();
  const pose = relativePose(poseA, poseB);
  const root = rootTraverser(A.tree, B.tree, pose);
  const live = new Set<Stream | StructStream>();
  const own = <T extends Stream | StructStream | null>(s: T): T => {
    if (s) live.add(s);
    return s;
  };
  const drop = (s: Stream | StructStream | null) => {
    if (s && live.delete(s)) s.dispose();
  };
  const Traverser = k.Collide!.structs!.Traverser!;
  const levels: CollideLevel[] = [];
  try {
    let n = 1;
    let current = own(structStream(ctx, Traverser, 1, [0, 0, 0, 0, ...root.t, ...root.rx, ...root.ry, ...root.rz]));
    let leaves: Stream | null = null;
    let leafCount = 0;
    while (n > 0) {
      const m = 2 * n;
      const next = own(structStream(ctx, Traverser, m));
      ctx.runInternal(k.Collide!, { t: current, mA: A.boxes, mB: B.boxes, here: iter(0, m), next });
      drop(current);
      const nodes = await filter(ctx, next.fields.index!, { keep: 'x.y == 0.0', indices: true });
      own(nodes.stream);
      own(nodes.indices);
      drop(nodes.stream);
      const found = await filter(ctx, next.fields.index!, { keep: 'x.y == 1.0' });
      own(found.stream);
      levels.push({ tested: n, overlapping: nodes.count / 2 + found.count, leafPairs: found.count, split: nodes.count / 2 });
      if (found.count > 0) {
        if (!leaves) {
          leaves = found.stream;
        } else {
          const joined = own(ctx.scratch('float4', leafCount + found.count));
          ctx.runInternal(k.Append!, { first: leaves, second: found.stream!, count: leafCount, here: iter(0, leafCount + found.count), joined });
          drop(leaves);
          drop(found.stream);
          leaves = joined;
        }
        leafCount += found.count;
      }
      n = nodes.count;
      if (n > 0) {
        current = own(structStream(ctx, Traverser, n));
        ctx.runInternal(k.GatherTraverser!, { kept: nodes.indices!, t: next, next: current });
      }
      drop(nodes.indices);
      drop(next);
    }
    if (!leaves) return { pairs: new Uint32Array(0), count: 0, levels, triangleTests: 0 };
    const hitStream = own(ctx.scratch('float4', leafCount));
    ctx.runInternal(k.TrianglesHaveContact!, {
      pair: leaves, triA: A.triangles, triB: B.triangles,
      mRx: pose.rows[0], mRy: pose.rows[1], mRz: pose.rows[2], mT: pose.t, hit: hitStream,
    });
    const hits = await filter(ctx, hitStream, { sentinel: true });
    own(hits.stream);
    const pairs = new Uint32Array(hits.count * 2);
    if (hits.stream) {
      const data = await hits.stream.read();
      for (let i = 0; i < hits.count; i++) {
        pairs[i * 2] = data[i * 4]!;
        pairs[i * 2 + 1] = data[i * 4 + 2]!;
      }
    }
    return { pairs, count: hits.count, levels, triangleTests: leafCount };
  } finally {
    live.forEach((s) => s.dispose());
  }
}
