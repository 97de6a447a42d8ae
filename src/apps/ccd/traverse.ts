/**
 * The static traversal of the BVTT (gProximity's policy as passes, da Silva et al. section 4's
 * baseline): one pass per traversal step over the compacted work list, each BVTT node writing
 * its up to three children to three slots and its front record to a slot of its own, then the
 * deferred filter compacting the children into the next list — an even redistribution at every
 * step. Each step's front slots are copied out (no readback) and the chunks joined and compacted
 * once at the end, with the candidates (./compact.ts).
 *
 * The next list's size is its count, which lives on the GPU. A step whose count is read at
 * once costs a CPU round trip (on an H100 through Chrome, several ms: most of a 24-step frame).
 * So when the last frame of the same kind (from the front, or from the root) left its list
 * sizes (`hints`), the steps run ahead in a group: each next list is given a size before its
 * count is read — min(3 x this list's size, the budget's chunk, listSize: 2 x last frame's +
 * 4096 (256 on a software renderer), rounded up by at most 25 %: the long lists of a cloth on a
 * ball grow up to 1.26 x from one frame to the next, the short deep ones up to 17 x, within the
 * slack) — the records past the count are CCD_DEAD (no children, no front record), and the
 * group's counts come back in one round trip, AHEAD_PAST steps after last frame's lists ended,
 * or earlier: a group ends before a step whose chunk (BYTES.traverse a record) would take what
 * the group holds (each step's next list, front slots and root), with what the traversal held
 * before it (the start list, earlier front slots, this list), past memoryBudget. A count above
 * its list's size (the list lost records) rolls back: the front slots from that step on are
 * dropped and the step is redone with its count read; results are the same either way. A list
 * longer than one chunk of the budget is stepped with its count read (in chunks). Wall: the
 * count readbacks also wait for the traversal passes, so their wall time lands in balancing
 * (the GPU times of a profiled frame split them).
 */
import type { StreamDomain } from '../../core/domain';
import type { Stream } from '../../core/stream';
import { compactFront, type PendingCompact } from './compact';
import { rootOf } from './filter';
import { CCD_BYTES as BYTES, type BvttStreams, type CcdHost, type Chunk } from './host';
import { CCD_FRONT_SLOT, CCD_TRAVERSE } from './kernels';

/** Static steps run ahead past the end of last frame's lists (4096 records each), in case this
 * frame's go on longer (a cloth settling on the ball: 20 steps, then 24). */
const AHEAD_PAST = 4;

/** A run-ahead list's size from last frame's count of it: LIST_GROWTH x that count + the slack,
 * rounded up to one of four sizes per octave (at most 25 % more), so that the next frame's lists,
 * sized from slightly different counts, have the same shapes and reuse this frame's pooled
 * textures. The 93,640-triangle cloth's lists from the front grow at most 1.26 x from one frame
 * to the next where they are long (the short ones more, within the slack). */
const LIST_GROWTH = 2;
const listSize = (last: number, slack: number): number => {
  const n = Math.ceil(LIST_GROWTH * last) + slack;
  if (n <= 8) return n;
  const step = 2 ** (Math.floor(Math.log2(n - 1)) - 2);
  return Math.ceil(n / step) * step;
};

/** What a traversal hands the rest of the frame. */
export interface TraversalResult {
  front: Stream | null;
  frontCount: number;
  /** The candidates (front records of kind 3), when the compaction kept them with the front. */
  cand?: { stream: Stream | null; count: number };
  pending?: PendingCompact;
  iterations: number;
  nodes: number;
  /** Lanes per iteration (lws: B x T); absent for static, whose every step is fully busy. */
  lanes?: number;
}

/** Wall ms the traversal spent in balancing (count readbacks) and in the front compaction. */
export interface TraversalTiming {
  balancing: number;
  front: number;
}

/** The state of one traversal's loop over its lists. */
interface Walk {
  start: Stream;
  /** The list being stepped (`start` or one of ours) and its count. */
  work: Stream;
  w: number;
  /** sizes[i]: list i's count (list 0: the start list); every list here was stepped. */
  sizes: number[];
  /** Each step's front slots. */
  chunks: Chunk[];
  /** A counted step's next lists, by chunk. */
  nexts: Chunk[];
  /** A group run ahead: each step's next list, its size and root, and its front slots' chunk. */
  group: Array<{ list: Stream; size: number; root: Stream; chunk: number }>;
  /** Last frame's list sizes of this kind (null: read every count). */
  hint: number[] | null;
  /** exact: the next step reads its count (after a rollback); trusted: last frame's sizes hold
   * (after a rollback the rest of the frame sizes each list at 3 x the one before: never outgrown). */
  exact: boolean;
  trusted: boolean;
  timing: TraversalTiming;
}

