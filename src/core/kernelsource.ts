/**
 * GLSL generation for kernels: the fragment shader of a KernelSpec (the prelude's address
 * translation, the gather accessors, inputs, iterators, outputs around the body) and compile
 * errors told in the kernel's own lines. Pure string work, no GL.
 */
import HEADER from '../../glsl/core/header.glsl';
import PRELUDE from '../../glsl/core/prelude.glsl';
import { numberLines } from './errors';
import { brookMessages } from './glslmessages';
import { TypeInfo, typeInfo } from './types';
import { GatherEdge, IterType, KernelSpec, UniformType, glslName } from './kernelspec';

const UNIFORM_GLSL: Record<string, string> = { mat2: 'mat2', mat3: 'mat3', mat4: 'mat4', bool: 'bool' };

function glslOfUniform(type: UniformType): string {
  return UNIFORM_GLSL[type] ?? typeInfo(type).glsl;
}

function zeroOf(glsl: string): string {
  if (glsl === 'bool') return 'false';
  if (glsl === 'int') return '0';
  if (glsl === 'uint') return '0u';
  return `${glsl}(0)`;
}

/**
 * What a kernel's shader is specialised for, from the arguments of a run (kernelargs.ts
 * bindArguments): the output's rank and whether it is written through a domain, each
 * elementwise input's mapping (kernelargs.ts inputMapping, in the order of `spec.inputs`) and
 * which gathers are domains. These are compile-time choices rather than uniforms because a
 * software rasteriser (SwiftShader) evaluates both sides of a uniform branch or select on
 * every fragment: with them as uniforms a one-line kernel ran five times slower. Programs are
 * cached by source, so each variant a kernel meets compiles once.
 */
export interface KernelVariant {
  rank: number;
  view: boolean;
  inputs: readonly { mode: number; pow2: boolean }[];
  gathers: readonly { view: boolean; pow2: boolean }[];
}

/** The variant of a kernel's default source: a 1D output, inputs of the same layout, whole 1D streams. */
export const PLAIN_VARIANT: KernelVariant = { rank: 1, view: false, inputs: [], gathers: [] };

/** A short key naming a variant (the kernel's cache of generated parts). */
export function variantKey(v: KernelVariant): string {
  const w = (x: { pow2: boolean }) => (x.pow2 ? 'p' : 'w');
  return `${v.view ? 'v' : ''}${v.rank}|${v.inputs.map((i) => i.mode + w(i)).join('')}|${v.gathers.map((g) => (g.view ? 'v' : '') + w(g)).join('')}`;
}

/**
 * The texel of record `i` in a stream of layout `dims`: shifts where the texture's width is a
 * power of two (every 1D stream), integer division otherwise; `pow2` known when the kernel is
 * generated, or chosen per fragment (brook_texel: pass stages, whose streams are bound later).
 */
function texelOf(i: string, dims: string, pow2: boolean | undefined): string {
  if (pow2 === undefined) return `brook_texel(${i}, ${dims})`;
  return pow2 ? `ivec2((${i}) & (${dims}.y - 1), (${i}) >> ${dims}.z)` : `brook_texel_div(${i}, ${dims})`;
}

/**
 * The gather accessor functions for gather `name` of `info`'s records (kernels and pass stages;
 * kernelargs.ts gatherUniforms binds them). `g(i)` reads record i in row-major order, `g(p)`
 * with an ivec2/vec2 texel (x, y) (a domain: its column x, row y), `g(row, col)` likewise,
 * `g(p)` with an ivec3/vec3 or ivec4/vec4 the record at (x, y, z[, w]), x the fastest dimension,
 * and `g(i, j, k[, l])` Brook's `g[i][j][k]`, i the slowest. A vector's components past the
 * stream's rank are dropped (a float2 on a 1D stream reads record x). Reads outside the stream
 * (or the domain) give zero; with `edge` 'clamp' (KernelSpec.gatherEdge), the nearest record
 * (clampedGatherAccessors). A domain (`view`: a shader variant) adds its origin in its stream
 * (`_origin`, `_full`) and counts records in its own extents.
 */
