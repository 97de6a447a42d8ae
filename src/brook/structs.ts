/**
 * The GLSL of Brook's struct types (the checker reads their declarations, check.ts) and the glue
 * that binds a kernel's struct parameters to their one-texture-per-field streams (core's struct.ts).
 */
import { glslName } from '../core/kernel';
import { StructParam, StructType, fieldParam } from '../core/struct';
import { TYPE_MAP } from './tokens';

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

