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
 *   `g_*(...)`, `loop()`, `brook_coord`), src/cpu/runtime.ts; a gather of numbers calls the
 *   accessor `g_name$k` of k indices (slowest first), or `g_name$ki` where every index is a whole
 *   number (isWhole: no floor needed), which src/cpu/kernel.ts writes for the bound stream;
 * - float + − × of whole numbers whose result is known to stay within 2^24 is printed with no
 *   rounding (float32 holds it exactly): wholeBound.
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
  /**
   * Iterators whose values are whole numbers in this run (integer start and step): a gather
   * indexed by them (and by sums, differences and products of whole numbers) needs no floor.
   */
  wholeIters?: ReadonlyMap<string, number>;
  /** A bound on indexof's components (the largest extent of the run's streams; none: unbounded). */
  positionBound?: number;
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
  /** Float variables of the function being printed whose every value is a whole number (wholeSyms), with a bound on their size. */
  whole: Whole = { syms: new Map(), position: Infinity };
  /**
   * Vector iterators of a kernel inlined in its record loop that the body never writes: printed as
   * the array literal of their components (`[v_p$0, v_p$1]`, jsIterPart), which the record loop sets
   * as numbers, so that arithmetic and gathers take the components and no array is read.
   */
  parts: ReadonlySet<Sym> = new Set();

  constructor(readonly ctx: JsContext) {}

  temp(): string {
    return `t${this.temps++}`;
  }

  /** A kernel's body, as the statements of a JavaScript function. */
  kernelBody(t: TypedFunction): string {
    this.main = true;
    this.whole = wholeSyms(t.body, this.ctx, new Map(t.params.filter((p) => p.sym.role === 'iter' && this.ctx.wholeIters?.has(p.sym.name)).map((p) => [p.sym, this.ctx.wholeIters!.get(p.sym.name)!])));
    if (this.ctx.inline) {
      const written = writtenSyms(t.body, this.ctx);
      this.parts = new Set(t.params.filter((p) => p.sym.role === 'iter' && p.sym.ty.k === 'num' && p.sym.ty.n > 1 && !written.has(p.sym)).map((p) => p.sym));
    }
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
    inner.whole = wholeSyms(t.body, this.ctx, new Map());
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
        // of an array literal of plain components: those components, no array read
        const x = this.expr(e.e);
        const v = vectorParts(x);
        if (v && !v.pre && v.items.every(simple)) return e.comps.length === 1 ? v.items[e.comps[0]!]! : `[${e.comps.map((c) => v.items[c]).join(', ')}]`;
        if (e.comps.length === 1) return `${this.expr(e.e)}[${e.comps[0]}]`;
        return `R.swz(${this.expr(e.e)}, [${e.comps.join(', ')}])`;
      }
      case 'convert': return this.convert(this.expr(e.e), e.e.ty!, e.ty!);
      case 'gather': {
        const g = this.gathers.get(e.sym) ?? e.sym;
        const idx = e.indices.map((i) => this.expr(i));
        if (e.sym.ty.k === 'num') return this.gatherCall(g, e, idx);
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

  /**
   * A gather of numbers: its accessor of k indices, slowest first, `g_u$k(...)` (or `g_u$ki(...)`
   * where every index is a whole number, so the accessor clamps with no floor); src/cpu/kernel.ts
   * writes each accessor for the shape of the stream bound. A vector index is taken apart: its
   * components, or a temporary's.
   */
  gatherCall(g: Sym, e: Expr & { k: 'gather' }, idx: string[]): string {
    const whole = e.indices.every((i) => this.isWhole(i));
    const call = (args: string[]) => `${jsGather(g.name)}$${args.length}${whole ? 'i' : ''}(${args.join(', ')})`;
    const it = e.indices[0]!.ty as Num;
    if (idx.length > 1 || it.n === 1) return call(idx);
    const v = vectorParts(idx[0]!);
    if (v) return v.pre ? `(${v.pre}, ${call([...v.items].reverse())})` : call([...v.items].reverse());
    const t = simple(idx[0]!) ? idx[0]! : this.temp();
    const args = Array.from({ length: it.n }, (_, k) => `${t}[${it.n - 1 - k}]`);
    return t === idx[0] ? call(args) : `(${t} = ${idx[0]}, ${call(args)})`;
  }

  /** Whether every value of `e` is a whole number (or infinite, or NaN): see wholeSyms. */
  isWhole(e: Expr): boolean {
    return wholeBound(e, this.whole) !== undefined;
  }

  /** Whether float arithmetic `e` (+ - *) is exact: whole operands and a result within 2^24, which float32 holds (no rounding to print). */
  exact(e: Expr): boolean {
    const b = wholeBound(e, this.whole);
    return b !== undefined && b <= 2 ** 24;
  }

  name(sym: Sym | undefined, name: string): string {
    if (sym && (sym.role === 'gather')) return jsGather((this.gathers.get(sym) ?? sym).name);
    // core's texel positions, readable as the earlier front end's globals: a texture's, so GPU-only
    if (sym && this.main && this.parts.has(sym)) return `[${Array.from({ length: (sym.ty as Num).n }, (_, k) => jsIterPart(name, k)).join(', ')}]`;
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
    const exact = (e.op === '+' || e.op === '-' || e.op === '*') && (e.ty as Num).base === 'float' && this.exact(e);
    return this.op2(e.op, this.expr(e.l), this.expr(e.r), lt as Num, e.r.ty as Num, e.ty as Num, exact);
  }

  /** `l op r` of the checked operand types, componentwise on vectors. */
  op2(op: string, l: string, r: string, lt: Num, rt: Num, ty: Num, exact = false): string {
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
        default: return exact ? `(${a} ${op} ${b})` : this.arith(op, a, b, { k: 'num', base, n: 1 });
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
    // an array literal of plain components (indexof's [cx, cy, cz, cw]) loses its last ones in place
    const v = to.n < from.n ? vectorParts(x) : undefined;
    const part = v && !v.pre && v.items.every(simple) ? `[${v.items.slice(0, to.n).join(', ')}]` : to.n < from.n ? `${x}.slice(0, ${to.n})` : x;
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

/** @internal Whether `spec` has parseBrook's typed tree (in this page or process). */
export function hasKernelTree(spec: object): boolean {
  return trees.has(spec);
}

/**
 * @internal Gives `spec` the typed tree of `twin`, the same kernel compiled again from the Brook
 * source `spec` carries (origin.source: a description written by npx brookgl, or copied as data).
 */
export function adoptKernelTree(spec: object, twin: object): boolean {
  const tree = trees.get(twin);
  if (tree) trees.set(spec, tree);
  return !!tree;
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
export function kernelJs(spec: object, inline = false, run?: { wholeIters?: ReadonlyMap<string, number>; positionBound?: number }): KernelJs | undefined {
  const tree = trees.get(spec);
  if (!tree) return undefined;
  const ctx: JsContext = { typed: tree.typed, bounded: tree.bounded, functions: new Map(), active: [], inline, vout: !!(spec as { brook?: { vout?: unknown } }).brook?.vout, wholeIters: run?.wholeIters, positionBound: run?.positionBound };
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

// ---------------------------------------------------------------- whole numbers

/**
 * A bound on the size of every value of `e` where each is a whole number, or ±Infinity or NaN
 * (undefined where not): then a gather's accessor
 * clamps it with no floor and reads what the floor would have read (Math.floor leaves such a value
 * as it is; the clamp sends NaN to 0, as the floor's accessor does). Ints, uints and bools are
 * whole; so are indexof, the literals 0, 1, 2, ..., the variables of `whole`, and what float32
 * arithmetic makes of whole numbers by + - * (a float32 from 2^23 up is a whole number, so the
 * rounding of a whole sum or product is one), negation, vectors built of them, their components,
 * floor/ceil/round/trunc of anything, and abs/min/max/clamp/sign of whole numbers.
 */
export function wholeBound(e: Expr, whole: Whole): number | undefined {
  const t = e.ty;
  const w = (x: Expr) => wholeBound(x, whole);
  const all = (xs: Expr[]) => {
    let m = 0;
    for (const x of xs) {
      const b = w(x);
      if (b === undefined) return undefined;
      m = Math.max(m, b);
    }
    return m;
  };
  const two = (a: Expr, b: Expr, op: (x: number, y: number) => number) => {
    const x = w(a);
    const y = x === undefined ? undefined : w(b);
    return y === undefined ? undefined : op(x!, y);
  };
  let b: number | undefined;
  switch (e.k) {
    case 'num': {
      const v = Number(e.text.replace(/[fFhH]+$/, ''));
      b = Number.isInteger(v) ? Math.abs(v) : undefined;
      break;
    }
    case 'bool': b = 1; break;
    case 'name': b = e.sym ? whole.syms.get(e.sym) : undefined; break;
    case 'indexof': b = whole.position; break;
    case 'unary': b = e.op === '-' || e.op === '+' ? w(e.e) : undefined; break;
    case 'binary': b = e.op === '+' || e.op === '-' ? two(e.l, e.r, (x, y) => x + y) : e.op === '*' ? two(e.l, e.r, (x, y) => x * y) : undefined; break;
    case 'cond': b = all([e.a, e.b]); break;
    case 'comma': b = w(e.r); break;
    case 'assign': b = e.op === '=' ? w(e.r) : undefined; break;
    case 'swizzle': case 'cast': b = w(e.e); break;
    // int, uint, bool to float: whole (rounded to float32, still whole)
    case 'convert': b = e.e.ty?.k !== 'num' ? undefined : e.e.ty.base === 'float' ? w(e.e) : 2 ** 32; break;
    case 'index': b = e.e.ty?.k === 'num' ? w(e.e) : undefined; break;
    case 'call': {
      const tg = e.target;
      if (tg?.kind === 'ctor') b = e.ty?.k === 'num' ? all(e.args) : undefined;
      else if (tg?.kind === 'builtin' && /^(floor|ceil|round|roundEven|trunc)$/.test(tg.glsl)) b = Infinity;
      else if (tg?.kind === 'builtin' && /^(abs|min|max|clamp|sign)$/.test(tg.glsl)) b = all(e.args);
      break;
    }
    default: break;
  }
  // ints, uints and bools are whole (32 bits), whatever the node
  if (b === undefined && t?.k === 'num' && t.base !== 'float') return 2 ** 32;
  return b;
}

/** Float variables known to be whole, each with a bound on its size (Infinity: none), and indexof's bound. */
export interface Whole {
  syms: ReadonlyMap<Sym, number>;
  position: number;
}

/**
 * The float variables of a function body every value of which is a whole number (isWhole), from
 * `seed` (iterators known to be whole) and its local variables: a variable stays while each of its
 * writes keeps it whole (a declaration with no initialiser or a whole one, `=`, `+=`, `-=`, `*=` of
 * a whole value to it or to a component, `++`, `--`); it leaves on any other write (an out
 * argument, `/=`, ...). Repeated until no variable leaves.
 */
export function wholeSyms(body: Stmt, ctx: JsContext, seed: ReadonlyMap<Sym, number>): Whole {
  const { writes, locals } = writesOf(body, ctx);
  const syms = new Map<Sym, number>(seed);
  for (const l of locals) syms.set(l, Infinity);
  const whole: Whole = { syms, position: ctx.positionBound ?? Infinity };
  for (let changed = true; changed; ) {
    changed = false;
    for (const x of writes) {
      if (syms.has(x.sym) && !x.ok(whole)) {
        syms.delete(x.sym);
        changed = true;
      }
    }
  }
  // bounds: a variable written once, by its declaration, is bounded by its initialiser; a seed
  // written at all, or a variable written more than once, is not bounded
  const count = new Map<Sym, number>();
  for (const x of writes) count.set(x.sym, (count.get(x.sym) ?? 0) + 1);
  for (const [sym] of syms) if (count.get(sym) && (seed.has(sym) || count.get(sym)! > 1)) syms.set(sym, Infinity);
  const once = writes.filter((x) => x.init && count.get(x.sym) === 1 && syms.has(x.sym));
  for (let pass = 0; pass < 8; pass++) {
    let changed = false;
    for (const x of once) {
      const b = wholeBound(x.init!, whole);
      if (b !== undefined && b < syms.get(x.sym)!) {
        syms.set(x.sym, b);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return whole;
}

/** The writes of a function body, each with the test that it keeps its variable whole, and its float locals. */
function writesOf(body: Stmt, ctx: JsContext): { writes: Array<{ sym: Sym; ok: (w: Whole) => boolean; init?: Expr }>; locals: Set<Sym> } {
  const writes: Array<{ sym: Sym; ok: (w: Whole) => boolean; init?: Expr }> = [];
  const cands = new Set<Sym>();
  const root = (l: Expr): Sym | undefined => (l.k === 'name' ? l.sym : l.k === 'field' || l.k === 'index' || l.k === 'swizzle' || l.k === 'convert' || l.k === 'cast' ? root(l.e) : undefined);
  const never = () => false;
  const expr = (e: Expr | undefined): void => {
    if (!e) return;
    switch (e.k) {
      case 'assign': {
        const s = root(e.l);
        const r = e.r;
        if (s) writes.push({ sym: s, ok: e.op === '=' || e.op === '+=' || e.op === '-=' || e.op === '*=' ? (w) => wholeBound(r, w) !== undefined : never });
        expr(e.l);
        expr(e.r);
        return;
      }
      case 'unary': case 'postfix': {
        const s = e.op === '++' || e.op === '--' ? root(e.e) : undefined;
        if (s) writes.push({ sym: s, ok: () => true });
        expr(e.e);
        return;
      }
      case 'call': {
        const tg = e.target;
        const params = tg?.kind === 'function' ? ctx.typed(tg.fn).params : undefined;
        e.args.forEach((a, k) => {
          const p = params?.[k];
          const s = p && (p.out || p.inout) ? root(a) : undefined;
          if (s) writes.push({ sym: s, ok: never });
          expr(a);
        });
        return;
      }
      case 'binary': case 'comma': expr(e.l); expr(e.r); return;
      case 'cond': expr(e.c); expr(e.a); expr(e.b); return;
      case 'index': expr(e.e); expr(e.i); return;
      case 'gather': e.indices.forEach(expr); return;
      case 'field': case 'swizzle': case 'convert': case 'cast': case 'push': expr(e.e); return;
      case 'init': e.items.forEach(expr); return;
      default: return;
    }
  };
  const stmt = (s: Stmt | undefined): void => {
    if (!s) return;
    switch (s.k) {
      case 'block': s.body.forEach(stmt); return;
      case 'decl':
        for (const d of s.vars) {
          if (d.sym && d.sym.role === 'local' && d.sym.ty.k === 'num' && d.sym.ty.base === 'float') cands.add(d.sym);
          const init = d.init;
          if (d.sym) writes.push({ sym: d.sym, ok: init ? (w) => init.k !== 'init' && wholeBound(init, w) !== undefined : () => true, init: init && init.k !== 'init' ? init : undefined });
          expr(init);
        }
        return;
      case 'expr': expr(s.e); return;
      case 'if': expr(s.c); stmt(s.then); stmt(s.else); return;
      case 'while': expr(s.c); stmt(s.body); return;
      case 'do': stmt(s.body); expr(s.c); return;
      case 'for': stmt(s.init); expr(s.c); expr(s.step); stmt(s.body); return;
      case 'switch': expr(s.e); stmt(s.body); return;
      case 'case': expr(s.e); return;
      case 'return': expr(s.e); return;
      default: return;
    }
  };
  stmt(body);
  return { writes, locals: cands };
}

/** The variables a function body writes (assignments, ++ and --, out arguments). */
export function writtenSyms(body: Stmt, ctx: JsContext): Set<Sym> {
  return new Set(writesOf(body, ctx).writes.map((x) => x.sym));
}

/** The JavaScript name of component k of an iterator kept as numbers (JsEmitter.parts). */
export const jsIterPart = (name: string, k: number): string => `${jsVar(name)}$${k}`;