export function gatherAccessors(
  param: string,
  info: TypeInfo,
  { view, pow2 }: { view: boolean; pow2?: boolean } = { view: false },
  edge: GatherEdge = 'zero',
): string {
  if (edge === 'clamp') return clampedGatherAccessors(param, info, { view, pow2 });
  const t = info.glsl;
  const { name, s, d, e, o, f, r, uniforms, fetch } = gatherNames(param, info);
  const zero = zeroOf(t);
  // ${s}_at4 / ${s}_at2: a position (x first) / a texel (x, y) or a domain's (column, row), as
  // g[i][j]... subscripts give them; g(vector) first drops the components past the stream's rank
  // (BrookGPU: a 1D stream is one texture row and a 2D one a texture, so a[float2(3, 4)] on a 1D
  // stream is a[3], d[float4(x, y, z, w)] on a 2D one d[y][x]; prog/tests gather_directGLES)
  return [
    ...uniforms,
    `${t} ${s}_at4(ivec4 brook_c) { return brook_inside4(brook_c, ${e}) ? ${fetch(texelOf(`brook_flatten(brook_c + ${o}, ${f})`, d, pow2))} : ${zero}; }`,
    `${t} ${name}(ivec4 brook_c) { return ${s}_at4(brook_in_rank(brook_c, ${r})); }`,
    view
      ? `${t} ${name}(int brook_a) { return brook_a >= 0 ? ${s}_at4(brook_unflatten(brook_a, ${e})) : ${zero}; }`
      : `${t} ${name}(int brook_a) { return brook_inside(brook_a, ${d}) ? ${fetch(texelOf('brook_a', d, pow2))} : ${zero}; }`,
    `${t} ${name}(uint brook_a) { return ${name}(int(min(brook_a, 0x7fffffffu))); }`,
    `${t} ${name}(float brook_a) { return ${name}(int(floor(brook_a))); }`,
    view
      ? `${t} ${s}_at2(ivec2 brook_a) { return ${s}_at4(ivec4(brook_a, 0, 0)); }`
      : `${t} ${s}_at2(ivec2 brook_a) { return brook_inside2(brook_a, ${d}) && brook_inside(brook_a.y * ${d}.y + brook_a.x, ${d}) ? ${fetch('brook_a')} : ${zero}; }`,
    `${t} ${name}(ivec2 brook_a) { return ${r} == 1 ? ${name}(brook_a.x) : ${s}_at2(brook_a); }`,
    `${t} ${name}(vec2 brook_a) { return ${name}(ivec2(floor(brook_a))); }`,
    `${t} ${name}(int brook_r, int brook_c) { return ${s}_at2(ivec2(brook_c, brook_r)); }`,
    `${t} ${name}(float brook_r, float brook_c) { return ${s}_at2(ivec2(floor(brook_c), floor(brook_r))); }`,
    `${t} ${name}(ivec3 brook_a) { return ${name}(ivec4(brook_a, 0)); }`,
    `${t} ${name}(vec3 brook_a) { return ${name}(ivec4(floor(brook_a), 0)); }`,
    `${t} ${name}(vec4 brook_a) { return ${name}(ivec4(floor(brook_a))); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k) { return ${s}_at4(ivec4(brook_k, brook_j, brook_i, 0)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k) { return ${s}_at4(ivec4(floor(vec3(brook_k, brook_j, brook_i)), 0)); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k, int brook_l) { return ${s}_at4(ivec4(brook_l, brook_k, brook_j, brook_i)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k, float brook_l) { return ${s}_at4(ivec4(floor(vec4(brook_l, brook_k, brook_j, brook_i)))); }`,
    // Unchecked access for inner loops that stay inside the texture (texels past the stream's
    // length hold whatever the texture holds), and the texture's size. Not for names ending in
    // '_' (GLSL reserves '__'), such as the renamed reserved words of Brook kernels.
    ...(name.endsWith('_') ? [] : [`${t} ${name}_texel(ivec2 brook_a) { return ${fetch('brook_a')}; }`, `ivec2 ${name}_size() { return ${d}.yw; }`]),
  ].join('\n');
}

