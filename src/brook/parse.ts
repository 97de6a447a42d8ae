/**
 * Brook's parser, as brcc's C grammar: tokens (lex.ts) to the syntax tree (ast.ts), with no
 * types decided. It takes C's expressions (every operator, ?:, the comma, compound assignment,
 * ++/--, casts `(float3)(v)`), C's statements, Cg's constructors and `{}` initialisers, structs
 * and typedefs, functions with or without `kernel` and their prototypes, and Brook's parameter
 * kinds (`float a<>`, `out`, `iter`, `reduce`, `vout[N]`, gathers with anything between their
 * brackets: `float a[ARRAYSIZE]`, `float x[N+1]`, `[][]`), and `indexof`. A syntax error names
 * the user's line and column and what was expected.
 */
import type { Declarator, Expr, FunctionDecl, Param, Program, Stmt, StructDecl, TopLevel, TypeRef } from './ast';
import { Pos, Tok, lex, sourceError } from './lex';
import { typeOfName } from './types';

/** Binary operators by precedence, loosest first (C's table). */
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
const LEVEL = new Map<string, number>(LEVELS.flatMap((ops, i) => ops.map((o): [string, number] => [o, i])));
const ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);
const QUALIFIERS = new Set(['out', 'inout', 'in', 'iter', 'const', 'reduce']);
const KEYWORDS = new Set(['if', 'else', 'while', 'do', 'for', 'return', 'break', 'continue', 'switch', 'case', 'default', 'discard', 'struct', 'typedef', 'kernel', 'reduce', 'true', 'false', 'indexof', 'goto', 'sizeof']);

/** Parses Brook source into its syntax tree. `where` prefixes errors; `shown` (of the same length) is the text errors quote. */
export function parseProgram(source: string, where = 'brook', shown = source): Program {
  return new Parser(lex(source, where), shown, where).program();
}

/** Parses one expression and nothing else (a predicate option), or throws with `what` named. */
export function parseExpression(text: string, where: string): Expr {
  const p = new Parser(lex(text, where), text, where);
  const e = p.expr();
  if (p.peek().k !== 'eof') p.fail(p.peek(), `expected the end of the expression, found '${p.peek().t}' (the option takes exactly one expression)`);
  return e;
}

class Parser {
  i = 0;
  /** Struct and typedef names seen so far: they read as types. */
  readonly types = new Set<string>();

  constructor(
    readonly toks: Tok[],
    readonly source: string,
    readonly where: string,
  ) {}

  peek(k = 0): Tok {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }

  next(): Tok {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }

  is(t: string, k = 0): boolean {
    const x = this.peek(k);
    return x.k !== 'num' && x.k !== 'eof' && x.t === t;
  }

  accept(t: string): boolean {
    if (!this.is(t)) return false;
    this.next();
    return true;
  }

  fail(p: Pos, msg: string): never {
    throw sourceError(this.where, this.source, p, msg);
  }

  /** Expects `t`; a missing one is reported right after the token before it (C compilers' place for a missing ';'). */
  expect(t: string, what = `'${t}'`): Tok {
    if (this.is(t)) return this.next();
    const prev = this.toks[this.i - 1];
    const here = this.peek();
    const found = here.k === 'eof' ? 'the end of the source' : `'${here.t}'`;
    if (prev && (t === ';' || t === ')' || t === ']') && prev.line < here.line) {
      this.fail({ line: prev.line, col: prev.col + prev.t.length }, `expected ${what} after '${prev.t}'`);
    }
    this.fail(here, `expected ${what}, found ${found}`);
  }

  ident(what: string): Tok {
    const t = this.peek();
    if (t.k !== 'id' || KEYWORDS.has(t.t)) this.fail(t, `expected ${what}, found ${t.k === 'eof' ? 'the end of the source' : `'${t.t}'`}`);
    return this.next();
  }

