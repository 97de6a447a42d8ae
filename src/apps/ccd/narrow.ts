/**
 * The narrow phase of a CCD frame (da Silva et al. section 3.2, after Tang et al. 2010): every
 * candidate triangle pair of the front gets its 15 elementary tests (6 vertex-face, 9 edge-edge)
 * and every orphan-set record its one, and the colliding features come back as 'vf v f' /
 * 'ee a0 a1 b0 b1' keys (with their earliest tick of impact when times are asked for).
 *
 * Without times, and where the candidates' and the orphans' hits fit the budget together, the
 * hits are compacted without reading their counts first: the kept records go into a stream
 * sized from last frame's (2 x + 64 records), read with the counts in one round trip (a count
 * above that size is compacted again at its size and read: one more). A front compaction run
 * ahead (./compact.ts) has its two counts read in the same round trip.
 */
import type { Stream } from '../../core/stream';
import { canonicalEdges, edge, type CcdScene } from '../../geometry/bvh';
import { CCD_BYTES as BYTES, type CcdHost, type Pyramid } from './host';
import { CCD_CANDIDATE_VERDICTS, CCD_ORPHAN_GROUPS, CCD_ORPHAN_TESTS_TOI, CCD_PAIR_TESTS, CCD_PAIR_TESTS_TOI, CCD_TICK_OF } from './kernels';

/** Ticks of a time of impact: 2^16 a step (the elementary tests' deepest interval). */
export const TICKS = 65536;

/** Slot s (0-14) of the triangle pair (a, b) as a feature record, as ccdPairFeature
 * (glsl/apps/ccd/features.glsl) makes it: 0-2 a's vertices against face b, 3-5 b's against face
 * a, 6-14 edge (s - 6) / 3 of a against edge (s - 6) % 3 of b. */
function pairFeature(scene: CcdScene, a: number, b: number, s: number): number[] {
  if (s < 6) {
    const [p, f] = s < 3 ? [a, b] : [b, a];
    return [scene.tris[p * 3 + (s % 3)]!, f, -1, 0];
  }
  return canonicalEdges(edge(scene, a, Math.floor((s - 6) / 3)), edge(scene, b, (s - 6) % 3));
}

/** A feature record's key in the pairs: 'vf v f' or 'ee a0 a1 b0 b1'. */
const featureKey = (x: ArrayLike<number>): string => (x[2] === -1 ? `vf ${x[0]} ${x[1]}` : `ee ${x[0]} ${x[1]} ${x[2]} ${x[3]}`);

/** Kept records: feature records ('features'), candidates' (triangle a, triangle b, mask of their
 * 15 slots: 'pairs') or orphan groups' (first record, mask of the 8 from it: 'groups'). */
type Kept = 'features' | 'pairs' | 'groups';

/** The scene's streams the elementary tests gather. */
export interface NarrowScene {
  scene: CcdScene;
  nodes: Stream;
  tris: Stream;
  x0: Stream;
  x1: Stream;
  orphans: Stream | null;
  /** The orphan-set records on the CPU too (the grouped tests' hit masks name them by index). */
  orphanRecords: Int32Array;
  orphanCount: number;
}

/** A front compaction run ahead of its counts (./compact.ts): its two pyramid roots, and what
 * to do with the counts once read (`settle` throws where a size was short). */
export interface AheadCounts {
  roots: Stream[];
  settle(front: number, cand: number, tested: number): void;
}

export interface NarrowInput {
  /** The candidate pairs (front records of kind 3); with `ahead`, descended at a size chosen
   * before their count was read (their count then comes with the ahead counts). */
  cand: { stream: Stream | null; count: number };
  ahead: AheadCounts | null;
  withToi: boolean;
  verdicts: boolean;
  /** Bytes the frame holds beside the tests' chunks (the saved front, the candidates). */
  held: number;
}

export interface NarrowResult {
  /** Each colliding feature's key and its earliest tick (TICKS where none). */
  found: Map<string, number>;
  /** Candidates tested (their count, once known). */
  candidates: number;
  /** With verdicts: (a, b, hit, tick) per candidate, in chunks. */
  verdicts: Int32Array[];
}

interface Held {
  hits: Stream;
  levels: Pyramid;
  kind: Kept;
}

export class NarrowPhase {
  /** The most hits kept from one stream of elementary tests in the last frame (sizes the next
   * frame's read of them). */
  private lastHits = 0;

  constructor(
    private readonly host: CcdHost,
    private readonly s: NarrowScene,
  ) {}