/**
 * The names both accessor forms of gather `param` use (the accessor, its sampler `s` and the
 * uniforms kernelargs.ts gatherUniforms binds: dims, shape, origin, full, rank), the uniforms'
 * declarations, and a texel fetch of `info`'s records.
 */
function gatherNames(param: string, info: TypeInfo) {
  const s = `brook_g_${param}`;
  const [d, e, o, f, r] = [`${s}_dims`, `${s}_shape`, `${s}_origin`, `${s}_full`, `${s}_rank`];
  return {
    name: glslName(param),
    s, d, e, o, f, r,
    uniforms: [`uniform highp ${info.sampler} ${s};`, ...[d, e, o, f].map((u) => `uniform ivec4 ${u};`), `uniform int ${r};`],
    fetch: (texel: string) => `texelFetch(${s}, ${texel}, 0)${info.swizzle}`,
  };
}

/**
 * A float index of the 'clamp' accessors, floored and clamped as a float before its int
 * conversion: int() of a float outside int's range (|x| >= 2^31, infinities) is undefined in
 * GLSL ES 3.00 (SwiftShader gives INT_MIN, so a[3e9] read record 0); -1 and the largest float
 * below 2^31 keep their side of every extent, which the int clamp then applies. (A NaN index
 * stays undefined: clamp() of NaN is too, and the reference has no record for it.)
 */
function clampedFloor(x: string): string {
  return `clamp(floor(${x}), -1.0, 2147483520.0)`;
}

/**
 * gatherAccessors with BrookGPU's edge rule (KernelSpec.gatherEdge 'clamp'): every index form
 * becomes a position in the stream's logical shape (x first; a domain's own extents) and each
 * dimension is clamped to [0, extent - 1] before the record is fetched, so a read past any edge
 * gives the nearest record. The extents past the rank are 1, so a vector's extra components
 * clamp to 0, i.e. are dropped, as in the 'zero' form; `g(i, j)` on a 1D stream is its record j
 * (row i clamped to 0), not a texel of its folded texture. A scalar index counts records in
 * row-major order and is clamped to [0, records - 1]. Same uniforms as the 'zero' form.
 */