  /** Whether the tokens at k start a type name. */
  isType(k = 0): boolean {
    const t = this.peek(k);
    return t.k === 'id' && (t.t === 'unsigned' || typeOfName(t.t) !== undefined || this.types.has(t.t));
  }

  /** A type name: `float4`, `unsigned int`, `unsigned char`, a struct or typedef, `struct Name`. */
  typeRef(): TypeRef {
    const t = this.peek();
    if (t.t === 'struct') {
      this.next();
      const n = this.ident('a struct name');
      return { name: n.t, pos: t };
    }
    if (!this.isType()) {
      if (t.k === 'id' && !KEYWORDS.has(t.t) && !QUALIFIERS.has(t.t)) this.fail(t, `unknown type '${t.t}' (use float, float2-4, int, int2-4, uint, uint2-4, bool, char, a struct or a typedef)`);
      this.fail(t, `expected a type, found ${t.k === 'eof' ? 'the end of the source' : `'${t.t}'`}`);
    }
    this.next();
    if (t.t === 'unsigned') {
      const u = this.peek();
      if (u.k === 'id' && /^(int|char[234]?)$/.test(u.t)) {
        this.next();
        return { name: u.t === 'int' ? 'uint' : u.t, pos: t };
      }
      return { name: 'uint', pos: t };
    }
    return { name: t.t, pos: t };
  }

  program(): Program {
    const items: TopLevel[] = [];
    while (this.peek().k !== 'eof') {
      if (this.accept(';')) continue;
      items.push(...this.topLevel());
    }
    return { items };
  }

  topLevel(): TopLevel[] {
    const t = this.peek();
    if (t.t === 'typedef') {
      this.next();
      if (this.is('struct')) {
        const s = this.structBody(t);
        const name = this.ident("the type's name and ';' after '}' (typedef struct { ... } Name;)");
        this.expect(';');
        s.name = name.t;
        this.types.add(name.t);
        return [s];
      }
      const type = this.typeRef();
      const name = this.ident('the typedef\'s name');
      this.expect(';');
      this.types.add(name.t);
      return [{ k: 'typedef', name: name.t, type, pos: t }];
    }
    if (t.t === 'struct' && this.peek(2).t === '{') {
      const s = this.structBody(t);
      if (!s.name) this.fail(t, 'write typedef struct { ... } Name; or struct Name { ... };');
      this.expect(';');
      return [s];
    }
    if (t.t === 'kernel' || t.t === 'reduce') {
      this.next();
      return [this.functionRest(t.t, this.typeRef(), t)];
    }
    while (this.is('static') || this.is('inline') || this.is('extern')) this.next();
    const isConst = this.accept('const');
    while (this.is('static') || this.is('inline')) this.next();
    const type = this.typeRef();
    if (this.peek().k === 'id' && this.is('(', 1)) return [this.functionRest(undefined, type, t)];
    const decl = this.declRest(type, isConst, t);
    return [{ k: 'global', decl }];
  }

  structBody(start: Tok): StructDecl {
    this.expect('struct');
    const tag = this.peek().k === 'id' && !this.is('{') ? this.next().t : '';
    if (tag) this.types.add(tag);
    this.expect('{');
    const fields: StructDecl['fields'] = [];
    while (!this.is('}')) {
      if (this.peek().k === 'eof') this.fail(start, "the struct's '{' is not closed");
      const pos = this.peek();
      const type = this.typeRef();
      const names = [this.ident('a field name').t];
      while (this.accept(',')) names.push(this.ident('a field name').t);
      this.expect(';');
      fields.push({ type, names, pos });
    }
    this.expect('}');
    return { k: 'struct', name: tag, fields, pos: start };
  }

