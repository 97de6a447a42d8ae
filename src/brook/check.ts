/**
 * Brook's type checker: the syntax tree (parse.ts) in, a typed tree out (a new one: the
 * parser's is never changed, so a kernel can be checked as a kernel and again as a function
 * another kernel calls). Every expression gets its type from the table of Cg's rules in
 * types.ts; every conversion Cg makes implicitly becomes a `convert` node; an integer literal
 * takes the type its context gives it (`x ? 1 : 0` with a float x is float, `i + 1` with an
 * int i is int, a literal alone is int) — decided here, once. The generators print the tree.
 *
 * Errors are in Brook's words on the user's line ("a float3 cannot be assigned to the float4
 * output 'o'"), never a generated name. Brook's own rules are checked here too: a kernel never
 * writes its input streams, iterators, gathers or constants; a scalar stream has nothing to
 * index; an output is not read before the kernel writes it (in textual order, as BrookGPU's
 * regression tests read outputs after writing them).
 */
import type { CallTarget, Declarator, Expr, FunctionDecl, Param, Program, Stmt, StructDecl, Sym, TypeRef } from './ast';
import type { Pos } from './lex';
import { sourceError } from './lex';
import {
  BOOL, BUILTINS, Base, FLOAT, FLOAT4, INT, INT_LITERAL, Type, UINT, VOID, arithmeticBase, explicitlyConverts, implicitlyConverts, isIntegral, isNum,
  num, OPERATOR_CLASS, sameType, swizzleComponents, typeName, typeOfName,
} from './types';

/** A struct type as the checker knows it. */
export interface StructInfo {
  name: string;
  fields: Array<{ name: string; ty: Type; pos: Pos; written: string }>;
  pos: Pos;
}

/** A function or kernel body, typed: its parameters' symbols and its statements. */
export interface TypedFunction {
  fn: FunctionDecl;
  ret: Type;
  params: Array<{ param: Param; sym: Sym; out: boolean; inout: boolean; gather: boolean }>;
  body: Stmt & { k: 'block' };
  /** Functions its body calls (for ordering and specialization). */
  calls: Set<FunctionDecl>;
  /** Checked as the kernel run (Brook's parameter roles) or as a function another kernel calls. */
  mode: 'kernel' | 'function';
}

/** What the checker knows of the whole source. */
export interface Unit {
  structs: Map<string, StructInfo>;
  typedefs: Map<string, Type>;
  functions: Map<string, FunctionDecl[]>;
  globals: Array<{ decl: Stmt & { k: 'decl' } }>;
  globalSyms: Map<string, Sym>;
}

/** core's record position (kernelsource.ts), readable in a kernel: brook_index (int) and brook_pos (int2). */
const CORE_NAMES = new Map<string, Sym>([
  ['brook_index', { name: 'brook_index', ty: { k: 'num', base: 'int', n: 1 }, role: 'global', isConst: true }],
  ['brook_pos', { name: 'brook_pos', ty: { k: 'num', base: 'int', n: 2 }, role: 'global', isConst: true }],
]);

const READ_ONLY: Partial<Record<Sym['role'], string>> = {
  input: 'an input stream', iter: 'an iterator', gather: 'a gather', reduceInput: 'the stream being reduced', uniform: 'a constant parameter',
};

/** A kernel's parameter as a symbol's role. */
export function paramRole(p: Param, fn: FunctionDecl): Sym['role'] {
  if (fn.kind === 'reduce') {
    if (p.qual === 'reduce') return 'reduceResult';
    if (p.stream && !p.qual) return 'reduceInput';
  }
  if (p.qual === 'out' || p.vout) return 'output';
  if (p.qual === 'iter') return 'iter';
  if (p.gather) return 'gather';
  if (p.stream) return 'input';
  return 'uniform';
}

export class Checker {
  readonly unit: Unit;
  scopes: Array<Map<string, Sym>> = [];
  where = 'brook';
  ret: Type = VOID;
  mode: 'kernel' | 'function' | 'global' | 'expression' = 'global';
  kernel?: FunctionDecl;
  written = new Set<Sym>();
  calls = new Set<FunctionDecl>();
  /** The vout output's symbol of the kernel being checked. */
  vout?: Sym;

  constructor(
    readonly program: Program,
    readonly source: string,
  ) {
    this.unit = { structs: new Map(), typedefs: new Map(), functions: new Map(), globals: [], globalSyms: new Map() };
    this.scopes = [this.unit.globalSyms];
    for (const item of program.items) {
      if (item.k === 'struct') this.declareStruct(item);
      else if (item.k === 'typedef') {
        this.where = 'brook';
        this.unit.typedefs.set(item.name, this.resolve(item.type));
      } else if (item.k === 'function') {
        const list = this.unit.functions.get(item.name) ?? [];
        list.push(item);
        this.unit.functions.set(item.name, list);
      } else {
        this.where = 'brook';
        this.mode = 'global';
        const decl = this.declaration(item.decl, true) as Stmt & { k: 'decl' };
        this.unit.globals.push({ decl });
      }
    }
  }

  fail(p: Pos, msg: string): never {
    throw sourceError(this.where, this.source, p, msg);
  }

  declareStruct(s: StructDecl): void {
    const where = `brook, struct ${s.name}`;
    if (this.unit.structs.has(s.name)) throw sourceError(where, this.source, s.pos, `a struct named ${s.name} is already declared`);
    if (typeOfName(s.name)) throw sourceError(where, this.source, s.pos, `'${s.name}' is a built-in type name`);
    const fields: StructInfo['fields'] = [];
    for (const f of s.fields) {
      this.where = where;
      const ty = this.resolve(f.type);
      for (const n of f.names) {
        if (fields.some((x) => x.name === n)) throw sourceError(where, this.source, f.pos, `field '${n}' is declared twice`);
        fields.push({ name: n, ty, pos: f.pos, written: f.type.name });
      }
    }
    if (fields.length === 0) throw sourceError(where, this.source, s.pos, 'a struct needs at least one field');
    this.unit.structs.set(s.name, { name: s.name, fields, pos: s.pos });
  }

  resolve(ref: TypeRef): Type {
    const t = typeOfName(ref.name);
    if (t) return t;
    if (this.unit.structs.has(ref.name)) return { k: 'struct', name: ref.name };
    const d = this.unit.typedefs.get(ref.name);
    if (d) return d;
    if (/^(?:float|half|double|int)[234]x[234]$/.test(ref.name)) this.fail(ref.pos, `${ref.name}: only square matrices (float2x2, float3x3, float4x4) are possible here`);
    this.fail(ref.pos, `unknown type '${ref.name}'`);
  }

