/**
 * The Brook front end: kernels written as in the papers' listings, turned into KernelSpecs.
 *
 * ```ts
 * const { StartScan } = brook`
 *   kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
 *     count = isinf(value[here].x) ? 1 : 0;
 *     if (here >= 1)
 *       count += isinf(value[left_1].x) ? 1 : 0;
 *   }`;
 * ctx.run(StartScan, { value, count, here: iter(0, n), left_1: iter(-1, n - 1) });
 * ```
 *
 * Parameters: `float a<>` elementwise input, `float4 v[]` gather (also `v[][]`), `iter float i<>`
 * iterator, `out float o<>` output, and plain `float k` uniforms. Types: float, float2-4, int,
 * int2-4, uint, uint2-4 (half is read as float; floatNxN uniforms as matN).
 *
 * The body is Cg-flavoured C, translated token by token (lines are kept, so errors point at
 * the listing's own lines):
 * - float2/3/4 -> vec2/3/4, int2 -> ivec2, ..., half -> float;
 * - gathers `v[i]` -> `v(i)`, `v[i][j]` -> `v(i, j)` (see kernel.ts for the accessors);
 * - integer literals become float literals (`? 1 : 0` -> `? 1.0 : 0.0`), as Cg converts them
 *   implicitly, except in statements that involve an int variable or type and inside the
 *   brackets of a non-gather index;
 * - names that GLSL ES reserves (`input`, `output`, `filter`, ...) get a trailing `_`;
 * - lerp -> mix, frac -> fract, rsqrt -> inversesqrt, atan2 -> atan; saturate and fmod (Cg's,
 *   truncating) are supplied. Anything else is passed to GLSL as written.
 * Text outside the kernels (helper functions) is translated the same way and shared by all of
 * them. The tag returns every kernel of the template by name.
 */
import BROOK_HELPERS from '../../glsl/core/brook.glsl';
import { BrookError } from './errors';
import { IterType, KernelSpec, UniformType, glslName } from './kernel';
import { ElementType } from './types';

const TYPE_MAP: Record<string, string> = {
  float2: 'vec2', float3: 'vec3', float4: 'vec4',
  half: 'float', half2: 'vec2', half3: 'vec3', half4: 'vec4',
  int2: 'ivec2', int3: 'ivec3', int4: 'ivec4',
  uint2: 'uvec2', uint3: 'uvec3', uint4: 'uvec4',
  bool2: 'bvec2', bool3: 'bvec3', bool4: 'bvec4',
  float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4',
};
const FUNCTION_MAP: Record<string, string> = { lerp: 'mix', frac: 'fract', rsqrt: 'inversesqrt', atan2: 'atan' };
const INT_TYPES = new Set(['int', 'uint', 'int2', 'int3', 'int4', 'uint2', 'uint3', 'uint4', 'ivec2', 'ivec3', 'ivec4', 'uvec2', 'uvec3', 'uvec4']);
type Token = { kind: 'id' | 'num' | 'punct' | 'space'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)|([A-Za-z_][A-Za-z0-9_]*)|(0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fFhH]?|\d+(?:[eE][+-]?\d+)?[uUfFhH]?)|([\s\S])/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) tokens.push({ kind: 'space', text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: 'id', text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: 'num', text: m[3] });
    else tokens.push({ kind: 'punct', text: m[4]! });
  }
  return tokens;
}

