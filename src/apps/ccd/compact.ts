/**
 * Front compaction (da Silva et al. section 2.1's front update): the traversal's chunks of front
 * slots are joined and the front records kept (kind 2 or 3), and with them the candidates (kind
 * 3, counted in stage elementary). A static frame from the front may compact ahead of its
 * counts: into sizes chosen from last frame's (aheadSize), its two pyramids' roots kept until
 * the narrow phase reads them with its own (./narrow.ts); a size found short makes the frame run
 * again from the root (the pipeline's Redo).
 */
import type { Stream } from '../../core/stream';
import { CCD_BYTES as BYTES, type CcdHost, type Chunk, type Pyramid } from './host';

/** The size a frame's front or candidates are compacted into before their count is read: 5/4 of
 * last frame's + 64, rounded up by at most 25 % (to one of four sizes an octave, so that the
 * next frames' targets have the same shapes). */
export const aheadSize = (last: number): number => {
  const n = last + (last >> 2) + 64;
  const step = 2 ** (Math.floor(Math.log2(n - 1)) - 2);
  return Math.ceil(n / step) * step;
};

/** A front compaction whose two counts (front, candidates) are not read yet: its front and
 * candidates were descended at sizes chosen from last frame's (aheadSize; CCD_DEAD past the
 * counts); its two pyramids' roots stay until the counts come back with the elementary tests'. */
export interface PendingCompact {
  roots: Stream[];
  /** The counts were read (compact's `hold`): the roots only kept to the frame's end, so that
   * frames that read them hold the same targets at once as frames that run ahead (the pool then
   * has them). */
  settled?: boolean;
}

export interface Compacted {
  stream: Stream | null;
  count: number;
  also?: { stream: Stream | null; count: number };
  pending?: PendingCompact;
}

/** Joins int4 chunks and keeps the records where `keep` holds, in batches the memory budget
 * holds (the chunks are disposed). With `also` (the candidates' predicate) and one batch, the
 * records where `also` holds come back too (`also`, in stage elementary), both counts read in
 * one round trip; else `also` is left to the caller. With `caps` too, nothing is read: the kept
 * records are descended into streams of at most caps.front and caps.cand records (CCD_DEAD past
 * the counts), the counts -1 and `pending` left to the caller (the narrow phase reads them with
 * the elementary tests' and settles). `hold`: the roots kept to the frame's end (settled).
 * `held`: bytes the caller holds beside the chunks (lazy work stealing's state, the front so
 * far), which the batches leave to it. */
export async function compactFront(host: CcdHost, chunks: Chunk[], keep: string, also?: string, caps?: { front: number; cand: number }, hold = false, held = 0): Promise<Compacted> {
  if (also !== undefined && chunks.length > 0 && chunks.reduce((a, c) => a + c.count, 0) <= host.chunk(BYTES.compact, 1, host.memoryBudget - held)) {
    return compactOnce(host, chunks, keep, also, caps, hold);
  }
  const f = host.filter, per = host.chunk(BYTES.compact);
  const kept: Chunk[] = [];
  try {
    while (chunks.length > 0) {
      // a batch of n records holds BYTES.compact a record, beside the chunks after it and the
      // records kept so far (16 bytes a record each): n from what the budget leaves
      const rest = 16 * (chunks.reduce((a, c) => a + c.stream.length, 0) + kept.reduce((a, c) => a + c.stream.length, 0));
      const most = Math.max(Math.floor((host.memoryBudget - held - rest) / (BYTES.compact - 16)), host.chunk(BYTES.compact, 1, Math.floor(host.memoryBudget / 4)));
      const batch: Chunk[] = [chunks.shift()!];
      let n = batch[0]!.count;
      while (chunks.length > 0 && n + chunks[0]!.count <= Math.min(per, most)) n += chunks[0]!.count, batch.push(chunks.shift()!);
      if (chunks.length > 0 || kept.length > 0) host.split();
      const all = f.concat(batch);
      try {
        const k = await f.filter(all.stream!, keep);
        if (k.stream) kept.push({ stream: k.stream, count: k.count });
      } finally {
        all.stream!.dispose();
      }
    }
    return f.concat(kept);
  } catch (e) {
    [...chunks, ...kept].forEach((c) => c.stream.dispose());
    throw e;
  }
}

