/**
 * Passes: the one way brookgl draws anything. A pass is a plain description — in the spirit of
 * a regl command and of BrookGPU's Technique/Pass split — that `runPass` turns into GL calls:
 *
 * ```ts
 * runPass(ctx, {
 *   name: 'BinPeel', kind: 'peel',
 *   vertex: { glsl: BIN_PEEL_VERT, gathers: { items: 'float4' } },   // a scatter: one point per item
 *   fragment: { glsl: BIN_COUNT_FRAG },
 *   primitive: 'points', count: n,
 *   targets: [bins.loads],                                            // colour streams, or array layers
 *   depth: { texture: slices, layer: 3, width, height, label: 'slice 6' },
 *   depthTest: { func: 'less', write: true },
 *   gathers: { items }, uniforms: { passNumber: 7 },
 * });
 * ```
 *
 * - Vertex stage: 'fullscreen' (one triangle over the targets, glsl/core/pass.vert.glsl),
 *   'boundary' (the four one-texel edges as lines), or GLSL with the stream prelude
 *   (glsl/core/prelude.glsl and glsl/core/scatter.glsl): its gathers are the same accessors as a
 *   kernel's (`items(i)`, `items_texel`, `brook_texel`), and `brook_scatter(i, z)` places a
 *   point on record i of the first target.
 * - Fragment stage: GLSL with the same prelude, or a kernel's generated program. Stages may
 *   declare `uniform vec2 brook_view`: the target's size in pixels (the canvas's for 'canvas').
 * - Targets: colour streams or layers of texture arrays (MRT in order), or 'canvas'; an
 *   optional depth target (a z mask, an array layer, a renderbuffer) and stencil.
 * - State: depth test, stencil test, blending, colour writes, scissor, viewport; the runner
 *   sets what the pass asks for and puts back GL's defaults afterwards, so passes never see
 *   each other's state. Clears happen on the pass's own framebuffer before the draw.
 * - `occlusion: true` wraps the draw in an ANY_SAMPLES_PASSED query and returns its answer.
 *
 * Every pass is recorded in `ctx.trace` (kind, name, size, vertices, reads, targets) and,
 * with `debug`, checked with gl.getError. The runner owns nothing it did not create: programs
 * come from the context's cache, framebuffers from the registry's attachment cache.
 */
import HEADER from '../../glsl/core/header.glsl';
import PASS_VERT from '../../glsl/core/pass.vert.glsl';
import PRELUDE from '../../glsl/core/prelude.glsl';
import SCATTER from '../../glsl/core/scatter.glsl';
import type { Device } from './device';
import { BrookError } from './errors';
import { gatherAccessors } from './kernelsource';
import { gatherUniforms, dimsOf } from './kernelargs';
import type { ProgramRecord } from './programs';
import { describeStage, type Attachment } from './resources';
import { Stream } from './stream';
import type { ElementType } from './types';
import { typeInfo } from './types';
import type { ZMask } from './zmask';

/** What a pass is, for the trace: 'kernel', 'mask', 'copy', 'clear', 'scatter', 'peel', 'route', 'draw', ... */
export type PassKind = string;

/** A shader stage written in GLSL (from a glsl/ file), without #version and precision lines. */
export interface ShaderStage {
  glsl: string;
  /** Streams the stage reads by record index, each as a kernel-style accessor. Default: none. */
  gathers?: Record<string, ElementType>;
}

/** A 2D texture, or (with `layer`) a layer of a 2D texture array, as a colour or depth target. */
export interface TextureTarget {
  texture: WebGLTexture;
  layer?: number;
  width: number;
  height: number;
  /** For the trace, e.g. "bin slice 3 (depth)". */
  label: string;
}

/** A renderbuffer target (depth, stencil or both). */
export interface RenderbufferTarget {
  renderbuffer: WebGLRenderbuffer;
  width: number;
  height: number;
  label: string;
}

export type ColorTarget = Stream | TextureTarget;
export type DepthTarget = ZMask | TextureTarget | RenderbufferTarget;

export type CompareFunc = 'never' | 'less' | 'equal' | 'lequal' | 'greater' | 'notequal' | 'gequal' | 'always';
export type StencilOp = 'keep' | 'zero' | 'replace' | 'incr' | 'decr' | 'invert' | 'incr-wrap' | 'decr-wrap';

