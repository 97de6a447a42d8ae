/**
 * What Brook refuses in a kernel body, checked before translation so that the error names the
 * kernel's own line: writing a stream input, an iterator or a gather, and reading an output
 * before the kernel has written it.
 *
 * BrookGPU (brcc, then Cg) lets a kernel read an `out` parameter once it has written it, as a
 * local variable (its regression tests do: `cx0 = e0; ... cx0 = cx0 + e0;`, `newindex /= modulus`),
 * so that stays legal. Reading one before any write is what Brook leaves undefined: its GPU
 * backends read an uninitialized register, its CPU backend the output stream's old contents
 * (so `o += x` accumulated there and not on a GPU). brookgl refuses it instead of quietly
 * starting from zero. "Before" is textual order in the body: a read that follows a write to the
 * output or to any of its fields or components is accepted (branches are not analysed).
 */
import { BrookError } from '../core/errors';
import { Token, nextSolid, tokenize } from './tokens';

/** A kernel's name and where its body starts, for error messages. */
export interface BodySite {
  kernel: string;
  /** The body text (comments blanked) and the source line of its first line. */
  body: string;
  bodyLine: number;
}

function lineOf(site: BodySite, offset: number): number {
  return site.bodyLine + (site.body.slice(0, offset).match(/\n/g)?.length ?? 0);
}

/** Refuses writes to stream inputs, iterators and gathers: `[name, 'an input stream']`, ... */
export function checkReadOnly(site: BodySite, readOnly: ReadonlyArray<readonly [string, string]>): void {
  for (const [n, what] of readOnly) {
    const at = firstWrite(site.body, n);
    if (at >= 0) {
      throw new BrookError(`brook, kernel ${site.kernel}, line ${lineOf(site, at)}: '${n}' is ${what}, which a kernel cannot write; copy it into a local variable or write an out parameter`);
    }
  }
}

/**
 * Refuses indexing a scalar `<>` stream or iterator (`a[3]` with `float a<>`): the kernel sees one
 * record of it, so there is nothing to index; GLSL would only say "left of '[' is not of type
 * array". (A vector stream's `pixel[3]` is a component, as in Cg, and stays legal.)
 */
export function checkStreamIndexing(site: BodySite, streams: ReadonlyArray<readonly [string, string, string]>): void {
  for (const [n, type, what] of streams) {
    const at = firstFollowed(site.body, n, INDEX_AFTER);
    if (at >= 0) {
      throw new BrookError(
        `brook, kernel ${site.kernel}, line ${lineOf(site, at)}: '${n}' is ${what} (${type} ${n}<>), one record per output: '${n}[' has nothing to index; ` +
          `read ${n} itself, or declare it a gather (${type} ${n}[]) to read records by index`,
      );
    }
  }
}

/** After a name: its indices and fields, then an assignment, `++` or `--` (a fixed pattern: user names never go into a RegExp). */
const WRITE_AFTER = /\s*(?:\[[^\]]*\]\s*)*(?:\.\s*\w+\s*)*(?:[-+*/]?=(?!=)|\+\+|--)/y;

