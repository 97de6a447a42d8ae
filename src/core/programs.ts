/**
 * Linked programs, cached per context by their final sources (the generated GLSL is the key:
 * two kernel descriptions that generate the same source share one program). The cache is a
 * bounded LRU of PROGRAM_CACHE_SIZE programs: a page that makes ever new kernels (a filter with
 * a new predicate per call) keeps at most that many alive, the least recently used deleted.
 * Holders of a program never keep it across calls: they look it up again (a Map hit on the same
 * source string), so an evicted program is simply linked again when next needed.
 */
import * as twgl from 'twgl.js';
import type { DescribeLinkError, Resources } from './resources';

/** Programs kept linked per context; the least recently used beyond this are deleted. */
export const PROGRAM_CACHE_SIZE = 128;

/** A linked program with its uniform setters (a twgl ProgramInfo) and its sources. */
export interface ProgramRecord {
  info: twgl.ProgramInfo;
  vertex: string;
  source: string;
  /** @internal Last use, for eviction. */
  used: number;
  /** @internal The plain values its uniforms hold now (pass.ts sets only those that change). */
  values?: Map<string, unknown>;
}

export class ProgramCache {
  /** vertex source -> fragment source -> program (two lookups on held strings, no concatenation). */
  private readonly byVertex = new Map<string, Map<string, ProgramRecord>>();
  private size = 0;
  private clock = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly resources: Resources,
    readonly capacity = PROGRAM_CACHE_SIZE,
  ) {}

  /** The program for these sources, linked on first use (errors worded by `describe`). */
  get(vertex: string, fragment: string, describe: DescribeLinkError): ProgramRecord {
    let inner = this.byVertex.get(vertex);
    const hit = inner?.get(fragment);
    if (hit) {
      hit.used = ++this.clock;
      this.resources.claim(hit.info.program); // (one an observer linked moves to the caller's counts: Resources.observe)
      return hit;
    }
    if (this.size >= this.capacity) this.evict();
    const program = this.resources.link(vertex, fragment, describe);
    const record: ProgramRecord = { info: twgl.createProgramInfoFromProgram(this.gl, program), vertex, source: fragment, used: ++this.clock };
    if (!inner) this.byVertex.set(vertex, (inner = new Map()));
    inner.set(fragment, record);
    this.size++;
    return record;
  }

  /** Programs linked now. */
  get count(): number {
    return this.size;
  }

  /** Forgets every program (their GL objects are released with the registry). */
  clear(): void {
    this.byVertex.clear();
    this.size = 0;
  }

  private evict(): void {
    let oldest: ProgramRecord | null = null;
    for (const inner of this.byVertex.values()) for (const r of inner.values()) if (!oldest || r.used < oldest.used) oldest = r;
    if (!oldest) return;
    const inner = this.byVertex.get(oldest.vertex)!;
    inner.delete(oldest.source);
    if (inner.size === 0) this.byVertex.delete(oldest.vertex);
    this.size--;
    this.resources.release(oldest.info.program);
  }
}