/** One batch: the front and the candidates from the same joined records, their two pyramids'
 * counts read together (or, with caps, not read). */
async function compactOnce(host: CcdHost, chunks: Chunk[], keep: string, also: string, caps: { front: number; cand: number } | undefined, hold: boolean): Promise<Compacted> {
  const f = host.filter;
  const all = f.concat(chunks.splice(0));
  const pyramids: Pyramid[] = [];
  const kept: Stream[] = [];
  try {
    const stage = host.currentStage;
    pyramids.push(f.pyramid(all.stream!, keep));
    host.stage('elementary');
    pyramids.push(f.pyramid(all.stream!, also));
    host.stage(stage);
    if (caps) {
      const front = f.descend(all.stream!, pyramids[0]!, Math.max(1, Math.min(all.stream!.length, caps.front)), true);
      kept.push(front);
      host.stage('elementary');
      const cand = f.descend(all.stream!, pyramids[1]!, Math.max(1, Math.min(all.stream!.length, caps.cand)), true);
      host.stage(stage);
      // the roots alone stay (the joined records and the other levels go now)
      return { stream: front, count: -1, also: { stream: cand, count: -1 }, pending: { roots: pyramids.map((p) => p.pop()!) } };
    }
    const { counts } = await f.counts(pyramids);
    const [nk, na] = counts as [number, number];
    const front = nk > 0 ? f.descend(all.stream!, pyramids[0]!, nk, false) : null;
    if (front) kept.push(front);
    host.stage('elementary');
    const cand = na > 0 ? f.descend(all.stream!, pyramids[1]!, na, false) : null;
    host.stage(stage);
    return { stream: front, count: nk, also: { stream: cand, count: na }, ...(hold ? { pending: { roots: pyramids.map((p) => p.pop()!), settled: true } } : {}) };
  } catch (e) {
    kept.forEach((s) => s.dispose());
    throw e;
  } finally {
    pyramids.forEach((p) => p.forEach((l) => l.dispose()));
    all.stream!.dispose();
  }
}

/** Makes (and gives back to the pool) the targets a frame that compacts its front ahead will
 * draw into, as sized there from `last` (the capped front, the capped candidates, their hits and
 * the hits' pyramid, held at once), beside the saved front (`frontLength` records), so that it
 * does not create them inside its timed steps. Only an optimisation: a refused allocation is
 * swallowed, nothing is left behind. */
export function warmCompact(host: CcdHost, last: { front: number; cand: number }, frontLength: number): void {
  const held: Stream[] = [];
  const cand = aheadSize(last.cand);
  // (beside the saved front, within the budget: else the next frame makes them itself)
  if (16 * (frontLength + Math.max(aheadSize(last.front), 2.4 * cand)) > host.memoryBudget) return;
  try {
    const make = (type: 'int4' | 'uint4', n: number) => {
      const t = host.scratch(type, n, 'a warm-up target (compaction)');
      held.push(t);
      host.ctx.framebufferFor([t.texture]);
    };
    // the front alone (a shape of its own), then the candidates, their hits and the hits' pyramid at once
    make('int4', aheadSize(last.front));
    held.splice(0).forEach((t) => t.dispose());
    make('int4', cand);
    make('int4', cand);
    for (let len = Math.ceil(cand / 4); ; len = Math.ceil(len / 4)) {
      make('uint4', len);
      if (len <= 1) break;
    }
  } catch {
    // the next frame makes what it lacks itself
  } finally {
    held.forEach((t) => t.dispose());
  }
}
