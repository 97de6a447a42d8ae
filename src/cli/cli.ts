/**
 * `npx brookgl`: brcc's place for people with BrookGPU code. For each `.br` file it
 *
 * - reports every error as `file:line:col: error: message` (on stderr; exit status 1);
 * - reports the host C++ it sets aside as `file:line:col: note: host code skipped: ...`
 *   (main(), #include, globals, functions no kernel calls), never dropping it in silence;
 * - prints each kernel's signature, how brookgl runs it, and its generated GLSL (on stdout);
 * - writes an ES module exporting the kernels (module.ts), as brcc wrote a .cpp: `file.js` beside
 *   `file.br`, or `-o FILE`.
 *
 * The compiler runs in Node (no GL). This module does no I/O of its own: `runBrookgl` takes
 * the arguments and an `io` (scripts/brookgl-bin.mjs gives it Node's), so specs drive it as it is.
 */
import BROOK_HELPERS from '../../glsl/brook/helpers.glsl';
import { generateKernelSource } from '../core/kernelsource';
import type { KernelSpec } from '../core/kernelspec';
import { DEFAULT_MAX_ITERATIONS, type BrookOptions } from '../brook/index';
import { compileBrFile } from './brfile';
import { kernelModule } from './module';

/** What the command line does its reading and writing with. */
export interface BrookglIO {
  readFile(path: string): string;
  writeFile(path: string, text: string): void;
  stdout(text: string): void;
  stderr(text: string): void;
  /** brookgl's version, for --version and the module's header. */
  version: string;
}

export const USAGE = `Usage: npx brookgl [options] file.br [file.br ...]

Compiles BrookGPU source files (.br) with brookgl's Brook compiler, as brcc did:
reports every error as file:line:col, lists the host C++ it skips (main(), #include,
globals: brookgl runs no C++; port them onto its host API), prints each kernel's
signature and GLSL, and writes an ES module exporting the kernels (file.js beside file.br).

Options:
  -o, --out FILE          write the module to FILE (one input file only)
  -n, --check             check only: report errors and skipped host code, write nothing
  -q, --quiet             print no kernel listing (errors and skipped host code only)
      --shader            print each kernel's whole fragment shader (as the runtime
                          generates it for a 1D output), not only the kernel's GLSL
      --max-iterations N  the loop bound compiled into every loop (default ${DEFAULT_MAX_ITERATIONS}; 'Infinity': none)
  -v, --version           print brookgl's version
  -h, --help              print this help
Exit status: 0 when every file compiled, 1 when a file has errors, 2 for a usage error.
`;

interface Parsed {
  files: string[];
  out?: string;
  check: boolean;
  quiet: boolean;
  shader: boolean;
  options: BrookOptions;
}

function parseArgs(argv: string[]): Parsed | string {
  const p: Parsed = { files: [], check: false, quiet: false, shader: false, options: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '-o' || a === '--out') p.out = value();
      else if (a === '-n' || a === '--check') p.check = true;
      else if (a === '-q' || a === '--quiet') p.quiet = true;
      else if (a === '--shader') p.shader = true;
      else if (a === '--max-iterations') {
        const v = value();
        const n = v === 'Infinity' ? Infinity : Number(v);
        if (!(n === Infinity || (Number.isInteger(n) && n >= 1))) return `--max-iterations takes a positive integer or Infinity, got '${v}'`;
        p.options.maxIterations = n;
      } else if (a.startsWith('-') && a !== '-') return `unknown option '${a}'`;
      else p.files.push(a);
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (p.files.length === 0) return 'name a .br file';
  if (p.out !== undefined && p.files.length > 1) return '-o names the module of one input file; give one file, or leave -o out (each file.br writes file.js)';
  return p;
}

/** The module's path for `file`: file.br -> file.js (any other name: name.js beside it). */
export function modulePath(file: string): string {
  return /\.br$/i.test(file) ? file.replace(/\.br$/i, '.js') : `${file}.js`;
}

