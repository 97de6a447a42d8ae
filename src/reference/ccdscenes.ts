/**
 * Scenes for continuous collision detection (plain TypeScript, no GPU; the cloth-funnel frames
 * are read with the library's parsePly): BART-like moving objects (the paper's BART64 ... BART4096: rigid objects
 * flying through each other, inter-object collisions only), and a mass-spring cloth falling on
 * a ball (the paper's Cloth/Ball, self-collision), each producing the two frames of a step.
 */
import type { CcdScene } from '../geometry/bvh';

/** A unit sphere as an octahedron subdivided `levels` times (8 * 4^levels triangles). */
export function octasphere(levels: number): { positions: number[]; tris: number[] } {
  const positions = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
  let tris = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
  for (let l = 0; l < levels; l++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let v = mid.get(key);
      if (v === undefined) {
        const p = [0, 1, 2].map((c) => (positions[a * 3 + c]! + positions[b * 3 + c]!) / 2);
        const len = Math.hypot(p[0]!, p[1]!, p[2]!);
        v = positions.length / 3;
        positions.push(p[0]! / len, p[1]! / len, p[2]! / len);
        mid.set(key, v);
      }
      return v;
    };
    const next: number[] = [];
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!];
      const ab = m(a, b), bc = m(b, c), ca = m(c, a);
      next.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
    }
    tris = next;
  }
  return { positions, tris };
}

/** The BART-like scene's triangle counts, as the paper's benchmarks. */
export const BART_SIZES = [64, 256, 1024, 4096] as const;

/**
 * BART-like moving objects: `triangles` (64, 256, 1024 or 4096) split over 2 or 8 spheres that
 * fly on crossing Lissajous paths and spin, passing through each other (inter-object
 * collisions; self-collision off, as the objects are rigid). Frame f to f + 1 is one step.
 */
export function bartScene(triangles: number, frame: number, dt = 1 / 60): CcdScene {
  const objects = triangles <= 64 ? 2 : 8;
  const levels = Math.round(Math.log(triangles / objects / 8) / Math.log(4));
  const sphere = octasphere(levels);
  const nvObj = sphere.positions.length / 3, ntObj = sphere.tris.length / 3;
  const x0 = new Float32Array(objects * nvObj * 3), x1 = new Float32Array(objects * nvObj * 3);
  const tris = new Int32Array(objects * ntObj * 3), objs = new Int32Array(objects * ntObj);
  const radius = 0.28;
  const place = (o: number, t: number, out: Float32Array) => {
    const ph = o * 2.399963;
    const c = [0.7 * Math.sin(1.1 * t + ph), 0.6 * Math.sin(1.7 * t + 2 * ph), 0.7 * Math.cos(1.3 * t + ph)];
    const ang = t * (0.8 + 0.1 * o);
    const cs = Math.cos(ang), sn = Math.sin(ang);
    for (let v = 0; v < nvObj; v++) {
      const p = [sphere.positions[v * 3]! * radius, sphere.positions[v * 3 + 1]! * radius * 0.8, sphere.positions[v * 3 + 2]! * radius];
      const x = cs * p[0]! + sn * p[2]!, z = -sn * p[0]! + cs * p[2]!;
      out.set([c[0]! + x, c[1]! + p[1]!, c[2]! + z], (o * nvObj + v) * 3);
    }
  };
  for (let o = 0; o < objects; o++) {
    place(o, frame * dt * 6, x0);
    place(o, (frame + 1) * dt * 6, x1);
    for (let t = 0; t < ntObj; t++) {
      for (let k = 0; k < 3; k++) tris[(o * ntObj + t) * 3 + k] = o * nvObj + sphere.tris[t * 3 + k]!;
      objs[o * ntObj + t] = o;
    }
  }
  return { x0, x1, tris, objects: objs, self: false };
}

/**
 * A mass-spring cloth (grid x grid vertices, 2 (grid - 1)^2 triangles) falling onto a ball
 * (an octasphere of 8 * 4^ballLevels triangles), as the paper's Cloth/Ball scene: Verlet
 * integration, structural, shear and bending springs relaxed as distance constraints, the cloth
 * kept out of the ball by projection. `frames()` gives the step's two frames; `advance()` moves
 * on by one step. Cloth and ball are objects 0 and 1; self-collision on.
 */
export class ClothBall {
  readonly grid: number;
  readonly tris: Int32Array;
  readonly objects: Int32Array;
  readonly vertices: number;
  private pos: Float32Array;
  private prev: Float32Array;
  private readonly clothVerts: number;
  private readonly springs: Array<[number, number, number]> = [];
  readonly ballRadius = 0.5;
  frame = 0;