export class StaticTraversal {
  /** The list sizes (start list first) in the last frame from the saved front and in the last
   * from the root: the next such frame sizes its lists from them before it reads their counts. */
  private readonly hints: { front: number[] | null; root: number[] | null } = { front: null, root: null };

  constructor(
    private readonly host: CcdHost,
    private readonly bvtt: BvttStreams,
  ) {}

  /** Records a step's chunk holds at most (3 children per work item). */
  private get per(): number {
    return this.host.chunk(BYTES.traverse, 3);
  }

  /** Records beyond 2 x last frame's a run-ahead list may hold: dead records cost a GPU next to
   * nothing, a software renderer more than a round trip. */
  private get slack(): number {
    return this.host.ctx.caps.software ? 256 : 4096;
  }

  /** Traverses from `start` (`count` records of (a, b, kind, 0)) until no list is left, then
   * compacts the front (at `caps` ahead of its counts where given and the steps ran ahead). */
  async traverse(start: Stream, count: number, fromRoot: boolean, timing: TraversalTiming, caps: { front: number; cand: number } | null): Promise<TraversalResult> {
    const hint = fromRoot ? this.hints.root : this.hints.front;
    const walk: Walk = { start, work: start, w: count, sizes: [count], chunks: [], nexts: [], group: [], hint, exact: false, trusted: true, timing };
    try {
      while (walk.w > 0) {
        // a group's first step holds this list's children, 48 bytes a record, its front slots
        // and pyramid, 16 each, and the next list, at most 3 x as long: 128 at most; entered
        // where that fits beside what is held, or in a quarter of the budget
        if (hint && !walk.exact && walk.w <= Math.min(this.per, this.host.chunkBeside(128, 1, holding(walk)))) await this.runAhead(walk);
        else if (!(await this.stepCounted(walk))) break;
      }
      // a frame that read its counts step by step compiles the capped descents the next one will use
      if (!hint) this.host.filter.warmDescents(Math.max(3 * this.per, this.host.chunk(BYTES.candidate), this.host.chunk(BYTES.orphan)));
    } catch (e) {
      if (walk.work !== start) walk.work.dispose();
      for (const g of walk.group) g.list.dispose(), g.root.dispose();
      [...walk.chunks, ...walk.nexts].forEach((c) => c.stream.dispose());
      throw e;
    }
    if (walk.work !== start) walk.work.dispose();
    if (fromRoot) this.hints.root = walk.sizes;
    else this.hints.front = walk.sizes;
    // the start list (last frame's front) is not needed any more: it goes before the compaction
    // (the frame disposes it again, a no-op)
    start.dispose();
    const t1 = performance.now();
    this.host.stage('front');
    // (a frame that runs ahead compacts the front and the candidates at sizes from last frame's too)
    const f = await compactFront(this.host, walk.chunks, 'x.z >= 2', 'x.z == 3', hint ? (caps ?? undefined) : undefined, !fromRoot);
    timing.front += performance.now() - t1;
    // a frame that read its counts step by step puts the next frame's run-ahead lists in the pool
    // (within the budget beside the front just compacted)
    if (!hint) this.warmLists(fromRoot ? 1 : f.count, walk.sizes, 16 * (f.stream?.length ?? 0));
    const sizes = walk.sizes;
    return { front: f.stream, frontCount: f.count, ...(f.also ? { cand: f.also } : {}), ...(f.pending ? { pending: f.pending } : {}), iterations: sizes.length, nodes: sizes.reduce((a, b) => a + b, 0) };
  }

  /** One step of `list` (`size` records): its children, its front slots (a chunk of the walk),
   * and the children's pyramid (in stage balancing); the children disposed by the caller. */
  private step(walk: Walk, list: Stream | StreamDomain, size: number, out: Stream): void {
    const host = this.host;
    host.run(CCD_TRAVERSE, { work: list, ...this.bvtt, child: out });
    host.stage('front');
    const fr = host.scratch('int4', size, "a step's front slots");
    walk.chunks.push({ stream: fr, count: size });
    host.run(CCD_FRONT_SLOT, { child: out, fr });
    host.stage('balancing');
  }

