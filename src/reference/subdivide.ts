/**
 * CPU references for Horn's adaptive Loop subdivision (GPU Gems 2 ch. 36, section 36.3).
 *
 * - `loopSubdivide(mesh, depth)` and `buildPatches(mesh)` (src/geometry/loop.ts, re-exported here):
 *   plain Loop subdivision in float64, and the section's self-contained triangles (Listing
 *   36-5's `STri` and `Neighbor`, 12 float4 per triangle).
 * - `subdividePatches(patches, options)`: the GPU algorithm record by record in float32 (same
 *   operations, same order, the same sorted sums), adaptive or not.
 *
 * Patch layout. Around corner A the neighbours are, in order, [B, AB, AAB, AAC, AC, C] (AB is
 * the vertex across edge AB, AC across edge CA); around B [C, BC, BBC, ABB, AB, A]; around C
 * [A, AC, ACC, BCC, BC, B]. A corner of valence 5 has only its first extra (AAB, BBC, ACC), a
 * corner of valence 4 none: a missing extra has w = −1. Valence 3 and above 6 are refused
 * (Listing 36-5 has room for six neighbours; so had BrookGPU).
 *
 * Completion flags (the listing's w components): A.w, B.w, C.w say that edge AB, BC, CA may
 * stop subdividing; AB.w = (A–AB) + 2·(B–AB), BC.w = (B–BC) + 2·(C–BC), AC.w = (C–AC) + 2·(A–AC),
 * and each extra's w is the flag of the edge from its corner. They are the flags inherited from
 * the parent (a piece of an edge that may stop may stop; the inner edges of a triangle whose
 * three edges may stop may stop); each round ORs in the per-edge test at the current positions.
 *
 * One adaptive round: a triangle whose three edges may stop is finished (filtered out and kept);
 * the others split into four. An edge that may stop gets its plain midpoint, the others Loop's
 * edge point; a vertex moves by Loop's vertex rule only when none of its edges may stop (so a
 * finished triangle's corners stay where its neighbours have them). Where a splitting triangle's
 * edge borders a finished triangle, the midpoint is a T-junction: a sliver triangle (A, B, mid)
 * closes it, as the section's implementation does, so the output stays watertight.
 *
 * The per-edge test (`epsilon`): an edge XY with opposite vertices U, V may stop when the
 * tetrahedron X, Y, U, V is flat: det(Y−X, U−X, V−X)² ≤ ε²·|Y−X|⁶ (ε is the height of V over
 * the plane XYU per edge length, squared volumes compared so no square root is needed). The
 * four points are put in lexicographic order first, so every triangle that evaluates an edge
 * gets the same bits. Neighbour sums of the vertex rule are added in ascending order, component
 * by component (a sorting network), as the section requires.
 */
import { BrookError } from '../core/errors';
import { PATCH_FIELDS, PATCH_FLOATS, loopWeights, type SubdivideOptions, type SubdivideResult, type SubdivideRound } from '../geometry/loop';

export * from '../geometry/loop';

const f = Math.fround;
import type { Vec3 as V3 } from './collide';
const F = Object.fromEntries(PATCH_FIELDS.map((n, i) => [n, i])) as Record<(typeof PATCH_FIELDS)[number], number>;

// ---- the GPU algorithm in float32 -------------------------------------------------------------

const add = (a: V3, b: V3): V3 => [f(a[0] + b[0]), f(a[1] + b[1]), f(a[2] + b[2])];
const sub = (a: V3, b: V3): V3 => [f(a[0] - b[0]), f(a[1] - b[1]), f(a[2] - b[2])];
const mul = (a: V3, s: number): V3 => [f(a[0] * s), f(a[1] * s), f(a[2] * s)];
const dot3 = (a: V3, b: V3): number => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
const cross3 = (a: V3, b: V3): V3 => [
  f(f(a[1] * b[2]) - f(a[2] * b[1])),
  f(f(a[2] * b[0]) - f(a[0] * b[2])),
  f(f(a[0] * b[1]) - f(a[1] * b[0])),
];
const lexLess = (a: V3, b: V3) => a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])));

/** The per-edge test: may edge XY (opposite vertices U, V) stop? ε² given as `eps2`. */
export function edgeMayStop(X: V3, Y: V3, U: V3, V: V3, eps2: number): boolean {
  const lo = lexLess(X, Y) ? X : Y;
  const hi = lexLess(X, Y) ? Y : X;
  const u1 = lexLess(U, V) ? U : V;
  const u2 = lexLess(U, V) ? V : U;
  const e = sub(hi, lo);
  const d = dot3(e, cross3(sub(u1, lo), sub(u2, lo)));
  const l2 = dot3(e, e);
  return f(d * d) <= f(f(f(eps2 * l2) * l2) * l2);
}

