/**
 * A BrookGPU source file (`.br`) as brcc read it: Brook (kernels, reduce kernels, their
 * prototypes, the structs and helper functions they use, `#define`s) mixed with the host C++
 * that brcc passed through to its .cpp (`#include`s, `main()`, globals, `extern` prototypes,
 * functions no kernel calls). brookgl has no C++ compiler behind it, so the host code is set
 * aside here and listed, each piece with its line and column, never dropped in silence; the
 * Brook goes to the compiler (`parseBrook`) with the host code blanked to spaces, so every line
 * and column the compiler names is the file's own.
 *
 * Pure: text in, text and lists out; no GL, no file system (cli.ts does the reading and writing).
 */
import type { KernelSpec } from '../core/kernelspec';
import { parseBrook, type BrookOptions } from '../brook/index';

/** Where something is in the file: 1-based line and column. */
export interface Place {
  line: number;
  col: number;
}

/** A top-level piece of the file. */
export interface BrItem extends Place {
  /** 'brook': kernels, reduce kernels, structs, typedefs, helpers a kernel calls, `#define`s; 'host': the rest. */
  kind: 'brook' | 'host';
  /** What it is, in words: `kernel sum`, `function main`, `#include <stdio.h>`, `declaration 'float a<100>;'`. */
  what: string;
  /** The kernel's or function's name, if it is one. */
  name?: string;
  /** Offsets of the item in the file: [start, end). */
  start: number;
  end: number;
  /** Last line of the item. */
  endLine: number;
}

/** An error of the compiler, placed in the file. */
export interface BrDiagnostic extends Place {
  message: string;
}

/** What compiling a .br file gave. */
export interface BrResult {
  /** The kernels, by name, when the Brook in the file compiled (empty when there are errors). */
  kernels: Record<string, KernelSpec>;
  /** Every error found, in file order. */
  errors: BrDiagnostic[];
  /** The host code set aside, in file order. */
  skipped: BrItem[];
  /** Brook's signature of each kernel as written in the file (`kernel void sum(float a<>, ...)`), by name. */
  signatures: Record<string, string>;
  /** The text given to the compiler: the file with its host code blanked (lines and columns kept). */
  brook: string;
}

/** The file with comments, string and character literals blanked (offsets, lines and columns kept). */
export function blankComments(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    const d = text[i + 1];
    let j = i + 1;
    if (c === '/' && d === '/') {
      j = text.indexOf('\n', i);
      if (j < 0) j = text.length;
      out += blank(text.slice(i, j));
    } else if (c === '/' && d === '*') {
      j = text.indexOf('*/', i + 2);
      j = j < 0 ? text.length : j + 2;
      out += blank(text.slice(i, j));
    } else if (c === '"' || c === "'") {
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      j = Math.min(text.length, j + 1);
      // the quotes stay, so a literal still separates what is around it
      out += c + blank(text.slice(i + 1, j - 1)) + (j - 1 > i ? text[j - 1] : '');
    } else out += c;
    i = j;
  }
  return out;
}

