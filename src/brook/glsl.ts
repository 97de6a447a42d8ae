/**
 * GLSL ES 3.00 from the typed tree (check.ts). The generator decides nothing about types: each
 * `convert` node is a constructor (`float(i)`, `vec3(f)`, `bool(x)`, `vec2(v4)`), each literal is
 * printed as the type the checker gave it, Cg's componentwise operators on vectors are GLSL's
 * functions (`lessThan`, `equal`, `not`) or small generated helpers (`brook_and`, `brook_or`,
 * `brook_select`). Gathers are calls of their accessors (`v[i][j]` -> `v(i, j)`, core's
 * kernelsource.ts), functions that take gathers and kernels called from kernels are printed once
 * per set of gathers they are passed. A kernel's body keeps the user's lines, so a driver's error
 * still names the listing's line. Every loop condition also counts an iteration (`brook_loop()`).
 */
import { BrookError } from '../core/errors';
import { glslName } from '../core/kernel';
import type { Expr, FunctionDecl, Stmt, Sym } from './ast';
import type { Checker, TypedFunction } from './check';
import { Type, VECTOR_COMPARE, glslType, isNum } from './types';

/** What the generator needs from the kernel it prints. */
export interface EmitContext {
  checker: Checker;
  /** Checked functions, by declaration (checked once as functions). */
  typed: (fn: FunctionDecl) => TypedFunction;
  /** Loop bound on (brook_loop()). */
  bounded: boolean;
  /** The kernel is a vout kernel: indexof is the input's record. */
  vout: boolean;
  /** Helpers (brook_and, ...) used, by signature: their GLSL. */
  helpers: Map<string, string>;
  /** Functions printed so far, callees first: key -> GLSL. */
  functions: Map<string, string>;
  /** Keys being printed (recursion). */
  active: string[];
}

const PREC: Record<string, number> = {
  ',': 1, '=': 2, '?': 3, '||': 4, '&&': 5, '|': 6, '^': 7, '&': 8, '==': 9, '!=': 9, '<': 10, '>': 10, '<=': 10, '>=': 10,
  '<<': 11, '>>': 11, '+': 12, '-': 12, '*': 13, '/': 13, '%': 13,
};
const UNARY = 14;
const POSTFIX = 15;
const PRIMARY = 16;

/** A line-keeping writer: text goes on the line of the source it came from. */
class Writer {
  out: string[] = [''];
  constructor(readonly firstLine: number) {}
  goto(line: number): void {
    while (this.firstLine + this.out.length - 1 < line) this.out.push('');
  }
  write(s: string): void {
    const last = this.out.length - 1;
    this.out[last] = this.out[last]! + (this.out[last]!.length && !/\s$/.test(this.out[last]!) && !/^[;)]/.test(s) ? ' ' : '') + s;
  }
  text(): string {
    return this.out.join('\n');
  }
}

export class GlslEmitter {
  /** Gather parameters of the function being printed -> the gathers passed. */
  gathers = new Map<Sym, Sym>();
  /** Printing a kernel's own body (its inputs' indexof are their records'). */
  main = false;

  constructor(readonly ctx: EmitContext) {}

  /** A kernel's body: its statements on their own lines from `firstLine` (the line of its '{'). */
  kernelBody(t: TypedFunction, firstLine: number): string {
    this.main = true;
    const w = new Writer(firstLine);
    for (const s of t.body.body) this.stmt(s, w);
    this.main = false;
    return w.text();
  }

  /** The GLSL name of function `fn` called with `gathers`, printing it (and what it calls) first if needed. */
  request(fn: FunctionDecl, gathers: Array<Sym | undefined>): string {
    const bound = gathers.map((g) => (g ? (this.gathers.get(g) ?? g) : undefined));
    const special = fn.kind !== undefined || bound.some((g) => g);
    const name = special ? `brook_fn_${fn.name}${bound.filter((g) => g).map((g) => `_${g!.name}`).join('')}` : glslName(fn.name);
    const t = this.ctx.typed(fn);
    const key = `${name}(${t.params.map((p) => glslType(p.sym.ty)).join(',')})`;
    if (this.ctx.functions.has(key)) return name;
    if (this.ctx.active.includes(key)) throw new BrookError(`brook, function ${fn.name}: it calls itself (recursion is not possible in GLSL)`);
    if (this.ctx.active.length > 16) throw new BrookError(`brook, function ${fn.name}: functions call each other more than 16 deep`);
    this.ctx.active.push(key);
    const inner = new GlslEmitter(this.ctx);
    t.params.forEach((p, k) => {
      if (p.gather && bound[k]) inner.gathers.set(p.sym, bound[k]!);
    });
    const params = t.params
      .filter((p) => !p.gather)
      .map((p) => `${p.out ? 'out ' : p.inout ? 'inout ' : ''}${glslType(p.sym.ty)} ${glslName(p.sym.name)}${p.sym.ty.k === 'array' ? `[${p.sym.ty.len}]` : ''}`);
    const w = new Writer(t.body.pos.line);
    w.write(`${glslType(t.ret)} ${name}(${params.join(', ')}) {`);
    for (const s of t.body.body) inner.stmt(s, w);
    w.goto(t.body.end.line);
    w.write('}');
    this.ctx.active.pop();
    this.ctx.functions.set(key, w.text().replace(/\n{2,}/g, '\n'));
    return name;
  }

