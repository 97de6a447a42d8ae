/**
 * GLSL generation for kernels: the fragment shader of a KernelSpec (the prelude's address
 * translation, the gather accessors, inputs, iterators, outputs around the body) and compile
 * errors told in the kernel's own lines. Pure string work, no GL. kernel.ts re-exports it.
 */
import HEADER from '../../glsl/core/header.glsl';
import PRELUDE from '../../glsl/core/prelude.glsl';
import { numberLines } from './errors';
import { TypeInfo, typeInfo } from './types';
import { IterType, KernelSpec, UniformType, glslName } from './kernelspec';

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
 * The gather accessor functions for gather `name` of `info`'s records (kernels and pass stages;
 * kernelargs.ts gatherUniforms binds them). `g(i)` reads record i in row-major order, `g(p)`
 * with an ivec2/vec2 texel (x, y) (a domain: its column x, row y), `g(row, col)` likewise,
 * `g(p)` with an ivec3/vec3 or ivec4/vec4 the record at (x, y, z[, w]), x the fastest dimension,
 * and `g(i, j, k[, l])` Brook's `g[i][j][k]`, i the slowest. Reads outside the stream (or the
 * domain) give zero. A domain adds its origin in its stream (`_origin`, `_full`).
 */
export function gatherAccessors(param: string, info: TypeInfo): string {
  const t = info.glsl;
  const name = glslName(param);
  const s = `brook_g_${param}`;
  const d = `${s}_dims`;
  const [v, e, o, f] = [`${s}_domain`, `${s}_shape`, `${s}_origin`, `${s}_full`];
  const zero = zeroOf(t);
  const fetch = (texel: string) => `texelFetch(${s}, ${texel}, 0)${info.swizzle}`;
  return [
    `uniform highp ${info.sampler} ${s};`,
    `uniform ivec4 ${d};`,
    `uniform bool ${v};`,
    `uniform ivec4 ${e};`,
    `uniform ivec4 ${o};`,
    `uniform ivec4 ${f};`,
    `${t} ${name}(ivec4 brook_c) { return brook_inside4(brook_c, ${e}) ? ${fetch(`brook_texel(brook_flatten(brook_c + ${o}, ${f}), ${d})`)} : ${zero}; }`,
    `${t} ${name}(int brook_a) { if (${v}) return brook_a >= 0 ? ${name}(brook_unflatten(brook_a, ${e})) : ${zero}; return brook_inside(brook_a, ${d}) ? ${fetch(`brook_texel(brook_a, ${d})`)} : ${zero}; }`,
    `${t} ${name}(uint brook_a) { return ${name}(int(min(brook_a, 0x7fffffffu))); }`,
    `${t} ${name}(float brook_a) { return ${name}(int(floor(brook_a))); }`,
    `${t} ${name}(ivec2 brook_a) { if (${v}) return ${name}(ivec4(brook_a, 0, 0)); return brook_inside2(brook_a, ${d}) && brook_inside(brook_a.y * ${d}.y + brook_a.x, ${d}) ? ${fetch('brook_a')} : ${zero}; }`,
    `${t} ${name}(vec2 brook_a) { return ${name}(ivec2(floor(brook_a))); }`,
    `${t} ${name}(int brook_r, int brook_c) { return ${name}(ivec2(brook_c, brook_r)); }`,
    `${t} ${name}(float brook_r, float brook_c) { return ${name}(ivec2(floor(brook_c), floor(brook_r))); }`,
    `${t} ${name}(ivec3 brook_a) { return ${name}(ivec4(brook_a, 0)); }`,
    `${t} ${name}(vec3 brook_a) { return ${name}(ivec4(floor(brook_a), 0)); }`,
    `${t} ${name}(vec4 brook_a) { return ${name}(ivec4(floor(brook_a))); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k) { return ${name}(ivec4(brook_k, brook_j, brook_i, 0)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k) { return ${name}(ivec4(floor(vec3(brook_k, brook_j, brook_i)), 0)); }`,
    `${t} ${name}(int brook_i, int brook_j, int brook_k, int brook_l) { return ${name}(ivec4(brook_l, brook_k, brook_j, brook_i)); }`,
    `${t} ${name}(float brook_i, float brook_j, float brook_k, float brook_l) { return ${name}(ivec4(floor(vec4(brook_l, brook_k, brook_j, brook_i)))); }`,
    // Unchecked access for inner loops that stay inside the texture (texels past the stream's
    // length hold whatever the texture holds), and the texture's size. Not for names ending in
    // '_' (GLSL reserves '__'), such as the renamed reserved words of Brook kernels.
    ...(name.endsWith('_') ? [] : [`${t} ${name}_texel(ivec2 brook_a) { return ${fetch('brook_a')}; }`, `ivec2 ${name}_size() { return ${d}.yw; }`]),
  ].join('\n');
}