export interface PassDesc {
  /** Shown in the trace and in errors. */
  name: string;
  kind: PassKind;
  /** Default 'fullscreen'. */
  vertex?: 'fullscreen' | 'boundary' | ShaderStage;
  /** The fragment stage; or `program`, an already linked one (kernels). */
  fragment?: ShaderStage;
  program?: ProgramRecord;
  /** Default: 'triangles' (3 vertices) for 'fullscreen', 'lines' (8) for 'boundary'. */
  primitive?: 'points' | 'lines' | 'triangles';
  /** Vertices to draw; 0 draws nothing (a clear-only pass). */
  count?: number;
  targets: readonly ColorTarget[] | 'canvas';
  depth?: DepthTarget;
  /** A stencil-only renderbuffer, or `depthStencil`: one buffer for both tests (a DEPTH32F_STENCIL8 renderbuffer or texture). */
  stencil?: RenderbufferTarget;
  depthStencil?: RenderbufferTarget | TextureTarget;
  /** Clears on this pass's framebuffer before drawing. */
  clear?: { color?: readonly number[]; depth?: number; stencil?: number };
  depthTest?: { func: CompareFunc; write: boolean };
  /** Depth writes with the test off (GL's default is on: a pass without depthTest writes nothing). */
  stencilTest?: { func: CompareFunc; ref: number; mask?: number; fail?: StencilOp; zfail?: StencilOp; zpass?: StencilOp };
  blend?: 'add';
  /** false: no colour writes (a pass that only writes depth or stencil). Default true. */
  colorWrite?: boolean;
  scissor?: readonly [number, number, number, number];
  /** Default: the whole target. */
  viewport?: readonly [number, number, number, number];
  /** Clip-space z of the 'fullscreen' geometry (default 0: window depth 0.5). */
  clipZ?: number;
  /** Uniform values by name (textures for samplers). */
  uniforms?: Record<string, unknown>;
  /** Streams bound to the stages' gathers. */
  gathers?: Record<string, Stream>;
  /** Records written, for the trace (default: the first target's length or texel count). */
  records?: number;
  /** Streams read through plain uniforms, for the trace. */
  reads?: ReadonlyMap<string, Stream>;
  /** Wrap the draw in an occlusion query; runPass then returns whether any sample passed. */
  occlusion?: boolean;
}

const sources = new WeakMap<ShaderStage, string>();

/** drawBuffers' argument for n colour targets: COLOR_ATTACHMENT0.. (NONE for none). */
const DRAW_BUFFERS: readonly number[][] = Array.from({ length: 17 }, (_, n) => (n === 0 ? [0] : Array.from({ length: n }, (_, i) => 0x8ce0 + i)));

/** The complete GLSL of a stage: header, stream prelude, gather accessors, the stage's code. */
export function stageSource(stage: ShaderStage, vertex: boolean): string {
  let s = sources.get(stage);
  if (s === undefined) {
    const gathers = Object.entries(stage.gathers ?? {}).map(([name, type]) => gatherAccessors(name, typeInfo(type)));
    s = [HEADER, PRELUDE, ...(vertex ? [SCATTER] : []), ...gathers, stage.glsl].join('\n') + '\n';
    sources.set(stage, s);
  }
  return s;
}

/** The program of a pass (from the context's cache). */
export function passProgram(ctx: Device, p: PassDesc): ProgramRecord {
  if (p.program) return p.program;
  if (!p.fragment) throw new BrookError(`pass ${p.name}: give a fragment stage or a program`);
  const v = p.vertex ?? 'fullscreen';
  const vs = typeof v === 'string' ? PASS_VERT : stageSource(v, true);
  const fs = stageSource(p.fragment, false);
  return ctx.programs.get(vs, fs, describeStage(`pass ${p.name}`, vs, fs));
}

