/**
 * Lazy work stealing (da Silva, Esperança & Marroquim 2014, section 4, Algorithms 1-4) as
 * WebGL2 passes. CUDA's B resident blocks of T threads become B x T fragments of a pass; each
 * block owns a stack (the paper's shared-memory stack) and a deque (global memory), both in one
 * ring texture of `dequeCap` slots: the deque is the ring's positions [top, bottom), the stack
 * the positions above it. One traversal iteration (Algorithm 1's loop body) is six passes:
 *
 *   P  the steal round, popTop and popWork (Algorithms 2-4): every thief (empty stack, empty
 *      deque, no claim left: a flag pass E set) claims, from one snapshot of all deques, the
 *      k-th slice of every deque with nodes — the k-th thief by index takes the k-th slice, where
 *      CUDA's threads would race with atomicMin; each deque's top moves past what was claimed
 *      from it; then each block pops up to `pop` nodes for each of its T threads by level — its
 *      stack (level 1), then its deque's bottom (level 2) or its lowest-indexed claim (level 3:
 *      the first claim is taken now, the others lazily: the lazy transfer, which needs no pass).
 *      The levels top each other up, where CUDA threads without a node would idle: here every
 *      iteration costs a sequence of grid-wide passes. The claims are a function of the
 *      snapshot, so this pass computes the block's own row of them and pass E stores them all;
 *   C  evalCollision, where the threads traverse on their own: each takes its popped nodes one
 *      at a time and steps up to K (`steps`) BVTT nodes depth first on a local stack (a GLSL
 *      array of six nodes, the fragment's counterpart of the block's shared-memory stack),
 *      writing front nodes to its four front outputs; it stops when its front outputs are full
 *      or a node's children might not fit its local stack beside its popped nodes not taken
 *      yet, and hands what is left (its excess, at most six nodes) to the block;
 *   D  compact: the block's prefix sum over its threads' excess, in groups of ~sqrt T;
 *   E  the claims matrix (this round's claims, kept for the lazy transfer), pointers, counters
 *      and the thief flags (over B x (B + 1) records);
 *   R  pushWork as a scatter: the excess nodes (B x T x 6 points, each drawn on its ring slot or
 *      nowhere) onto the block's stack, in the ring above what is left of it.
 * The block's stack takes the excess; it pushes to the deque only when the next iteration's
 * excess might not fit (the lazy push: the deque's bottom moves past the stack's oldest nodes,
 * no node moves), and the balancing (P) finds work for the blocks whose threads came back empty:
 * a thread's work between two balancing rounds is up to K nodes, where it was one (iterations on
 * a 96 x 96 cloth from the front, SwiftShader, 32 x 1024: 72 -> 8).
 *   L  the termination pass (below).
 * The loop ends without a readback per iteration: brookgl's occlusion-query loop draws a pass
 * that discards finished blocks and stops at the first query with no sample (a few iterations
 * may run past the end; they find no work and change nothing).
 *
 * What the emulation keeps: per-block stacks and deques with batch pops and pushes, the
 * three-level pop, greedy steals from all deques at once, lazy transfer of all but the first
 * claim, never-reset deques (positions only grow; a ring of `dequeCap` slots, with an overflow
 * check that makes the traversal rerun with larger rings), termination on the GPU. What it
 * cannot keep: there is no shared memory (the "shared" stack is a texture like the deque, so
 * the paper's motive for lazy transfer — saving shared-memory room — is only mimicked, and the
 * push from stack to deque, a copy in the paper, is a pointer move here), every pass is a
 * grid-wide barrier (blocks advance in lockstep, at most K nodes per thread per iteration, where
 * CUDA blocks run at their own pace), a fragment's registers do not outlive its pass (so its
 * local stack is handed to the block's at the end of every evalCollision), and atomics are
 * replaced by deterministic choices from one snapshot. Front nodes go to four chunks per
 * iteration, gathered and compacted after the loop, instead of per-block front deques; the
 * loop holds only as many chunks as createCcd's memoryBudget can compact in one batch beside
 * the traversal's state, start list and front so far: before it would hold more, it stops
 * (the occlusion queries answered), compacts them into the front so far (a flush, as the loop's
 * end does) and goes on from the state it left (the front, iterations and nodes unchanged).
 */