  lookup(name: string): Sym | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const s = this.scopes[k]!.get(name);
      if (s) return s;
    }
    return undefined;
  }

  declare(sym: Sym, pos: Pos): void {
    const top = this.scopes[this.scopes.length - 1]!;
    if (top.has(sym.name)) this.fail(pos, `'${sym.name}' is already declared here`);
    top.set(sym.name, sym);
  }

  /** Types a function's or kernel's body. `asKernel`: with Brook's parameter roles (the kernel run), else as a function called from another. */
  checkFunction(fn: FunctionDecl, asKernel: boolean, where?: string): TypedFunction {
    const kind = fn.kind ? (fn.kind === 'reduce' ? 'reduce' : 'kernel') : 'function';
    this.where = where ?? `brook, ${kind} ${fn.name}`;
    this.mode = asKernel ? 'kernel' : 'function';
    this.kernel = asKernel ? fn : undefined;
    this.written = new Set();
    this.calls = new Set();
    this.vout = undefined;
    this.ret = this.resolve(fn.ret);
    if (this.ret.k === 'array') this.fail(fn.ret.pos, 'a function cannot return an array');
    const scope = new Map<string, Sym>();
    // core's position of the record being written, which kernels written for brookgl's earlier
    // front end read (its notebooks: obstacles(brook_pos - ivec2(1, 0))): read-only ints
    this.scopes = [CORE_NAMES, this.unit.globalSyms, scope];
    const params: TypedFunction['params'] = [];
    for (const p of fn.params) {
      const ty = this.resolve(p.type);
      if (ty.k === 'void') this.fail(p.pos, `parameter '${p.name}' cannot be void`);
      const role: Sym['role'] = asKernel ? paramRole(p, fn) : p.gather ? 'gather' : 'param';
      const sym: Sym = { name: p.name, ty, role, struct: ty.k === 'struct' && asKernel && role !== 'param' ? true : undefined, stream: p.stream || p.qual === 'iter' };
      if (p.qual === 'const') sym.isConst = true;
      if (scope.has(p.name)) this.fail(p.pos, `parameter '${p.name}' is declared twice`);
      scope.set(p.name, sym);
      if (asKernel && p.vout) this.vout = sym;
      const out = p.qual === 'out' || (!!p.vout && !asKernel);
      params.push({ param: p, sym, out, inout: p.qual === 'inout', gather: p.gather > 0 });
    }
    if (!fn.body) throw new Error('checkFunction: a prototype');
    const body = this.block(fn.body, false);
    return { fn, ret: this.ret, params, body, calls: this.calls, mode: asKernel ? 'kernel' : 'function' };
  }

  /** Types one expression against the given symbols (a predicate option's). */
  checkExpression(e: Expr, syms: Sym[], where: string): Expr {
    this.where = where;
    this.mode = 'expression';
    this.scopes = [this.unit.globalSyms, new Map(syms.map((s) => [s.name, s]))];
    return this.settleDefault(this.expr(e));
  }

  // ---------------------------------------------------------------- statements

  block(b: Stmt & { k: 'block' }, scope = true): Stmt & { k: 'block' } {
    if (scope) this.scopes.push(new Map());
    const body = b.body.map((s) => this.stmt(s));
    if (scope) this.scopes.pop();
    return { ...b, body };
  }

  stmt(s: Stmt): Stmt {
    switch (s.k) {
      case 'block': return this.block(s);
      case 'decl': return this.declaration(s, false);
      case 'expr': return { ...s, e: this.settleDefault(this.expr(s.e)) };
      case 'if': {
        const c = this.condition(s.c, 'if');
        return { ...s, c, then: this.scoped(s.then), else: s.else && this.scoped(s.else) };
      }
      case 'while': return { ...s, c: this.condition(s.c, 'while'), body: this.scoped(s.body) };
      case 'do': {
        const body = this.scoped(s.body);
        return { ...s, body, c: this.condition(s.c, 'do ... while') };
      }
      case 'for': {
        this.scopes.push(new Map());
        const init = s.init && this.stmt(s.init);
        const c = s.c && this.condition(s.c, 'for');
        const step = s.step && this.settleDefault(this.expr(s.step));
        const body = this.scoped(s.body);
        this.scopes.pop();
        return { ...s, init, c, step, body };
      }
      case 'switch': {
        const e = this.settleDefault(this.expr(s.e));
        if (!isNum(e.ty) || e.ty.n !== 1 || !isIntegral(e.ty)) this.fail(s.pos, `switch takes an int, not a ${typeName(e.ty!)}`);
        return { ...s, e, body: this.scoped(s.body) };
      }
      case 'case': {
        if (!s.e) return s;
        const e = this.settle(this.expr(s.e), 'int');
        return { ...s, e };
      }
      case 'return': {
        if (!s.e) {
          if (this.ret.k !== 'void') this.fail(s.pos, `return needs a ${typeName(this.ret)} value here`);
          return s;
        }
        if (this.ret.k === 'void') this.fail(s.pos, `${this.kernel ? 'a kernel' : 'this function'} returns nothing (void): write return; or write its outputs`);
        return { ...s, e: this.coerce(this.expr(s.e), this.ret, (from) => `a ${from} cannot be returned as a ${typeName(this.ret)}`) };
      }
      case 'discard':
        if (this.mode !== 'kernel' && this.mode !== 'function') this.fail(s.pos, 'discard is only possible in a kernel');
        return s;
      default:
        return s;
    }
  }

  scoped(s: Stmt): Stmt {
    this.scopes.push(new Map());
    const r = this.stmt(s);
    this.scopes.pop();
    return r;
  }

  /** A condition: a bool (a number is true when nonzero); a vector has no single truth. */
  condition(e: Expr, what: string): Expr {
    const x = this.expr(e);
    if (isNum(x.ty) && x.ty.n > 1) {
      this.fail(e.pos, `the condition of ${what} is a ${typeName(x.ty)}, not one bool: write any(...) or all(...)`);
    }
    return this.toBool(x, e.pos, `the condition of ${what}`);
  }

  declaration(s: Stmt & { k: 'decl' }, global: boolean): Stmt {
    const base = this.resolve(s.type);
    if (base.k === 'void') this.fail(s.pos, 'a variable cannot be void');
    const vars: Declarator[] = [];
    for (const d of s.vars) {
      let ty = base;
      for (let k = d.dims.length - 1; k >= 0; k--) {
        const len = this.constInt(d.dims[k]!, `the size of array '${d.name}'`);
        ty = { k: 'array', elem: ty, len };
      }
      if (d.dims.length > 1) this.fail(d.pos, `'${d.name}': arrays of arrays are not possible in GLSL ES 3.00; use one dimension (a[i * n + j])`);
      let init: Expr | undefined;
      if (d.init) {
        if (d.init.k === 'init') init = this.initializer(d.init, ty, s.type.name, d.name);
        else init = this.coerce(this.expr(d.init), ty, (from) => `a ${from} cannot initialise the ${typeName(ty)} '${d.name}'`);
      }
      const sym: Sym = { name: d.name, ty, role: global ? 'global' : 'local', isConst: s.isConst || undefined };
      this.declare(sym, d.pos);
      vars.push({ ...d, init, ty, sym });
    }
    return { ...s, vars };
  }

  /** A `{...}` initialiser for `ty`: a constructor of a vector, an array or a struct. */
  initializer(e: Expr & { k: 'init' }, ty: Type, written: string, name: string): Expr {
    if (ty.k === 'mat') {
      this.fail(e.pos, `'${written} ${name} = {...}': a matrix's brace initialiser fills rows in Cg and columns in GLSL; write ${written}(...) with the numbers in row order`);
    }
    const items = (want: Type, i: number) => (x: Expr): Expr =>
      x.k === 'init' ? this.initializer(x, want, typeName(want), `${name}[${i}]`) : this.coerce(this.expr(x), want, (from) => `a ${from} cannot initialise a ${typeName(want)} in '${name}'`);
    if (ty.k === 'array') {
      if (e.items.length !== ty.len) this.fail(e.pos, `'${name}' has ${ty.len} elements and its initialiser ${e.items.length}`);
      return { k: 'call', name: typeName(ty), args: e.items.map((x, i) => items(ty.elem, i)(x)), pos: e.pos, ty, target: { kind: 'ctor' } };
    }
    if (ty.k === 'struct') {
      const st = this.unit.structs.get(ty.name)!;
      if (e.items.length !== st.fields.length) this.fail(e.pos, `${ty.name} has ${st.fields.length} fields and the initialiser ${e.items.length}`);
      return { k: 'call', name: ty.name, args: e.items.map((x, i) => items(st.fields[i]!.ty, i)(x)), pos: e.pos, ty, target: { kind: 'ctor' } };
    }
    if (ty.k === 'num') {
      const el = num(ty.base);
      const args = e.items.map((x, i) => items(el, i)(x));
      if (args.length !== ty.n && args.length !== 1) this.fail(e.pos, `a ${typeName(ty)} takes ${ty.n} values, its initialiser has ${args.length}`);
      return { k: 'call', name: typeName(ty), args, pos: e.pos, ty, target: { kind: 'ctor' } };
    }
    this.fail(e.pos, `a ${typeName(ty)} has no {...} initialiser`);
  }

  /** The value of a constant integer expression (an array's size). */
  constInt(e: Expr, what: string): number {
    const v = this.constValue(e);
    if (v === undefined || !Number.isInteger(v) || v < 1) this.fail(e.pos, `${what} must be a positive integer constant`);
    return v;
  }

  constValue(e: Expr): number | undefined {
    switch (e.k) {
      case 'num': return e.float ? undefined : Number(e.text.replace(/[uUlL]+$/, ''));
      case 'unary': {
        const v = this.constValue(e.e);
        return v === undefined ? undefined : e.op === '-' ? -v : e.op === '+' ? v : undefined;
      }
      case 'binary': {
        const a = this.constValue(e.l);
        const b = this.constValue(e.r);
        if (a === undefined || b === undefined) return undefined;
        switch (e.op) {
          case '+': return a + b;
          case '-': return a - b;
          case '*': return a * b;
          case '/': return b === 0 ? undefined : Math.trunc(a / b);
          case '%': return b === 0 ? undefined : a % b;
          case '<<': return a << b;
          case '>>': return a >> b;
          default: return undefined;
        }
      }
      case 'name': {
        const s = this.lookup(e.name);
        if (!s?.isConst) return undefined;
        for (const g of this.unit.globals) {
          const d = g.decl.vars.find((v) => v.sym === s);
          if (d?.init) return this.constValue(stripConvert(d.init));
        }
        return undefined;
      }
      default: return undefined;
    }
  }

  // ---------------------------------------------------------------- conversions

  /** An integer literal (or an expression of them) given the base `base`; anything else unchanged. */
  settle(e: Expr, base: Base): Expr {
    if (!isNum(e.ty) || !e.ty.lit) return e;
    if (base === 'bool') return this.convert(this.settle(e, 'int'), BOOL, false);
    const ty = num(base);
    switch (e.k) {
      case 'num': return { ...e, ty };
      case 'unary': return { ...e, e: this.settle(e.e, base), ty };
      case 'binary': return { ...e, l: this.settle(e.l, base), r: this.settle(e.r, base), ty };
      case 'cond': return { ...e, a: this.settle(e.a, base), b: this.settle(e.b, base), ty };
      case 'comma': return { ...e, r: this.settle(e.r, base), ty };
      default: return { ...e, ty };
    }
  }

  settleDefault(e: Expr): Expr {
    return this.settle(e, 'int');
  }

  convert(e: Expr, to: Type, explicit: boolean): Expr {
    if (sameType(e.ty!, to)) return e;
    return { k: 'convert', e, explicit, pos: e.pos, ty: to };
  }

  /** Cg's implicit conversion of `e` to `to` (types.ts implicitlyConverts), or an error from `message(fromTypeName)`. */
  coerce(e: Expr, to: Type, message: (from: string) => string): Expr {
    let x = e;
    if (isNum(x.ty) && x.ty.lit && to.k === 'num') x = this.settle(x, to.base);
    else x = this.settleDefault(x);
    if (!implicitlyConverts(x.ty!, to)) {
      const from = typeName(x.ty!);
      const hint = isNum(x.ty) && to.k === 'num' && x.ty.n > 1 && to.n > x.ty.n ? ` (Cg does not widen a vector: write ${typeName(to)}(v, ...) with the missing components)` : '';
      this.fail(e.pos, message(from) + hint);
    }
    return this.convert(x, to, false);
  }

  /** A value as a bool of its own shape (a number is true when nonzero). */
  toBool(e: Expr, pos: Pos, what: string): Expr {
    const x = this.settle(e, 'bool');
    if (!isNum(x.ty)) this.fail(pos, `${what} is a ${typeName(x.ty!)}, which is neither a number nor a bool`);
    return this.convert(x, num('bool', x.ty.n), false);
  }

  /** Widens a scalar to n components (explicitly, so every generator sees a vector). */
  widen(e: Expr, n: number): Expr {
    if (!isNum(e.ty) || e.ty.n === n) return e;
    return this.convert(e, num(e.ty.base, n), false);
  }

  // ---------------------------------------------------------------- expressions

  expr(e: Expr): Expr {
    switch (e.k) {
      case 'num': return { ...e, ty: e.float ? FLOAT : e.uint ? UINT : INT_LITERAL };
      case 'bool': return { ...e, ty: BOOL };
      case 'name': return this.name(e);
      case 'unary': return this.unary(e);
      case 'postfix': {
        const l = this.lvalue(e.e, e.op === '++' ? "'++'" : "'--'");
        if (!isNum(l.ty) || l.ty.base === 'bool') this.fail(e.pos, `'${e.op}' needs a number, not a ${typeName(l.ty!)}`);
        return { ...e, e: l, ty: l.ty };
      }
      case 'binary': return this.binary(e.op, this.expr(e.l), this.expr(e.r), e.pos);
      case 'assign': return this.assign(e);
      case 'cond': return this.conditional(e);
      case 'comma': {
        const l = this.settleDefault(this.expr(e.l));
        const r = this.expr(e.r);
        return { ...e, l, r, ty: r.ty };
      }
      case 'call': return this.call(e);
      case 'cast': {
        const to = this.resolve(e.to);
        const x = this.expr(e.e);
        const s = isNum(x.ty) && x.ty.lit && to.k === 'num' ? this.settle(x, to.base) : this.settleDefault(x);
        if (!explicitlyConverts(s.ty!, to)) this.fail(e.pos, `a ${typeName(s.ty!)} cannot be cast to a ${typeName(to)}`);
        return sameType(s.ty!, to) ? s : { k: 'convert', e: s, explicit: true, pos: e.pos, ty: to };
      }
      case 'index': return this.index(e);
      case 'field': return this.field(e);
      case 'indexof': {
        const sym = this.lookup(e.name);
        if (!sym) this.fail(e.pos, `indexof: '${e.name}' is not declared`);
        return { ...e, sym, ty: FLOAT4 };
      }
      case 'init': this.fail(e.pos, "a '{...}' initialiser is only possible in a declaration");
      default: return e;
    }
  }

  name(e: Expr & { k: 'name' }): Expr {
    const sym = this.lookup(e.name);
    if (!sym) {
      if (this.unit.functions.has(e.name) || BUILTINS[e.name]) this.fail(e.pos, `'${e.name}' is a function: call it, ${e.name}(...)`);
      this.fail(e.pos, `'${e.name}' is not declared`);
    }
    if (sym.role === 'gather') this.fail(e.pos, `'${e.name}' is a gather: read a record of it, ${e.name}[i]`);
    if (sym.role === 'output' && this.mode === 'kernel' && !this.written.has(sym) && sym !== this.vout) this.outputRead(e.pos, sym, 'a read');
    return { ...e, sym, ty: sym.ty };
  }

  outputRead(pos: Pos, sym: Sym, what: string): never {
    this.fail(
      pos,
      `'${sym.name}' is an output stream, and ${what} here uses its value before the kernel has written it; ` +
        'Brook leaves that value undefined (BrookGPU read garbage on the GPU, the old stream contents on the CPU): assign it first, or read the old values through an input stream or a gather',
    );
  }

  /** An assignable expression: its root is writable; an output's compound use is a read. */
  lvalue(e: Expr, use: string | undefined): Expr {
    let root = e;
    while (root.k === 'field' || root.k === 'index') root = root.e;
    if (root.k !== 'name') this.fail(e.pos, `this cannot be assigned to (${show(e)} is not a variable)`);
    const sym = this.lookup(root.name);
    if (!sym) this.fail(root.pos, `'${root.name}' is not declared`);
    const ro = READ_ONLY[sym.role];
    if (ro) {
      this.fail(root.pos, `'${sym.name}' is ${ro}, which a kernel cannot write; copy it into a local variable or write an out parameter`);
    }
    if (sym.isConst) this.fail(root.pos, `'${sym.name}' is const, which cannot be written`);
    if (use && sym.role === 'output' && this.mode === 'kernel' && !this.written.has(sym)) this.outputRead(root.pos, sym, use);
    // typed without the output check (a plain '=' writes it)
    const wasWritten = this.written.has(sym);
    this.written.add(sym);
    const x = this.expr(e);
    if (!wasWritten) this.written.delete(sym);
    if (x.k === 'swizzle') {
      if (new Set(x.comps).size !== x.comps.length) this.fail(e.pos, `the swizzle .${(e as { f: string }).f} repeats a component, so it cannot be assigned to`);
      if (isNum(x.e.ty) && x.e.ty.n === 1) this.fail(e.pos, `a swizzle of a scalar cannot be assigned to; assign ${show(x.e)} itself`);
    }
    return x;
  }

  markWritten(e: Expr): void {
    let root = e;
    while (root.k === 'field' || root.k === 'index' || root.k === 'swizzle' || root.k === 'convert') root = root.e;
    if (root.k === 'name' && root.sym) this.written.add(root.sym);
  }

  unary(e: Expr & { k: 'unary' }): Expr {
    if (e.op === '++' || e.op === '--') {
      const l = this.lvalue(e.e, e.op === '++' ? "'++'" : "'--'");
      if (!isNum(l.ty) || l.ty.base === 'bool') this.fail(e.pos, `'${e.op}' needs a number, not a ${typeName(l.ty!)}`);
      return { ...e, e: l, ty: l.ty };
    }
    const x = this.expr(e.e);
    if (e.op === '!') {
      const b = this.toBool(x, e.pos, `the operand of '!'`);
      return { ...e, e: b, ty: b.ty };
    }
    if (e.op === '~') {
      const s = this.settleDefault(x);
      if (!isIntegral(s.ty)) this.fail(e.pos, `'~' needs an int or uint, not a ${typeName(s.ty!)}`);
      return { ...e, e: s, ty: s.ty };
    }
    if (isNum(x.ty) && x.ty.base === 'bool') {
      const c = this.convert(x, num('int', x.ty.n), false);
      return { ...e, e: c, ty: c.ty };
    }
    if (!isNum(x.ty) && x.ty!.k !== 'mat') this.fail(e.pos, `'${e.op}' needs a number, not a ${typeName(x.ty!)}`);
    return { ...e, e: x, ty: x.ty };
  }

  /** Cg's binary operators (types.ts OPERATOR_CLASS). */
  binary(op: string, l0: Expr, r0: Expr, pos: Pos): Expr {
    const cls = OPERATOR_CLASS[op]!;
    let l = l0;
    let r = r0;
    const both = (what: string): never => this.fail(pos, `'${op}' cannot combine a ${typeName(l.ty!)} and a ${typeName(r.ty!)}${what}`);
    if (cls === 'logical') {
      l = this.toBool(l, l0.pos, `the left operand of '${op}'`);
      r = this.toBool(r, r0.pos, `the right operand of '${op}'`);
      const n = this.sizes(l, r, both);
      l = this.widen(l, n);
      r = this.widen(r, n);
      const ty = num('bool', n);
      if (n === 1) return { k: 'binary', op, l, r, pos, ty };
      return { k: 'call', name: op, args: [l, r], pos, ty, target: { kind: 'helper', helper: `brook_${op === '&&' ? 'and' : 'or'}` } };
    }
    // matrices: GLSL's linear algebra
    if (l.ty!.k === 'mat' || r.ty!.k === 'mat') return this.matrixOp(op, l, r, pos, both);
    if (cls === 'equal' && l.ty!.k === 'struct' && sameType(l.ty!, r.ty!)) return { k: 'binary', op, l, r, pos, ty: BOOL };
    if (!isNum(l.ty) || !isNum(r.ty)) both('');
    // an integer literal takes the other side's base
    if ((l.ty as { lit?: boolean }).lit && (r.ty as { lit?: boolean }).lit) {
      if (cls === 'arith') return { k: 'binary', op, l, r, pos, ty: INT_LITERAL };
      l = this.settleDefault(l);
      r = this.settleDefault(r);
    } else if (isNum(l.ty) && l.ty.lit) l = this.settle(l, (r.ty as { base: Base }).base === 'bool' ? 'int' : (r.ty as { base: Base }).base);
    else if (isNum(r.ty) && r.ty.lit) r = this.settle(r, (l.ty as { base: Base }).base === 'bool' ? 'int' : (l.ty as { base: Base }).base);
    const lt = l.ty as Type & { k: 'num' };
    const rt = r.ty as Type & { k: 'num' };
    const n = this.sizes(l, r, both);
    if (cls === 'equal' && lt.base === 'bool' && rt.base === 'bool') {
      return this.compareOp(op, this.widen(l, n), this.widen(r, n), pos, n);
    }
    const asNum = (b: Base): Base => (b === 'bool' ? 'int' : b);
    const base = arithmeticBase(asNum(lt.base), asNum(rt.base));
    if (cls === 'bits' || cls === 'shift') {
      if (base === 'float') this.fail(pos, `'${op}' needs ints or uints, not a ${typeName(lt)} and a ${typeName(rt)}`);
      if (cls === 'shift') {
        // GLSL shifts take either signedness on the right; the result is the left's
        l = this.convert(l, num(asNum(lt.base), lt.n), false);
        r = this.convert(r, num(asNum(rt.base), rt.n === 1 ? 1 : n), false);
        if (lt.n === 1 && n > 1) l = this.widen(l, n);
        return { k: 'binary', op, l, r, pos, ty: l.ty };
      }
    }
    l = this.widen(this.convert(l, num(base, lt.n), false), n);
    r = this.widen(this.convert(r, num(base, rt.n), false), n);
    if (cls === 'compare' || cls === 'equal') return this.compareOp(op, l, r, pos, n);
    if (cls === 'mod' && base === 'float') {
      return { k: 'call', name: 'fmod', args: [l, r], pos, ty: num(base, n), target: { kind: 'builtin', glsl: 'fmod' } };
    }
    // '/' of ints is C's integer division, as GLSL's
    return { k: 'binary', op, l, r, pos, ty: num(base, n) };
  }

  compareOp(op: string, l: Expr, r: Expr, pos: Pos, n: number): Expr {
    return { k: 'binary', op, l, r, pos, ty: num('bool', n) };
  }

  /** The size of a componentwise result: equal sizes, or a scalar with a vector. */
  sizes(l: Expr, r: Expr, both: (what: string) => never): number {
    const a = (l.ty as { n: number }).n;
    const b = (r.ty as { n: number }).n;
    if (a !== b && a !== 1 && b !== 1) both(` (vectors of different sizes: take a swizzle, e.g. .${'xyzw'.slice(0, Math.min(a, b))})`);
    return Math.max(a, b);
  }

  matrixOp(op: string, l0: Expr, r0: Expr, pos: Pos, both: (what: string) => never): Expr {
    const l = this.settle(l0, 'float');
    const r = this.settle(r0, 'float');
    const lt = l.ty!;
    const rt = r.ty!;
    const f = (e: Expr) => (isNum(e.ty) ? this.convert(e, num('float', e.ty.n), false) : e);
    if (lt.k === 'mat' && rt.k === 'mat' && lt.n === rt.n && ['+', '-', '*', '/'].includes(op)) return { k: 'binary', op, l, r, pos, ty: lt };
    if (lt.k === 'mat' && isNum(rt) && rt.n === 1 && ['+', '-', '*', '/'].includes(op)) return { k: 'binary', op, l, r: f(r), pos, ty: lt };
    if (rt.k === 'mat' && isNum(lt) && lt.n === 1 && ['+', '-', '*', '/'].includes(op)) return { k: 'binary', op, l: f(l), r, pos, ty: rt };
    if (op === '*' && lt.k === 'mat' && isNum(rt) && rt.n === lt.n) return { k: 'binary', op, l, r: f(r), pos, ty: num('float', lt.n) };
    if (op === '*' && rt.k === 'mat' && isNum(lt) && lt.n === rt.n) return { k: 'binary', op, l: f(l), r, pos, ty: num('float', rt.n) };
    return both('');
  }

  assign(e: Expr & { k: 'assign' }): Expr {
    if (e.op === '=') {
      const r = this.expr(e.r);
      const l = this.lvalue(e.l, undefined);
      const rr = this.coerce(r, l.ty!, (from) => `a ${from} cannot be assigned to ${describeTarget(l)}`);
      this.markWritten(l);
      return { ...e, l, r: rr, ty: l.ty };
    }
    const op = e.op.slice(0, -1);
    const r = this.expr(e.r);
    const l = this.lvalue(e.l, `'${e.op}'`);
    const b = this.binary(op, l, r, e.pos);
    const natural = b.k === 'binary' && b.l === l && sameType(b.ty!, l.ty!);
    if (natural) return { ...e, l, r: (b as { r: Expr }).r, ty: l.ty };
    if (!implicitlyConverts(b.ty!, l.ty!)) this.fail(e.pos, `'${e.op}' gives a ${typeName(b.ty!)}, which cannot be assigned to ${describeTarget(l)}`);
    return { ...e, op: '=', l, r: this.convert(b, l.ty!, false), ty: l.ty };
  }

  conditional(e: Expr & { k: 'cond' }): Expr {
    const c0 = this.expr(e.c);
    let a = this.expr(e.a);
    let b = this.expr(e.b);
    if (isNum(a.ty) && isNum(b.ty)) {
      if (a.ty.lit && b.ty.lit) {
        /* both literals: the context decides */
      } else if (a.ty.lit) a = this.settle(a, b.ty.base);
      else if (b.ty.lit) b = this.settle(b, a.ty.base);
      const at = a.ty as Type & { k: 'num' };
      const bt = b.ty as Type & { k: 'num' };
      if (!(at.lit && bt.lit)) {
        const n = this.sizes(a, b, (w) => this.fail(e.pos, `the two sides of ?: are a ${typeName(at)} and a ${typeName(bt)}${w}`));
        const base = at.base === bt.base ? at.base : arithmeticBase(at.base === 'bool' ? 'int' : at.base, bt.base === 'bool' ? 'int' : bt.base);
        a = this.widen(this.convert(a, num(base, at.n), false), n);
        b = this.widen(this.convert(b, num(base, bt.n), false), n);
      }
    } else if (!sameType(a.ty!, b.ty!)) {
      this.fail(e.pos, `the two sides of ?: are a ${typeName(a.ty!)} and a ${typeName(b.ty!)}`);
    }
    const c = this.toBool(c0, e.c.pos, 'the condition of ?:');
    const cn = (c.ty as { n: number }).n;
    if (cn === 1) return { ...e, c, a, b, ty: a.ty };
    // Cg's componentwise ?: on a bool vector
    if (!isNum(a.ty)) this.fail(e.pos, `a ${typeName(c.ty!)} condition selects components of vectors, not a ${typeName(a.ty!)}`);
    a = this.settle(a, 'float');
    b = this.settle(b, 'float');
    const n = Math.max(cn, (a.ty as { n: number }).n);
    if ((a.ty as { n: number }).n !== 1 && (a.ty as { n: number }).n !== cn) this.fail(e.pos, `a ${typeName(c.ty!)} condition cannot select between ${typeName(a.ty!)}s`);
    const ty = num((a.ty as { base: Base }).base, n);
    return { k: 'call', name: '?:', args: [c, this.widen(a, n), this.widen(b, n)], pos: e.pos, ty, target: { kind: 'helper', helper: 'brook_select' } };
  }

  index(e: Expr & { k: 'index' }): Expr {
    // a gather's record: g[i], g[i][j], ... (slowest first)
    const chain: Expr[] = [];
    let root: Expr = e;
    while (root.k === 'index') {
      chain.unshift(root.i);
      root = root.e;
    }
    if (root.k === 'name') {
      const sym = this.lookup(root.name);
      if (sym?.role === 'gather') return this.gather(sym, chain.slice(0, 4), root.pos, e, chain.length);
      if (sym && sym.stream && isNum(sym.ty) && sym.ty.n === 1 && this.mode === 'kernel' && (sym.role === 'input' || sym.role === 'iter' || sym.role === 'reduceInput')) {
        const what = sym.role === 'iter' ? 'an iterator' : sym.role === 'input' ? 'an input stream' : 'the stream being reduced';
        const tn = typeName(sym.ty);
        this.fail(e.pos, `'${sym.name}' is ${what} (${tn} ${sym.name}<>), one record per output: '${sym.name}[' has nothing to index; read ${sym.name} itself, or declare it a gather (${tn} ${sym.name}[]) to read records by index`);
      }
    }
    const base = this.expr(e.e);
    const i = this.settleDefault(this.expr(e.i));
    if (!isNum(i.ty) || i.ty.n !== 1 || i.ty.base === 'bool') this.fail(e.i.pos, `an index must be an int, not a ${typeName(i.ty!)}`);
    const ii = this.convert(i, i.ty.base === 'float' ? INT : i.ty, false);
    const t = base.ty!;
    if (t.k === 'array') return { ...e, e: base, i: ii, ty: t.elem };
    if (t.k === 'num' && t.n > 1) return { ...e, e: base, i: ii, ty: num(t.base) };
    if (t.k === 'mat') return { ...e, e: base, i: ii, ty: num('float', t.n) };
    this.fail(e.pos, `a ${typeName(t)} cannot be indexed`);
  }

  gather(sym: Sym, chain: Expr[], pos: Pos, whole: Expr, depth: number): Expr {
    if (depth > 4) this.fail(whole.pos, `'${sym.name}' is indexed ${depth} times; a gather has at most 4 dimensions`);
    let idx = chain.map((x) => this.expr(x));
    for (const [k, x] of idx.entries()) {
      if (!isNum(x.ty) || x.ty.base === 'bool' || (idx.length > 1 && x.ty.n > 1)) {
        this.fail(chain[k]!.pos, `an index of the gather '${sym.name}' must be a number${idx.length > 1 ? '' : ' or a float2..float4 / int2..int4 position'}, not a ${typeName(x.ty!)}`);
      }
    }
    if (idx.length === 1) {
      const x = this.settleDefault(idx[0]!);
      idx = [x];
    } else {
      const anyFloat = idx.some((x) => isNum(x.ty) && !x.ty.lit && x.ty.base === 'float');
      const base: Base = anyFloat ? 'float' : 'int';
      idx = idx.map((x) => this.convert(this.settle(x, base), num(base), false));
    }
    return { k: 'gather', sym, indices: idx, pos, ty: sym.ty };
  }

  field(e: Expr & { k: 'field' }): Expr {
    const base = this.expr(e.e);
    const t = base.ty!;
    if (t.k === 'struct') {
      const st = this.unit.structs.get(t.name)!;
      const f = st.fields.find((x) => x.name === e.f);
      if (!f) this.fail(e.pos, `${t.name} has no field '${e.f}' (its fields: ${st.fields.map((x) => x.name).join(', ')})`);
      return { ...e, e: base, ty: f.ty };
    }
    if (t.k === 'num') {
      const comps = swizzleComponents(e.f);
      if (!comps) this.fail(e.pos, `a ${typeName(t)} has no field '${e.f}' (swizzles: .x .xy .xyz .xyzw, or .rgba)`);
      const s = this.settleDefault(base);
      const st = s.ty as Type & { k: 'num' };
      for (const c of comps) if (c >= st.n) this.fail(e.pos, `a ${typeName(st)} has no component '${e.f[comps.indexOf(c)]}'`);
      return { k: 'swizzle', e: s, comps, pos: e.pos, ty: num(st.base, comps.length) };
    }
    this.fail(e.pos, `a ${typeName(t)} has no fields`);
  }

  call(e: Expr & { k: 'call' }): Expr {
    // g(i) / g(i, j): a gather read written as core's accessor call (brookgl's earlier kernels), as g[i][j]
    const g = this.lookup(e.name);
    if (g?.role === 'gather' && e.args.length >= 1) return this.gather(g, e.args.slice(0, 4), e.pos, e, e.args.length);
    const ctor = typeOfName(e.name) ?? (this.unit.structs.has(e.name) ? ({ k: 'struct', name: e.name } as Type) : this.unit.typedefs.get(e.name));
    if (ctor) return this.constructor_(e, ctor);
    if (e.name === 'push' && this.vout && this.mode === 'kernel' && !this.unit.functions.has('push')) {
      if (e.args.length !== 1) this.fail(e.pos, 'push takes one value, the record to push');
      const x = this.coerce(this.expr(e.args[0]!), this.vout.ty, (from) => `a ${from} cannot be pushed to the ${typeName(this.vout!.ty)} vout stream '${this.vout!.name}'`);
      return { k: 'push', e: x, pos: e.pos, ty: VOID };
    }
    if (e.name === 'push' && !this.unit.functions.has('push') && this.mode === 'kernel') this.fail(e.pos, 'push() needs a vout parameter (vout[4] float o<>)');
    const fns = this.unit.functions.get(e.name);
    if (fns) return this.userCall(e, fns);
    const b = BUILTINS[e.name];
    if (b) return this.builtin(e, b);
    this.fail(e.pos, `'${e.name}' is not a function this source declares nor one of Cg's built-ins`);
  }

  constructor_(e: Expr & { k: 'call' }, ty: Type): Expr {
    const args = e.args.map((a) => this.expr(a));
    if (ty.k === 'num') {
      const base = ty.base;
      const xs = args.map((a) => this.settle(a, base === 'bool' ? 'int' : base));
      let count = 0;
      for (const x of xs) {
        if (!isNum(x.ty)) this.fail(x.pos, `a ${typeName(ty)} cannot be made from a ${typeName(x.ty!)}`);
        count += x.ty.n;
      }
      if (!(xs.length === 1 && (count === 1 || count >= ty.n)) && count !== ty.n) {
        this.fail(e.pos, `${typeName(ty)}(...) needs ${ty.n} components, these arguments give ${count}`);
      }
      if (xs.length === 1) {
        // one argument: a conversion (replicated or truncated)
        return { k: 'convert', e: xs[0]!, explicit: true, pos: e.pos, ty };
      }
      return { ...e, args: xs.map((x) => this.convert(x, num(base, (x.ty as { n: number }).n), false)), ty, target: { kind: 'ctor' } };
    }
    if (ty.k === 'mat') {
      const xs = args.map((a) => this.settle(a, 'float'));
      return { ...e, args: xs.map((x) => (isNum(x.ty) ? this.convert(x, num('float', x.ty.n), false) : x)), ty, target: { kind: 'ctor' } };
    }
    if (ty.k === 'struct') {
      const st = this.unit.structs.get(ty.name)!;
      if (args.length !== st.fields.length) this.fail(e.pos, `${ty.name}(...) takes ${st.fields.length} values (its fields), got ${args.length}`);
      return { ...e, args: args.map((a, i) => this.coerce(a, st.fields[i]!.ty, (from) => `field '${st.fields[i]!.name}' of ${ty.name} is a ${typeName(st.fields[i]!.ty)}, not a ${from}`)), ty, target: { kind: 'ctor' } };
    }
    this.fail(e.pos, `a ${typeName(ty)} has no constructor`);
  }

  userCall(e: Expr & { k: 'call' }, fns: FunctionDecl[]): Expr {
    const cands = fns.filter((f) => f.params.length === e.args.length && f.kind !== 'reduce');
    if (cands.length === 0) {
      const f = fns[0]!;
      if (f.kind === 'reduce') this.fail(e.pos, `${e.name} is a reduce kernel, which cannot be called from a kernel`);
      this.fail(e.pos, `${e.name} takes ${f.params.length} arguments, this call passes ${e.args.length}`);
    }
    const defined = (f: FunctionDecl) => f.body !== undefined || fns.some((g) => g.body && g.params.length === f.params.length);
    // the first candidate whose parameters take the arguments (C has one; Cg overloads)
    let lastError: unknown;
    for (const fn of cands) {
      if (!defined(fn)) continue;
      try {
        return this.callOf(e, fn);
      } catch (err) {
        lastError = err;
      }
    }
    if (lastError) throw lastError;
    this.fail(e.pos, `${e.name} is declared but not defined in this source; brookgl compiles one source at a time: put its definition in the same source`);
  }

  callOf(e: Expr & { k: 'call' }, fn0: FunctionDecl): Expr {
    const fn = fn0.body ? fn0 : this.unit.functions.get(fn0.name)!.find((g) => g.body && g.params.length === fn0.params.length)!;
    const args: Expr[] = [];
    const gathers: Array<Sym | undefined> = [];
    fn.params.forEach((p, k) => {
      const a = e.args[k]!;
      if (p.gather) {
        const sym = a.k === 'name' ? this.lookup(a.name) : undefined;
        if (!sym || sym.role !== 'gather') this.fail(a.pos, `argument ${k + 1} of ${fn.name} ('${p.name}') is a gather: pass the name of a gather ([]) parameter, got '${show(a)}'`);
        const want = this.resolve(p.type);
        if (!sameType(want, sym.ty)) this.fail(a.pos, `argument ${k + 1} of ${fn.name} ('${p.name}') is a gather of ${typeName(want)}, and '${sym.name}' one of ${typeName(sym.ty)}`);
        gathers.push(sym);
        args.push({ k: 'name', name: sym.name, pos: a.pos, sym, ty: sym.ty });
        return;
      }
      gathers.push(undefined);
      const want = this.resolve(p.type);
      if (p.qual === 'out' || p.qual === 'inout' || (p.vout && fn.kind)) {
        const l = this.lvalue(a, p.qual === 'inout' ? 'a read' : undefined);
        if (!sameType(l.ty!, want)) this.fail(a.pos, `argument ${k + 1} of ${fn.name} ('${p.name}') is an out ${typeName(want)}, and ${show(a)} is a ${typeName(l.ty!)}`);
        this.markWritten(l);
        args.push(l);
        return;
      }
      args.push(this.coerce(this.expr(a), want, (from) => `argument ${k + 1} of ${fn.name} ('${p.name}') is a ${typeName(want)}; a ${from} cannot be passed`));
    });
    this.calls.add(fn);
    return { ...e, args, ty: this.resolve(fn.ret), target: { kind: 'function', fn, gathers } };
  }

  builtin(e: Expr & { k: 'call' }, b: (typeof BUILTINS)[string]): Expr {
    const [lo, hi] = typeof b.args === 'number' ? [b.args, b.args] : b.args;
    if (e.args.length < lo || e.args.length > hi) this.fail(e.pos, `${e.name} takes ${lo === hi ? lo : `${lo} or ${hi}`} argument${hi > 1 ? 's' : ''}, got ${e.args.length}`);
    let args = e.args.map((a) => this.expr(a));
    for (const [k, a] of args.entries()) if (!isNum(a.ty) && a.ty!.k !== 'mat') this.fail(e.args[k]!.pos, `${e.name} takes numbers, and argument ${k + 1} is a ${typeName(a.ty!)}`);
    const glsl = b.glsl ?? e.name;
    const target: CallTarget = { kind: 'builtin', glsl };
    const nOf = (x: Expr) => (x.ty as { n: number }).n;
    const out = (ty: Type, xs: Expr[]): Expr => ({ ...e, args: xs, ty, target });
    switch (b.rule) {
      case 'float': {
        const x = this.settle(args[0]!, 'float');
        const f = this.convert(x, num('float', nOf(x)), false);
        return out(f.ty!, [f]);
      }
      case 'same':
      case 'samefloat': {
        const anyFloat = b.rule === 'samefloat' || args.some((x) => isNum(x.ty) && !x.ty.lit && x.ty.base === 'float');
        const anyUint = args.some((x) => isNum(x.ty) && !x.ty.lit && x.ty.base === 'uint');
        const base: Base = anyFloat ? 'float' : anyUint ? 'uint' : 'int';
        args = args.map((x) => this.settle(x, base));
        const sized = args.map(nOf);
        const n = Math.max(...sized);
        if (sized.some((m) => m !== 1 && m !== n)) this.fail(e.pos, `${e.name}'s arguments are vectors of different sizes (${args.map((x) => typeName(x.ty!)).join(', ')})`);
        const xs = args.map((x) => this.widen(this.convert(x, num(base, nOf(x)), false), n));
        return out(num(base, n), xs);
      }
      case 'scalar': {
        const xs = args.map((x) => this.convert(this.settle(x, 'float'), num('float', nOf(x)), false));
        if (xs.length === 2 && nOf(xs[0]!) !== nOf(xs[1]!)) this.fail(e.pos, `${e.name} takes two vectors of one size, not a ${typeName(xs[0]!.ty!)} and a ${typeName(xs[1]!.ty!)}`);
        return out(FLOAT, xs);
      }
      case 'cross': {
        const xs = args.map((x) => this.convert(this.settle(x, 'float'), num('float', nOf(x)), false));
        if (xs.some((x) => nOf(x) !== 3)) this.fail(e.pos, 'cross takes two float3s');
        return out(num('float', 3), xs);
      }
      case 'bool': {
        const x = this.settle(args[0]!, 'float');
        const f = this.convert(x, num('float', nOf(x)), false);
        return out(num('bool', nOf(f)), [f]);
      }
      case 'reduce': {
        const x = this.toBool(args[0]!, e.pos, `the argument of ${e.name}`);
        if (nOf(x) === 1) return x; // any(b) of a scalar is b
        return out(BOOL, [x]);
      }
      case 'not': {
        const x = this.toBool(args[0]!, e.pos, 'the argument of not');
        return nOf(x) === 1 ? { k: 'unary', op: '!', e: x, pos: e.pos, ty: BOOL } : out(x.ty!, [x]);
      }
      case 'compare': {
        const r = this.binary(e.name === 'equal' ? '==' : e.name === 'notEqual' ? '!=' : e.name === 'lessThan' ? '<' : e.name === 'greaterThan' ? '>' : e.name === 'lessThanEqual' ? '<=' : '>=', args[0]!, args[1]!, e.pos);
        return r;
      }
      case 'bits': {
        const x = this.settle(args[0]!, b.from!);
        const c = this.convert(x, num(b.from!, nOf(x)), false);
        return out(num(b.to!, nOf(c)), [c]);
      }
      case 'matrix': {
        for (const x of args) if (x.ty!.k !== 'mat') this.fail(e.pos, `${e.name} takes a matrix`);
        return out(e.name === 'determinant' ? FLOAT : args[0]!.ty!, args);
      }
    }
  }
}