  /** The elementary tests of `input.cand` and the orphan sets (the candidates disposed). */
  async run(input: NarrowInput): Promise<NarrowResult> {
    const { cand } = input;
    let ahead = input.ahead;
    const out: NarrowResult = { found: new Map(), candidates: 0, verdicts: [] };
    // candidates the tests below run on: with a compaction run ahead, its capped size
    const tested = ahead ? (cand.stream?.length ?? 0) : cand.count;
    const settle = (nk: number, na: number) => {
      const a = ahead!;
      ahead = null;
      a.roots.forEach((r) => r.dispose());
      a.settle(nk, na, tested);
      cand.count = na;
    };
    const room = Math.max(4096, this.host.memoryBudget - input.held);
    const deferred = !input.withToi && tested * BYTES.candidate + this.s.orphanCount * BYTES.orphanGroup <= room;
    const held: Held[] = [];
    try {
      if (ahead && !deferred) {
        const { counts } = await this.host.filter.counts(ahead.roots.map((r) => [r]));
        settle(counts[0]!, counts[1]!);
      }
      const task = { ...input, room, deferred, kept: held, out };
      if (cand.stream) await this.testCandidates(task, cand.stream, tested);
      if (this.s.orphans) await this.testOrphans(task, this.s.orphans);
      if (held.length > 0 || ahead) await this.readHeld(held, ahead ? ahead.roots : [], ahead ? settle : null, out);
    } finally {
      cand.stream?.dispose();
      for (const h of held) h.hits.dispose(), h.levels.forEach((l) => l.dispose());
      // a failure before the counts came back: the roots go (the caller forgets its front)
      ahead?.roots.forEach((x) => x.dispose());
    }
    out.candidates = cand.count;
    return out;
  }

  /** A candidate's 15 tests in one fragment (its hit mask) without times; with times a fragment
   * per feature test (its record and its tick); in chunks of the room the budget leaves. */
  private async testCandidates(task: Task, stream: Stream, all: number): Promise<void> {
    const host = this.host, s = this.s, toi = task.withToi;
    const per = toi ? host.chunk(BYTES.candidateToi + 15 * 8, 15, task.room) : host.chunk(BYTES.candidate, 1, task.room);
    for (let a = 0; a < all; a += per) {
      const n = Math.min(per, all - a);
      if (n < all) host.split();
      const slice = n === stream.length ? stream : stream.domain(a, a + n);
      const hits = host.scratch('int4', toi ? 15 * n : n, "CcdPairTests' hits");
      const ticks = toi ? host.scratch('int', 15 * n, "CcdPairTests' times") : null;
      let kept = false;
      try {
        const args = { cand: slice, nodes: s.nodes, tris: s.tris, x0: s.x0, x1: s.x1, inputUlp: 0, hit: hits };
        if (ticks) host.run(CCD_PAIR_TESTS_TOI, { ...args, tick: ticks });
        else host.run(CCD_PAIR_TESTS, args);
        if (task.verdicts && ticks) {
          const v = host.scratch('int4', n, "the candidates' verdicts");
          try {
            host.run(CCD_CANDIDATE_VERDICTS, { cand: slice, nodes: s.nodes, hit: hits, tick: ticks, v });
            task.out.verdicts.push((await v.read()) as Int32Array);
          } finally {
            v.dispose();
          }
          host.roundTrip();
        }
        if (task.deferred) (kept = true), this.hold(task.kept, hits, 'pairs');
        else await this.collect(task.out.found, hits, ticks, toi ? 'features' : 'pairs');
      } finally {
        if (!kept) hits.dispose();
        ticks?.dispose();
      }
    }
  }

  /** Without times eight records a fragment (a hit mask each eight), with times one (its record
   * and tick). */
  private async testOrphans(task: Task, orphans: Stream): Promise<void> {
    const host = this.host, s = this.s, toi = task.withToi, total = s.orphanCount;
    const per = toi ? host.chunk(BYTES.orphan + 8, 1, task.room) : Math.max(8, 8 * Math.floor(host.chunk(BYTES.orphanGroup, 1, task.room) / 8));
    for (let a = 0; a < total; a += per) {
      const n = Math.min(per, total - a);
      if (n < total) host.split();
      const hits = host.scratch('int4', toi ? n : Math.ceil(n / 8), "CcdOrphanTests' hits");
      const ticks = toi ? host.scratch('int', n, "CcdOrphanTests' times") : null;
      let kept = false;
      try {
        const common = { tris: s.tris, x0: s.x0, x1: s.x1, inputUlp: 0, hit: hits };
        if (ticks) host.run(CCD_ORPHAN_TESTS_TOI, { ...common, rec: n === total ? orphans : orphans.domain(a, a + n), tick: ticks });
        else host.run(CCD_ORPHAN_GROUPS, { ...common, rec: orphans, first: a, end: a + n });
        if (task.deferred) (kept = true), this.hold(task.kept, hits, toi ? 'features' : 'groups');
        else await this.collect(task.out.found, hits, ticks, toi ? 'features' : 'groups');
      } finally {
        if (!kept) hits.dispose();
        ticks?.dispose();
      }
    }
  }