/** Loop's edge point, or the plain midpoint when the edge may stop. */
export function edgePoint(X: V3, Y: V3, U: V3, V: V3, stop: boolean): V3 {
  // ((s + s + s) + t) / 8: additions and a power-of-two scale only, so no compiler fuses a
  // multiply-add differently in the two kernels that compute the same edge point
  const s = add(X, Y);
  return stop ? mul(s, 0.5) : mul(add(add(add(s, s), s), add(U, V)), 0.125);
}

const NETWORK6 = [[1, 2], [4, 5], [0, 2], [3, 5], [0, 1], [3, 4], [1, 4], [0, 3], [2, 5], [1, 3], [2, 4], [2, 3]] as const;

/** Sum of up to six points, component by component in ascending order (absent ones are 0). */
export function sortedSum(points: V3[]): V3 {
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const v = [0, 0, 0, 0, 0, 0].map((_, k) => (k < points.length ? points[k]![i]! : 0));
    for (const [a, b] of NETWORK6) {
      const lo = Math.min(v[a]!, v[b]!);
      const hi = Math.max(v[a]!, v[b]!);
      v[a] = lo;
      v[b] = hi;
    }
    out.push(f(f(f(f(f(v[0]! + v[1]!) + v[2]!) + v[3]!) + v[4]!) + v[5]!));
  }
  return out as V3;
}

interface Corner {
  v: V3;
  next: V3;
  e1: V3;
  x1: V3 | null;
  x2: V3 | null;
  e2: V3;
  prev: V3;
}

/** The 15 completion flags of a patch, in bit order (see `flagBits`). */
function cornersOf(p: number[]): Corner[] {
  const g = (k: number): V3 => [p[k * 4]!, p[k * 4 + 1]!, p[k * 4 + 2]!];
  const present = (k: number) => p[k * 4 + 3]! >= 0;
  const A = g(F.A);
  const B = g(F.B);
  const C = g(F.C);
  return [
    { v: A, next: B, e1: g(F.AB), x1: present(F.AAB) ? g(F.AAB) : null, x2: present(F.AAC) ? g(F.AAC) : null, e2: g(F.AC), prev: C },
    { v: B, next: C, e1: g(F.BC), x1: present(F.BBC) ? g(F.BBC) : null, x2: present(F.ABB) ? g(F.ABB) : null, e2: g(F.AB), prev: A },
    { v: C, next: A, e1: g(F.AC), x1: present(F.ACC) ? g(F.ACC) : null, x2: present(F.BCC) ? g(F.BCC) : null, e2: g(F.BC), prev: B },
  ];
}

/**
 * Bits of the 15 flags: 0 AB, 1 BC, 2 CA; then per corner k (A, B, C) at 3 + 4k: the edges from
 * the corner to e1, x1, x2, e2.
 */
function inheritedFlags(p: number[]): number {
  const w = (k: number) => p[k * 4 + 3]!;
  let m = (w(F.A) ? 1 : 0) | (w(F.B) ? 2 : 0) | (w(F.C) ? 4 : 0);
  const code = (k: number, bit: number) => ((w(k) >> bit) & 1) as number;
  const one = (k: number) => (w(k) > 0 ? 1 : 0);
  // A: e1 = AB (bit 0 of AB.w), x1 = AAB, x2 = AAC, e2 = AC (bit 1 of AC.w)
  m |= code(F.AB, 0) << 3 | one(F.AAB) << 4 | one(F.AAC) << 5 | code(F.AC, 1) << 6;
  // B: e1 = BC (bit 0 of BC.w), x1 = BBC, x2 = ABB, e2 = AB (bit 1 of AB.w)
  m |= code(F.BC, 0) << 7 | one(F.BBC) << 8 | one(F.ABB) << 9 | code(F.AB, 1) << 10;
  // C: e1 = AC (bit 0 of AC.w), x1 = ACC, x2 = BCC, e2 = BC (bit 1 of BC.w)
  m |= code(F.AC, 0) << 11 | one(F.ACC) << 12 | one(F.BCC) << 13 | code(F.BC, 1) << 14;
  return m;
}