/**
 * The fragment shader for a kernel, and the line (1-based) where its body starts. Pure string
 * work with no GL: tests check it directly. Everything that varies per run (sizes, iterator
 * steps, layouts) is a uniform, so the source — the program cache key — depends only on the spec.
 * `written` (default: all) names the outputs this shader writes, for kernels split into passes.
 */
export function generateKernelSource(spec: KernelSpec, written?: readonly string[]): { source: string; bodyStart: number } {
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
  for (const [name, type] of gathers) head.push(gatherAccessors(name, typeInfo(type)));
  for (const [name, type] of inputs) {
    const info = typeInfo(type);
    const u = `brook_s_${name}`;
    head.push(`uniform highp ${info.sampler} ${u};`, `uniform ivec4 ${u}_dims;`, `uniform int ${u}_mode;`, `uniform ivec4 ${u}_map;`, `uniform ivec4 ${u}_origin;`, `uniform ivec4 ${u}_full;`);
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

  const main: string[] = [
    'void main() {',
    '  ivec2 brook_texel_here = ivec2(gl_FragCoord.xy);',
    '  brook_index = brook_texel_here.y * brook_dims.y + brook_texel_here.x;',
    '  if (brook_index >= brook_dims.x) discard;',
    // An output domain: records outside it are not written (the pass is scissored to its rows).
    '  if (brook_domain) {',
    '    brook_coord = brook_unflatten(brook_index, brook_full) - brook_origin;',
    '    if (!brook_inside4(brook_coord, brook_shape)) discard;',
    '    brook_index = brook_flatten(brook_coord, brook_shape);',
    '  } else {',
    '    brook_coord = brook_2d ? ivec4(brook_texel_here, 0, 0) : brook_rank == 1 ? ivec4(brook_index, 0, 0, 0) : brook_unflatten(brook_index, brook_shape);',
    '  }',
    '  brook_pos = brook_2d ? brook_coord.xy : ivec2(brook_index, 0);',
  ];
  for (const [name, type] of inputs) {
    const info = typeInfo(type);
    const s = `brook_s_${name}`;
    main.push(
      `  ${glslName(name)} = texelFetch(${s}, brook_input_texel(brook_texel_here, ${s}_mode, ${s}_map, ${s}_dims, ${s}_origin, ${s}_full), 0)${info.swizzle};`,
    );
  }
  for (const [name, type] of iters) {
    const t = iterGlsl(type);
    // 1D: every component steps with the record index; over a domain of as many dimensions as
    // components, component k steps along dimension k (x the fastest: a 2D float2 by column and row).
    const n = type === 'float' ? 1 : Number(type[5]);
    const along = n === 2 ? 'vec2(brook_pos)' : n === 3 ? 'vec3(brook_coord.xyz)' : 'vec4(brook_coord)';
    const coord = n === 1 ? 'float(brook_index)' : `(brook_rank == ${n} ? ${along} : ${t}(float(brook_index)))`;
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
  for (const m of log.matchAll(/ERROR:\s*\d+:(\d+):\s*([^\n]*)/g)) {
    const line = Number(m[1]);
    const inBody = line >= bodyStart && line < bodyStart + bodyLines.length;
    if (inBody) {
      const userLine = line - bodyStart + first;
      marked ??= userLine;
      messages.push(`line ${userLine}: ${m[2]}`);
    } else {
      const src = source.split('\n');
      messages.push(`generated line ${line}: ${m[2]} (in: ${src[line - 1]?.trim() ?? '?'})`);
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