import DEQUE_FRAG from '../../../glsl/apps/ccd/lws-deque.frag.glsl';
import DEQUE_VERT from '../../../glsl/apps/ccd/lws-deque.vert.glsl';
import EVAL from '../../../glsl/apps/ccd/lws-eval.glsl';
import LIVE from '../../../glsl/apps/ccd/lws-live.glsl';
import PLAN from '../../../glsl/apps/ccd/lws-plan.glsl';
import POPPED from '../../../glsl/apps/ccd/lws-popped.glsl';
import PREFIX from '../../../glsl/apps/ccd/lws-prefix.glsl';
import STATE from '../../../glsl/apps/ccd/lws-state.glsl';
import THIEVES from '../../../glsl/apps/ccd/lws-thieves.glsl';
import BVTT from '../../../glsl/apps/ccd/bvtt.glsl';
import { BrookError, check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import type { ShaderStage } from '../../core/pass';
import type { Stream } from '../../core/stream';
import { occlusionSteps } from '../../idioms/flow';
import { compactFront, type Compacted } from './compact';
import { CCD_BYTES as BYTES, type BvttStreams, type CcdHost, type Chunk } from './host';

export interface LwsOptions {
  /** Blocks B (the resident CUDA blocks; the paper's GPUs had 1 and 4 SMs). Default 4, at most 32. */
  blocks?: number;
  /** Threads (fragments) per block T. Default 64. */
  threads?: number;
  /** Nodes a thread pops per iteration (1-4). Default 4: a block pops up to pop x T nodes. */
  pop?: number;
  /** K: BVTT nodes a thread steps at most in one evalCollision pass, depth first on its local
   * stack (six nodes: its excess outputs), before it hands back what is left. Default 32. */
  steps?: number;
  /** Stack capacity per block, at least (pop + 6) T. Default (pop + 6) T: a block keeps a full
   * pop and pushes the rest to its deque only when the next iteration's excess (up to six nodes a
   * thread) might not fit (the paper: the best size is model dependent). */
  stackCap?: number;
  /** Ring per block, holding its deque and its stack (positions only grow). Default 64 T (grown
   * 4x when a ring would overwrite a live node, four times at most). */
  dequeCap?: number;
  /** Occlusion queries in flight. Default 4. */
  inFlight?: number;
}

/** Counters of one lazy-work-stealing traversal. */
export interface LwsStats {
  blocks: number;
  threads: number;
  /** Nodes a thread pops per iteration, and K: nodes it steps at most per evalCollision pass. */
  pop: number;
  steps: number;
  /** Nodes pushed from stacks to deques, nodes stolen from other blocks' deques, steal rounds that found work. */
  moved: number;
  stolen: number;
  steals: number;
  /** Iterations issued past the end (the occlusion loop's queries in flight). */
  extraIterations: number;
  /** Traversals rerun with larger deque rings after an overflow. */
  reruns: number;
  /** Front compactions inside the loop: the front slots held would have passed memoryBudget,
   * so the loop stopped, compacted them into the front so far and went on (0 where they fit). */
  flushes: number;
}

/** Iterations the loop runs at most (the bound on a loop that never ends). */
const MAX_ITERATIONS = 1 << 20;

const U = { blocks: 'int', threads: 'int', pop: 'int' } as const;
/** The snapshot the steal round reads (lws-thieves.glsl): the pointers, claims and pop the last iteration left. */
const SNAPSHOT = { bstate: 'int4', claims: 'int4', plan: 'int4' } as const;

const LWS_PLAN: KernelSpec = { name: 'LwsPopWork', gathers: SNAPSHOT, uniforms: U, outputs: { stateOut: 'int4', planOut: 'int4' }, helpers: THIEVES, body: PLAN };
const LWS_EVAL: KernelSpec = {
  name: 'LwsEvalCollision',
  gathers: { plan: 'int4', top: 'int4', deque: 'int4', start: 'int4', nodes: 'int4', nodeObject: 'int', boxLo: 'float4', boxHi: 'float4', tris: 'int4' },
  uniforms: { ...U, dequeCap: 'int', selfTest: 'int', steps: 'int' },
  outputs: { cnt: 'int4', kids0: 'int4', kids1: 'int4', kids2: 'int4', fr0: 'int4', fr1: 'int4', fr2: 'int4', fr3: 'int4' },
  helpers: `${BVTT}\n${POPPED}`,
  body: EVAL,
};
const LWS_PREFIX: KernelSpec = { name: 'LwsCompact', gathers: { cnt: 'int4' }, uniforms: { ...U, group: 'int' }, outputs: { prefix: 'int4' }, body: PREFIX };
const LWS_STATE: KernelSpec = {
  name: 'LwsPointers',
  inputs: { counterIn: 'int4' },
  gathers: { ...SNAPSHOT, top: 'int4', pnow: 'int4', prefix: 'int4' },
  uniforms: { ...U, stackCap: 'int', dequeCap: 'int', group: 'int' },
  outputs: { claimOut: 'int4', stateOut: 'int4', counters: 'int4' },
  helpers: THIEVES,
  body: STATE,
};
/** Pass R as a scatter of B x T x 6 points (glsl/apps/ccd/lws-deque.*.glsl). */
const RING_VERTEX: ShaderStage = { glsl: DEQUE_VERT, gathers: { cnt: 'int4', prefix: 'int4', top: 'int4', pnow: 'int4', kids0: 'int4', kids1: 'int4', kids2: 'int4' } };
const RING_FRAGMENT: ShaderStage = { glsl: DEQUE_FRAG };
const LWS_LIVE: KernelSpec = { name: 'LwsLive', gathers: { bstate: 'int4' }, uniforms: { blocks: 'int' }, outputs: { alive: 'int' }, body: LIVE };

export interface LwsResult {
  front: Stream | null;
  frontCount: number;
  /** The candidates (front records of kind 3), when the compaction kept them with the front. */
  cand?: { stream: Stream | null; count: number };
  iterations: number;
  nodes: number;
  lanes: number;
  roundTrips: number;
  balancingMs: number;
  /** Gathering the per-iteration front chunks and compacting them (wall clock). */
  frontMs: number;
  stats: LwsStats;
}

/** Traverses the BVTT from `start` (count records of (a, b, kind, 0)) by lazy work stealing. */
export async function traverseLws(host: CcdHost, bvtt: BvttStreams, start: Stream, count: number, options: LwsOptions = {}): Promise<LwsResult> {
  const B = options.blocks ?? 4, T = options.threads ?? 64;
  check(Number.isInteger(B) && B >= 1 && B <= 32, () => `lws: blocks must be an integer in [1, 32], got ${B}`);
  check(Number.isInteger(T) && T >= 1 && T <= 1024, () => `lws: threads must be an integer in [1, 1024], got ${T}`);
  const P = options.pop ?? 4, K = options.steps ?? 32;
  check(Number.isInteger(P) && P >= 1 && P <= 4, () => `lws: pop must be an integer in [1, 4], got ${P}`);
  check(Number.isInteger(K) && K >= 1 && K <= 1024, () => `lws: steps must be an integer in [1, 1024], got ${K}`);
  const S = options.stackCap ?? (P + 6) * T;
  check(Number.isInteger(S) && S >= (P + 6) * T, () => `lws: stackCap must be at least (pop + 6) x threads (${(P + 6) * T}), got ${S}`);
  let Q = options.dequeCap ?? 64 * T;
  check(Number.isInteger(Q) && Q >= T, () => `lws: dequeCap must be at least threads, got ${Q}`);
  let roundTrips = 0;
  for (let reruns = 0; ; reruns++) {
    const r = await attempt(host, bvtt, start, count, { B, T, P, K, S, Q, inFlight: options.inFlight ?? 4 });
    roundTrips += r.roundTrips;
    if (!r.overflow) return { ...r, roundTrips, stats: { ...r.stats, reruns } };
    r.front?.dispose();
    r.cand?.stream?.dispose();
    if (reruns >= 4) throw new BrookError(`lws: a deque ring of ${Q} slots overflowed five times; pass a larger dequeCap`);
    Q *= 4;
  }
}

/** Blocks B, threads T, nodes popped per thread P, steps per pass K, stack S and ring Q per block. */
interface LwsShape {
  B: number;
  T: number;
  P: number;
  K: number;
  S: number;
  Q: number;
  inFlight: number;
}

async function attempt(host: CcdHost, bvtt: BvttStreams, start: Stream, count: number, shape: LwsShape): Promise<LwsResult & { overflow: boolean }> {
  const { B, T, P, K, S, Q, inFlight } = shape;
  const ctx = host.ctx;
  // every pass through host.run, counted in its stage: evalCollision and the termination pass
  // are traversal, the node management around them balancing (stages.ts)
  const run = (spec: KernelSpec, args: Parameters<typeof ctx.run>[1]) => {
    host.stage(spec === LWS_EVAL || spec === LWS_LIVE ? 'traversal' : 'balancing');
    host.run(spec, args);
  };
  const streams: Stream[] = [];
  const chunks: Stream[] = [];
  // the front so far: the slots of the segments before this one, compacted (flushes)
  const parts: Chunk[] = [];
  // every allocation inside the try: a refused one leaves none of the earlier behind
  try {
    const make = (type: 'int4' | 'int2' | 'int', n: number, data?: Int32Array) => {
      const s = host.scratch(type, n, 'lazy work stealing state');
      if (data) s.write(data);
      streams.push(s);
      return s;
    };
    // pass E writes the claims matrix, B x (B + 1) records, and the pointers and counters in the
    // same pass: records 0..B of it (B + 1 <= B (B + 1))
    const NE = B * (B + 1);
    const initState = new Int32Array(NE * 4);
    for (let b = 0; b < B; b++) initState[b * 4 + 3] = 2; // every block starts a thief
    initState[B * 4 + 2] = count; // the start list: top 0, bottom count
    // pointers: as the last iteration left them (the snapshot), after popTop (pass P), after the
    // iteration (pass E); claims and plans ping-pong, the pass after reading the last ones
    let bstate = make('int4', NE, initState), bnext = make('int4', NE);
    const bstate1 = make('int4', B + 1);
    let claims = make('int4', NE, new Int32Array(NE * 4)), fresh = make('int4', NE);
    let plan = make('int4', B + 1, new Int32Array((B + 1) * 4)), plan1 = make('int4', B + 1);
    const counters = make('int4', NE, new Int32Array(NE * 4));
    const cnt = make('int4', B * T), kids0 = make('int4', B * T), kids1 = make('int4', B * T), kids2 = make('int4', B * T), prefix = make('int4', B * T);
    // the rings (deque and stack) hold garbage past their live range, which nothing reads: no upload
    const deque = make('int4', B * Q);
    const alive = make('int', B + 1);
    // the block prefix in groups of about sqrt(T) threads (a power of two)
    const group = Math.min(T, 1 << Math.ceil(Math.log2(Math.sqrt(T))));
    const u = { blocks: B, threads: T, pop: P };
    const iterate = () => {
      run(LWS_PLAN, { bstate, claims, plan, ...u, stateOut: bstate1, planOut: plan1 });
      // the iteration's front slots: four a thread
      const fr = [0, 1, 2, 3].map(() => {
        const c = host.scratch('int4', B * T, "an iteration's front slots");
        chunks.push(c);
        return c;
      });
      const kids = { kids0, kids1, kids2 };
      run(LWS_EVAL, { plan: plan1, top: bstate1, deque, start, ...bvtt, ...u, dequeCap: Q, steps: K, cnt, ...kids, fr0: fr[0]!, fr1: fr[1]!, fr2: fr[2]!, fr3: fr[3]! });
      run(LWS_PREFIX, { cnt, ...u, group, prefix });
      run(LWS_STATE, { counterIn: counters, bstate, claims, plan, top: bstate1, pnow: plan1, prefix, ...u, stackCap: S, dequeCap: Q, group, claimOut: fresh, stateOut: bnext, counters });
      host.stage('balancing');
      host.pass({
        name: 'LwsPushWork',
        kind: 'scatter',
        vertex: RING_VERTEX,
        fragment: RING_FRAGMENT,
        primitive: 'points',
        count: B * T * 6,
        targets: [deque],
        gathers: { cnt, prefix, top: bstate1, pnow: plan1, ...kids },
        uniforms: { threads: T, dequeCap: Q, group },
      });
      [bstate, bnext] = [bnext, bstate];
      [claims, fresh] = [fresh, claims];
      [plan, plan1] = [plan1, plan];
    };
    const terminate = () => run(LWS_LIVE, { bstate, blocks: B, alive });
    // The loop in segments: each iteration adds four chunks of front slots (B x T records each),
    // held until they are compacted into the front. A segment runs as many iterations as their
    // slots can be compacted in one batch (BYTES.compact a record) beside what the traversal
    // holds (its state, the start list, the front so far); a segment that ends with blocks still
    // live compacts its slots into the front so far (a flush) and the next goes on from the
    // state it left. With the budget's room for all of it, one segment: the loop as it was.
    const heldState = [start, ...streams].reduce((a, t) => a + t.length * t.info.texelBytes, 0);
    const perIteration = 4 * B * T;
    let iterations = 0, issued = 0, flushes = 0;
    for (;;) {
      const front = parts.reduce((a, c) => a + 16 * c.stream.length, 0);
      const most = Math.max(1, Math.floor((host.memoryBudget - heldState - front) / (BYTES.compact * perIteration)));
      const seg = await occlusionSteps(ctx, { iterate, terminate, inFlight, most: Math.min(most, MAX_ITERATIONS - issued) });
      iterations += seg.iterations;
      issued += seg.issued;
      if (seg.done) {
        // the iterations issued past the end (up to inFlight - 1) found every block empty and
        // wrote no front slot: their chunks go now, unjoined, so the front's join, pyramids and
        // gathers cover the iterations that worked (a frame's join size then follows its
        // iteration count, not the occlusion queries' timing, and repeats frame to frame: the
        // pool has it)
        chunks.splice(4 * seg.iterations).forEach((t) => t.dispose());
        break;
      }
      if (issued >= MAX_ITERATIONS) throw new BrookError(`lws: blocks were still live after ${MAX_ITERATIONS} iterations`);
      // a flush: the slots so far into the front so far (the same compaction as the loop's end)
      flushes++;
      host.stage('front');
      const part = await compactFront(host, chunks.splice(0).map((stream) => ({ stream, count: B * T })), 'x.z >= 2', undefined, undefined, false, heldState + front);
      if (part.stream) parts.push({ stream: part.stream, count: part.count });
    }
    return await finish(host, bstate, counters, [start, ...streams], parts, chunks, { B, T, P, K, iterations, issued, flushes });
  } finally {
    chunks.forEach((s) => s.dispose());
    parts.forEach((c) => c.stream.dispose());
    streams.forEach((s) => s.dispose());
  }
}

/** The counters and overflow flags (one readback), and the front: the last segment's chunks of
 * front slots compacted in batches the budget holds, after the front so far (`parts`, the
 * flushes'; the chunks and parts are taken). The traversal's state and start list (`state`) go
 * first: after an overflow they stay for the rerun, and nothing is compacted. */
async function finish(host: CcdHost, bstate: Stream, counters: Stream, state: Stream[], parts: Chunk[], chunks: Stream[], l: { B: number; T: number; P: number; K: number; iterations: number; issued: number; flushes: number }): Promise<LwsResult & { overflow: boolean }> {
  const { B, T } = l;
  const [st, cn] = (await Promise.all([bstate.read(), counters.read()])) as [Int32Array, Int32Array];
  let overflow = false, nodes = 0, moved = 0, stolen = 0, steals = 0;
  for (let b = 0; b < B; b++) {
    if ((st[b * 4 + 3]! & 1) !== 0) overflow = true;
    nodes += cn[b * 4]!;
    moved += cn[b * 4 + 1]!;
    stolen += cn[b * 4 + 2]!;
    steals += cn[b * 4 + 3]!;
  }
  const stats = { blocks: B, threads: T, pop: l.P, steps: l.K, moved, stolen, steals, extraIterations: l.issued - l.iterations, reruns: 0, flushes: l.flushes };
  const common = { iterations: l.iterations, nodes, lanes: B * T, roundTrips: l.iterations + 1, balancingMs: 0, stats }; // round trips: the occlusion queries waited on, and the counters
  if (overflow) {
    // (the caller disposes the chunks and parts)
    return { ...common, front: null, frontCount: 0, frontMs: 0, overflow };
  }
  // the start list (the caller disposes it again, a no-op) and the state are not needed any more
  state.forEach((s) => s.dispose());
  const tf = performance.now();
  host.stage('front');
  const last = chunks.splice(0).map((stream) => ({ stream, count: B * T }));
  let kept: Compacted;
  if (parts.length === 0) kept = await compactFront(host, last, 'x.z >= 2', 'x.z == 3');
  else {
    // after flushes: the last segment's slots compacted beside the front so far, then joined
    // after it (the candidates are then the narrow phase's filter of the front)
    const held = parts.reduce((a, c) => a + 16 * c.stream.length, 0);
    const tail = await compactFront(host, last, 'x.z >= 2', undefined, undefined, false, held);
    kept = host.filter.concat([...parts.splice(0), ...(tail.stream ? [{ stream: tail.stream, count: tail.count }] : [])]);
  }
  return { ...common, frontMs: performance.now() - tf, front: kept.stream, frontCount: kept.count, ...(kept.also ? { cand: kept.also } : {}), overflow };
}
