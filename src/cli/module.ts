/**
 * The ES module `npx brookgl file.br` writes, as brcc wrote a .cpp: the file's kernels as
 * kernel descriptions (KernelSpec, plain data), which brookgl's `ctx.run`, `reduceValue` and
 * `voutRun` take as they take the `brook` tag's. The module imports nothing; its header lists
 * the kernels' signatures and the host code of the .br file that is not in it.
 *
 * ```js
 * import { createContext } from 'brookgl';
 * import { sum } from './sum.js';      // written by: npx brookgl sum.br
 * ctx.run(sum, { a, b, c });
 * ```
 */
import { BrookError } from '../core/errors';
import type { KernelSpec } from '../core/kernelspec';
import type { BrItem } from './brfile';

/** JavaScript's reserved words, which cannot name an exported binding (such kernels are in the default export only). */
const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package ' +
    'private protected public await arguments eval undefined NaN Infinity').split(' '),
);

/** `value` as a JavaScript literal, exactly (undefined, Infinity and -0 included); a function or a class instance is refused. */
export function literal(value: unknown, indent = ''): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => inner + literal(v, inner)).join(',\n')},\n${indent}]` : '[]';
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)}`).join(',\n')},\n${indent}}`;
  }
  throw new BrookError(`brookgl: a kernel description holds a ${typeof value === 'object' ? 'class instance' : typeof value}, which a module cannot write as data`);
}

export interface ModuleOptions {
  /** The .br file's name, for the header. */
  file: string;
  /** brookgl's version, for the header. */
  version: string;
  /** Brook's signature of each kernel, by name (compileBrFile's). */
  signatures?: Record<string, string>;
  /** The host code set aside (compileBrFile's), listed in the header. */
  skipped?: BrItem[];
}

/**
 * The ES module of `kernels`: a named export per kernel (except a name JavaScript reserves), and
 * a default export holding them all. Each description keeps the Brook source it was compiled
 * from (`origin.source`: a CPU context compiles the kernel again from it, as the brook tag's
 * kernels run there); the module writes that source once, shared by its kernels, and each body's
 * text for error messages (`origin.text`) as a slice of it.
 */
export function kernelModule(kernels: Record<string, KernelSpec>, options: ModuleOptions): string {
  const names = Object.keys(kernels);
  const sources: string[] = [];
  const shared = (text: string) => {
    let k = sources.indexOf(text);
    if (k < 0) k = sources.push(text) - 1;
    return k;
  };
  const out: string[] = [];
  out.push(`// Written by brookgl ${options.version} (npx brookgl) from ${options.file}: the kernels as brookgl kernel descriptions.`);
  out.push(`// Do not edit: change ${options.file} and run npx brookgl again. Run them with ctx.run (reduce kernels: reduceValue; vout: voutRun),`);
  out.push('// on a GPU context (their GLSL) or a CPU context (createContext({ backend: \'cpu\' }) compiles BROOK_0, their Brook source, again).');
  out.push('//');
  for (const name of names) out.push(`//   ${options.signatures?.[name] ?? name}`);
  const skipped = options.skipped ?? [];
  if (skipped.length) {
    out.push('//');
    out.push(`// Host code of ${options.file} not in this module (brookgl runs no C++; port it onto brookgl's host API: streamDecl, streamRead, ctx.run, streamWrite):`);
    for (const s of skipped) out.push(`//   ${options.file}:${s.line}:${s.col}: ${s.what}${s.endLine > s.line ? ` (lines ${s.line}-${s.endLine})` : ''}`);
  }
  out.push('');
  const bodies = names.map((name) => {
    const spec = kernels[name]!;
    let copy: Record<string, unknown> = { ...spec };
    const origin = spec.origin;
    if (origin) {
      // marker strings, replaced below by the shared constant (or a slice of it) the module declares
      const source = origin.source === undefined ? undefined : shared(origin.source);
      const at = source === undefined ? -1 : origin.source!.indexOf(origin.text);
      const text = at >= 0 ? `\u0000SLICE${source}:${at}:${at + origin.text.length}\u0000` : origin.text;
      copy = { ...copy, origin: { ...origin, text, ...(source === undefined ? {} : { source: `\u0000SOURCE${source}\u0000` }) } };
    }
    return literal(copy)
      .replace(/"\\u0000SOURCE(\d+)\\u0000"/g, (_m, k: string) => `BROOK_${k}`)
      .replace(/"\\u0000SLICE(\d+):(\d+):(\d+)\\u0000"/g, (_m, k: string, a: string, b: string) => `BROOK_${k}.slice(${a}, ${b})`);
  });
  sources.forEach((text, k) => out.push(`// the Brook source of ${options.file} the kernels were compiled from (its host code's lines left empty)`, `const BROOK_${k} = ${JSON.stringify(text)};`, ''));
  names.forEach((name, k) => {
    const binding = RESERVED.has(name) ? `kernel_${k}` : name;
    out.push(`/** @type {import('brookgl').KernelSpec} */`);
    out.push(`${RESERVED.has(name) ? '' : 'export '}const ${binding} = ${bodies[k]};`, '');
  });
  out.push(`export default { ${names.map((name, k) => (RESERVED.has(name) ? `${JSON.stringify(name)}: kernel_${k}` : name)).join(', ')} };`, '');
  return out.join('\n');
}
