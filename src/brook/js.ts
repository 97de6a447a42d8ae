/**
 * JavaScript from the typed tree (check.ts), beside glsl.ts: the CPU backend's kernels (src/cpu),
 * as brcc's b2ctransform.cpp wrote C++ for BrookGPU's `BRT_RUNTIME=cpu`. Like the GLSL generator
 * it decides no type: every `convert` node becomes a conversion, every literal is printed as the
 * type the checker gave it. What the JavaScript means:
 *
 * - a float is a JS number rounded to float32 after every operation (`f(a + b)`, f = Math.fround),
 *   an int a number kept to 32 bits (`(a + b) | 0`, `Math.imul`), a uint likewise (`>>> 0`), a
 *   bool a JS boolean;
 * - a vector is a JS array that is never changed in place: an assignment to a component builds a
 *   new array (`v = R.set(v, 1, x)`), so `a = b` may share one;
 * - structs are objects and local arrays are JS arrays; both are copied (R.clone) where GLSL
 *   copies a value (assignments, declarations, arguments, returns);
 * - out and inout parameters return with the function's value: a function with out parameters
 *   returns `[value, out1, ...]` and the call assigns them;
 * - every user name gets a prefix (`v_` variables, `fn_` functions, `g_` gathers), so no Brook
 *   name meets a JavaScript keyword;
 * - built-ins, gathers, the loop bound and the record's position are the runtime's (`R.*`,
 *   `g_*(...)`, `loop()`, `brook_coord`), src/cpu/runtime.ts.
 *
 * The result is the source of the body of a factory `(R, env) => ...` that src/cpu/kernel.ts
 * completes with the record loop.
 */
import { BrookError } from '../core/errors';
import type { Expr, FunctionDecl, Stmt, Sym } from './ast';
import type { TypedFunction } from './check';
import { Type, typeName } from './types';

/** What the JavaScript generator needs of a compiled source. */
export interface JsContext {
  typed: (fn: FunctionDecl) => TypedFunction;
  /** Loop bound on (loop()). */
  bounded: boolean;
  /** Functions printed so far: key -> JavaScript. */
  functions: Map<string, string>;
  /** Keys being printed (recursion). */
  active: string[];
  /**
   * The kernel's body is inlined in its record loop inside the block `brook_body: { ... }`: its
   * return and discard leave the block (`break brook_body`), indexof is the loop's position.
   */
  inline?: boolean;
  /** A vout kernel: indexof is the input record's position (`brook_vindexof()`, src/cpu/vout.ts). */
  vout?: boolean;
}

type Num = Type & { k: 'num' };
const isNumT = (t: Type | undefined): t is Num => t?.k === 'num';

/** The JavaScript name of a user's variable. */
export const jsVar = (name: string): string => `v_${name}`;
/** The JavaScript name of a gather accessor. */
export const jsGather = (name: string): string => `g_${name}`;

export class JsEmitter {
  /** Gather parameters of the function being printed -> the gathers passed. */
  gathers = new Map<Sym, Sym>();
  /** Printing a kernel's own body (return ends the record, discard drops it). */
  main = false;
  /** Temporaries this function body needs (declared at its top). */
  temps = 0;
  /** Out parameters of the function being printed (its returns return them too). */
  outs: string[] = [];
  /** The function's own return type (void: no value before the outs). */
  retVoid = true;

  constructor(readonly ctx: JsContext) {}

  temp(): string {
    return `t${this.temps++}`;
  }

  /** A kernel's body, as the statements of a JavaScript function. */
  kernelBody(t: TypedFunction): string {
    this.main = true;
    const body = t.body.body.map((s) => this.stmt(s)).join('\n');
    this.main = false;
    return (this.temps ? `let ${Array.from({ length: this.temps }, (_, k) => `t${k}`).join(', ')};\n` : '') + body;
  }

