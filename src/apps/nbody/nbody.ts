/**
 * All-pairs gravitational N-body (Nyland, Harris & Prins, GPU Gems 3 ch. 31) on fragment shaders.
 *
 * ```ts
 * const sys = createNBody(ctx, { ...nbodyPreset('plummer', 4096), softening: 0.05 });
 * sys.step(0.01, 10);                       // leapfrog (kick-drift-kick), ping-ponged streams
 * const { positions, velocities } = await sys.read();
 * ```
 *
 * Bodies are float4 records: position in xyz, mass in w (velocities: xyz). The acceleration of
 * body i is sum_j m_j r_ij / (|r_ij|^2 + eps^2)^(3/2) with G = 1, computed by the chapter's
 * bodyBodyInteraction (glsl/apps/nbody/interaction.glsl, 20 flops per interaction as counted
 * there). The position stream is padded to whole texture rows with massless bodies, so kernels
 * loop over texels with no bounds tests and no integer division.
 *
 * How the chapter's CUDA ideas map onto one fragment shader (each a compile-time parameter):
 * - one fragment per body, looping over all bodies read from the position texture: the
 *   texture cache stands in for shared memory (every fragment of a warp reads the same body j
 *   at once, a broadcast);
 * - `p`: bodies per tile. CUDA loads p bodies into shared memory and syncs; here a tile is the
 *   inner loop's constant trip count over p texels of a row (there is nothing to load or sync);
 * - `u`: interactions written out per inner iteration (loop unrolling, Figure 31-5); the u
 *   bodies are fetched before they are used;
 * - `q`: fragments per body, each summing 1/q of the rows, then one pass adds the q partial
 *   sums (the chapter's "multiple threads per body", Figure 31-8, for small N);
 * - `b`: bodies per fragment (not in the chapter, which gives each thread one body): each
 *   fetched body j is used b times, written to b render targets, so the fetch cost per
 *   interaction falls by b.
 * - 'points': the same loop in a vertex shader: one POINTS draw, a vertex per body summing
 *   every body's pull and handing the sum to a one-texel fragment at its record. Fragment
 *   passes shade on few of a big GPU's processors through WebGL2 (4 of the H100's 132 SMs by
 *   its arithmetic throughput); vertices are spread by another unit. Measured beside the
 *   fragment variants in the nbody and peers suites.
 * - 'nxn': the 2004 Brook/Cg way the chapter describes: an N x N force texture, then
 *   row-by-row sum passes (16 columns folded per pass).
 */