/** How a kernel is called from JavaScript, from its signature's parameter names. */
function callOf(name: string, spec: KernelSpec, signature: string | undefined): string {
  const open = signature?.indexOf('(') ?? -1;
  const params = open >= 0 ? splitTop(signature!.slice(open + 1, signature!.lastIndexOf(')'))) : [];
  const names = params.map((q) => /([A-Za-z_]\w*)\s*(?:<[^>]*>|(?:\[[^\]]*\])+)?\s*$/.exec(q)?.[1]).filter((x): x is string => !!x);
  const reduce = spec.brook?.reduce;
  if (reduce) return `reduceValue(ctx, ${name}, { ${names.filter((x) => x !== reduce.result).join(', ')} }) (a value), or ctx.run(${name}, { ${names.join(', ')} })`;
  if (spec.brook?.vout) return `voutRun(ctx, ${name}, { ${names.filter((x) => x !== spec.brook!.vout!.output).join(', ')} })`;
  return `ctx.run(${name}, { ${names.join(', ')} })`;
}

function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === '(' || c === '[' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '>') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

const indent = (text: string, by: string) => text.replace(/^(?=.)/gm, by);

/** A kernel's helper GLSL without brookgl's Cg intrinsics (the same in every kernel: named, not printed), blank lines squeezed. */
function ownHelpers(helpers: string | undefined): string | undefined {
  if (!helpers?.trim()) return undefined;
  const own = helpers.startsWith(BROOK_HELPERS) ? `// (brookgl's Cg intrinsics: saturate, fmod, indexof, isfinite)\n${helpers.slice(BROOK_HELPERS.length)}` : helpers;
  return own.replace(/^[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** Runs the command line; returns the exit status. */
export function runBrookgl(argv: string[], io: BrookglIO): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  if (argv.includes('-v') || argv.includes('--version')) {
    io.stdout(`brookgl ${io.version}\n`);
    return 0;
  }
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    io.stderr(`brookgl: ${parsed}\n\n${USAGE}`);
    return 2;
  }
  let status = 0;
  for (const file of parsed.files) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (e) {
      io.stderr(`brookgl: cannot read ${file}: ${(e as Error).message}\n`);
      status = Math.max(status, 1);
      continue;
    }
    const result = compileBrFile(text, parsed.options);
    // errors and skipped host code together, in file order
    const lines = [
      ...result.skipped.map((s) => ({ at: s, text: `note: host code skipped: ${s.what}${s.endLine > s.line ? ` (lines ${s.line}-${s.endLine})` : ''}` })),
      ...result.errors.map((e) => ({ at: e, text: `error: ${e.message}` })),
    ].sort((a, b) => a.at.line - b.at.line || a.at.col - b.at.col);
    for (const { at, text: said } of lines) io.stderr(`${file}:${at.line}:${at.col}: ${said}\n`);
    if (result.errors.length) {
      io.stderr(`${file}: ${result.errors.length} error${result.errors.length === 1 ? '' : 's'}${parsed.check ? '' : '; no module written'}\n`);
      status = 1;
      continue;
    }
    const names = Object.keys(result.kernels);
    if (!parsed.quiet) {
      for (const name of names) {
        const spec = result.kernels[name]!;
        const signature = result.signatures[name];
        let glsl: string;
        if (parsed.shader) glsl = generateKernelSource(spec).source;
        else glsl = [ownHelpers(spec.helpers), spec.prologue?.trim() && `// prologue\n${spec.prologue.trim()}`, `// body\n${spec.body.trim()}`, spec.epilogue?.trim() && `// epilogue\n${spec.epilogue.trim()}`].filter(Boolean).join('\n');
        io.stdout(`${signature ?? name}\n  run: ${callOf(name, spec, signature)}\n  GLSL${parsed.shader ? ' (the whole fragment shader, 1D output)' : ''}:\n${indent(glsl, '    ')}\n\n`);
      }
    }
    if (!parsed.check) {
      const out = parsed.out ?? modulePath(file);
      const base = file.split(/[\\/]/).pop()!;
      io.writeFile(out, kernelModule(result.kernels, { file: base, version: io.version, signatures: result.signatures, skipped: result.skipped }));
      io.stderr(`${file}: ${names.length} kernel${names.length === 1 ? '' : 's'} (${names.join(', ')}) written to ${out}\n`);
    } else io.stderr(`${file}: ${names.length} kernel${names.length === 1 ? '' : 's'} (${names.join(', ')}), no errors\n`);
  }
  return status;
}