  // ---------------------------------------------------------------- statements

  stmt(s: Stmt, w: Writer): void {
    w.goto(s.pos.line);
    switch (s.k) {
      case 'block':
        w.write('{');
        for (const x of s.body) this.stmt(x, w);
        w.goto(s.end.line);
        w.write('}');
        return;
      case 'decl':
        w.write(this.decl(s, false));
        return;
      case 'expr':
        w.write(`${this.expr(s.e)};`);
        return;
      case 'if':
        w.write(`if (${this.expr(s.c)})`);
        this.sub(s.then, w);
        if (s.else) {
          w.write('else');
          this.sub(s.else, w);
        }
        return;
      case 'while':
        w.write(`while (${this.loop(s.c)})`);
        this.sub(s.body, w);
        return;
      case 'do':
        w.write('do');
        this.sub(s.body, w);
        w.write(`while (${this.loop(s.c)});`);
        return;
      case 'for': {
        const init = s.init ? (s.init.k === 'decl' ? this.decl(s.init, false) : `${this.expr((s.init as { e: Expr }).e)};`) : ';';
        w.write(`for (${init} ${this.loop(s.c)}; ${s.step ? this.expr(s.step) : ''})`);
        this.sub(s.body, w);
        return;
      }
      case 'switch':
        w.write(`switch (${this.expr(s.e)})`);
        this.sub(s.body, w);
        return;
      case 'case':
        w.write(s.e ? `case ${this.expr(s.e)}:` : 'default:');
        return;
      case 'return':
        w.write(s.e ? `return ${this.expr(s.e)};` : 'return;');
        return;
      case 'break':
      case 'continue':
      case 'discard':
        w.write(`${s.k};`);
        return;
      case 'empty':
        w.write(';');
    }
  }

  /** A statement under if/while/for: always a block in GLSL (a declaration alone would not be one). */
  sub(s: Stmt, w: Writer): void {
    if (s.k === 'block') this.stmt(s, w);
    else {
      w.write('{');
      this.stmt(s, w);
      w.write('}');
    }
  }

  loop(c: Expr | undefined): string {
    if (!this.ctx.bounded) return c ? this.expr(c) : '';
    return c ? `(${this.expr(c)}) && brook_loop()` : 'brook_loop()';
  }

  decl(s: Stmt & { k: 'decl' }, global: boolean): string {
    return s.vars
      .map((d) => {
        const ty = d.ty!;
        const dims = ty.k === 'array' ? `[${ty.len}]` : '';
        const c = s.isConst && (global || (d.init && constant(d.init))) ? 'const ' : '';
        return `${c}${glslType(ty)} ${glslName(d.name)}${dims}${d.init ? ` = ${this.expr(d.init, 2)}` : ''};`;
      })
      .join(' ');
  }

  // ---------------------------------------------------------------- expressions

  /** `e` printed, parenthesized when it binds looser than `min`. */
  expr(e: Expr, min = 0): string {
    const [text, prec] = this.print(e);
    return prec < min ? `(${text})` : text;
  }