  functionRest(kind: 'kernel' | 'reduce' | undefined, ret: TypeRef, start: Tok): FunctionDecl {
    const name = this.ident('a function name');
    this.expect('(');
    const params: Param[] = [];
    if (!(this.is('void') && this.is(')', 1)) && !this.is(')')) {
      do params.push(this.param());
      while (this.accept(','));
    } else this.accept('void');
    this.expect(')');
    const fn: FunctionDecl = { k: 'function', kind, ret, name: name.t, params, pos: start };
    if (this.accept(';')) return fn;
    if (!this.is('{')) this.fail(this.peek(), `expected '{' after the parameter list of ${name.t}`);
    const open = this.peek();
    fn.body = this.block();
    const close = this.toks[this.i - 1]!;
    fn.shown = this.source.slice(open.o + 1, close.o);
    return fn;
  }

  param(): Param {
    const pos = this.peek();
    let qual: Param['qual'];
    let vout: Param['vout'];
    for (;;) {
      const t = this.peek();
      if (t.k === 'id' && QUALIFIERS.has(t.t) && !this.is(',', 1) && !this.is(')', 1) && !this.is('<', 1) && !this.is('[', 1)) {
        this.next();
        qual = t.t === 'in' ? qual : (t.t as Param['qual']);
      } else if (t.t === 'vout' && this.is('[', 1)) {
        this.next();
        this.next();
        const n = this.peek();
        let most = 0;
        if (n.k === 'num') {
          this.next();
          most = Number(n.t);
          if (!/^\d+$/.test(n.t)) this.fail(n, `say how many records one input may push at most: vout[4] (1 to 64), or vout [] for no bound`);
        }
        this.expect(']');
        vout = { most, pos: t };
      } else break;
    }
    const type = this.typeRef();
    const name = this.ident('a parameter name');
    let stream = false;
    let gather = 0;
    if (this.is('<')) {
      this.next();
      this.expect('>', "'>' (a stream is declared T name<>)");
      stream = true;
    } else {
      while (this.is('[')) {
        // anything between the brackets (brcc took any expression; the size is not used)
        const open = this.next();
        let depth = 1;
        while (depth > 0) {
          const t = this.next();
          if (t.k === 'eof') this.fail(open, "the gather's '[' is not closed");
          if (t.t === '[') depth++;
          else if (t.t === ']') depth--;
        }
        gather++;
      }
    }
    return { name: name.t, type, qual, stream, gather, vout, pos };
  }