/** The flags after this round's test: inherited OR the per-edge test at these positions. */
export function patchFlags(p: number[], eps2: number, adaptive: boolean): number {
  if (!adaptive) return 0;
  let m = inheritedFlags(p);
  const cs = cornersOf(p);
  cs.forEach((c, k) => {
    // own edge (v, next): opposites prev and e1
    if (edgeMayStop(c.v, c.next, c.prev, c.e1, eps2)) m |= 1 << k;
    const after1 = c.x1 ?? c.e2;
    const before2 = c.x2 ?? c.x1 ?? c.e1;
    if (edgeMayStop(c.v, c.e1, c.next, after1, eps2)) m |= 1 << (3 + 4 * k);
    if (c.x1 && edgeMayStop(c.v, c.x1, c.e1, c.x2 ?? c.e2, eps2)) m |= 1 << (4 + 4 * k);
    if (c.x2 && edgeMayStop(c.v, c.x2, c.x1!, c.e2, eps2)) m |= 1 << (5 + 4 * k);
    if (edgeMayStop(c.v, c.e2, before2, c.prev, eps2)) m |= 1 << (6 + 4 * k);
  });
  return m;
}

const bit = (m: number, b: number) => (m >> b) & 1;

/** The split of one patch: new corners, midpoints, the 12 split neighbours, finished neighbours. */
export function splitPatch(p: number[], m: number, weights: Float32Array) {
  const cs = cornersOf(p);
  const moved = cs.map((c, k) => {
    const ring = [c.next, c.e1, ...(c.x1 ? [c.x1] : []), ...(c.x2 ? [c.x2] : []), c.e2, c.prev];
    const stops =
      bit(m, k) | bit(m, (k + 2) % 3) | bit(m, 3 + 4 * k) | (c.x1 ? bit(m, 4 + 4 * k) : 0) | (c.x2 ? bit(m, 5 + 4 * k) : 0) | bit(m, 6 + 4 * k);
    if (stops) return c.v;
    const n = ring.length;
    const s = sortedSum(ring);
    return add(mul(c.v, weights[(n - 4) * 2 + 1]!), mul(s, weights[(n - 4) * 2]!));
  });
  // own midpoints: AB (corner 0's next edge), BC, CA
  const mids = cs.map((c, k) => edgePoint(c.v, c.next, c.prev, c.e1, !!bit(m, k)));
  // split neighbours per corner: m(v, e1), m(v, x1), m(v, x2), m(v, e2)
  const ring = cs.map((c, k) => {
    const after1 = c.x1 ?? c.e2;
    const before2 = c.x2 ?? c.x1 ?? c.e1;
    return {
      e1: edgePoint(c.v, c.e1, c.next, after1, !!bit(m, 3 + 4 * k)),
      x1: c.x1 ? edgePoint(c.v, c.x1, c.e1, c.x2 ?? c.e2, !!bit(m, 4 + 4 * k)) : null,
      x2: c.x2 ? edgePoint(c.v, c.x2, c.x1!, c.e2, !!bit(m, 5 + 4 * k)) : null,
      e2: edgePoint(c.v, c.e2, before2, c.prev, !!bit(m, 6 + 4 * k)),
    };
  });
  // finished neighbours across AB, BC, CA: the own edge and the two edges to the vertex across
  const fin = [
    bit(m, 0) & bit(m, 3) & bit(m, 10),
    bit(m, 1) & bit(m, 7) & bit(m, 14),
    bit(m, 2) & bit(m, 11) & bit(m, 6),
  ];
  return { moved, mids, ring, fin };
}

/**
 * The four children of a split patch (output index mod 4), as 48 floats each, with their
 * inherited flags.
 */