/** Translates Cg/Brook statements to GLSL ES 3.00 (see the module comment for the rules). */
export function translateBody(text: string, gathers: Set<string>, intNames: Set<string>): string {
  const tokens = tokenize(text);
  const ints = new Set(intNames);
  // First pass: which statements must keep integer literals.
  const intStatement: boolean[] = [];
  let statement = 0;
  let involvesInt = false;
  const statementOf: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'id' && INT_TYPES.has(t.text)) {
      involvesInt = true;
      const next = tokens.slice(i + 1).find((x) => x.kind !== 'space');
      if (next?.kind === 'id') ints.add(next.text);
    } else if (t.kind === 'id' && ints.has(t.text)) {
      involvesInt = true;
    }
    statementOf[i] = statement;
    if (t.kind === 'punct' && (t.text === ';' || t.text === '{' || t.text === '}')) {
      intStatement[statement++] = involvesInt;
      involvesInt = false;
    }
  }
  intStatement[statement] = involvesInt;

  const out: string[] = [];
  const brackets: Array<'gather' | 'plain'> = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'id') {
      const next = nextSolid(tokens, i);
      if (gathers.has(t.text) && next && tokens[next]!.text === '[') {
        out.push(glslName(t.text), '(');
        brackets.push('gather');
        i = next;
        continue;
      }
      out.push(TYPE_MAP[t.text] ?? FUNCTION_MAP[t.text] ?? glslName(t.text));
    } else if (t.kind === 'num') {
      let text = t.text.replace(/[fFhH]$/, (s) => (/^0[xX]/.test(t.text) ? s : ''));
      const plainInt = /^\d+$/.test(text);
      const inPlainIndex = brackets.includes('plain');
      if (plainInt && !inPlainIndex && !intStatement[statementOf[i]!]) text += '.0';
      out.push(text);
    } else if (t.kind === 'punct' && t.text === '[') {
      brackets.push('plain');
      out.push('[');
    } else if (t.kind === 'punct' && t.text === ']') {
      const kind = brackets.pop();
      if (kind === 'gather') {
        const next = nextSolid(tokens, i);
        if (next && tokens[next]!.text === '[') {
          out.push(', ');
          brackets.push('gather');
          i = next;
        } else {
          out.push(')');
        }
      } else {
        out.push(']');
      }
    } else {
      out.push(t.text);
    }
  }
  return out.join('');
}

function nextSolid(tokens: Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j]!.kind !== 'space') return j;
  return undefined;
}

