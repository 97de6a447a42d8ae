/**
 * Struct declarations in Brook source (`typedef struct { ... } Name;`) and the GLSL that binds a
 * kernel's struct parameters to their one-texture-per-field streams (struct.ts).
 */
import { BrookError } from '../core/errors';
import { glslName } from '../core/kernel';
import { StructParam, StructType, fieldParam } from '../core/struct';
import { ElementType } from '../core/types';
import { TYPE_MAP, lineFinder, matching, normalizeType, stripComments } from './tokens';

/**
 * The struct declarations of (comment-free) Brook source — `typedef struct tag { ... } Name;`
 * and `struct Name { ... };` — and the text with them blanked out (lines kept).
 */
export function extractStructs(text: string): { text: string; structs: Record<string, StructType> } {
  const structs: Record<string, StructType> = {};
  const re = /\b(typedef\s+)?struct\s*([A-Za-z_]\w*)?\s*\{/g;
  let out = text;
  let m: RegExpExecArray | null;
  const lineAt = lineFinder(text);
  while ((m = re.exec(text))) {
    const line = lineAt(m.index);
    const where = `brook, struct on line ${line}`;
    const open = m.index + m[0].length - 1;
    const close = matching(text, open, '{', '}', where);
    let end: number;
    let name: string | undefined;
    const after = text.slice(close + 1);
    if (m[1]) {
      const t = /^\s*([A-Za-z_]\w*)\s*;/.exec(after);
      if (!t) throw new BrookError(`${where}: expected the type's name and ';' after '}' (typedef struct { ... } Name;)`);
      name = t[1];
      end = close + 1 + t[0].length;
    } else {
      const t = /^\s*;/.exec(after);
      if (!t || !m[2]) throw new BrookError(`${where}: write typedef struct { ... } Name; or struct Name { ... };`);
      name = m[2];
      end = close + 1 + t[0].length;
    }
    const fields: StructType['fields'][number][] = [];
    for (const decl of text.slice(open + 1, close).split(';')) {
      const d = decl.trim();
      if (!d) continue;
      const fm = /^([A-Za-z_]\w*)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)$/.exec(d.replace(/\s+/g, ' '));
      if (!fm) throw new BrookError(`${where} (${name}): cannot read field '${d}': write e.g. 'float3 A, B, C;' (fields are float, float2, float3 or float4)`);
      const type = normalizeType(fm[1]!, `${where} (${name}), field '${fm[2]}'`);
      if (!/^float[234]?$/.test(type)) throw new BrookError(`${where} (${name}): field '${fm[2]}' is ${fm[1]}; struct fields must be float, float2, float3 or float4`);
      for (const f of fm[2]!.split(',').map((x) => x.trim())) {
        if (fields.some((x) => x.name === f)) throw new BrookError(`${where} (${name}): field '${f}' is declared twice`);
        fields.push({ name: f, type: type as ElementType });
      }
    }
    if (fields.length === 0) throw new BrookError(`${where} (${name}): a struct needs at least one field`);
    if (structs[name!]) throw new BrookError(`${where}: a struct named ${name} is already declared`);
    if (TYPE_MAP[name!] || /^(float|int|uint|bool|half)[234]?$/.test(name!)) throw new BrookError(`${where}: '${name}' is a built-in type name`);
    structs[name!] = { name: name!, fields, components: fields.reduce((n, f) => n + Number(f.type.slice(5) || 1), 0) };
    out = out.slice(0, m.index) + out.slice(m.index, end).replace(/[^\n]/g, ' ') + out.slice(end);
    re.lastIndex = end;
  }
  return { text: out, structs };
}

/** GLSL declaration of a struct type. */
export function structDecl(t: StructType): string {
  return `struct ${t.name} { ${t.fields.map((f) => `${TYPE_MAP[f.type] ?? f.type} ${glslName(f.name)};`).join(' ')} };`;
}

/** GLSL for a kernel's struct parameters: the struct globals, gather accessors, prologue and epilogue. */
export function structGlue(params: Record<string, StructParam>): { helpers: string; prologue: string; epilogue: string } {
  const helpers: string[] = [];
  const prologue: string[] = [];
  const epilogue: string[] = [];
  for (const [param, { struct, role }] of Object.entries(params)) {
    const name = glslName(param);
    const fields = struct.fields.map((f) => glslName(fieldParam(param, f.name)));
    if (role === 'gathers') {
      const sigs: Array<[string, string]> = [
        ['int brook_a', 'brook_a'], ['uint brook_a', 'brook_a'], ['float brook_a', 'brook_a'], ['ivec2 brook_a', 'brook_a'],
        ['vec2 brook_a', 'brook_a'], ['int brook_r, int brook_c', 'brook_r, brook_c'], ['float brook_r, float brook_c', 'brook_r, brook_c'],
      ];
      for (const [sig, call] of sigs) helpers.push(`${struct.name} ${name}(${sig}) { return ${struct.name}(${fields.map((f) => `${f}(${call})`).join(', ')}); }`);
    } else {
      helpers.push(`${struct.name} ${name};`);
      prologue.push(`  ${name} = ${struct.name}(${fields.join(', ')});`);
      if (role === 'outputs') epilogue.push(...struct.fields.map((f, i) => `  ${fields[i]} = ${name}.${glslName(f.name)};`));
    }
  }
  return { helpers: helpers.join('\n'), prologue: prologue.join('\n'), epilogue: epilogue.join('\n') };
}

/**
 * The struct types of Brook source, by name: Listing 36-3's and 36-5's typedefs as printed.
 * @example const { Tri, BBox } = parseBrookStructs(listing36_3);
 */
export function parseBrookStructs(source: string): Record<string, StructType> {
  if (typeof source !== 'string') throw new BrookError('brook: the source must be a string of Brook code');
  return extractStructs(stripComments(source)).structs;
}

/** Tagged template for struct declarations: `const { Tri } = brookStructs\`typedef struct { float3 A, B, C; } Tri;\``. */
export function brookStructs(strings: TemplateStringsArray, ...values: unknown[]): Record<string, StructType> {
  return parseBrookStructs(String.raw({ raw: strings }, ...values));
}