export function childPatches(split: ReturnType<typeof splitPatch>, m: number): number[][] {
  const { moved, mids, ring, fin } = split;
  const [A, B, C] = moved as [V3, V3, V3];
  const [ab, bc, ca] = mids as [V3, V3, V3];
  const [rA, rB, rC] = ring;
  const d = (b: number) => bit(m, b);
  const [fX, fZ, fW] = fin as [number, number, number];
  const AB = d(0), BC = d(1), CA = d(2); // prettier-ignore
  // per child: corners A, B, C with own-edge flags; then (pos, flag bits) for each neighbour slot
  // AB.w = flag(A-slot–AB) + 2 flag(B-slot–AB) etc.
  const make = (
    t: [V3, V3, V3],
    own: [number, number, number],
    nb: Record<'AB' | 'BC' | 'AC', [V3, number, number]> & Record<'BBC' | 'ABB' | 'ACC' | 'BCC' | 'AAB' | 'AAC', [V3 | null, number]>,
  ): number[] => {
    const out = new Array(48).fill(0);
    const put = (k: number, v: V3 | null, w: number) => {
      if (v === null) out.splice(k * 4, 4, 0, 0, 0, -1);
      else out.splice(k * 4, 4, v[0], v[1], v[2], w);
    };
    put(F.A, t[0], own[0]);
    put(F.B, t[1], own[1]);
    put(F.C, t[2], own[2]);
    for (const k of ['AB', 'BC', 'AC'] as const) put(F[k], nb[k][0], nb[k][1] + 2 * nb[k][2]);
    for (const k of ['BBC', 'ABB', 'ACC', 'BCC', 'AAB', 'AAC'] as const) put(F[k], nb[k][0], nb[k][1]);
    return out;
  };
  return [
    // 0: (A', ab, ca)
    make([A, ab, ca], [AB, 0, CA], {
      AB: [rA!.e1, d(3), fX], BC: [bc, 0, 0], AC: [rA!.e2, fW, d(6)],
      AAB: [rA!.x1, d(4)], AAC: [rA!.x2, d(5)], ABB: [rB!.e2, fX], BBC: [B, AB], BCC: [C, CA], ACC: [rC!.e1, fW],
    }),
    // 1: (ab, B', bc)
    make([ab, B, bc], [AB, BC, 0], {
      AB: [rB!.e2, fX, d(10)], BC: [rB!.e1, d(7), fZ], AC: [ca, 0, 0],
      AAB: [rA!.e1, fX], AAC: [A, AB], BBC: [rB!.x1, d(8)], ABB: [rB!.x2, d(9)], BCC: [rC!.e2, fZ], ACC: [C, BC],
    }),
    // 2: (ca, bc, C')
    make([ca, bc, C], [0, BC, CA], {
      AB: [ab, 0, 0], BC: [rC!.e2, fZ, d(14)], AC: [rC!.e1, d(11), fW],
      AAB: [A, CA], AAC: [rA!.e2, fW], BBC: [rB!.e1, fZ], ABB: [B, BC], ACC: [rC!.x1, d(12)], BCC: [rC!.x2, d(13)],
    }),
    // 3: (bc, ca, ab)
    make([bc, ca, ab], [0, 0, 0], {
      AB: [C, BC, CA], BC: [A, CA, AB], AC: [B, AB, BC],
      AAB: [rC!.e2, fZ], AAC: [rB!.e1, fZ], BBC: [rA!.e2, fW], ABB: [rC!.e1, fW], ACC: [rB!.e2, fX], BCC: [rA!.e1, fX],
    }),
  ];
}

/**
 * The GPU algorithm on the CPU (float32, same order of operations): adaptive or plain Loop
 * subdivision of the patches from `buildPatches`.
 */
export function subdividePatches(patches: Float32Array, options: SubdivideOptions = {}): SubdivideResult {
  const eps = options.epsilon ?? 0.05;
  const eps2 = f(eps * eps);
  const maxDepth = options.maxDepth ?? 3;
  const adaptive = options.adaptive ?? true;
  const weights = loopWeights();
  let active: number[][] = [];
  for (let t = 0; t < patches.length / PATCH_FLOATS; t++) active.push(Array.from(patches.subarray(t * PATCH_FLOATS, (t + 1) * PATCH_FLOATS)));
  const out: number[] = [];
  const tags: number[] = [];
  const emit = (a: V3, b: V3, c: V3, tag: number) => {
    out.push(...a, ...b, ...c);
    tags.push(tag);
  };
  const corner = (p: number[], k: number): V3 => [p[k * 4]!, p[k * 4 + 1]!, p[k * 4 + 2]!];
  const rounds: SubdivideRound[] = [];
  for (let r = 0; r < maxDepth && active.length > 0; r++) {
    const round: SubdivideRound = { round: r, triangles: active.length, finished: 0, split: 0, slivers: 0 };
    const next: number[][] = [];
    const slivers: Array<[V3, V3, V3]> = [];
    const splitting: Array<{ p: number[]; m: number }> = [];
    for (const p of active) {
      const m = patchFlags(p, eps2, adaptive);
      if ((m & 7) === 7) {
        emit(corner(p, F.A), corner(p, F.B), corner(p, F.C), r);
        round.finished++;
      } else {
        splitting.push({ p, m });
      }
    }
    for (const { p, m } of splitting) {
      const s = splitPatch(p, m, weights);
      next.push(...childPatches(s, m));
      for (let k = 0; k < 3; k++) {
        if (bit(m, k) && s.fin[k]) slivers.push([s.moved[k]!, s.moved[(k + 1) % 3]!, s.mids[k]!]);
      }
    }
    for (const [a, b, c] of slivers) emit(a, b, c, r + 0.5);
    round.split = splitting.length;
    round.slivers = slivers.length;
    rounds.push(round);
    active = next;
  }
  for (const p of active) emit(corner(p, F.A), corner(p, F.B), corner(p, F.C), rounds.length);
  return { positions: Float32Array.from(out), tags: Float32Array.from(tags), count: tags.length, rounds };
}