  /** The JavaScript name of function `fn` called with `gathers`, printing it first if needed. */
  request(fn: FunctionDecl, gathers: Array<Sym | undefined>): string {
    const bound = gathers.map((g) => (g ? (this.gathers.get(g) ?? g) : undefined));
    const t = this.ctx.typed(fn);
    const name = `fn_${fn.name}${bound.filter((g) => g).map((g) => `_${g!.name}`).join('')}_${t.params.length}_${t.params.map((p) => typeName(p.sym.ty).replace(/\W/g, '_')).join('_')}`;
    if (this.ctx.functions.has(name)) return name;
    if (this.ctx.active.includes(name)) throw new BrookError(`brook, function ${fn.name}: it calls itself (recursion is not possible in GLSL)`);
    if (this.ctx.active.length > 16) throw new BrookError(`brook, function ${fn.name}: functions call each other more than 16 deep`);
    this.ctx.active.push(name);
    const inner = new JsEmitter(this.ctx);
    t.params.forEach((p, k) => {
      if (p.gather && bound[k]) inner.gathers.set(p.sym, bound[k]!);
    });
    const params = t.params.filter((p) => !p.gather);
    inner.outs = params.filter((p) => p.out || p.inout).map((p) => jsVar(p.sym.name));
    inner.retVoid = t.ret.k === 'void';
    const body = t.body.body.map((s) => inner.stmt(s)).join('\n');
    const outInit = params.filter((p) => p.out && !p.inout).map((p) => `${jsVar(p.sym.name)} = ${zero(p.sym.ty)};`).join(' ');
    const tail = inner.outs.length ? `\n${inner.returnStmt(undefined)}` : '';
    const temps = inner.temps ? `let ${Array.from({ length: inner.temps }, (_, k) => `t${k}`).join(', ')};\n` : '';
    const text = `function ${name}(${params.map((p) => jsVar(p.sym.name)).join(', ')}) {\n${outInit}${temps}${body}${tail}\n}`;
    this.ctx.active.pop();
    this.ctx.functions.set(name, text);
    return name;
  }

  returnStmt(value: string | undefined): string {
    if (this.main) return 'return;';
    if (!this.outs.length) return value === undefined ? 'return;' : `return ${value};`;
    return `return [${this.retVoid ? 'undefined' : (value ?? 'undefined')}, ${this.outs.join(', ')}];`;
  }

  // ---------------------------------------------------------------- statements

  stmt(s: Stmt): string {
    switch (s.k) {
      case 'block': return `{\n${s.body.map((x) => this.stmt(x)).join('\n')}\n}`;
      case 'decl': return this.decl(s);
      case 'expr': return `${this.expr(s.e, true)};`;
      case 'if': return `if (${this.expr(s.c)}) ${this.sub(s.then)}${s.else ? ` else ${this.sub(s.else)}` : ''}`;
      case 'while': return `while (${this.loop(s.c)}) ${this.sub(s.body)}`;
      case 'do': return `do ${this.sub(s.body)} while (${this.loop(s.c)});`;
      case 'for': {
        const init = s.init ? (s.init.k === 'decl' ? this.decl(s.init) : `${this.expr((s.init as { e: Expr }).e, true)};`) : '';
        // a block of its own: the init's variables are the loop's
        return `{ ${init}\nfor (; ${this.loop(s.c)}; ${s.step ? this.expr(s.step, true) : ''}) ${this.sub(s.body)} }`;
      }
      case 'switch': return `switch (${this.expr(s.e)}) ${this.sub(s.body)}`;
      case 'case': return s.e ? `case ${this.expr(s.e)}:` : 'default:';
      case 'return': {
        const leave = this.ctx.inline ? 'break brook_body;' : 'return;';
        if (this.main) return s.e ? `{ ${this.expr(s.e, true)}; ${leave} }` : leave;
        return this.returnStmt(s.e ? this.value(s.e) : undefined);
      }
      case 'break':
      case 'continue': return `${s.k};`;
      case 'discard': return this.main ? `{ discarded = true; ${this.ctx.inline ? 'break brook_body;' : 'return;'} }` : 'R.discard();';
      case 'empty': return ';';
    }
  }