function clampedGatherAccessors(param: string, info: TypeInfo, { view, pow2 }: { view: boolean; pow2?: boolean }): string {
  const t = info.glsl;
  const { name, s, d, e, o, f, r, uniforms, fetch } = gatherNames(param, info);
  const at4 = `${s}_at4`;
  // a whole stream: origin 0 and full == shape, so its record is flatten(c, shape); a domain
  // adds its origin in its stream
  const record = view ? `brook_flatten(clamp(brook_c, ivec4(0), ${e} - 1) + ${o}, ${f})` : `brook_flatten(clamp(brook_c, ivec4(0), ${e} - 1), ${e})`;
  return [
    ...uniforms,
    `${t} ${at4}(ivec4 brook_c) { return ${fetch(texelOf(record, d, pow2))}; }`,
    `${t} ${name}(ivec4 brook_c) { return ${at4}(brook_c); }`,
    view
      ? `${t} ${name}(int brook_a) { return ${at4}(brook_unflatten(clamp(brook_a, 0, ${e}.x * ${e}.y * ${e}.z * ${e}.w - 1), ${e})); }`
      : `${t} ${name}(int brook_a) { return ${fetch(texelOf(`clamp(brook_a, 0, ${d}.x - 1)`, d, pow2))}; }`,
    `${t} ${name}(uint brook_a) { return ${name}(int(min(brook_a, 0x7fffffffu))); }`,
    `${t} ${name}(float brook_a) { return ${name}(int(${clampedFloor('brook_a')})); }`,
    `${t} ${name}(ivec2 brook_a) { return ${at4}(ivec4(brook_a, 0, 0)); }`,
    `${t} ${name}(vec2 brook_a) { return ${at4}(ivec4(${clampedFloor('brook_a')}, 0, 0)); }`,
    `${t} ${name}(int brook_r, int brook_c) { return ${at4}(ivec4(brook_c, brook_r, 0, 0)); }`,
    `${t} ${name}(float brook_r, float brook_c) { return ${at4}(ivec4(${clampedFloor('vec2(brook_c, brook_r)')}, 0, 0)); }`,
    `${t} ${name}(ivec3 brook_a) { return ${at4}(ivec4(brook_a, 0)); }`,
    `${t} ${name}(vec3 brook_a) { return ${at4}(ivec4(${clampedFloor('brook_a')}, 0)); }`,
    `${t} ${name}(vec4 brook_a) { return ${at4}(ivec4(${clampedFloor('brook_a')})); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k) { return ${at4}(ivec4(brook_k, brook_j, brook_i, 0)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k) { return ${at4}(ivec4(${clampedFloor('vec3(brook_k, brook_j, brook_i)')}, 0)); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k, int brook_l) { return ${at4}(ivec4(brook_l, brook_k, brook_j, brook_i)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k, float brook_l) { return ${at4}(ivec4(${clampedFloor('vec4(brook_l, brook_k, brook_j, brook_i)')})); }`,
    ...(name.endsWith('_') ? [] : [`${t} ${name}_texel(ivec2 brook_a) { return ${fetch('brook_a')}; }`, `ivec2 ${name}_size() { return ${d}.yw; }`]),
  ].join('\n');
}

/**
 * The texel an elementwise input reads for the record being written, for its mapping `mode`
 * (kernelargs.ts inputMapping): 0 the same texel, 1 the same index, 2 per-dimension resampling
 * (map = in cols, out cols, in rows, out rows; a 1D side is one row), 3 index / k, 4 index * k,
 * 5 index * in / out; through a domain or in 3D/4D (map = the input's extents, x first; origin
 * its offset in a stream of extents full): 6 per-dimension resampling, 7 the same index.
 */
function inputTexel({ mode, pow2 }: { mode: number; pow2: boolean }, s: string): string {
  const [dims, map, origin, full] = [`${s}_dims`, `${s}_map`, `${s}_origin`, `${s}_full`];
  const texel = (i: string) => texelOf(i, dims, pow2);
  switch (mode) {
    case 0: return 'brook_texel_here';
    case 1: return texel('brook_index');
    case 2: return `brook_resample2(${map}, ${dims})`;
    case 3: return texel(`brook_index / ${map}.x`);
    case 4: return texel(`brook_index * ${map}.x`);
    case 5: return texel(`brook_index * ${map}.x / ${map}.y`);
    case 6: return texel(`brook_flatten(brook_coord * ${map} / brook_shape + ${origin}, ${full})`);
    case 7: return texel(`brook_flatten(brook_unflatten(brook_index, ${map}) + ${origin}, ${full})`);
    default: throw new Error(`input mapping ${mode}`);
  }
}

/**
 * The fragment shader for a kernel, and the line (1-based) where its body starts. Pure string
 * work with no GL: tests check it directly. Everything that varies per run (sizes, iterator
 * steps, layouts) is a uniform, so the source — the program cache key — depends only on the spec.
 * `written` (default: all) names the outputs this shader writes, for kernels split into passes.
 */