/** After a name: `[`. */
const INDEX_AFTER = /\s*\[/y;

/** Offset of the first place `body` writes the name `n` (not a field `.n`), or -1. */
function firstWrite(body: string, n: string): number {
  return firstFollowed(body, n, WRITE_AFTER);
}

/** Offset of the first name `n` (not a field `.n`) that `after` (a sticky RegExp) matches right after, or -1. */
function firstFollowed(body: string, n: string, after: RegExp): number {
  for (let at = body.indexOf(n); at >= 0; at = body.indexOf(n, at + 1)) {
    if (at > 0 && /[.\w]/.test(body[at - 1]!)) continue;
    after.lastIndex = at + n.length;
    if (after.test(body)) return at;
  }
  return -1;
}

const COMPOUND = new Set(['+', '-', '*', '/', '%', '&', '|', '^']);
const NOT_CALLS = new Set(['if', 'while', 'for', 'return', 'switch']);

/**
 * Refuses reading an output before the body writes it (see the module comment). A whole output
 * passed as a function argument counts as a write (it may be an `out` parameter of a helper or
 * of a called kernel); `indexof(o)` reads no value.
 */
export function checkOutputReads(site: BodySite, outputs: readonly string[]): void {
  if (outputs.length === 0) return;
  const tokens = tokenize(site.body);
  const offsets: number[] = [];
  let at = 0;
  for (const t of tokens) {
    offsets.push(at);
    at += t.text.length;
  }
  const isP = (i: number | undefined, s: string) => i !== undefined && tokens[i]?.kind === 'punct' && tokens[i]!.text === s;
  const prevSolid = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (tokens[j]!.kind !== 'space') return j;
    return undefined;
  };
  // output -> the token after which it counts as written (the end of the assigning statement,
  // since `o.a = o.b` reads o.b before the assignment happens)
  const writtenAfter = new Map<string, number>();
  const statementEnd = (i: number) => {
    let depth = 0;
    for (let j = i; j < tokens.length; j++) {
      if (tokens[j]!.kind !== 'punct') continue;
      const x = tokens[j]!.text;
      if (x === '(' || x === '[') depth++;
      else if (x === ')' || x === ']') depth--;
      else if (depth <= 0 && (x === ';' || x === '}' || x === ',')) return j;
    }
    return tokens.length;
  };
  const write = (name: string, at: number) => {
    if (!writtenAfter.has(name)) writtenAfter.set(name, at);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'id' || !outputs.includes(t.text)) continue;
    const w = writtenAfter.get(t.text);
    if (w !== undefined && i > w) continue;
    const p = prevSolid(i);
    if (isP(p, '.')) continue; // a field of something else
    if (p !== undefined && tokens[p]!.text === 'indexof') continue;
    if (isP(p, '(')) {
      const q = prevSolid(p!);
      if (q !== undefined && tokens[q]!.text === 'indexof') continue;
    }
    // the lvalue's path: .field, .xyz, [i] ...
    let end = i;
    for (;;) {
      const n = nextSolid(tokens, end);
      if (isP(n, '.') && tokens[nextSolid(tokens, n!) ?? -1]?.kind === 'id') end = nextSolid(tokens, n!)!;
      else if (isP(n, '[')) {
        let depth = 0;
        let k = n!;
        for (; k < tokens.length; k++) {
          if (isP(k, '[')) depth++;
          else if (isP(k, ']') && --depth === 0) break;
        }
        end = k;
      } else break;
    }
    const n = nextSolid(tokens, end);
    const n2 = n === undefined ? undefined : n + 1;
    if (isP(n, '=') && !isP(n2, '=')) {
      write(t.text, statementEnd(n!));
      continue;
    }
    // a whole output (or a field) passed to a function: maybe an out parameter
    if ((isP(p, '(') || isP(p, ',')) && (isP(n, ',') || isP(n, ')')) && insideCall(tokens, i)) {
      write(t.text, i);
      continue;
    }
    const compound = n !== undefined && tokens[n]!.kind === 'punct' && COMPOUND.has(tokens[n]!.text) && isP(n2, '=');
    const what = compound ? `'${tokens[n!]!.text}='` : isP(n, '+') && isP(n2, '+') ? "'++'" : isP(n, '-') && isP(n2, '-') ? "'--'" : 'a read';
    throw new BrookError(
      `brook, kernel ${site.kernel}, line ${lineOf(site, offsets[i]!)}: '${t.text}' is an output stream, and ${what} here uses its value before the kernel has written it; ` +
        'Brook leaves that value undefined (BrookGPU read garbage on the GPU, the old stream contents on the CPU): assign it first, or read the old values through an input stream or a gather',
    );
  }
}

/** Whether token i sits directly inside the parentheses of a function call (not if/while/for). */
function insideCall(tokens: Token[], i: number): boolean {
  let depth = 0;
  for (let j = i - 1; j >= 0; j--) {
    const x = tokens[j]!;
    if (x.kind !== 'punct') continue;
    if (x.text === ')' || x.text === ']') depth++;
    else if (x.text === '[') {
      if (depth === 0) return false;
      depth--;
    } else if (x.text === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      for (let k = j - 1; k >= 0; k--) {
        if (tokens[k]!.kind === 'space') continue;
        return tokens[k]!.kind === 'id' && !NOT_CALLS.has(tokens[k]!.text);
      }
      return false;
    } else if (depth === 0 && (x.text === ';' || x.text === '{' || x.text === '}')) return false;
  }
  return false;
}