  /** Hits whose filter is deferred: their pyramid, held until read with the others. */
  private hold(held: Held[], hits: Stream, kind: Kept): void {
    try {
      held.push({ hits, levels: this.host.filter.pyramid(hits, 'x.x >= 0'), kind });
    } catch (e) {
      hits.dispose();
      throw e;
    }
  }

  /** The held hits read in one round trip (with a compaction's counts run ahead, `aheadRoots`,
   * first: `settle` takes them), each into a stream sized from last frame's; a count above its
   * size is descended again at its count and read (one more round trip). */
  private async readHeld(held: Held[], aheadRoots: Stream[], settle: ((nk: number, na: number) => void) | null, out: NarrowResult): Promise<void> {
    const f = this.host.filter;
    const size = held.map((p) => Math.min(p.hits.length, 2 * this.lastHits + 64));
    const kept: Stream[] = [];
    try {
      held.forEach((p, i) => kept.push(f.descend(p.hits, p.levels, size[i]!, true)));
      const ahead = aheadRoots.map((r) => [r]);
      // (the few roots read as they are: no stream of them, whose shape the frames that read
      // their compaction's counts first never make)
      const read = await f.counts([...ahead, ...held.map((p) => p.levels)], kept, ahead.length + held.length > 4);
      const counts = read.counts.slice(ahead.length), data = read.data;
      if (settle) settle(read.counts[0]!, read.counts[1]!);
      const again: number[] = [];
      counts.forEach((c, i) => (c <= size[i]! ? this.add(out.found, data[i] as Int32Array, c, null, held[i]!.kind) : again.push(i)));
      this.lastHits = Math.max(0, ...counts);
      if (again.length > 0) {
        const whole = again.map((i) => f.descend(held[i]!.hits, held[i]!.levels, counts[i]!, false));
        kept.push(...whole);
        const { data: recs } = await f.counts([], whole);
        again.forEach((i, j) => this.add(out.found, recs[j] as Int32Array, counts[i]!, null, held[i]!.kind));
      }
    } finally {
      kept.forEach((s) => s.dispose());
    }
  }

  /** The kept hits (and, with times, their ticks: by the filter's indices) into `found`. */
  private async collect(found: Map<string, number>, hits: Stream, ticks: Stream | null, kind: Kept): Promise<void> {
    const host = this.host;
    const kept = await host.filter.filter(hits, 'x.x >= 0', ticks !== null);
    let t: Int32Array | null = null;
    let recs: Int32Array;
    try {
      if (!kept.stream) return;
      if (ticks && kept.indices) {
        const at = host.scratch('int', kept.count, "the kept hits' ticks");
        try {
          host.run(CCD_TICK_OF, { idx: kept.indices, tick: ticks, t: at });
          t = (await at.read()) as Int32Array;
        } finally {
          at.dispose();
        }
        host.roundTrip();
      }
      recs = (await kept.stream.read()) as Int32Array;
      host.roundTrip();
    } finally {
      kept.stream?.dispose();
      kept.indices?.dispose();
    }
    this.add(found, recs, kept.count, t, kind);
  }

  private add(found: Map<string, number>, recs: Int32Array, count: number, t: Int32Array | null, kind: Kept): void {
    const { scene, orphanRecords } = this.s;
    for (let i = 0; i < count; i++) {
      const x = recs.subarray(i * 4, i * 4 + 4);
      if (kind === 'pairs') {
        for (let s = 0; s < 15; s++) if ((x[2]! >> s) & 1) found.set(featureKey(pairFeature(scene, x[0]!, x[1]!, s)), TICKS);
      } else if (kind === 'groups') {
        for (let j = 0; j < 8; j++) if ((x[1]! >> j) & 1) found.set(featureKey(orphanRecords.subarray((x[0]! + j) * 4, (x[0]! + j) * 4 + 4)), TICKS);
      } else {
        const key = featureKey(x);
        const tick = t ? t[i]! : TICKS;
        found.set(key, Math.min(found.get(key) ?? TICKS, tick));
      }
    }
  }
}

/** What the chunk loops of one run share. */
interface Task extends NarrowInput {
  room: number;
  deferred: boolean;
  /** The hits held for one read (deferred). */
  kept: Held[];
  out: NarrowResult;
}
