/**
 * Adaptive Loop subdivision on the GPU (Horn, GPU Gems 2 ch. 36, section 36.3): a stream of
 * self-contained triangles (Listing 36-5's `STri` and `Neighbor`: each triangle carries the
 * coordinates of its nine neighbouring vertices), split round by round, with the filter of
 * section 36.1 separating the finished triangles from those still splitting.
 *
 * ```ts
 * const mesh = weldVertices(parsePly(bytes));
 * const out = await subdivide(ctx, mesh, { epsilon: 0.05, maxDepth: 4, adaptive: true });
 * out.positions;   // Float32Array, 9 per triangle (finished ones, slivers, the last round's)
 * out.rounds;      // per round: triangles in, finished, split, slivers
 * ```
 *
 * One round, every pass a Brook kernel of glsl/apps/subdivide/loop.brook:
 * 1. `EdgeFlags`: each triangle ORs its inherited completion flags (the w components) with the
 *    per-edge flatness test; a triangle whose three edges may stop is finished.
 * 2. The filter takes the finished triangles (appended to the output, tagged with the round)
 *    and the indices of those still splitting (adaptive only; otherwise all split).
 * 3. `SplitTriangle`, `SplitNeighbor`: Loop's vertex and edge rules on the triangle's own data
 *    (neighbour sums in ascending order), giving the split triangle and the split neighbours
 *    (a Neighbor: nine float4 holding twelve points, the w components used as the listing's
 *    comments say).
 * 4. `Expand`: four records per split triangle, child (index mod 4), its STri and Neighbor with
 *    their inherited flags (twelve float4 outputs).
 * 5. `Sliver` and a filter: a sliver triangle at every T-junction (an edge that may stop,
 *    split by a plain midpoint, beside a finished triangle).
 * After `maxDepth` rounds the remaining triangles are appended too; the result is read back.
 *
 * Supported meshes: closed, consistently oriented, valence 4 to 6 (BrookGPU's limit; the
 * listing's Neighbor holds six neighbours per corner). Others are refused with a BrookError.
 * The kernels take Listing 36-5's structs as printed (`STri`, `Neighbor`) and BrookGPU's
 * `SplitTri` as struct streams, and write whole structs: a Neighbor output is nine render
 * targets, and a kernel with more outputs than MAX_DRAW_BUFFERS runs as several passes
 * (run.ts), each computing the body and writing its share. They need 16 texture units.
 */
import LOOP_BROOK from '../../../glsl/apps/subdivide/loop.brook';
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import { iter, type KernelSpec } from '../../core/kernelspec';
import { parseBrook } from '../../brook/compile';
import type { Stream } from '../../core/stream';
import { structStream, type StructStream } from '../../core/struct';
import { checkContext, checkOptions } from '../../core/validate';
import { filter } from '../../idioms/filter';
import {
  PATCH_FIELDS,
  PATCH_FLOATS,
  buildPatches,
  loopWeights,
  type IndexedMesh,
  type SubdivideOptions,
  type SubdivideResult,
  type SubdivideRound,
} from '../../geometry/loop';

export type { SubdivideOptions, SubdivideResult, SubdivideRound } from '../../geometry/loop';

let kernels: Record<string, KernelSpec> | null = null;
/** The Brook kernels of glsl/apps/subdivide/loop.brook, parsed once. */
export function subdivideKernels(): Record<string, KernelSpec> {
  return (kernels ??= parseBrook(LOOP_BROOK));
}

type Tri = { A: Stream; B: Stream; C: Stream };

/**
 * Subdivides a closed triangle mesh (`positions` xyz per vertex, `indices` three per triangle;
 * weld duplicate vertices first) with Loop's rules, adaptively by default.
 */