  print(e: Expr): [string, number] {
    switch (e.k) {
      case 'num': return [literal(e.text, e.ty!), PRIMARY];
      case 'bool': return [String(e.value), PRIMARY];
      case 'name': return [glslName(e.name), PRIMARY];
      case 'unary': {
        if (e.op === '!' && isNum(e.ty) && e.ty.n > 1) return [`not(${this.expr(e.e)})`, PRIMARY];
        const x = this.expr(e.e, UNARY);
        return [`${e.op}${x.startsWith(e.op[0]!) ? ' ' : ''}${x}`, UNARY];
      }
      case 'postfix': return [`${this.expr(e.e, POSTFIX)}${e.op}`, POSTFIX];
      case 'binary': {
        if (VECTOR_COMPARE[e.op] && isNum(e.l.ty) && e.l.ty.n > 1) return [`${VECTOR_COMPARE[e.op]}(${this.expr(e.l, 2)}, ${this.expr(e.r, 2)})`, PRIMARY];
        const p = PREC[e.op]!;
        return [`${this.expr(e.l, p)} ${e.op} ${this.expr(e.r, p + 1)}`, p];
      }
      case 'assign': return [`${this.expr(e.l, UNARY)} ${e.op} ${this.expr(e.r, 2)}`, 2];
      case 'cond': return [`${this.expr(e.c, 4)} ? ${this.expr(e.a, 2)} : ${this.expr(e.b, 3)}`, 3];
      case 'comma': return [`${this.expr(e.l, 1)}, ${this.expr(e.r, 2)}`, 1];
      case 'call': return [this.call(e), PRIMARY];
      case 'index': return [`${this.expr(e.e, POSTFIX)}[${this.expr(e.i)}]`, POSTFIX];
      case 'field': return [`${this.expr(e.e, POSTFIX)}.${glslName(e.f)}`, POSTFIX];
      case 'swizzle': {
        const src = e.e.ty as Type & { k: 'num' };
        if (src.n === 1) return e.comps.length === 1 ? this.print(e.e) : [`${glslType(e.ty!)}(${this.expr(e.e, 2)})`, PRIMARY];
        return [`${this.expr(e.e, POSTFIX)}.${e.comps.map((c) => 'xyzw'[c]).join('')}`, POSTFIX];
      }
      case 'convert': {
        const to = e.ty!;
        if (to.k === 'array' || to.k === 'struct' || to.k === 'void') return this.print(e.e);
        return [`${glslType(to)}(${this.expr(e.e, 2)})`, PRIMARY];
      }
      case 'gather': {
        const g = this.gathers.get(e.sym) ?? e.sym;
        return [`${glslName(g.name)}(${e.indices.map((i) => this.expr(i, 2)).join(', ')})`, PRIMARY];
      }
      case 'indexof': {
        const s = e.sym!;
        if (this.ctx.vout) return ['brook_vindexof()', PRIMARY];
        if (this.main && s.role === 'input' && !s.struct) return [`brook_indexof_in(brook_s_${s.name}_ext)`, PRIMARY];
        return ['brook_indexof()', PRIMARY];
      }
      case 'push': return [`brook_push(${this.expr(e.e, 2)})`, PRIMARY];
      case 'cast': return this.print(e.e);
      case 'init': throw new Error('glsl: an untyped initialiser');
    }
  }

  call(e: Expr & { k: 'call' }): string {
    const t = e.target!;
    const args = () => e.args.map((a) => this.expr(a, 2)).join(', ');
    switch (t.kind) {
      case 'builtin': return `${t.glsl}(${args()})`;
      case 'ctor': {
        const ty = e.ty!;
        return ty.k === 'array' ? `${glslType(ty)}[${ty.len}](${args()})` : `${glslType(ty)}(${args()})`;
      }
      case 'function': {
        const name = this.request(t.fn, t.gathers);
        return `${name}(${e.args.filter((_, k) => !t.gathers[k]).map((a) => this.expr(a, 2)).join(', ')})`;
      }
      case 'helper': {
        const vec = glslType(e.args[e.args.length - 1]!.ty!);
        const b = glslType(e.args[0]!.ty!);
        const n = (e.ty as { n: number }).n;
        const comps = [...'xyzw'.slice(0, n)];
        const key = `${t.helper}(${b},${vec})`;
        if (!this.ctx.helpers.has(key)) {
          const body =
            t.helper === 'brook_select'
              ? `${vec} brook_select(${b} c, ${vec} a, ${vec} b) { return ${vec}(${comps.map((c) => `c.${c} ? a.${c} : b.${c}`).join(', ')}); }`
              : `${b} ${t.helper}(${b} a, ${b} b) { return ${b}(${comps.map((c) => `a.${c} ${t.helper === 'brook_and' ? '&&' : '||'} b.${c}`).join(', ')}); }`;
          this.ctx.helpers.set(key, body);
        }
        return `${t.helper}(${args()})`;
      }
    }
  }
}

/** A literal as the type the checker gave it: 1 as a float is 1.0, as a uint 1u. */
function literal(text: string, ty: Type): string {
  const hex = /^0[xX]/.test(text);
  const bare = hex ? text.replace(/[uUlL]+$/, '') : text.replace(/[fFhHlLuU]+$/, '');
  const base = ty.k === 'num' ? ty.base : 'float';
  if (base === 'float') {
    if (hex) return `${parseInt(bare, 16)}.0`;
    return /[.eE]/.test(bare) ? bare : `${bare}.0`;
  }
  if (base === 'uint') return `${hex ? bare : String(Number(bare))}u`;
  return bare;
}

/** Whether an initialiser is a constant expression (GLSL's const needs one). */
function constant(e: Expr): boolean {
  switch (e.k) {
    case 'num':
    case 'bool': return true;
    case 'name': return !!e.sym?.isConst;
    case 'unary': return e.op !== '++' && e.op !== '--' && constant(e.e);
    case 'binary': return constant(e.l) && constant(e.r);
    case 'cond': return constant(e.c) && constant(e.a) && constant(e.b);
    case 'convert':
    case 'swizzle': return constant(e.e);
    case 'call': return (e.target?.kind === 'ctor' || e.target?.kind === 'builtin') && e.args.every(constant);
    default: return false;
  }
}

/** A global declaration in GLSL. */
export function globalDecl(em: GlslEmitter, s: Stmt & { k: 'decl' }): string {
  return em.decl(s, true);
}