function normalizeType(t: string, where: string): string {
  const glsl: Record<string, string> = { vec2: 'float2', vec3: 'float3', vec4: 'float4', ivec2: 'int2', ivec3: 'int3', ivec4: 'int4', uvec2: 'uint2', uvec3: 'uint3', uvec4: 'uint4', half: 'float', half2: 'float2', half3: 'float3', half4: 'float4', float2x2: 'mat2', float3x3: 'mat3', float4x4: 'mat4' };
  const n = glsl[t] ?? t;
  if (!/^(float|int|uint)[234]?$|^mat[234]$|^bool$/.test(n)) {
    throw new BrookError(`${where}: unknown type '${t}' (use float, float2-4, int, int2-4, uint, uint2-4)`);
  }
  return n;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses Brook source into kernel descriptions, by name. */
export function parseBrook(text: string): Record<string, KernelSpec> {
  const kernels: Record<string, KernelSpec> = {};
  const helpers: string[] = [];
  const re = /\b(kernel|reduce)\s+void\s+([A-Za-z_]\w*)\s*\(/g;
  let cursor = 0;
  let m: RegExpExecArray | null;
  const found: Array<{ name: string; params: string; paramsLine: number; body: string; bodyLine: number }> = [];
  while ((m = re.exec(text))) {
    const line = lineAt(text, m.index);
    if (m[1] === 'reduce') {
      throw new BrookError(
        `brook, line ${line}: reduce kernels are run with ctx.reduce(stream, 'sum' | 'min' | 'max' | { op: 'GLSL of a, b' }), not declared here`,
      );
    }
    helpers.push(text.slice(cursor, m.index));
    const open = m.index + m[0].length;
    const close = matching(text, open - 1, '(', ')', `brook, kernel ${m[2]}`);
    const brace = text.indexOf('{', close);
    if (brace < 0 || text.slice(close + 1, brace).trim() !== '') {
      throw new BrookError(`brook, kernel ${m[2]} (line ${line}): expected '{' after the parameter list`);
    }
    const end = matching(text, brace, '{', '}', `brook, kernel ${m[2]}`);
    found.push({ name: m[2]!, params: text.slice(open, close), paramsLine: line, body: text.slice(brace + 1, end), bodyLine: lineAt(text, brace) });
    cursor = end + 1;
    re.lastIndex = cursor;
  }
  helpers.push(text.slice(cursor));
  if (found.length === 0) throw new BrookError('brook: no `kernel void Name(...) { ... }` found in the source');
  const shared = translateBody(helpers.join('\n'), new Set(), new Set()).trim();

  for (const k of found) {
    const where = `brook, kernel ${k.name} (line ${k.paramsLine})`;
    if (kernels[k.name]) throw new BrookError(`${where}: a kernel named ${k.name} is already declared`);
    const spec: Required<Pick<KernelSpec, 'inputs' | 'gathers' | 'iters' | 'uniforms'>> & KernelSpec = {
      name: k.name, inputs: {}, gathers: {}, iters: {}, uniforms: {}, outputs: {}, body: '',
    };
    const intNames = new Set<string>();
    const params = k.params.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ').split(',').map((p) => p.trim());
    for (const p of params.filter((p, i) => p.length > 0 || i > 0 || params.length > 1)) {
      const pm = /^(?:(out|iter|const)\s+)?([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*(<\s*>|(?:\[\s*\]\s*)+)?$/.exec(p);
      if (!pm) {
        throw new BrookError(`${where}: cannot read parameter '${p}': write e.g. 'float a<>', 'float4 v[]', 'iter float i<>', 'out float o<>' or 'float k'`);
      }
      const [, qualifier, rawType, rawName, suffix] = pm;
      const type = normalizeType(rawType!, `${where}, parameter '${rawName}'`);
      const name = rawName!;
      if (/^(u?int)/.test(type)) intNames.add(rawName!);
      const isStream = suffix?.startsWith('<');
      const isGather = suffix?.startsWith('[');
      const elementType = type as ElementType;
      if (qualifier === 'out') {
        if (!isStream) throw new BrookError(`${where}: output '${rawName}' must be a stream: out ${rawType} ${rawName}<>`);
        spec.outputs[name] = elementType;
      } else if (qualifier === 'iter') {
        if (!isStream) throw new BrookError(`${where}: iterator '${rawName}' must be declared as iter ${rawType} ${rawName}<>`);
        if (!/^float[234]?$/.test(type)) throw new BrookError(`${where}: iterator '${rawName}' must be float, float2, float3 or float4`);
        spec.iters[name] = type as IterType;
      } else if (isStream) {
        spec.inputs[name] = elementType;
      } else if (isGather) {
        spec.gathers[name] = elementType;
      } else {
        spec.uniforms[name] = type as UniformType;
      }
    }
    if (Object.keys(spec.outputs).length === 0) throw new BrookError(`${where}: a kernel needs at least one 'out' stream parameter`);
    spec.body = translateBody(k.body, new Set(Object.keys(spec.gathers)), intNames);
    spec.helpers = [BROOK_HELPERS, shared].filter(Boolean).join('\n');
    spec.origin = { text: k.body, bodyLine: k.bodyLine };
    kernels[k.name] = spec;
  }
  return kernels;
}

function matching(text: string, open: number, a: string, b: string, where: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === a) depth++;
    else if (text[i] === b && --depth === 0) return i;
  }
  throw new BrookError(`${where}: unbalanced '${a}' starting on line ${lineAt(text, open)}`);
}

/**
 * Tagged template for Brook kernels; returns them by name. Interpolated values are pasted in
 * as text (numbers become constants in the source).
 * @example const { saxpy } = brook`kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }`;
 */
export function brook(strings: TemplateStringsArray, ...values: unknown[]): Record<string, KernelSpec> {
  return parseBrook(String.raw({ raw: strings }, ...values));
}