  constructor(grid = 32, ballLevels = 3) {
    this.grid = grid;
    const ball = octasphere(ballLevels);
    this.clothVerts = grid * grid;
    this.vertices = this.clothVerts + ball.positions.length / 3;
    this.pos = new Float32Array(this.vertices * 3);
    const size = 1.6;
    for (let i = 0; i < grid; i++) for (let j = 0; j < grid; j++) {
      const v = i * grid + j;
      // slightly tilted and jittered so the cloth is never exactly planar
      this.pos.set([(j / (grid - 1) - 0.5) * size + 0.05, 0.75 + 0.05 * (i / (grid - 1)) + 1e-3 * Math.sin(v * 12.9898), (i / (grid - 1) - 0.5) * size + 0.03], v * 3);
    }
    for (let v = 0; v < ball.positions.length / 3; v++) for (let c = 0; c < 3; c++) this.pos[(this.clothVerts + v) * 3 + c] = ball.positions[v * 3 + c]! * this.ballRadius;
    this.prev = this.pos.slice();
    const tris: number[] = [], objs: number[] = [];
    for (let i = 0; i + 1 < grid; i++) for (let j = 0; j + 1 < grid; j++) {
      const a = i * grid + j, b = a + 1, c = a + grid, d = c + 1;
      tris.push(a, c, b, b, c, d);
      objs.push(0, 0);
    }
    for (let t = 0; t < ball.tris.length; t += 3) {
      tris.push(this.clothVerts + ball.tris[t]!, this.clothVerts + ball.tris[t + 1]!, this.clothVerts + ball.tris[t + 2]!);
      objs.push(1);
    }
    this.tris = Int32Array.from(tris);
    this.objects = Int32Array.from(objs);
    const rest = (a: number, b: number) => Math.hypot(this.pos[a * 3]! - this.pos[b * 3]!, this.pos[a * 3 + 1]! - this.pos[b * 3 + 1]!, this.pos[a * 3 + 2]! - this.pos[b * 3 + 2]!);
    for (let i = 0; i < grid; i++) for (let j = 0; j < grid; j++) {
      const a = i * grid + j;
      for (const [di, dj] of [[0, 1], [1, 0], [1, 1], [1, -1], [0, 2], [2, 0]] as const) {
        const i2 = i + di, j2 = j + dj;
        if (i2 < grid && j2 >= 0 && j2 < grid) this.springs.push([a, i2 * grid + j2, rest(a, i2 * grid + j2)]);
      }
    }
  }

  /** Advances the cloth by one step of dt seconds. */
  advance(dt = 1 / 60): void {
    const p = this.pos, q = this.prev;
    const next = p.slice();
    for (let v = 0; v < this.clothVerts; v++) {
      for (let c = 0; c < 3; c++) next[v * 3 + c] = p[v * 3 + c]! + 0.99 * (p[v * 3 + c]! - q[v * 3 + c]!) + (c === 1 ? -9.8 * dt * dt : 0);
    }
    for (let it = 0; it < 8; it++) {
      for (const [a, b, r] of this.springs) {
        const dx = next[b * 3]! - next[a * 3]!, dy = next[b * 3 + 1]! - next[a * 3 + 1]!, dz = next[b * 3 + 2]! - next[a * 3 + 2]!;
        const len = Math.sqrt(dx * dx + dy * dy + dz * dz) || 1;
        const k = (0.5 * (len - r)) / len;
        next[a * 3]! += k * dx;
        next[a * 3 + 1]! += k * dy;
        next[a * 3 + 2]! += k * dz;
        next[b * 3]! -= k * dx;
        next[b * 3 + 1]! -= k * dy;
        next[b * 3 + 2]! -= k * dz;
      }
      const min = this.ballRadius * 1.03;
      for (let v = 0; v < this.clothVerts; v++) {
        const x = next[v * 3]!, y = next[v * 3 + 1]!, z = next[v * 3 + 2]!;
        const len = Math.sqrt(x * x + y * y + z * z);
        if (len < min) {
          const f = min / len;
          next[v * 3] = x * f;
          next[v * 3 + 1] = y * f;
          next[v * 3 + 2] = z * f;
        }
      }
    }
    this.prev = p;
    this.pos = next;
    this.frame++;
  }

  /** The current step as a scene: the last position (t = 0) and the next (t = 1), without advancing. */
  scene(dt = 1 / 60): CcdScene {
    const x0 = this.pos.slice();
    const saved = { pos: this.pos, prev: this.prev, frame: this.frame };
    this.advance(dt);
    const x1 = this.pos.slice();
    Object.assign(this, saved);
    return { x0, x1, tris: this.tris, objects: this.objects, self: true };
  }
}