/** 1-based line and column of `offset` in `text`. */
export function placeOf(text: string, offset: number): Place {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

const KEPT_DIRECTIVES = /^#\s*(define|undef|if|ifdef|ifndef|elif|else|endif)\b/;
const C_WORDS = new Set(['if', 'for', 'while', 'do', 'switch', 'return', 'sizeof', 'else', 'case']);

/**
 * The top-level pieces of a .br file, each classified: Brook or host. A function that is not a
 * kernel is Brook when a kernel (or a Brook helper) calls it, host otherwise, as brcc compiled
 * only kernels and what they call for the GPU and passed the rest to the C++ compiler.
 */
export function splitBrFile(text: string): BrItem[] {
  const code = blankComments(text);
  const items: BrItem[] = [];
  const calls = new Map<BrItem, Set<string>>();
  let i = 0;
  const n = code.length;
  const push = (kind: BrItem['kind'], what: string, start: number, end: number, name?: string) => {
    const at = placeOf(text, start);
    const item: BrItem = { kind, what, start, end, line: at.line, col: at.col, endLine: placeOf(text, Math.max(start, end - 1)).line };
    if (name !== undefined) item.name = name;
    items.push(item);
    return item;
  };
  while (i < n) {
    while (i < n && /\s/.test(code[i]!)) i++;
    if (i >= n) break;
    const start = i;
    if (code[i] === '#') {
      // a preprocessor line, with its continuations
      let j = i;
      for (;;) {
        const eol = code.indexOf('\n', j);
        j = eol < 0 ? n : eol;
        if (j > 0 && code[j - 1] === '\\' && j < n) {
          j++;
          continue;
        }
        break;
      }
      const line = text.slice(start, j).trim();
      if (KEPT_DIRECTIVES.test(code.slice(start, j))) push('brook', line, start, j);
      else push('host', line.length > 60 ? `${line.slice(0, 57)}...` : line, start, j);
      i = j;
      continue;
    }
    // up to a ';' or a '{...}' block at depth 0
    let depth = 0;
    let j = i;
    let brace = -1;
    let end = -1;
    for (; j < n; j++) {
      const c = code[j]!;
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0 && c === ';') {
        end = j + 1;
        break;
      } else if (depth === 0 && c === '{') {
        brace = j;
        break;
      } else if (depth === 0 && c === '#' && code.lastIndexOf('\n', j - 1) >= start && /^\s*$/.test(code.slice(code.lastIndexOf('\n', j - 1) + 1, j))) {
        end = code.lastIndexOf('\n', j - 1); // a directive interrupts an unterminated piece
        break;
      }
    }
    if (brace >= 0) {
      let k = brace;
      let level = 0;
      for (; k < n; k++) {
        if (code[k] === '{') level++;
        else if (code[k] === '}' && --level === 0) break;
      }
      end = Math.min(n, k + 1);
      // `struct S { ... } ;` or `typedef struct { ... } S;`: up to the ';'
      const head = code.slice(start, brace);
      if (/^\s*(typedef\s+)?struct\b/.test(head) || /=\s*$/.test(head)) {
        const semi = code.indexOf(';', end);
        if (semi >= 0 && /^[\s\w,*]*$/.test(code.slice(end, semi))) end = semi + 1;
      }
    }
    if (end < 0) end = n;
    if (end <= start) end = Math.min(n, start + 1);
    const piece = code.slice(start, end);
    const head = brace >= 0 ? code.slice(start, brace) : piece;
    const squeezed = head.replace(/\s+/g, ' ').trim();
    const kernel = /^(kernel|reduce)\b/.exec(squeezed);
    const fn = /([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:const\s*)?$/.exec(squeezed);
    if (kernel) {
      const name = /([A-Za-z_]\w*)\s*\(/.exec(squeezed)?.[1];
      const item = push('brook', `${kernel[1]} ${name ?? '?'}${brace >= 0 ? '' : ' (prototype)'}`, start, end, name);
      if (brace >= 0) calls.set(item, calledNames(code.slice(brace, end)));
    } else if (brace >= 0 && /=\s*$/.test(head)) {
      const shown = piece.replace(/\s+/g, ' ').trim();
      push('host', `declaration '${shown.length > 50 ? `${shown.slice(0, 47)}...` : shown}'`, start, end);
    } else if (/^(typedef\b|struct\b)/.test(squeezed)) {
      const name = /(?:struct\s+([A-Za-z_]\w*))|([A-Za-z_]\w*)\s*;?\s*$/.exec(piece.replace(/\{[\s\S]*\}/, ' '))?.slice(1).find(Boolean);
      push('brook', `${squeezed.startsWith('typedef') ? 'typedef' : 'struct'} ${name ?? ''}`.trim(), start, end, name);
    } else if (brace >= 0 && fn && !C_WORDS.has(fn[1]!)) {
      const item = push('host', `function ${fn[1]}`, start, end, fn[1]);
      calls.set(item, calledNames(code.slice(brace, end)));
    } else {
      const shown = piece.replace(/\s+/g, ' ').trim();
      push('host', brace >= 0 ? `block '${squeezed.slice(0, 40)} { ... }'` : `declaration '${shown.length > 50 ? `${shown.slice(0, 47)}...` : shown}'`, start, end);
    }
    i = end;
  }
  // helpers: the functions kernels call, and what those call
  const byName = new Map<string, BrItem>();
  for (const it of items) if (it.name && it.what.startsWith('function ')) byName.set(it.name, it);
  const todo = items.filter((it) => it.kind === 'brook' && calls.has(it));
  while (todo.length) {
    for (const name of calls.get(todo.pop()!)!) {
      const f = byName.get(name);
      if (f && f.kind === 'host') {
        f.kind = 'brook';
        f.what = `helper ${name}`;
        todo.push(f);
      }
    }
  }
  return items;
}

function calledNames(body: string): Set<string> {
  const names = new Set<string>();
  for (const m of body.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) names.add(m[1]!);
  return names;
}

/** `text` with the items of kind 'host' blanked (newlines kept). */
export function brookPart(text: string, items: BrItem[]): string {
  let out = '';
  let at = 0;
  for (const it of items) {
    if (it.kind !== 'host') continue;
    out += text.slice(at, it.start) + text.slice(it.start, it.end).replace(/[^\n]/g, ' ');
    at = it.end;
  }
  return out + text.slice(at);
}

/**
 * Where a compiler message points: `line L` with `(column C)` (the caret the compiler draws), or
 * `line L` alone (then the line's first character that is not blank), or the kernel it names
 * (`kernel NAME`: where its definition starts), or the first line.
 */
export function placeMessage(message: string, text: string, items: BrItem[]): Place {
  const lines = text.split('\n');
  const lm = /\bline (\d+)\b/.exec(message);
  if (lm) {
    const line = Number(lm[1]);
    const cm = /\(column (\d+)\)/.exec(message);
    if (cm) return { line, col: Number(cm[1]) };
    const content = lines[line - 1] ?? '';
    return { line, col: content.length - content.trimStart().length + 1 };
  }
  const km = /\b(?:kernel|reduce kernel|reduce|function) ([A-Za-z_]\w*)/.exec(message);
  const it = km && items.find((x) => x.kind === 'brook' && x.name === km[1] && !x.what.endsWith('(prototype)'));
  if (it) return { line: it.line, col: it.col };
  return { line: 1, col: 1 };
}

/** A compiler message without the library's prefix, nor the quoted line and caret the front end adds (file:line:col says where). */
function plain(message: string): string {
  return message.replace(/^\(brookgl\)\s*/, '').replace(/\n>\d+\| [^\n]*\n[^\n]*\^ \(column \d+\)$/, '');
}

/** The item of kind 'brook' that holds line `line`, if any. */
function itemAt(items: BrItem[], line: number): BrItem | undefined {
  return items.find((it) => it.kind === 'brook' && it.line <= line && line <= it.endLine);
}

/** How many errors one file reports at most (each found by compiling again without the kernel at fault). */
export const MAX_ERRORS = 50;

/**
 * Compiles the Brook of a .br file. The compiler stops at its first error; to report every
 * error, the kernel (or helper) at fault is set aside (blanked) and the rest compiled again,
 * until it compiles or nothing can be set aside. The kernels are returned only when the whole
 * file's Brook compiled with no error, as brcc wrote its output only then.
 */
export function compileBrFile(text: string, options: BrookOptions = {}): BrResult {
  const items = splitBrFile(text);
  const skipped = items.filter((it) => it.kind === 'host');
  const brook = brookPart(text, items);
  const signatures: Record<string, string> = {};
  for (const it of items) {
    if (it.kind !== 'brook' || !it.name || !/^(kernel|reduce) /.test(it.what) || it.what.endsWith('(prototype)')) continue;
    const brace = blankComments(text.slice(it.start, it.end)).indexOf('{');
    signatures[it.name] = text.slice(it.start, it.start + brace).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
  }
  const errors: BrDiagnostic[] = [];
  let current = brook;
  const setAside = new Set<BrItem>();
  for (;;) {
    try {
      const kernels = parseBrook(current, options);
      return { kernels: errors.length ? {} : kernels, errors, skipped, signatures, brook };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (setAside.size > 0 && /no `kernel void Name/.test(message)) break; // every kernel had an error
      const at = placeMessage(message, text, items);
      errors.push({ ...at, message: plain(message) });
      const culprit = itemAt(items, at.line);
      if (!culprit || setAside.has(culprit) || errors.length >= MAX_ERRORS) break;
      setAside.add(culprit);
      current = brookPart(current, [{ ...culprit, kind: 'host' }]);
    }
  }
  errors.sort((a, b) => a.line - b.line || a.col - b.col);
  return { kernels: {}, errors, skipped, signatures, brook };
}