  sub(s: Stmt): string {
    return s.k === 'block' ? this.stmt(s) : `{\n${this.stmt(s)}\n}`;
  }

  loop(c: Expr | undefined): string {
    if (!this.ctx.bounded) return c ? this.expr(c) : 'true';
    return c ? `(${this.expr(c)}) && loop()` : 'loop()';
  }

  decl(s: Stmt & { k: 'decl' }): string {
    return s.vars.map((d) => `let ${jsVar(d.name)} = ${d.init ? this.value(d.init) : zero(d.ty!)};`).join(' ');
  }

  // ---------------------------------------------------------------- expressions

  /** An expression whose value is kept: structs and arrays copied. */
  value(e: Expr): string {
    const x = this.expr(e);
    const t = e.ty!;
    return (t.k === 'struct' || t.k === 'array') && !fresh(e) ? `R.clone(${x})` : x;
  }

  /** An expression; `stmt`: its value is not used. */
  expr(e: Expr, _stmt = false): string {
    switch (e.k) {
      case 'num': return literal(e.text, e.ty!);
      case 'bool': return String(e.value);
      case 'name': return this.name(e.sym, e.name);
      case 'unary': return this.unary(e);
      case 'postfix': {
        const t = this.temp();
        return `(${t} = ${this.expr(e.e)}, ${this.assignTo(e.e, this.arith(e.op === '++' ? '+' : '-', t, '1', e.ty as Num))}, ${t})`;
      }
      case 'binary': return this.binary(e);
      case 'assign': {
        if (e.op === '=') return this.assignTo(e.l, this.value(e.r));
        const op = e.op.slice(0, -1);
        const lt = e.l.ty as Num;
        if (e.l.ty!.k === 'mat' || e.r.ty!.k === 'mat') return this.assignTo(e.l, this.matOp(op, this.expr(e.l), this.expr(e.r), e.l.ty!, e.r.ty!));
        return this.assignTo(e.l, this.op2(op, this.expr(e.l), this.expr(e.r), lt, e.r.ty as Num, lt));
      }
      case 'cond': return `(${this.expr(e.c)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case 'comma': return `(${this.expr(e.l)}, ${this.expr(e.r)})`;
      case 'call': return this.call(e);
      case 'index': {
        const t = e.e.ty!;
        const len = t.k === 'array' ? t.len : t.k === 'num' || t.k === 'mat' ? t.n : 0;
        return `${this.expr(e.e)}[R.ci(${this.expr(e.i)}, ${len})]`;
      }
      case 'field': return `${this.expr(e.e)}.${e.f}`;
      case 'swizzle': {
        const src = e.e.ty as Num;
        if (src.n === 1) return e.comps.length === 1 ? this.expr(e.e) : `R.splat(${this.expr(e.e)}, ${e.comps.length})`;
        if (e.comps.length === 1) return `${this.expr(e.e)}[${e.comps[0]}]`;
        return `R.swz(${this.expr(e.e)}, [${e.comps.join(', ')}])`;
      }
      case 'convert': return this.convert(this.expr(e.e), e.e.ty!, e.ty!);
      case 'gather': {
        const g = this.gathers.get(e.sym) ?? e.sym;
        const idx = e.indices.map((i) => this.expr(i));
        // g[float2(x, y)] made of parts: the accessor's (row, column) form, g(y, x), with no array
        const v = idx.length === 1 && isNumT(e.indices[0]!.ty) && (e.indices[0]!.ty as Num).n > 1 ? vectorParts(idx[0]!) : undefined;
        if (v) {
          const call = `${jsGather(g.name)}(${[...v.items].reverse().join(', ')})`;
          return v.pre ? `(${v.pre}, ${call})` : call;
        }
        // g[p] of a vector variable: its components, slowest first (every call of one form)
        if (idx.length === 1 && isNumT(e.indices[0]!.ty) && (e.indices[0]!.ty as Num).n > 1 && simple(idx[0]!)) {
          const n = (e.indices[0]!.ty as Num).n;
          return `${jsGather(g.name)}(${Array.from({ length: n }, (_, k) => `${idx[0]}[${n - 1 - k}]`).join(', ')})`;
        }
        return `${jsGather(g.name)}(${idx.join(', ')})`;
      }
      case 'indexof': {
        const s = e.sym!;
        if (this.ctx.vout) return 'brook_vindexof()';
        if (this.main && s.role === 'input' && !s.struct) return `indexof_${s.name}()`;
        return this.main && this.ctx.inline ? '[cx, cy, cz, cw]' : 'indexof()';
      }
      case 'push': return `push(${this.expr(e.e)})`;
      case 'cast': return this.expr(e.e);
      case 'init': throw new BrookError('brook (JavaScript): an untyped initialiser');
    }
  }

  name(sym: Sym | undefined, name: string): string {
    if (sym && (sym.role === 'gather')) return jsGather((this.gathers.get(sym) ?? sym).name);
    // core's texel positions, readable as the earlier front end's globals: a texture's, so GPU-only
    if (sym?.role === 'global' && (name === 'brook_index' || name === 'brook_pos')) throw new BrookError(`brook (JavaScript): ${name} (the texel position of core's GLSL, as brookgl's earlier front end read it) has no CPU meaning; this kernel needs a GPU context (createContext()), or use indexof`);
    return jsVar(name);
  }

  /** `l = v` as an expression whose value is v. */
  assignTo(l: Expr, v: string): string {
    switch (l.k) {
      case 'name': return `(${jsVar(l.name)} = ${v})`;
      case 'field': return `(${this.expr(l.e)}.${l.f} = ${v})`;
      case 'index': {
        const t = l.e.ty!;
        if (t.k === 'array') return `(${this.expr(l.e)}[R.ci(${this.expr(l.i)}, ${t.len})] = ${v})`;
        const tv = this.temp();
        return `(${tv} = ${v}, ${this.assignTo(l.e, `R.set(${this.expr(l.e)}, R.ci(${this.expr(l.i)}, ${(t as Num).n}), ${tv})`)}, ${tv})`;
      }
      case 'swizzle': {
        const tv = this.temp();
        return `(${tv} = ${v}, ${this.assignTo(l.e, `R.setSwz(${this.expr(l.e)}, [${l.comps.join(', ')}], ${tv})`)}, ${tv})`;
      }
      case 'convert':
      case 'cast': return this.assignTo(l.e, v);
      default: throw new BrookError(`brook (JavaScript): cannot assign to a ${l.k}`);
    }
  }

  unary(e: Expr & { k: 'unary' }): string {
    const t = e.ty!;
    if (e.op === '++' || e.op === '--') return this.assignTo(e.e, this.arith(e.op === '++' ? '+' : '-', this.expr(e.e), '1', t as Num));
    const x = this.expr(e.e);
    if (t.k === 'mat' && (e.op === '-' || e.op === '+')) return e.op === '-' ? `R.mneg(${x})` : x;
    if (t.k !== 'num') throw new BrookError(`brook (JavaScript): '${e.op}' of a ${typeName(t)} is not on the CPU backend yet`);
    const one = (a: string): string => {
      switch (e.op) {
        case '!': return `!${a}`;
        case '~': return t.base === 'uint' ? `(~${a} >>> 0)` : `~${a}`;
        case '-': return t.base === 'float' ? `-${a}` : t.base === 'uint' ? `(-${a} >>> 0)` : `(-${a} | 0)`;
        default: return a;
      }
    };
    if (t.n === 1) return one(`(${x})`);
    return `R.map(${x}, (a) => ${one('a')})`;
  }

  binary(e: Expr & { k: 'binary' }): string {
    const lt = e.l.ty!;
    if (lt.k === 'struct') return `${e.op === '!=' ? '!' : ''}R.equal(${this.expr(e.l)}, ${this.expr(e.r)})`;
    if (lt.k === 'mat' || e.r.ty!.k === 'mat') return this.matOp(e.op, this.expr(e.l), this.expr(e.r), lt, e.r.ty!);
    if ((e.op === '&&' || e.op === '||') && (e.ty as Num).n === 1) return `(${this.expr(e.l)} ${e.op} ${this.expr(e.r)})`;
    return this.op2(e.op, this.expr(e.l), this.expr(e.r), lt as Num, e.r.ty as Num, e.ty as Num);
  }

  /** `l op r` of the checked operand types, componentwise on vectors. */
  op2(op: string, l: string, r: string, lt: Num, rt: Num, ty: Num): string {
    const one = (a: string, b: string): string => {
      const base = lt.lit && rt.lit ? 'int' : lt.base;
      switch (op) {
        case '<': case '>': case '<=': case '>=': return `(${a} ${op} ${b})`;
        case '==': return `(${a} === ${b})`;
        case '!=': return `(${a} !== ${b})`;
        case '&&': case '||': return `(${a} ${op} ${b})`;
        case '%': return base === 'float' ? `R.fmod(${a}, ${b})` : base === 'uint' ? `R.umod(${a}, ${b})` : `R.imod(${a}, ${b})`;
        case '&': case '|': case '^': return base === 'uint' ? `((${a} ${op} ${b}) >>> 0)` : `(${a} ${op} ${b})`;
        case '<<': return base === 'uint' ? `((${a} << ${b}) >>> 0)` : `(${a} << ${b})`;
        case '>>': return base === 'uint' ? `(${a} >>> ${b})` : `(${a} >> ${b})`;
        default: return this.arith(op, a, b, { k: 'num', base, n: 1 });
      }
    };
    if (ty.n === 1 && lt.n === 1 && rt.n === 1) return one(l, r);
    // vectors: both sides are of the result's size (the checker widened scalars), shifts may keep a
    // scalar count; componentwise as an array literal, each side evaluated once (a temporary)
    const n = Math.max(lt.n, rt.n);
    // a side that is an array literal of plain components is taken apart (no array made)
    const lit = (x: string) => {
      const v = vectorParts(x);
      return v && !v.pre && v.items.every(simple) ? v.items : undefined;
    };
    const li = lt.n > 1 ? lit(l) : undefined;
    const ri = rt.n > 1 ? lit(r) : undefined;
    const L = li || simple(l) ? l : this.temp();
    const Rr = ri || simple(r) ? r : this.temp();
    const pre = [L !== l ? `${L} = ${l}` : '', Rr !== r ? `${Rr} = ${r}` : ''].filter(Boolean);
    const side = (x: string, items: string[] | undefined, m: number, k: number) => (m === 1 ? x : items ? items[k]! : `${x}[${k}]`);
    const comps = Array.from({ length: n }, (_, k) => one(side(L, li, lt.n, k), side(Rr, ri, rt.n, k)));
    return pre.length ? `(${pre.join(', ')}, [${comps.join(', ')}])` : `[${comps.join(', ')}]`;
  }

  /** Arithmetic of one component of base `t.base`. */
  arith(op: string, a: string, b: string, t: Num): string {
    const base = t.lit ? 'int' : t.base;
    if (t.n > 1) return `R.map2(${a}, R.splat(${b}, ${t.n}), (a, b) => ${this.arith(op, 'a', 'b', { k: 'num', base, n: 1 })})`;
    if (base === 'float') return `f(${a} ${op} ${b})`;
    if (base === 'uint') {
      if (op === '*') return `(Math.imul(${a}, ${b}) >>> 0)`;
      if (op === '/') return `R.udiv(${a}, ${b})`;
      return `((${a} ${op} ${b}) >>> 0)`;
    }
    if (op === '*') return `Math.imul(${a}, ${b})`;
    if (op === '/') return `R.idiv(${a}, ${b})`;
    return `((${a} ${op} ${b}) | 0)`;
  }

  /** `x` of type `from` as type `to` (Cg's conversions as GLSL's constructors make them). */
  convert(x: string, from: Type, to: Type): string {
    if (to.k !== 'num' || from.k !== 'num') return x;
    const fb = from.lit ? 'int' : from.base;
    const one = (a: string): string => scalarConvert(a, fb, to.base);
    if (from.n === 1) {
      const c = one(x);
      if (to.n === 1) return c;
      return simple(c) ? `[${Array<string>(to.n).fill(c).join(', ')}]` : `R.splat(${c}, ${to.n})`;
    }
    if (to.n === 1) return one(`${x}[0]`);
    const part = to.n < from.n ? `${x}.slice(0, ${to.n})` : x;
    return fb === to.base ? part : `R.map(${part}, (a) => ${one('a')})`;
  }

  call(e: Expr & { k: 'call' }): string {
    const t = e.target!;
    const ty = e.ty!;
    switch (t.kind) {
      case 'builtin': {
        const args = e.args.map((a) => this.expr(a));
        if (MATRIX_BUILTINS.has(t.glsl)) return `R.b_${t.glsl}(${args.join(', ')})`;
        if (e.args.some((a) => a.ty!.k === 'mat')) throw new BrookError(`brook: ${e.name} takes no matrix (GLSL ES 3.00 has it for vectors); the matrix functions are transpose, determinant, inverse and matrixCompMult`);
        const argTy = e.args[0]?.ty as Num | undefined;
        return `R.b_${t.glsl}(${args.join(', ')}${argTy ? `, ${JSON.stringify(argTy.base)}` : ''})`;
      }
      case 'ctor': {
        const args = e.args.map((a) => this.value(a));
        if (ty.k === 'array') return `[${args.join(', ')}]`;
        if (ty.k === 'struct') return `mkStruct(${JSON.stringify(ty.name)}, [${args.join(', ')}])`;
        if (ty.k === 'mat') return this.matCtor(e, ty.n, args);
        // vectors from scalars and vectors, each already of the result's base
        const parts = e.args.map((a, k) => ((a.ty as Num).n === 1 ? args[k] : `...${args[k]}`));
        return `[${parts.join(', ')}]`;
      }
      case 'function': {
        const name = this.request(t.fn, t.gathers);
        const typed = this.ctx.typed(t.fn);
        const passed = e.args.map((a, k) => ({ a, p: typed.params[k]! })).filter((x) => !x.p.gather);
        const args = passed.map(({ a, p }) => (p.out && !p.inout ? 'undefined' : this.value(a)));
        const outs = passed.filter(({ p }) => p.out || p.inout);
        if (!outs.length) return `${name}(${args.join(', ')})`;
        const tr = this.temp();
        return `(${tr} = ${name}(${args.join(', ')}), ${outs.map(({ a }, k) => this.assignTo(a, `${tr}[${k + 1}]`)).join(', ')}, ${tr}[0])`;
      }
      case 'helper': {
        const args = e.args.map((a) => this.expr(a));
        if (t.helper === 'brook_select') return `R.select(${args.join(', ')})`;
        return `R.map2(${args[0]}, ${args[1]}, (a, b) => a ${t.helper === 'brook_and' ? '&&' : '||'} b)`;
      }
    }
  }

  // ---------------------------------------------------------------- matrices (src/cpu/matrix.ts)

  /** `l op r` where a side is a matrix, as GLSL: `*` of matrices and of a matrix and a vector the products, the rest componentwise. */
  matOp(op: string, l: string, r: string, lt: Type, rt: Type): string {
    if (op === '*' && lt.k === 'mat' && rt.k === 'mat') return `R.mmul(${l}, ${r})`;
    if (op === '*' && lt.k === 'mat' && isNumT(rt) && rt.n > 1) return `R.mvmul(${l}, ${r})`;
    if (op === '*' && rt.k === 'mat' && isNumT(lt) && lt.n > 1) return `R.vmmul(${l}, ${r})`;
    if (!['+', '-', '*', '/'].includes(op)) throw new BrookError(`brook (JavaScript): '${op}' of a ${typeName(lt)} and a ${typeName(rt)}`);
    return `R.mcw(${l}, ${r}, (a, b) => f(a ${op} b))`;
  }

  /** GLSL's matN(...): a scalar alone on the diagonal, a matrix alone resized, else scalars and vectors filling the columns. */
  matCtor(e: Expr & { k: 'call' }, n: number, args: string[]): string {
    const tys = e.args.map((a) => a.ty!);
    if (tys.length === 1 && tys[0]!.k === 'mat') return `R.mresize(${n}, ${args[0]})`;
    if (tys.some((t) => t.k === 'mat')) throw new BrookError(`brook: float${n}x${n}(...) takes a matrix alone, or numbers and vectors (GLSL ES 3.00)`);
    if (tys.length === 1 && isNumT(tys[0]) && tys[0].n === 1) return `R.mdiag(${n}, ${args[0]})`;
    const sizes = tys.map((t) => (isNumT(t) ? t.n : 0));
    const total = sizes.reduce((a, b) => a + b, 0);
    if (total < n * n || total - sizes[sizes.length - 1]! >= n * n) throw new BrookError(`brook: float${n}x${n}(...) needs ${n * n} components, these arguments give ${total}`);
    return `R.mctor(${n}, [${args.join(', ')}])`;
  }
}

/** The built-ins of matrices (GLSL ES 3.00's), src/cpu/matrix.ts. */
const MATRIX_BUILTINS = new Set(['transpose', 'determinant', 'inverse', 'matrixCompMult']);

/** `text` split at its top-level commas. */
function topLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/**
 * A vector printed as an array literal (`[a, b]`, or `(t0 = x, [a, b])` with its temporaries
 * first): its components' texts, so a consumer can take them without making the array.
 */
export function vectorParts(text: string): { pre: string; items: string[] } | undefined {
  let pre = '';
  let body = text;
  if (body.startsWith('(') && body.endsWith('])')) {
    const parts = topLevel(body.slice(1, -1));
    const last = parts.pop()!;
    if (!last.startsWith('[') || parts.some((x) => !/^t\d+ = /.test(x))) return undefined;
    pre = parts.join(', ');
    body = last;
  }
  if (!(body.startsWith('[') && body.endsWith(']'))) return undefined;
  const inner = body.slice(1, -1);
  // one literal: no bracket of its own may close before the end
  let depth = 0;
  for (const c of inner) {
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    if (depth < 0) return undefined;
  }
  if (depth !== 0) return undefined;
  return { pre, items: topLevel(inner) };
}

/** Whether JavaScript text is a plain name or number (safe to repeat). */
const simple = (x: string): boolean => /^(?:[A-Za-z_$][\w$]*|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/.test(x);

/** Whether an expression makes a new value (a constructor, a call), which need not be copied. */
function fresh(e: Expr): boolean {
  return e.k === 'call' || e.k === 'gather';
}

/** One component converted between bases, as GLSL's constructors convert. */
function scalarConvert(a: string, from: string, to: string): string {
  if (from === to) return a;
  switch (to) {
    case 'float': return from === 'bool' ? `(${a} ? 1 : 0)` : `f(${a})`;
    case 'int': return from === 'bool' ? `(${a} ? 1 : 0)` : from === 'float' ? `R.f2i(${a})` : `(${a} | 0)`;
    case 'uint': return from === 'bool' ? `(${a} ? 1 : 0)` : from === 'float' ? `R.f2u(${a})` : `(${a} >>> 0)`;
    case 'bool': return `(${a} !== 0)`;
  }
  return a;
}

/** The zero value of a type, as JavaScript (GLSL leaves a declared local undefined; the CPU zeroes it). */
export function zero(t: Type): string {
  switch (t.k) {
    case 'num': {
      const z = t.base === 'bool' ? 'false' : '0';
      return t.n === 1 ? z : `[${Array<string>(t.n).fill(z).join(', ')}]`;
    }
    case 'array': return `[${Array.from({ length: t.len }, () => zero(t.elem)).join(', ')}]`;
    case 'struct': return `zeroStruct(${JSON.stringify(t.name)})`;
    case 'mat': return `R.zeroMat(${t.n})`;
    case 'void': return 'undefined';
  }
}

/** A literal as the type the checker gave it, as a JavaScript number. */
function literal(text: string, ty: Type): string {
  const hex = /^0[xX]/.test(text);
  const bare = hex ? text.replace(/[uUlL]+$/, '') : text.replace(/[fFhHlLuU]+$/, '');
  const base = ty.k === 'num' && !ty.lit ? ty.base : ty.k === 'num' ? 'int' : 'float';
  const v = hex ? parseInt(bare, 16) : Number(bare);
  const n = base === 'float' ? Math.fround(v) : base === 'uint' ? v >>> 0 : base === 'bool' ? v : v | 0;
  if (base === 'bool') return String(v !== 0);
  return Object.is(n, -0) ? '-0' : String(n);
}

/** What parseBrook keeps of a kernel for the JavaScript generator (the typed tree is not part of the description). */
export interface KernelTree {
  checker: import('./check').Checker;
  kernel: TypedFunction;
  typed: (fn: FunctionDecl) => TypedFunction;
  bounded: boolean;
}

const trees = new WeakMap<object, KernelTree>();

/** @internal Records the typed tree of a kernel description made by parseBrook (compile.ts). */
export function keepKernelTree(spec: object, tree: KernelTree): void {
  trees.set(spec, tree);
}

/** The JavaScript of a kernel: its body, the functions it calls, its globals (per record) and struct types. */
export interface KernelJs {
  body: string;
  functions: string;
  globals: string;
  /** Struct types by name: their fields' names and zero values (JavaScript). */
  structs: Record<string, Array<{ name: string; zero: string }>>;
  /**
   * 8-bit outputs declared `fixed`..`fixed4`, which saturate at 0 and 1 as BrookGPU's CPU
   * backend stored its fixed type; the other 8-bit outputs (char, uchar) wrap modulo 256 as C's
   * char arithmetic did there.
   */
  saturating: string[];
}

/**
 * The JavaScript of a kernel description made by the Brook front end (parseBrook, the `brook`
 * tag), or undefined for a description written by hand (its body is GLSL only).
 */
export function kernelJs(spec: object, inline = false): KernelJs | undefined {
  const tree = trees.get(spec);
  if (!tree) return undefined;
  const ctx: JsContext = { typed: tree.typed, bounded: tree.bounded, functions: new Map(), active: [], inline, vout: !!(spec as { brook?: { vout?: unknown } }).brook?.vout };
  const em = new JsEmitter(ctx);
  const body = em.kernelBody(tree.kernel);
  const globals = tree.checker.unit.globals
    .map((g) => {
      const ge = new JsEmitter(ctx);
      const text = g.decl.vars.map((d) => `${jsVar(d.name)} = ${d.init ? ge.value(d.init) : zero(d.ty!)};`).join(' ');
      return ge.temps ? `{ let ${Array.from({ length: ge.temps }, (_, k) => `t${k}`).join(', ')}; ${text} }` : text;
    })
    .join('\n');
  const names = tree.checker.unit.globals.flatMap((g) => g.decl.vars.map((d) => jsVar(d.name)));
  const structs: KernelJs['structs'] = {};
  for (const st of tree.checker.unit.structs.values()) structs[st.name] = st.fields.map((fl) => ({ name: fl.name, zero: zero(fl.ty) }));
  const saturating = tree.kernel.params.filter((p) => (p.out || p.param.qual === 'reduce' || tree.kernel.fn.kind === 'reduce') && /^fixed/.test(p.param.type.name)).map((p) => p.sym.name);
  return {
    body,
    saturating,
    functions: [...ctx.functions.values()].join('\n'),
    globals: (names.length ? `let ${names.join(', ')};\n` : '') + `function brook_globals() {\n${globals}\n}`,
    structs,
  };
}