function stripConvert(e: Expr): Expr {
  return e.k === 'convert' ? stripConvert(e.e) : e;
}

/** What an assignment writes, in words: the float4 output 'o', o.x (a float). */
function describeTarget(l: Expr): string {
  if (l.k === 'name' && l.sym) {
    const role = l.sym.role === 'output' ? 'output' : l.sym.role === 'param' ? 'parameter' : l.sym.role === 'reduceResult' ? 'reduce parameter' : 'variable';
    return `the ${typeName(l.ty!)} ${role} '${l.name}'`;
  }
  return `${show(l)} (a ${typeName(l.ty!)})`;
}

/** An expression as the user would write it, for messages. */
export function show(e: Expr): string {
  switch (e.k) {
    case 'num': return e.text;
    case 'bool': return String(e.value);
    case 'name': return e.name;
    case 'unary': return `${e.op}${show(e.e)}`;
    case 'postfix': return `${show(e.e)}${e.op}`;
    case 'binary': return `${show(e.l)} ${e.op} ${show(e.r)}`;
    case 'assign': return `${show(e.l)} ${e.op} ${show(e.r)}`;
    case 'cond': return `${show(e.c)} ? ${show(e.a)} : ${show(e.b)}`;
    case 'comma': return `${show(e.l)}, ${show(e.r)}`;
    case 'call': return `${e.name}(${e.args.map(show).join(', ')})`;
    case 'cast': return `(${e.to.name})${show(e.e)}`;
    case 'index': return `${show(e.e)}[${show(e.i)}]`;
    case 'field': return `${show(e.e)}.${e.f}`;
    case 'indexof': return `indexof(${e.name})`;
    case 'init': return `{${e.items.map(show).join(', ')}}`;
    case 'gather': return `${e.sym.name}${e.indices.map((i) => `[${show(i)}]`).join('')}`;
    case 'swizzle': return `${show(e.e)}.${e.comps.map((c) => 'xyzw'[c]).join('')}`;
    case 'convert': return show(e.e);
    case 'push': return `push(${show(e.e)})`;
  }
}

export { BOOL, FLOAT, INT, UINT };