  /** A group of steps run ahead, their counts read together: up to AHEAD_PAST lists past where
   * last frame's ended (or past this list, if that was already passed). The group holds, until
   * its counts are read, each step's next list, front slots and root, beside what the traversal
   * holds already: it ends before a step whose own chunk would take them past the budget. */
  private async runAhead(walk: Walk): Promise<void> {
    const host = this.host, hint = walk.hint!, group = walk.group;
    const at = walk.sizes.length - 1; // list `work` is list `at`
    const end = walk.trusted ? Math.max(hint.length, at + 1) + AHEAD_PAST - 1 : at + AHEAD_PAST;
    let list = walk.work, size = walk.w, groupBytes = holding(walk);
    for (let j = at; ; j++) {
      host.stage('traversal');
      const out = host.scratch('int4', 3 * size, "CcdTraverse's children");
      try {
        this.step(walk, list, size, out);
        // past the end of last frame's lists: the slack alone
        const next = Math.max(1, Math.min(3 * size, this.per, walk.trusted ? listSize(hint[j + 1] ?? 0, this.slack) : 3 * size));
        const levels = host.filter.pyramid(out, 'x.z == 1');
        const root = rootOf(levels);
        try {
          group.push({ list: host.filter.descend(out, levels, next, true), size: next, root, chunk: walk.chunks.length - 1 });
        } catch (e) {
          root.dispose();
          throw e;
        } finally {
          levels.slice(0, -1).forEach((l) => l.dispose());
        }
        groupBytes += 16 * (next + size + 1);
        if (j + 1 >= end || group.length >= 64 || groupBytes + BYTES.traverse * next > host.memoryBudget) break;
      } finally {
        out.dispose();
      }
      list = group[group.length - 1]!.list;
      size = group[group.length - 1]!.size;
    }
    const t0 = performance.now();
    const { counts } = await host.filter.counts(group.map((g) => [g.root]));
    walk.timing.balancing += performance.now() - t0;
    this.settleGroup(walk, counts);
  }

  /** The group's counts: the lists that held theirs join the walk; a list that lost records
   * (a count above its size) rolls back to the step before it, redone with its count read. */
  private settleGroup(walk: Walk, counts: number[]): void {
    const group = walk.group;
    let k = 0, overflow = false;
    for (; k < group.length; k++) {
      const c = counts[k]!;
      if (c > group[k]!.size) {
        overflow = true;
        break;
      }
      if (c === 0) break;
      walk.sizes.push(c);
    }
    let keep: Stream | null;
    if (overflow) {
      // list k + 1 lost records: drop the front slots of the steps from list k on and redo
      // list k's step with its count read
      keep = k === 0 ? walk.work : group[k - 1]!.list;
      walk.w = k === 0 ? walk.w : counts[k - 1]!;
      walk.chunks.splice(group[k]!.chunk).forEach((c) => c.stream.dispose());
      walk.exact = true;
      walk.trusted = false;
      this.host.rollback();
    } else if (k < group.length) {
      keep = null;
      walk.w = 0;
    } else {
      keep = group[group.length - 1]!.list;
      walk.w = counts[k - 1]!;
    }
    for (const g of group.splice(0)) {
      g.root.dispose();
      if (g.list !== keep) g.list.dispose();
    }
    if (keep !== walk.work) {
      if (walk.work !== walk.start) walk.work.dispose();
      walk.work = keep ?? walk.start;
    }
  }

  /** A step with its count read: in one chunk through a filter where it fits beside what is held
   * (its children, 48 bytes a record, front slots and pyramid, 16 each, and next list, at most
   * 48: 128), else in chunks whose pyramids are held until their counts are read together, one
   * round trip for as many as fit beside what is held (each held record 80 bytes, and the next
   * list of the one descended, at most 48 a record of its chunk). False when no list is left. */
  private async stepCounted(walk: Walk): Promise<boolean> {
    const host = this.host, w = walk.w;
    walk.exact = false;
    const held: Array<{ out: Stream; levels: Stream[] }> = [];
    try {
      const whole = w <= Math.min(this.per, host.chunkBeside(128, 3, holding(walk)));
      for (let a = 0; a < w; ) {
        const room = Math.max(host.memoryBudget - holding(walk), Math.floor(host.memoryBudget / 4));
        // (a flush of m records in chunks of at most m / 4: 80 m + 48 m / 4 = 92 m at most)
        const most = whole ? w : Math.max(1, Math.floor(room / 92));
        const q = whole ? w : Math.min(this.per, Math.ceil(Math.min(most, w - a) / 4));
        for (const end = Math.min(w, a + most); a < end; ) {
          const n = Math.min(q, end - a);
          if (n < w) host.split();
          await this.stepChunk(walk, n === w ? walk.work : walk.work.domain(a, a + n), n, whole ? null : held);
          a += n;
        }
        if (held.length > 0) await this.descendHeld(walk, held);
      }
    } finally {
      for (const h of held) h.out.dispose(), h.levels.forEach((l) => l.dispose());
    }
    if (walk.work !== walk.start) walk.work.dispose();
    walk.work = walk.start;
    host.stage('balancing');
    const joined = host.filter.concat(walk.nexts.splice(0));
    if (!joined.stream) return false;
    walk.work = joined.stream;
    walk.w = joined.count;
    walk.sizes.push(walk.w);
    return true;
  }

