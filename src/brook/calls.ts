/**
 * Calls between Brook functions that GLSL cannot express directly: helper functions taking
 * gathers (`float sum(float a[], int n)`) and kernels calling other kernels (with `out`
 * parameters). Both become templates; each call is replaced by a call to a copy specialized
 * for the gathers passed at that call (GLSL has no way to pass a gather — a texture with its
 * address translation — to a function):
 *
 *   float total(float v[], float n) { ... v[i] ... }      kernel k(float g[], ...) { x = total(g, 4); }
 *   -> float brook_fn_total_g(float n) { ... g[i] ... }      x = brook_fn_total_g(4);
 *
 * A kernel called from another kernel is a function of its element values: `float a<>` and
 * `iter float i<>` become `float a`, `out float o<>` becomes `out float o`, gathers as above.
 * Copies are made only for what a kernel calls, callees before callers.
 */
import { BrookError } from '../core/errors';

/** A function that takes gathers, or a kernel callable from other kernels. */
export interface FunctionTemplate {
  name: string;
  /** GLSL-side return type as written in Brook (void for kernels). */
  ret: string;
  params: Array<{ text: string; name: string; gather: boolean }>;
  body: string;
}

type Tok = { kind: 'id' | 'other'; text: string };

function toks(text: string): Tok[] {
  const out: Tok[] = [];
  for (const m of text.matchAll(/([A-Za-z_]\w*)|(\s+|[\s\S])/g)) out.push(m[1] !== undefined ? { kind: 'id', text: m[1] } : { kind: 'other', text: m[2]! });
  return out;
}

/** Splits a parameter list at its top-level commas. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim() || parts.length) parts.push(cur);
  return parts.map((p) => p.trim());
}

/** A template's parameter from Brook text: `float a[]` is a gather; the rest keep their text. */
function readParam(p: string, kernel: boolean): { text: string; name: string; gather: boolean } {
  const m = /^(?:(out|iter|const|inout|in)\s+)?([A-Za-z_]\w*(?:\s+int)?)\s+([A-Za-z_]\w*)\s*(<\s*>|(?:\[\s*\d*\s*\]\s*)+)?$/.exec(p.replace(/\s+/g, ' '));
  if (!m) throw new BrookError(`brook: cannot read parameter '${p}' of a function`);
  const [, q, type, name, suffix] = m;
  if (suffix?.startsWith('[')) return { text: '', name: name!, gather: true };
  const qual = q === 'out' || q === 'inout' ? `${q} ` : q === 'const' && !kernel ? 'const ' : '';
  return { text: `${qual}${type} ${name}`, name: name!, gather: false };
}

/**
 * Takes the functions with gather parameters out of helper text (blanked, lines kept).
 */
export function extractGatherHelpers(text: string): { text: string; templates: FunctionTemplate[] } {
  const templates: FunctionTemplate[] = [];
  const re = /\b([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*\(([^()]*\[[^()]*)\)\s*\{/g;
  let out = text;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) {
        close = i;
        break;
      }
    }
    if (close < 0) throw new BrookError(`brook: unbalanced '{' in function ${m[2]}`);
    templates.push({ name: m[2]!, ret: m[1]!, params: splitTop(m[3]!).map((p) => readParam(p, false)), body: text.slice(open + 1, close) });
    out = out.slice(0, m.index) + out.slice(m.index, close + 1).replace(/[^\n]/g, ' ') + out.slice(close + 1);
    re.lastIndex = close + 1;
  }
  return { text: out, templates };
}

/** A kernel as a callable template (its stream parameters as values). */
export function kernelTemplate(name: string, params: string, body: string): FunctionTemplate {
  const ps = params.trim() ? splitTop(params).map((p) => readParam(p, true)) : [];
  return { name, ret: 'void', params: ps, body };
}

/**
 * Rewrites the calls to templates in `body` (Brook text) and returns the specialized copies
 * it needs, callees first. `gathers`: the names that are gathers where `body` runs.
 */
export function specializeCalls(
  body: string,
  gathers: Set<string>,
  templates: Map<string, FunctionTemplate>,
  where: string,
  depth = 0,
): { body: string; functions: string[] } {
  if (depth > 16) throw new BrookError(`${where}: functions call each other more than 16 deep (recursion is not possible in GLSL)`);
  const t = toks(body);
  const functions: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    const tpl = x.kind === 'id' ? templates.get(x.text) : undefined;
    if (!tpl) continue;
    let j = i + 1;
    while (j < t.length && /^\s+$/.test(t[j]!.text)) j++;
    if (t[j]?.text !== '(') continue;
    let d = 0;
    let close = -1;
    for (let k = j; k < t.length; k++) {
      if (t[k]!.text === '(') d++;
      else if (t[k]!.text === ')' && --d === 0) {
        close = k;
        break;
      }
    }
    if (close < 0) continue;
    const args = splitTop(t.slice(j + 1, close).map((y) => y.text).join(''));
    if (args.length === 1 && args[0] === '' && tpl.params.length === 0) args.pop();
    if (args.length !== tpl.params.length) {
      throw new BrookError(`${where}: ${tpl.name} takes ${tpl.params.length} arguments, this call passes ${args.length}`);
    }
    const bind = new Map<string, string>();
    const rest: string[] = [];
    tpl.params.forEach((p, k) => {
      const a = args[k]!;
      if (p.gather) {
        if (!/^[A-Za-z_]\w*$/.test(a) || !gathers.has(a)) {
          throw new BrookError(`${where}: argument ${k + 1} of ${tpl.name} ('${p.name}') is a gather: pass the name of a gather ([]) parameter, got '${a}'`);
        }
        bind.set(p.name, a);
      } else rest.push(a);
    });
    const fname = `brook_fn_${tpl.name}${[...bind.values()].map((g) => `_${g}`).join('')}`;
    // the copy: gather parameters renamed to the gathers passed, its own calls specialized too
    const renamed = toks(tpl.body).map((y) => (y.kind === 'id' && bind.has(y.text) ? bind.get(y.text)! : y.text)).join('');
    const inner = specializeCalls(renamed, gathers, templates, `${where}, in ${tpl.name}`, depth + 1);
    functions.push(...inner.functions);
    const signature = tpl.params.filter((p) => !p.gather).map((p) => p.text).join(', ');
    functions.push(`${tpl.ret} ${fname}(${signature}) {${inner.body}}`);
    const newlines = t.slice(i, close + 1).map((y) => y.text).join('').replace(/[^\n]/g, '');
    t.splice(i, close - i + 1, { kind: 'other', text: `${fname}(${rest.join(', ')})${newlines}` });
  }
  return { body: t.map((y) => y.text).join(''), functions: [...new Set(functions)] };
}