  block(): Stmt & { k: 'block' } {
    const open = this.expect('{');
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.peek().k === 'eof') this.fail(open, "unbalanced '{': this '{' is not closed");
      body.push(this.statement());
    }
    const end = this.next();
    return { k: 'block', body, pos: open, end };
  }

  /** Whether a declaration starts here: [const|static] Type name. */
  startsDecl(): boolean {
    let k = 0;
    while (this.is('const', k) || this.is('static', k)) k++;
    if (this.is('struct', k)) return true;
    if (!this.isType(k)) return false;
    if (this.peek(k).t === 'unsigned') return true;
    const n = this.peek(k + 1);
    return n.k === 'id';
  }

  statement(): Stmt {
    const t = this.peek();
    if (t.k === 'id') {
      switch (t.t) {
        case 'if': {
          this.next();
          this.expect('(');
          const c = this.expr();
          this.expect(')');
          const then = this.statement();
          const s: Stmt = { k: 'if', c, then, pos: t };
          if (this.accept('else')) s.else = this.statement();
          return s;
        }
        case 'while': {
          this.next();
          this.expect('(');
          const c = this.expr();
          this.expect(')');
          return { k: 'while', c, body: this.statement(), pos: t };
        }
        case 'do': {
          this.next();
          const body = this.statement();
          this.expect('while', "'while' after do's statement");
          this.expect('(');
          const c = this.expr();
          this.expect(')');
          this.expect(';');
          return { k: 'do', body, c, pos: t };
        }
        case 'for': {
          this.next();
          this.expect('(');
          let init: Stmt | undefined;
          if (!this.accept(';')) {
            if (this.startsDecl()) init = this.declaration();
            else {
              init = { k: 'expr', e: this.expr(), pos: this.peek() };
              this.expect(';');
            }
          }
          const c = this.is(';') ? undefined : this.expr();
          this.expect(';');
          const step = this.is(')') ? undefined : this.expr();
          this.expect(')');
          return { k: 'for', init, c, step, body: this.statement(), pos: t };
        }
        case 'switch': {
          this.next();
          this.expect('(');
          const e = this.expr();
          this.expect(')');
          return { k: 'switch', e, body: this.statement(), pos: t };
        }
        case 'case': {
          this.next();
          const e = this.expr();
          this.expect(':');
          return { k: 'case', e, pos: t };
        }
        case 'default':
          this.next();
          this.expect(':');
          return { k: 'case', pos: t };
        case 'return': {
          this.next();
          const e = this.is(';') ? undefined : this.expr();
          this.expect(';');
          return { k: 'return', e, pos: t };
        }
        case 'break':
        case 'continue':
        case 'discard':
          this.next();
          this.expect(';');
          return { k: t.t, pos: t };
        case 'goto':
          this.fail(t, 'goto is not possible in a kernel (GLSL has none)');
        default:
      }
    }
    if (t.t === '{') return this.block();
    if (t.t === ';') {
      this.next();
      return { k: 'empty', pos: t };
    }
    if (this.startsDecl()) return this.declaration();
    const e = this.expr();
    this.expect(';');
    return { k: 'expr', e, pos: t };
  }

  declaration(): Stmt & { k: 'decl' } {
    const start = this.peek();
    let isConst = false;
    while (this.is('const') || this.is('static')) isConst = this.next().t === 'const' || isConst;
    return this.declRest(this.typeRef(), isConst, start);
  }

  declRest(type: TypeRef, isConst: boolean, start: Pos): Stmt & { k: 'decl' } {
    const vars: Declarator[] = [];
    do {
      const name = this.ident('a variable name');
      const dims: Expr[] = [];
      while (this.accept('[')) {
        dims.push(this.expr());
        this.expect(']');
      }
      const d: Declarator = { name: name.t, dims, pos: name };
      if (this.accept('=')) d.init = this.is('{') ? this.initializer() : this.assignment();
      vars.push(d);
    } while (this.accept(','));
    this.expect(';');
    return { k: 'decl', type, isConst, vars, pos: start };
  }

  initializer(): Expr {
    const open = this.expect('{');
    const items: Expr[] = [];
    while (!this.is('}')) {
      items.push(this.is('{') ? this.initializer() : this.assignment());
      if (!this.accept(',')) break;
    }
    this.expect('}', "'}' closing the initialiser");
    return { k: 'init', items, pos: open };
  }

  expr(): Expr {
    let e = this.assignment();
    while (this.is(',')) {
      const pos = this.next();
      e = { k: 'comma', l: e, r: this.assignment(), pos };
    }
    return e;
  }

  assignment(): Expr {
    const l = this.conditional();
    const t = this.peek();
    if (t.k === 'op' && ASSIGN.has(t.t)) {
      this.next();
      return { k: 'assign', op: t.t, l, r: this.assignment(), pos: t };
    }
    return l;
  }

  conditional(): Expr {
    const c = this.binary(0);
    if (!this.is('?')) return c;
    const pos = this.next();
    const a = this.expr();
    this.expect(':', "':' of the ?: operator");
    const b = this.assignment();
    return { k: 'cond', c, a, b, pos };
  }

  /** Binary operators by precedence climbing (one loop per level, so a long chain never deepens the stack). */
  binary(min: number): Expr {
    let l = this.unary();
    for (;;) {
      const t = this.peek();
      const level = t.k === 'op' ? LEVEL.get(t.t) : undefined;
      if (level === undefined || level < min) return l;
      this.next();
      const r = this.binary(level + 1);
      l = { k: 'binary', op: t.t, l, r, pos: t };
    }
  }

  unary(): Expr {
    // prefixes in a loop, applied inside out
    const prefix: Array<{ op: string; pos: Tok; cast?: TypeRef }> = [];
    for (;;) {
      const t = this.peek();
      if (t.k === 'op' && (t.t === '-' || t.t === '+' || t.t === '!' || t.t === '~' || t.t === '++' || t.t === '--')) {
        this.next();
        prefix.push({ op: t.t, pos: t });
      } else if (t.t === '(' && this.isType(1) && (this.is(')', 2) || (this.peek(1).t === 'unsigned' && this.is(')', 3)))) {
        this.next();
        const to = this.typeRef();
        this.expect(')');
        prefix.push({ op: 'cast', pos: t, cast: to });
      } else break;
    }
    let e = this.postfix();
    // a run of signs: '- -' cancels and '+' changes nothing, so a long run never deepens the tree
    for (let k = prefix.length - 1; k > 0; k--) {
      const a = prefix[k]!.op;
      if (a === '+' && prefix[k - 1]!.op !== 'cast') prefix.splice(k, 1);
      else if (a === '-' && prefix[k - 1]!.op === '-') {
        prefix.splice(k - 1, 2);
        k--;
      }
    }
    for (let k = prefix.length - 1; k >= 0; k--) {
      const p = prefix[k]!;
      e = p.cast ? { k: 'cast', to: p.cast, e, pos: p.pos } : { k: 'unary', op: p.op, e, pos: p.pos };
    }
    return e;
  }

  postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (t.t === '[' && t.k === 'op') {
        this.next();
        const i = this.expr();
        this.expect(']');
        e = { k: 'index', e, i, pos: t };
      } else if (t.t === '.' && t.k === 'op') {
        this.next();
        const f = this.peek();
        if (f.k !== 'id') this.fail(f, "expected a field or swizzle after '.'");
        this.next();
        e = { k: 'field', e, f: f.t, pos: f };
      } else if ((t.t === '++' || t.t === '--') && t.k === 'op') {
        this.next();
        e = { k: 'postfix', op: t.t, e, pos: t };
      } else if (t.t === '(' && t.k === 'op') {
        this.fail(t, 'only a function or a type can be called');
      } else return e;
    }
  }

  args(): Expr[] {
    this.expect('(');
    const args: Expr[] = [];
    if (this.accept(')')) return args;
    do args.push(this.assignment());
    while (this.accept(','));
    this.expect(')', "')' closing the arguments");
    return args;
  }

  primary(): Expr {
    const t = this.peek();
    if (t.k === 'num') {
      this.next();
      const float = /[.eE]/.test(t.t) && !/^0[xX]/.test(t.t) ? true : /[fFhH]$/.test(t.t) && !/^0[xX]/.test(t.t);
      return { k: 'num', text: t.t, float, uint: !float && /[uU]/.test(t.t), pos: t };
    }
    if (t.k === 'id') {
      if (t.t === 'true' || t.t === 'false') {
        this.next();
        return { k: 'bool', value: t.t === 'true', pos: t };
      }
      if (t.t === 'indexof') {
        this.next();
        const paren = this.accept('(');
        const n = this.ident("a stream's name after indexof");
        if (paren) this.expect(')');
        return { k: 'indexof', name: n.t, pos: t };
      }
      if (this.isType()) {
        const type = this.typeRef();
        if (!this.is('(')) this.fail(this.peek(), `expected '(' after the type ${type.name} in an expression (a constructor: ${type.name}(...))`);
        return { k: 'call', name: type.name, args: this.args(), pos: t };
      }
      if (KEYWORDS.has(t.t)) this.fail(t, `'${t.t}' cannot start an expression`);
      this.next();
      if (this.is('(')) return { k: 'call', name: t.t, args: this.args(), pos: t };
      return { k: 'name', name: t.t, pos: t };
    }
    if (t.t === '(') {
      this.next();
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (t.t === '{') this.fail(t, "a '{...}' initialiser is only possible in a declaration (float2 v = {1, 2};)");
    this.fail(t, t.k === 'eof' ? 'the source ends inside an expression' : `expected an expression, found '${t.t}'`);
  }
}