/** Draws one pass; see the module comment. Returns the occlusion answer when asked for one. */
export function runPass(ctx: Device, p: PassDesc): Promise<boolean> | null {
  const gl = ctx.gl;
  const count = p.count ?? (p.vertex === 'boundary' ? 8 : 3);
  const program = count > 0 ? passProgram(ctx, p) : null;
  const canvas = p.targets === 'canvas';
  const colors = canvas ? [] : (p.targets as readonly ColorTarget[]);
  const size = canvas ? [gl.drawingBufferWidth, gl.drawingBufferHeight] : targetSize(p, colors);
  const [width, height] = size as [number, number];
  let fbo: WebGLFramebuffer | null = null;
  if (!canvas) {
    fbo = ctx.resources.framebufferFor({
      color: colors.map(colorAttachment),
      depth: p.depth ? depthAttachment(p.depth) : undefined,
      stencil: p.stencil ? { renderbuffer: p.stencil.renderbuffer } : undefined,
      depthStencil: p.depthStencil ? depthAttachment(p.depthStencil) : undefined,
    });
  }
  const record = ctx.trace.active
    ? ctx.trace.begin({
        kind: p.kind,
        kernel: p.name,
        records: p.records ?? (colors[0] instanceof Stream ? colors[0].length : width * height),
        width,
        height,
        primitive: count > 0 ? (p.primitive ?? (p.vertex === 'boundary' ? 'lines' : 'triangles')) : 'none',
        vertices: count,
        inputs: [...Object.entries(p.gathers ?? {}), ...(p.reads ?? new Map<string, Stream>())].map(([n, s]) => `${n}: ${s.describe()}`),
        outputs: canvas ? ['canvas'] : [...colors.map(describeTarget), ...[p.depth, p.stencil, p.depthStencil].filter((t) => t).map((t) => describeTarget(t!))],
      })
    : null;

  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  if (!canvas) gl.drawBuffers(DRAW_BUFFERS[colors.length]!);
  const vp = p.viewport ?? [0, 0, width, height];
  gl.viewport(vp[0], vp[1], vp[2], vp[3]);
  if (p.clear) clearTargets(gl, p, colors, canvas);
  let answer: Promise<boolean> | null = null;
  if (program) {
    setState(gl, p);
    const runner: Record<string, unknown> = {}; // the runner's own uniforms, set after the pass's
    if (typeof (p.vertex ?? 'fullscreen') === 'string') {
      runner.brook_lines = p.vertex === 'boundary';
      runner.brook_size = [width, height];
      runner.brook_clip_z = p.clipZ ?? 0;
    }
    if (!p.program) runner.brook_view = [width, height];
    if (!p.program && colors[0] instanceof Stream && p.uniforms?.brook_dims === undefined) {
      runner.brook_dims = dimsOf(colors[0]);
    }
    if (p.gathers) {
      for (const [name, s] of Object.entries(p.gathers)) {
        runner[`brook_g_${name}`] = s.texture;
        Object.assign(runner, gatherUniforms(name, s));
      }
    }
    gl.useProgram(program.info.program);
    if (p.uniforms) setUniforms(program, p.uniforms);
    setUniforms(program, runner);
    gl.bindVertexArray(ctx.passVertexArray);
    const mode = { points: gl.POINTS, lines: gl.LINES, triangles: gl.TRIANGLES }[p.primitive ?? (p.vertex === 'boundary' ? 'lines' : 'triangles')];
    if (p.occlusion) answer = ctx.queries.occlusion(() => gl.drawArrays(mode, 0, count));
    else gl.drawArrays(mode, 0, count);
    gl.bindVertexArray(null);
    resetState(gl, p);
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  if (record) ctx.trace.end(record);
  if (ctx.debug) {
    const err = gl.getError();
    if (err !== gl.NO_ERROR) throw new BrookError(`pass ${p.name} (${p.kind}): GL error 0x${err.toString(16)}`);
  }
  return answer;
}

/** Copies `from`'s texels into `to` (same texture size and format), traced as a 'copy' pass. */
export function copyTexels(ctx: Device, from: WebGLTexture, to: WebGLTexture, width: number, height: number, label: string): void {
  const gl = ctx.gl;
  const read = ctx.resources.framebufferFor({ color: [{ texture: from }] });
  const draw = ctx.resources.framebufferFor({ color: [{ texture: to }] });
  const record = ctx.trace.active
    ? ctx.trace.begin({ kind: 'copy', kernel: label, records: width * height, width, height, primitive: 'none', vertices: 0, inputs: [], outputs: [label] })
    : null;
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, read);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, draw);
  gl.blitFramebuffer(0, 0, width, height, 0, 0, width, height, gl.COLOR_BUFFER_BIT, gl.NEAREST);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
  if (record) ctx.trace.end(record);
}

/**
 * Sets a program's uniforms through twgl's setters, skipping numbers and vectors the program
 * already holds: uniforms are per-program state, and a step runs the same programs with mostly
 * the same values (40 Jacobi sweeps). Samplers are always bound (texture units are shared).
 */
function setUniforms(program: ProgramRecord, values: Record<string, unknown>): void {
  const setters = program.info.uniformSetters as Record<string, ((v: unknown) => void) | undefined>;
  const held = (program.values ??= new Map());
  for (const name in values) {
    const set = setters[name];
    if (!set) continue; // not in the program (or optimised away), as twgl.setUniforms
    const v = values[name];
    if (typeof v === 'number' || typeof v === 'boolean') {
      if (held.has(name) && Object.is(held.get(name), v)) continue;
      held.set(name, v);
    } else if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
      const old = held.get(name) as ArrayLike<unknown> | undefined;
      if (old && sameValues(old, v as ArrayLike<unknown>)) continue;
      held.set(name, Array.from(v as ArrayLike<unknown>));
    }
    set(v);
  }
}