  /** One chunk of a counted step: its next list through a filter (`held` null), or its pyramid
   * held for a later read of several counts. */
  private async stepChunk(walk: Walk, list: Stream | StreamDomain, n: number, held: Array<{ out: Stream; levels: Stream[] }> | null): Promise<void> {
    const host = this.host;
    host.stage('traversal');
    const out = host.scratch('int4', 3 * n, "CcdTraverse's children");
    let kept = false;
    try {
      this.step(walk, list, n, out);
      if (held) {
        held.push({ out, levels: host.filter.pyramid(out, 'x.z == 1') });
        kept = true;
      } else {
        const t0 = performance.now();
        const next = await host.filter.filter(out, 'x.z == 1');
        walk.timing.balancing += performance.now() - t0;
        if (next.stream) walk.nexts.push({ stream: next.stream, count: next.count });
      }
    } finally {
      if (!kept) out.dispose();
    }
  }

  /** The held chunks' counts in one round trip, and their next lists (each chunk's children and
   * pyramid go once its next list is out). */
  private async descendHeld(walk: Walk, held: Array<{ out: Stream; levels: Stream[] }>): Promise<void> {
    const t0 = performance.now();
    const { counts } = await this.host.filter.counts(held.map((h) => h.levels));
    walk.timing.balancing += performance.now() - t0;
    for (const [i, h] of held.splice(0).entries()) {
      try {
        if (counts[i]! > 0) walk.nexts.push({ stream: this.host.filter.descend(h.out, h.levels, counts[i]!, false), count: counts[i]! });
      } finally {
        h.out.dispose(), h.levels.forEach((l) => l.dispose());
      }
    }
  }

  /** Makes (and gives back to the texture pool) the targets the next static frame of the same
   * kind will run ahead in — a step's children, front slots, filter pyramid and list, each as
   * sized there from `count` (its start list) and `hint` (this frame's list sizes), all held at
   * once as there — so that the first frame run ahead does not create them inside its timed
   * steps (SwiftShader, a 24 x 24 cloth: 40 textures and framebuffers made in that frame).
   * Only an optimisation: whatever fails in it (a refused allocation) is swallowed, everything
   * it made is given back on every path, and the frame goes on with its front. */
  private warmLists(count: number, hint: number[], beside = 0): void {
    const host = this.host, per = this.per;
    const held: Stream[] = [];
    // each with its framebuffer (made on a texture's first draw, and kept with it in the pool);
    // held from the moment it exists, so that a throw anywhere disposes it
    const make = (type: 'int4' | 'uint4', n: number, what: string) => {
      const t = host.scratch(type, n, what);
      held.push(t);
      host.ctx.framebufferFor([t.texture]);
      return t;
    };
    const drop = (s: Stream) => {
      held.splice(held.indexOf(s), 1);
      s.dispose();
    };
    try {
      // held as a group of the next frame holds them, ending where its group would (memoryBudget)
      let size = count, groupBytes = beside;
      for (let j = 0; j < hint.length + AHEAD_PAST - 1 && size > 0 && size <= per && (j === 0 || groupBytes + BYTES.traverse * size <= host.memoryBudget); j++) {
        const out = make('int4', 3 * size, 'a warm-up target (children)');
        make('int4', size, 'a warm-up target (front slots)');
        const levels: Stream[] = [];
        for (let len = Math.ceil((3 * size) / 4); ; len = Math.ceil(len / 4)) {
          levels.push(make('uint4', len, 'a warm-up target (pyramid level)'));
          if (len <= 1) break;
        }
        const next = Math.max(1, Math.min(3 * size, per, listSize(hint[j + 1] ?? 0, this.slack)));
        make('int4', next, 'a warm-up target (list)');
        levels.pop(); // the root, held as there
        groupBytes += 16 * (next + size + 1);
        levels.forEach(drop);
        drop(out);
        size = next;
      }
    } catch {
      // the next frame makes what it lacks itself
    } finally {
      held.splice(0).forEach((s) => s.dispose());
    }
  }
}

/** What the traversal holds before a step: the start list, the front slots of the steps before,
 * this list, and the next lists of its chunks stepped so far. */
function holding(walk: Walk): number {
  const sum = (cs: Chunk[]) => cs.reduce((a, c) => a + c.stream.length, 0);
  return 16 * (walk.start.length + sum(walk.chunks) + (walk.work !== walk.start ? walk.work.length : 0) + sum(walk.nexts));
}