export function generateKernelSource(spec: KernelSpec, written?: readonly string[], variant: KernelVariant = PLAIN_VARIANT): { source: string; bodyStart: number } {
  const inputs = Object.entries(spec.inputs ?? {});
  const gathers = Object.entries(spec.gathers ?? {});
  const iters = Object.entries(spec.iters ?? {});
  const uniforms = Object.entries(spec.uniforms ?? {});
  const outputs = Object.entries(spec.outputs);

  const head: string[] = [
    HEADER.trimEnd(),
    `// kernel ${spec.name}`,
    PRELUDE,
  ];
  gathers.forEach(([name, type], k) => head.push(gatherAccessors(name, typeInfo(type), variant.gathers[k] ?? { view: false, pow2: true }, spec.gatherEdge?.[name])));
  for (const [name, type] of inputs) {
    const info = typeInfo(type);
    const u = `brook_s_${name}`;
    head.push(`uniform highp ${info.sampler} ${u};`, `uniform ivec4 ${u}_dims;`, `uniform ivec4 ${u}_map;`, `uniform ivec4 ${u}_origin;`, `uniform ivec4 ${u}_full;`, `uniform ivec4 ${u}_ext;`);
  }
  for (const [name, type] of iters) {
    const t = iterGlsl(type);
    head.push(`uniform ${t} brook_i_${name}_start;`, `uniform ${t} brook_i_${name}_step;`);
  }
  for (const [name, type] of uniforms) head.push(`uniform ${glslOfUniform(type)} ${glslName(name)};`);
  const targets = written ? outputs.filter(([name]) => written.includes(name)) : outputs;
  targets.forEach(([, type], k) => head.push(`layout(location = ${k}) out ${typeInfo(type).glsl4} brook_out_${k};`));
  // This record's inputs, iterators and outputs are globals, set by main: the body runs as a
  // function of its own, so a `return;` anywhere in it keeps the outputs written so far.
  for (const [name, type] of inputs) head.push(`${typeInfo(type).glsl} ${glslName(name)};`);
  for (const [name, type] of iters) head.push(`${iterGlsl(type)} ${glslName(name)};`);
  for (const [name, type] of outputs) head.push(`${typeInfo(type).glsl} ${glslName(name)};`);
  const bounded = spec.maxIterations !== undefined;
  if (bounded) {
    head.push(
      'int brook_iterations = 0;',
      'bool brook_overrun = false;',
      `bool brook_loop() { if (brook_iterations >= ${spec.maxIterations}) { brook_overrun = true; return false; } brook_iterations++; return true; }`,
    );
  }
  if (spec.helpers) head.push(spec.helpers);
  head.push('void brook_kernel() {');
  const bodyStart = head.join('\n').split('\n').length + 1;
  head.push(spec.body, '}');

  // The record's position, specialised for the variant (see KernelVariant). An output domain:
  // records outside it are not written (the pass is scissored to its rows).
  const { rank, view } = variant;
  const main: string[] = [
    'void main() {',
    '  ivec2 brook_texel_here = ivec2(gl_FragCoord.xy);',
    '  brook_index = brook_texel_here.y * brook_dims.y + brook_texel_here.x;',
    '  if (brook_index >= brook_dims.x) discard;',
    ...(view
      ? [
          '  brook_coord = brook_unflatten(brook_index, brook_full) - brook_origin;',
          '  if (!brook_inside4(brook_coord, brook_shape)) discard;',
          '  brook_index = brook_flatten(brook_coord, brook_shape);',
        ]
      : [`  brook_coord = ${rank === 1 ? 'ivec4(brook_index, 0, 0, 0)' : rank === 2 ? 'ivec4(brook_texel_here, 0, 0)' : 'brook_unflatten(brook_index, brook_shape)'};`]),
    `  brook_pos = ${rank === 2 ? 'brook_coord.xy' : 'ivec2(brook_index, 0)'};`,
  ];
  inputs.forEach(([name, type], k) => {
    const s = `brook_s_${name}`;
    main.push(`  ${glslName(name)} = texelFetch(${s}, ${inputTexel(variant.inputs[k] ?? { mode: 0, pow2: true }, s)}, 0)${typeInfo(type).swizzle};`);
  });
  for (const [name, type] of iters) {
    const t = iterGlsl(type);
    // 1D: every component steps with the record index; over a domain of as many dimensions as
    // components, component k steps along dimension k (x the fastest: a 2D float2 by column and row).
    const n = type === 'float' ? 1 : Number(type[5]);
    const along = n === 2 ? 'vec2(brook_pos)' : n === 3 ? 'vec3(brook_coord.xyz)' : 'vec4(brook_coord)';
    const coord = n === 1 ? 'float(brook_index)' : rank === n ? along : `${t}(float(brook_index))`;
    main.push(`  ${glslName(name)} = brook_i_${name}_start + brook_i_${name}_step * ${coord};`);
  }
  for (const [name, type] of outputs) {
    const t = typeInfo(type).glsl;
    main.push(`  ${glslName(name)} = ${zeroOf(t)};`);
  }
  if (spec.prologue) main.push(spec.prologue);
  main.push('  brook_kernel();');
  if (spec.epilogue) main.push(spec.epilogue);
  if (bounded) {
    const nan = outputs.filter(([, type]) => typeInfo(type).kind === 'float').map(([name, type]) => `${glslName(name)} = ${typeInfo(type).glsl}(intBitsToFloat(0x7fc00000));`);
    if (nan.length) main.push(`  if (brook_overrun) { ${nan.join(' ')} }`);
  }
  targets.forEach(([name, type], k) => {
    const info = typeInfo(type);
    const pad = 4 - info.components;
    const z = info.kind === 'float' ? '0.0' : info.kind === 'int' ? '0' : '0u';
    const parts = [glslName(name), ...Array<string>(pad).fill(z)];
    main.push(`  brook_out_${k} = ${info.components === 4 ? glslName(name) : `${info.glsl4}(${parts.join(', ')})`};`);
  });
  main.push('}');
  return { source: [...head, ...main].join('\n') + '\n', bodyStart };
}