function sameValues(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function targetSize(p: PassDesc, colors: readonly ColorTarget[]): [number, number] {
  const first = colors[0] ?? p.depth ?? p.depthStencil ?? p.stencil;
  if (!first) throw new BrookError(`pass ${p.name}: no targets`);
  if (first instanceof Stream) return [first.layout.width, first.layout.height];
  return [first.width, first.height];
}

function colorAttachment(t: ColorTarget): Attachment {
  return t instanceof Stream ? { texture: t.texture } : { texture: t.texture, layer: t.layer };
}

function depthAttachment(t: DepthTarget): Attachment {
  if ('renderbuffer' in t) return { renderbuffer: t.renderbuffer };
  return { texture: t.texture, layer: t.layer };
}

function describeTarget(t: ColorTarget | DepthTarget): string {
  if (t instanceof Stream) return t.describe();
  if ('label' in t) return `${t.label} (${t.width}x${t.height})`;
  return `z mask (${t.width}x${t.height})`;
}

function clearTargets(gl: WebGL2RenderingContext, p: PassDesc, colors: readonly ColorTarget[], canvas: boolean): void {
  const c = p.clear!;
  if (c.color) {
    if (canvas) {
      gl.clearColor(c.color[0]!, c.color[1]!, c.color[2]!, c.color[3]!);
      gl.clear(gl.COLOR_BUFFER_BIT);
    }
    colors.forEach((t, i) => {
      const kind = t instanceof Stream ? t.info.kind : 'float';
      if (kind === 'float') gl.clearBufferfv(gl.COLOR, i, c.color!);
      else if (kind === 'int') gl.clearBufferiv(gl.COLOR, i, c.color!);
      else gl.clearBufferuiv(gl.COLOR, i, c.color!);
    });
  }
  if (c.depth !== undefined && c.stencil !== undefined) gl.clearBufferfi(gl.DEPTH_STENCIL, 0, c.depth, c.stencil);
  else if (c.depth !== undefined) gl.clearBufferfv(gl.DEPTH, 0, [c.depth]);
  else if (c.stencil !== undefined) gl.clearBufferiv(gl.STENCIL, 0, [c.stencil]);
}

const COMPARE: Record<CompareFunc, number> = {
  never: 0x0200, less: 0x0201, equal: 0x0202, lequal: 0x0203, greater: 0x0204, notequal: 0x0205, gequal: 0x0206, always: 0x0207,
};
const STENCIL_OP: Record<StencilOp, number> = {
  keep: 0x1e00, zero: 0, replace: 0x1e01, incr: 0x1e02, decr: 0x1e03, invert: 0x150a, 'incr-wrap': 0x8507, 'decr-wrap': 0x8508,
};

function setState(gl: WebGL2RenderingContext, p: PassDesc): void {
  if (p.depthTest) {
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(COMPARE[p.depthTest.func]);
    gl.depthMask(p.depthTest.write);
  }
  if (p.stencilTest) {
    const s = p.stencilTest;
    gl.enable(gl.STENCIL_TEST);
    gl.stencilFunc(COMPARE[s.func], s.ref, s.mask ?? 0xff);
    gl.stencilOp(STENCIL_OP[s.fail ?? 'keep'], STENCIL_OP[s.zfail ?? 'keep'], STENCIL_OP[s.zpass ?? 'keep']);
  }
  if (p.blend === 'add') {
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
  }
  if (p.colorWrite === false) gl.colorMask(false, false, false, false);
  if (p.scissor) {
    gl.enable(gl.SCISSOR_TEST);
    gl.scissor(p.scissor[0], p.scissor[1], p.scissor[2], p.scissor[3]);
  }
}

/** Back to GL's defaults (what every pass starts from). */
function resetState(gl: WebGL2RenderingContext, p: PassDesc): void {
  if (p.depthTest) {
    gl.disable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    gl.depthMask(true);
  }
  if (p.stencilTest) {
    gl.disable(gl.STENCIL_TEST);
    gl.stencilFunc(gl.ALWAYS, 0, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
  }
  if (p.blend) gl.disable(gl.BLEND);
  if (p.colorWrite === false) gl.colorMask(true, true, true, true);
  if (p.scissor) gl.disable(gl.SCISSOR_TEST);
}