export async function subdivide(ctx: BrookContext, mesh: IndexedMesh, options: SubdivideOptions = {}): Promise<SubdivideResult> {
  checkContext(ctx, 'subdivide');
  options = checkOptions(options, 'subdivide: options');
  if (options.adaptive !== undefined && typeof options.adaptive !== 'boolean') throw new BrookError(`subdivide: options.adaptive must be true or false, got ${String(options.adaptive)}`);
  const epsilon = options.epsilon ?? 0.05;
  const maxDepth = options.maxDepth ?? 3;
  const adaptive = options.adaptive ?? true;
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new BrookError(`subdivide: epsilon must be a finite number ≥ 0, got ${epsilon}`);
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new BrookError(`subdivide: maxDepth must be an integer ≥ 0, got ${maxDepth}`);
  const patches = buildPatches(mesh);
  const n0 = patches.length / PATCH_FLOATS;
  const finalCount = n0 * 4 ** maxDepth;
  if (finalCount * 2 > ctx.caps.maxRecords) {
    throw new BrookError(
      `subdivide: ${maxDepth} rounds of ${n0} triangles can reach ${finalCount} triangles, more than this device's streams hold; lower maxDepth`,
    );
  }
  if (ctx.caps.maxTextureImageUnits < 16) {
    throw new BrookError(
      `subdivide: the kernels gather from fifteen streams; this device has ${ctx.caps.maxTextureImageUnits} texture units`,
    );
  }
  const k = subdivideKernels();
  const w = loopWeights();
  const betas = [w[0]!, w[2]!, w[4]!, 0];
  const keeps = [w[1]!, w[3]!, w[5]!, 0];
  const eps2 = Math.fround(epsilon * epsilon);

  const { STri, Neighbor, SplitTri } = k.SplitTriangle!.structs!;
  const live = new Set<Stream | StructStream>();
  const own = <T extends Stream | StructStream | null>(s: T): T => {
    if (s) live.add(s);
    return s;
  };
  const drop = (...ss: Array<Stream | StructStream | null | undefined>) => ss.forEach((s) => s && live.delete(s) && s.dispose());
  const scratchTri = (n: number): Tri => ({ A: own(ctx.scratch('float4', n)), B: own(ctx.scratch('float4', n)), C: own(ctx.scratch('float4', n)) });
  try {
    // the initial STri and Neighbor streams (Listing 36-5)
    let tris = own(structStream(ctx, STri!, n0));
    let nbs = own(structStream(ctx, Neighbor!, n0));
    PATCH_FIELDS.forEach((name, f) => {
      const data = new Float32Array(n0 * 4);
      for (let t = 0; t < n0; t++) data.set(patches.subarray(t * PATCH_FLOATS + f * 4, t * PATCH_FLOATS + f * 4 + 4), t * 4);
      (f < 3 ? tris : nbs).fields[name]!.write(data);
    });
    let n = n0;
    let output: Tri | null = null;
    let outCount = 0;
    const append = (more: Tri, count: number) => {
      if (!output) {
        output = more;
      } else {
        const joined = scratchTri(outCount + count);
        ctx.runInternal(k.Append3!, {
          fA: output.A, fB: output.B, fC: output.C, gA: more.A, gB: more.B, gC: more.C,
          count: outCount, here: iter(0, outCount + count), ...joined,
        });
        drop(output.A, output.B, output.C, more.A, more.B, more.C);
        output = joined;
      }
      outCount += count;
    };
    const take = (src: Stream, count: number, tag: number) => {
      const t = scratchTri(count);
      ctx.runInternal(k.TakeTriangles!, { src, t: tris, tag, ...t });
      append(t, count);
    };
    const rounds: SubdivideRound[] = [];
    for (let r = 0; r < maxDepth && n > 0; r++) {
      const round: SubdivideRound = { round: r, triangles: n, finished: 0, split: 0, slivers: 0 };
      const state = own(ctx.scratch('float4', n));
      ctx.runInternal(k.EdgeFlags!, { t: tris, nb: nbs, eps2: adaptive ? eps2 : -1, state });
      let src: Stream;
      let m = n;
      if (adaptive) {
        const done = await filter(ctx, state, { keep: 'x.y == 1.0', indices: true });
        own(done.stream);
        own(done.indices);
        if (done.count > 0) take(done.indices!, done.count, r);
        drop(done.stream, done.indices);
        round.finished = done.count;
        const todo = await filter(ctx, state, { keep: 'x.y == 0.0', indices: true });
        own(todo.stream);
        own(todo.indices);
        drop(todo.stream);
        m = todo.count;
        if (m === 0) {
          rounds.push(round);
          drop(state, tris, nbs);
          n = 0;
          break;
        }
        src = todo.indices!;
      } else {
        src = own(ctx.scratch('uint', n));
        ctx.runInternal(k.Iota!, { here: iter(0, n), src });
      }
      round.split = m;
      const split = own(structStream(ctx, SplitTri!, m));
      ctx.runInternal(k.SplitTriangle!, { src, t: tris, nb: nbs, state, betas, keeps, split });
      const splitNb = own(structStream(ctx, Neighbor!, m));
      ctx.runInternal(k.SplitNeighbor!, { src, t: tris, nb: nbs, state, split: splitNb });
      drop(src, state, tris, nbs);
      tris = own(structStream(ctx, STri!, 4 * m));
      nbs = own(structStream(ctx, Neighbor!, 4 * m));
      ctx.runInternal(k.Expand!, { split, nb: splitNb, here: iter(0, 4 * m), child: tris, childNb: nbs });
      if (adaptive) {
        const sl = scratchTri(3 * m);
        ctx.runInternal(k.Sliver!, { split, tag: r + 0.5, here: iter(0, 3 * m), ...sl });
        const kept = await filter(ctx, sl.A, { sentinel: true, indices: true });
        own(kept.stream);
        own(kept.indices);
        if (kept.count > 0) {
          const t = scratchTri(kept.count);
          ctx.runInternal(k.TakeSlivers!, { src: kept.indices!, gA: sl.A, gB: sl.B, gC: sl.C, ...t });
          append(t, kept.count);
        }
        drop(kept.stream, kept.indices, sl.A, sl.B, sl.C);
        round.slivers = kept.count;
      }
      drop(split, splitNb);
      rounds.push(round);
      n = 4 * m;
    }
    if (n > 0) {
      const all = own(ctx.scratch('uint', n));
      ctx.runInternal(k.Iota!, { here: iter(0, n), src: all });
      take(all, n, rounds.length);
      drop(all);
    }
    const positions = new Float32Array(outCount * 9);
    const tags = new Float32Array(outCount);
    if (output) {
      const o = output as Tri;
      const [a, b, c] = await Promise.all([o.A.read(), o.B.read(), o.C.read()]);
      for (let t = 0; t < outCount; t++) {
        positions.set([a[t * 4]!, a[t * 4 + 1]!, a[t * 4 + 2]!, b[t * 4]!, b[t * 4 + 1]!, b[t * 4 + 2]!, c[t * 4]!, c[t * 4 + 1]!, c[t * 4 + 2]!], t * 9);
        tags[t] = a[t * 4 + 3]!;
      }
    }
    return { positions, tags, count: outCount, rounds };
  } finally {
    live.forEach((s) => s.dispose());
  }
}