import INTERACTION from '../../../glsl/apps/nbody/interaction.glsl';
import type { BrookContext } from '../../core/context';
import { BrookError, check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import { Stream } from '../../core/stream';
import { runPass, type ShaderStage } from '../../core/pass';
import { checkContext, checkRequired, describeValue } from '../../core/validate';

/** Finite numbers in an array or a typed array, `per` of them per body. */
function checkBodies(v: unknown, where: string, per: readonly number[]): ArrayLike<number> {
  const ok = Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array));
  check(ok, () => `${where} must be a Float32Array or an array of numbers (${per.join(' or ')} per body), got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    check(typeof x === 'number' && Number.isFinite(x), () => `${where}[${i}] must be a finite number, got ${i in (a as object) ? describeValue(x) : 'a hole'}`);
  }
  return a as ArrayLike<number>;
}

/** Flops per interaction, as the chapter counts them. */
export const NBODY_FLOPS = 20;

/** A fragment-shader variant: tile p, unroll u, fragments per body q, bodies per fragment b. */
export interface NBodyVariant {
  p?: number;
  u?: number;
  q?: number;
  b?: number;
}

/** A variant, or the N x N force texture baseline. */
export type NBodyMethod = NBodyVariant | 'nxn' | 'points';

/**
 * The default variant for large N: the fastest measured on the H100 and on SwiftShader
 * (bench-results/nbody*.json): four bodies per fragment. p and u made no measurable difference
 * on the H100 (its compiler unrolls the constant inner loop either way).
 */
export const DEFAULT_VARIANT: Required<NBodyVariant> = { p: 16, u: 4, q: 1, b: 4 };

/**
 * The variant `createNBody` uses for n bodies: DEFAULT_VARIANT from 4096 bodies up; below, one
 * body per fragment (b = 4 leaves too few fragments to fill the GPU: on the H100 at N = 1024 it
 * ran at 13 G interactions/s against 31 G for b = 1).
 */
export function defaultVariant(n: number): Required<NBodyVariant> {
  return n >= 4096 ? DEFAULT_VARIANT : { ...DEFAULT_VARIANT, b: 1 };
}

export interface NBodyOptions {
  /** xyzm per body (position and mass). */
  positions: ArrayLike<number>;
  /** xyz or xyzw per body; default zero. */
  velocities?: ArrayLike<number>;
  /** Softening length eps (eps^2 is added to every squared distance); must be > 0. */
  softening: number;
  /** Kernel variant, 'points' (the loop in a vertex shader) or 'nxn'; default defaultVariant(n). */
  method?: NBodyMethod;
}

const pow2 = (x: number) => x > 0 && (x & (x - 1)) === 0;

/** The variant with defaults filled in and checked. */
export function resolveVariant(v: NBodyVariant, maxDrawBuffers = 8): Required<NBodyVariant> {
  for (const k of Object.keys(v ?? {})) check(['p', 'u', 'q', 'b'].includes(k), () => `nbody variant: unknown field '${k}': a variant is { p, u, q, b }`);
  const r = { ...DEFAULT_VARIANT, ...v };
  for (const k of ['p', 'u', 'q', 'b'] as const) {
    check(Number.isInteger(r[k]) && r[k] >= 1, () => `nbody variant: ${k} must be a positive integer, got ${r[k]}`);
  }
  check(pow2(r.p) && pow2(r.u) && r.u <= r.p, () => `nbody variant: p and u must be powers of two with u <= p, got p=${r.p}, u=${r.u}`);
  check(r.b <= maxDrawBuffers, () => `nbody variant: b=${r.b} bodies per fragment needs ${r.b} draw buffers; this device has ${maxDrawBuffers}`);
  check(r.q <= 64, () => `nbody variant: q must be at most 64, got ${r.q}`);
  return r;
}

/**
 * The acceleration kernel for a position texture `width` texels wide (a power of two).
 * Output k (acc0..acc{b-1}) of fragment r holds, for segment s = r / M and f = r - s*M, the
 * partial sum over rows [s*rows, (s+1)*rows) for body f + k*M.
 */
export function accelerationKernel(variant: Required<NBodyVariant>, width: number): KernelSpec {
  const { q, b } = variant;
  const P = Math.min(variant.p, width);
  const U = Math.min(variant.u, P);
  const ks = Array.from({ length: b }, (_, k) => k);
  const us = Array.from({ length: U }, (_, t) => t);
  const lines = [
    `const int W = ${width};`,
    `const int LOGW = ${Math.log2(width)};`,
    q > 1 ? 'int s = brook_index / M;' : 'int s = 0;',
    'int f = brook_index - s * M;',
    ...ks.flatMap((k) => [
      `int i${k} = min(f + ${k} * M, npad - 1);`,
      `vec4 bi${k} = pos_texel(ivec2(i${k} & (W - 1), i${k} >> LOGW));`,
      `vec3 a${k} = vec3(0.0);`,
    ]),
    'int y1 = min(rows * (s + 1), height);',
    'for (int y = rows * s; y < y1; y++) {',
    `  for (int x = 0; x < W; x += ${P}) {`,
    `    for (int t = 0; t < ${P}; t += ${U}) {`,
    ...us.map((t) => `      vec4 bj${t} = pos_texel(ivec2(x + t + ${t}, y));`),
    ...us.flatMap((t) => ks.map((k) => `      a${k} = bodyBodyInteraction(bi${k}, bj${t}, a${k});`)),
    '    }',
    '  }',
    '}',
    ...ks.map((k) => `acc${k} = vec4(a${k}, 0.0);`),
  ];
  return {
    name: `NBodyAccel<p=${P},u=${U},q=${q},b=${b}>`,
    gathers: { pos: 'float4' },
    uniforms: { M: 'int', npad: 'int', rows: 'int', height: 'int', eps2: 'float' },
    outputs: Object.fromEntries(ks.map((k) => [`acc${k}`, 'float4' as const])),
    helpers: INTERACTION,
    body: lines.join('\n'),
  };
}

/** Adds the q partial sums of the b outputs into one acceleration per body. */
function combineKernel(q: number, b: number): KernelSpec {
  const ks = Array.from({ length: b }, (_, k) => k);
  const pick = ks.map((k) => `${k ? 'else ' : ''}if (k == ${k}) sum += part${k}(r);`).join('\n    ');
  return {
    name: `NBodyCombine<q=${q},b=${b}>`,
    gathers: Object.fromEntries(ks.map((k) => [`part${k}`, 'float4' as const])),
    uniforms: { M: 'int' },
    outputs: { acc: 'float4' },
    body: [
      `int k = ${b > 1 ? 'brook_index / M' : '0'};`,
      'int f = brook_index - k * M;',
      'vec4 sum = vec4(0.0);',
      `for (int s = 0; s < ${q}; s++) {`,
      '  int r = s * M + f;',
      `  ${pick}`,
      '}',
      'acc = sum;',
    ].join('\n'),
  };
}

const pointsStages = new Map<number, ShaderStage>();

/**
 * The 'points' method's vertex stage for a position texture `width` texels wide: vertex i sums
 * the pull of every body on body i (four bodies fetched per step) and scatters the sum to
 * record i.
 */
function pointsStage(width: number): ShaderStage {
  let stage = pointsStages.get(width);
  if (!stage) {
    const U = Math.min(4, width);
    const us = Array.from({ length: U }, (_, t) => t);
    stage = {
      gathers: { pos: 'float4' },
      glsl: [
        'uniform int height;',
        'uniform float eps2;',
        'flat out vec4 brook_acc;',
        INTERACTION,
        'void main() {',
        '  int i = gl_VertexID;',
        `  vec4 bi = pos_texel(ivec2(i & ${width - 1}, i >> ${Math.log2(width)}));`,
        '  vec3 a = vec3(0.0);',
        '  for (int y = 0; y < height; y++) {',
        `    for (int x = 0; x < ${width}; x += ${U}) {`,
        ...us.map((t) => `      vec4 bj${t} = pos_texel(ivec2(x + ${t}, y));`),
        ...us.map((t) => `      a = bodyBodyInteraction(bi, bj${t}, a);`),
        '    }',
        '  }',
        '  brook_acc = vec4(a, 0.0);',
        '  gl_Position = brook_scatter(i, 0.0);',
        '  gl_PointSize = 1.0;',
        '}',
      ].join('\n'),
    };
    pointsStages.set(width, stage);
  }
  return stage;
}

const POINTS_FRAGMENT: ShaderStage = { glsl: 'flat in vec4 brook_acc;\nout vec4 acc;\nvoid main() { acc = brook_acc; }' };

/** Baseline pass 1: the N x N force texture, record (row i, column j) = the pull of j on i. */
const forceTexture: KernelSpec = {
  name: 'NBodyForces',
  gathers: { pos: 'float4' },
  uniforms: { eps2: 'float' },
  outputs: { force: 'float4' },
  helpers: INTERACTION,
  body: 'force = vec4(bodyBodyInteraction(pos(brook_pos.y), pos(brook_pos.x), vec3(0.0)), 0.0);',
};

/** Baseline reduction: 16 columns of each row folded per pass. */
export const ROW_FOLD = 16;
const rowSum: KernelSpec = {
  name: 'NBodyRowSum',
  gathers: { src: 'float4' },
  outputs: { sum: 'float4' },
  body: `for (int t = 0; t < ${ROW_FOLD}; t++) sum += src(brook_pos.y, brook_pos.x * ${ROW_FOLD} + t);`,
};
const firstColumn: KernelSpec = {
  name: 'NBodyColumn',
  gathers: { src: 'float4' },
  outputs: { acc: 'float4' },
  body: 'acc = src(brook_index, 0);',
};

/** Leapfrog kick (v += a kick) and drift (x += v drift); mass (x.w) carried along. */
const kickDrift: KernelSpec = {
  name: 'NBodyKickDrift',
  inputs: { x: 'float4', v: 'float4', a: 'float4' },
  uniforms: { kick: 'float', drift: 'float' },
  outputs: { xn: 'float4', vn: 'float4' },
  body: ['vec3 nv = v.xyz + a.xyz * kick;', 'vn = vec4(nv, 0.0);', 'xn = vec4(x.xyz + nv * drift, x.w);'].join('\n'),
};

/** Passes one acceleration evaluation takes with `method` for a texture `height` rows high. */
export function accelerationPasses(method: NBodyMethod, n: number): number {
  if (method === 'points') return 1;
  if (method === 'nxn') {
    let passes = 2;
    for (let cols = n; cols > 1; cols = Math.ceil(cols / ROW_FOLD)) passes++;
    return passes;
  }
  const v = resolveVariant(method);
  return v.q > 1 || v.b > 1 ? 2 : 1;
}

export class NBodySystem {
  /** Number of bodies (the streams hold `padded` records: the tail is massless padding). */
  readonly count: number;
  readonly padded: number;
  /** xyzm per body; feed it to a renderer with no readback (see createPointRenderer). */
  readonly positions: Stream;
  readonly velocities: Stream;
  readonly eps2: number;
  private readonly acc: Stream;
  private accValid = false;
  private methodValue: NBodyMethod;

  constructor(
    private readonly ctx: BrookContext,
    options: NBodyOptions,
  ) {
    checkContext(ctx, 'createNBody');
    options = checkRequired(options, 'createNBody: options', '{ positions, softening } (nbodyPreset gives positions and velocities)');
    const positions = checkBodies(options.positions, 'createNBody: options.positions', [4]);
    const n = positions.length / 4;
    check(Number.isInteger(n) && n >= 1, () => `createNBody: options.positions must hold 4 numbers (x, y, z, mass) per body, got ${positions.length}`);
    check(
      typeof options.softening === 'number' && Number.isFinite(options.softening) && options.softening > 0,
      () => `createNBody: options.softening must be a positive number, got ${describeValue(options.softening)}`,
    );
    const velocities = options.velocities === undefined ? undefined : checkBodies(options.velocities, 'createNBody: options.velocities', [3, 4]);
    const vstride = velocities ? velocities.length / n : 4;
    check(vstride === 3 || vstride === 4, () => `createNBody: options.velocities must hold 3 or 4 numbers per body (${n} bodies), got ${velocities!.length}`);
    this.count = n;
    this.eps2 = options.softening ** 2;
    const { width, height } = ctx.layout(n);
    this.padded = width * height;
    // the method is checked before anything is allocated
    this.methodValue = defaultVariant(n);
    if (options.method !== undefined) this.method = options.method;
    const pos = new Float32Array(this.padded * 4);
    pos.set(Array.from(positions));
    const vel = new Float32Array(this.padded * 4);
    if (velocities) for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) vel[i * 4 + k] = velocities[i * vstride + k]!;
    const made: Stream[] = [];
    try {
      made.push((this.positions = ctx.stream('float4', this.padded, pos)));
      made.push((this.velocities = ctx.stream('float4', this.padded, vel)));
      made.push((this.acc = ctx.stream('float4', this.padded)));
    } catch (e) {
      made.forEach((s) => s.dispose()); // out of memory or a lost context: release what was made
      throw e;
    }
  }

  get method(): NBodyMethod {
    return this.methodValue;
  }

  set method(m: NBodyMethod) {
    check(
      m === 'nxn' || m === 'points' || (m !== null && typeof m === 'object' && !Array.isArray(m)),
      () => `nbody: method must be 'nxn', 'points' or a variant { p, u, q, b }, got ${describeValue(m)}`,
    );
    if (m === 'nxn') {
      const side = this.padded;
      check(side <= this.ctx.caps.maxTextureSize, () => `nbody 'nxn': ${side} bodies need a ${side} x ${side} force texture, more than MAX_TEXTURE_SIZE ${this.ctx.caps.maxTextureSize}; use a fragment variant`);
      check(side * side * 16 <= 2 ** 30, () => `nbody 'nxn': a ${side} x ${side} float4 force texture needs ${((side * side * 16) / 2 ** 30).toFixed(1)} GiB (limit 1 GiB); use a fragment variant`);
    } else if (m !== 'points') {
      resolveVariant(m, this.ctx.caps.maxDrawBuffers);
    }
    this.methodValue = m;
  }

  /** Interactions per acceleration evaluation (count^2; the padding is not counted). */
  get interactions(): number {
    return this.count * this.count;
  }

  /** Computes the accelerations of the current positions into the (internal) acceleration stream. */
  accelerations(): Stream {
    const ctx = this.ctx;
    const method = this.methodValue;
    if (method === 'nxn') {
      const side = this.padded;
      let src = ctx.scratch('float4', [side, side]);
      ctx.runInternal(forceTexture, { pos: this.positions, force: src, eps2: this.eps2 });
      while (src.layout.width > 1) {
        const next = ctx.scratch('float4', [side, Math.ceil(src.layout.width / ROW_FOLD)]);
        ctx.runInternal(rowSum, { src, sum: next });
        src.dispose();
        src = next;
      }
      ctx.runInternal(firstColumn, { src, acc: this.acc });
      src.dispose();
    } else if (method === 'points') {
      const { width, height } = this.positions.layout;
      runPass(ctx, {
        name: 'NBodyPoints',
        kind: 'scatter',
        vertex: pointsStage(width),
        fragment: POINTS_FRAGMENT,
        primitive: 'points',
        count: this.padded,
        targets: [this.acc],
        gathers: { pos: this.positions },
        uniforms: { height, eps2: this.eps2 },
      });
    } else {
      const v = resolveVariant(method, ctx.caps.maxDrawBuffers);
      const { width, height } = this.positions.layout;
      const M = Math.ceil(this.padded / v.b);
      const rows = Math.ceil(height / v.q);
      const spec = accelerationKernel(v, width);
      const uniforms = { pos: this.positions, M, npad: this.padded, rows, height, eps2: this.eps2 };
      if (v.q === 1 && v.b === 1) {
        ctx.runInternal(spec, { ...uniforms, acc0: this.acc });
      } else {
        const parts = Array.from({ length: v.b }, () => ctx.scratch('float4', M * v.q));
        try {
          ctx.runInternal(spec, { ...uniforms, ...Object.fromEntries(parts.map((s, k) => [`acc${k}`, s])) });
          ctx.runInternal(combineKernel(v.q, v.b), { M, acc: this.acc, ...Object.fromEntries(parts.map((s, k) => [`part${k}`, s])) });
        } finally {
          parts.forEach((s) => s.dispose());
        }
      }
    }
    this.accValid = true;
    return this.acc;
  }

  /**
   * Advances `steps` leapfrog steps of `dt` (kick-drift-kick, velocities synchronized with the
   * positions before and after): per step one kick-drift pass and one acceleration evaluation,
   * plus one closing half kick.
   */
  step(dt: number, steps = 1): void {
    check(Number.isFinite(dt), () => `nbody step: dt must be a finite number, got ${dt}`);
    check(Number.isInteger(steps) && steps >= 0, () => `nbody step: steps must be a non-negative integer, got ${steps}`);
    if (steps === 0) return;
    if (!this.accValid) this.accelerations();
    const io = { x: this.positions, v: this.velocities, a: this.acc, xn: this.positions, vn: this.velocities };
    for (let s = 0; s < steps; s++) {
      this.ctx.runInternal(kickDrift, { ...io, kick: s === 0 ? dt / 2 : dt, drift: dt });
      this.accelerations();
    }
    this.ctx.runInternal(kickDrift, { ...io, kick: dt / 2, drift: 0 });
  }

  /** Positions (xyzm) and velocities (xyz0) of the `count` bodies. */
  async read(): Promise<{ positions: Float32Array; velocities: Float32Array }> {
    const [p, v] = await Promise.all([this.positions.read(), this.velocities.read()]);
    return { positions: (p as Float32Array).slice(0, this.count * 4), velocities: (v as Float32Array).slice(0, this.count * 4) };
  }

  /** Accelerations (xyz0) of the current positions, computed now with the current method. */
  async readAccelerations(): Promise<Float32Array> {
    const a = (await this.accelerations().read()) as Float32Array;
    return a.slice(0, this.count * 4);
  }

  /** Replaces positions (xyzm) and velocities (xyz or xyzw) of all `count` bodies. */
  write(positions: ArrayLike<number>, velocities?: ArrayLike<number>): void {
    checkBodies(positions, 'nbody write: positions', [4]);
    if (velocities !== undefined) checkBodies(velocities, 'nbody write: velocities', [3, 4]);
    if (positions.length !== this.count * 4) throw new BrookError(`nbody write: expected ${this.count * 4} position numbers, got ${positions.length}`);
    const pos = new Float32Array(this.padded * 4);
    pos.set(Array.from(positions));
    this.positions.write(pos);
    if (velocities) {
      const stride = velocities.length / this.count;
      check(stride === 3 || stride === 4, () => `nbody write: velocities must hold 3 or 4 numbers per body, got ${velocities.length}`);
      const vel = new Float32Array(this.padded * 4);
      for (let i = 0; i < this.count; i++) for (let k = 0; k < 3; k++) vel[i * 4 + k] = velocities[i * stride + k]!;
      this.velocities.write(vel);
    }
    this.accValid = false;
  }

  dispose(): void {
    this.positions.dispose();
    this.velocities.dispose();
    this.acc.dispose();
  }
}

/** A system of bodies on the GPU; see the module comment. */
export function createNBody(ctx: BrookContext, options: NBodyOptions): NBodySystem {
  return new NBodySystem(ctx, options);
}
