/**
 * Token-by-token translation of Brook/Cg statements to GLSL ES 3.00 (the rules are listed in
 * compile.ts's module comment), with every loop condition bounded by brook_loop().
 */
import { BrookError } from '../core/errors';
import { glslName } from '../core/kernel';
import { CgEnv, cgConversions } from './cg';
import { promoteMixed } from './promote';
import { FUNCTION_MAP, INT_TYPES, TYPE_MAP, Token, checkNesting, nextSolid, tokenize } from './tokens';

/** Translates Cg/Brook statements to GLSL ES 3.00 (see the module comment for the rules). */
export function translateBody(text: string, gathers: Set<string>, intNames: Set<string>, boundLoops = false, env?: CgEnv): string {
  checkNesting(text, 'translateBody');
  let tokens = braceInitializers(tokenize(text));
  if (env) tokens = promoteMixed(cgConversions(tokens, env), env, gathers);
  if (boundLoops) tokens = boundLoopTokens(tokens);
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

/**
 * Cg's brace initialisers as GLSL constructors (GLSL ES 3.00 has no initialiser lists):
 * `float2 ind = {2, 0};` -> `float2 ind = float2(2, 0);`, `float a[3] = {1, 2, 3};` ->
 * `float a[3] = float[3](1, 2, 3);`, and inner braces of an array of vectors or structs
 * (`float2 p[2] = {{0, 1}, {2, 3}};`) the element's constructor. Matrices are refused: Cg fills
 * them by rows, GLSL's constructor by columns.
 */
export function braceInitializers(tokens: Token[]): Token[] {
  const out = [...tokens];
  const prevSolid = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (out[j]!.kind !== 'space') return j;
    return -1;
  };
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.kind !== 'punct' || out[i]!.text !== '=') continue;
    const open = nextSolid(out, i);
    if (open === undefined || out[open]!.text !== '{') continue;
    // back over `[N]` (an array) to the name and its type
    let j = prevSolid(i);
    let dims: Token[] | undefined;
    if (j >= 0 && out[j]!.text === ']') {
      const close = j;
      while (j >= 0 && out[j]!.text !== '[') j--;
      dims = out.slice(j, close + 1);
      j = prevSolid(j);
    }
    const name = j;
    const type = prevSolid(name);
    if (name < 0 || type < 0 || out[name]!.kind !== 'id' || out[type]!.kind !== 'id') continue;
    const typeName = out[type]!.text;
    if (/^(float|half|int|uint)[234]x[234]$|^mat[234]$/.test(typeName)) {
      throw new BrookError(`'${typeName} ${out[name]!.text} = {...}': a matrix's brace initialiser fills rows in Cg and columns in GLSL; write ${typeName}(...) with the numbers in row order`);
    }
    const ctor = (t: string): Token[] => [{ kind: 'id', text: t }, { kind: 'punct', text: '(' }];
    let depth = 0;
    for (let k = open; k < out.length; k++) {
      const t = out[k]!;
      if (t.kind !== 'punct') continue;
      if (t.text === '{') {
        const top = depth++ === 0;
        const replacement = top && dims ? [...ctor(typeName).slice(0, 1), ...dims, { kind: 'punct' as const, text: '(' }] : ctor(typeName);
        out.splice(k, 1, ...replacement);
        k += replacement.length - 1;
      } else if (t.text === '}') {
        out[k] = { kind: 'punct', text: ')' };
        if (--depth === 0) break;
      } else if (t.text === ';' && depth > 0) {
        throw new BrookError(`'${typeName} ${out[name]!.text} = {': the brace initialiser is not closed before ';'`);
      }
    }
  }
  return out;
}

/**
 * Every loop condition also counts an iteration: `while (c)` -> `while ((c) && brook_loop())`,
 * `for (a; c; b)` -> `for (a; (c) && brook_loop(); b)` (an empty c -> `brook_loop()`);
 * `do ... while (c);` is covered by its while. brook_loop() is generated with the kernel
 * (KernelSpec.maxIterations).
 */
function boundLoopTokens(tokens: Token[]): Token[] {
  const out = [...tokens];
  const punct = (text: string): Token => ({ kind: 'punct', text });
  const call: Token[] = [{ kind: 'id', text: 'brook_loop' }, punct('('), punct(')')];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.kind !== 'id' || (t.text !== 'while' && t.text !== 'for')) continue;
    const open = nextSolid(out, i);
    if (open === undefined || out[open]!.text !== '(') continue;
    let depth = 0;
    let close = -1;
    const semis: number[] = [];
    for (let j = open; j < out.length; j++) {
      const x = out[j]!.text;
      if (out[j]!.kind !== 'punct') continue;
      if (x === '(') depth++;
      else if (x === ')' && --depth === 0) {
        close = j;
        break;
      } else if (x === ';' && depth === 1) semis.push(j);
    }
    if (close < 0) continue; // unbalanced: GLSL will say so
    let from: number;
    let to: number;
    if (t.text === 'while') {
      from = open + 1;
      to = close;
    } else {
      if (semis.length !== 2) continue;
      from = semis[0]! + 1;
      to = semis[1]!;
    }
    while (from < to && out[from]!.kind === 'space') from++;
    while (to > from && out[to - 1]!.kind === 'space') to--;
    const empty = from === to;
    const cond = empty ? [...call] : [punct('('), ...out.slice(from, to), punct(')'), punct(' && '), ...call];
    out.splice(from, to - from, ...cond);
    i = open; // loops nested in the condition are rare; the body follows and is scanned next
  }
  return out;
}