function iterGlsl(type: IterType): string {
  return type === 'float' ? 'float' : `vec${type[5]}`;
}

/** A compile error in the kernel's own terms: its name, the driver's words, its body lines numbered. */
export function describeCompileError(spec: KernelSpec, source: string, bodyStart: number, log: string): string {
  const bodyLines = spec.body.split('\n');
  const shown = (spec.origin?.text ?? spec.body).split('\n');
  const first = spec.origin?.bodyLine ?? 1;
  const messages: string[] = [];
  let marked: number | undefined;
  const found = [...log.matchAll(/ERROR:\s*\d+:(\d+):\s*([^\n]*)/g)].map((m) => ({ line: Number(m[1]), text: m[2]! }));
  // Body lines in Brook's words (glslmessages.ts): which types do not convert, not the helpers' names.
  const inBody = (line: number) => line >= bodyStart && line < bodyStart + bodyLines.length;
  const worded = brookMessages(found.filter((m) => inBody(m.line)), source, Object.keys(spec.gathers ?? {}).map(glslName));
  for (const m of found) {
    if (inBody(m.line)) {
      const w = worded.find((x) => x.line === m.line);
      if (!w) continue;
      worded.splice(worded.indexOf(w), 1);
      const userLine = m.line - bodyStart + first;
      marked ??= userLine;
      messages.push(`line ${userLine}: ${w.text}`);
    } else {
      const src = source.split('\n');
      messages.push(`generated line ${m.line}: ${m.text} (in: ${src[m.line - 1]?.trim() ?? '?'})`);
    }
  }
  if (messages.length === 0) {
    messages.push(
      log.trim() ||
        'the driver gave no message (with a valid source this usually means the GPU is out of memory or the context is being lost: dispose() large streams, or create a new context)',
    );
  }
  return (
    `kernel ${spec.name} failed to compile:\n  ${messages.join('\n  ')}\n` +
    `kernel body:\n${numberLines(shown, first, marked)}`
  );
}
