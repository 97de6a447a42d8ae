/**
 * Cg's int-to-float promotion inside expressions, made explicit for GLSL ES 3.00 (which has no
 * implicit conversions): `int i; float f = i * 0.5;` -> `float(i) * 0.5`, `a + i` -> `a +
 * float(i)`, `i < n` with a float n -> `float(i) < n`, `sqrt(i)` -> `sqrt(float(i))`, an int
 * passed for a float parameter of a helper -> `float(...)`.
 *
 * Each statement is parsed as C expressions (precedence climbing over the tokens) and typed
 * bottom up from what is known: parameters and declared variables (CgEnv.types), struct
 * fields, swizzles, gathers, literals, constructors, built-in functions and the helpers'
 * declared return and parameter types. Where an arithmetic, comparison or ternary operator (or
 * a built-in such as max, pow or mix) meets an int or uint operand and a float one, the int side
 * is wrapped in `float(...)` (`vecN(...)` for an intN) — or, for an integer literal, written as a
 * float literal. Anything of unknown type is left as written (GLSL then reports it), so code
 * that compiled before compiles the same. Bitwise and shift operators, `%`, indices of plain
 * arrays and assignments (cg.ts converts those) are left alone.
 */
import { CgEnv, FunctionTypes } from './cg';
import { Token, glslValueType, spliceTokens } from './tokens';

/** A value's type: scalar kind and components, or a struct; 'lit' is an integer literal. */
interface Ty {
  kind: 'float' | 'int' | 'uint' | 'bool' | 'lit' | 'struct' | 'other';
  n: number;
  struct?: string;
  /** For 'lit': the literal's token. */
  lit?: number;
}


const FLOAT_ONLY = new Set([
  'sqrt', 'rsqrt', 'inversesqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'sinh', 'cosh', 'tanh', 'exp', 'exp2', 'log', 'log2',
  'floor', 'ceil', 'fract', 'frac', 'round', 'trunc', 'normalize', 'saturate', 'radians', 'degrees', 'isinf', 'isnan', 'isfinite',
]);
const TO_SCALAR = new Set(['length', 'distance', 'dot']);
const UNIFY = new Set(['min', 'max', 'clamp', 'mix', 'lerp', 'step', 'smoothstep', 'pow', 'atan', 'atan2', 'mod', 'fmod', 'cross', 'reflect']);
const BOOL_RESULT = new Set(['isinf', 'isnan', 'isfinite']);
const STATEMENT_WORDS = new Set(['if', 'while', 'switch']);
const OPS3 = ['<<=', '>>='];
const OPS2 = ['==', '!=', '<=', '>=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '<<', '>>', '&=', '|=', '^='];
const PRECEDENCE: Array<string[]> = [
  ['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%'],
];
const ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);

/** Type of a Brook or GLSL type name (float4, int, vec3, uvec2, a struct). */
function tyOf(name: string | undefined, env: CgEnv): Ty | undefined {
  if (!name) return undefined;
  if (env.structs[name]) return { kind: 'struct', n: 1, struct: name };
  const g = /^(i|u|b)?vec([234])$/.exec(name);
  if (g) return { kind: g[1] === 'i' ? 'int' : g[1] === 'u' ? 'uint' : g[1] === 'b' ? 'bool' : 'float', n: Number(g[2]) };
  const v = glslValueType(name);
  if (!v) return undefined;
  const m = /^(?:(i|u|b)?vec([234])|(float|int|uint|bool))$/.exec(v)!;
  if (m[3]) return { kind: m[3] as Ty['kind'], n: 1 };
  return { kind: m[1] === 'i' ? 'int' : m[1] === 'u' ? 'uint' : m[1] === 'b' ? 'bool' : 'float', n: Number(m[2]) };
}

const isIntKind = (t: Ty | undefined) => t?.kind === 'int' || t?.kind === 'uint';

/**
 * Collects `TYPE name(TYPE a, ...)` function declarations (return and parameter types) from
 * translated-to-be text, into `into`.
 */
export function collectFunctionTypes(text: string, into: Map<string, FunctionTypes>): void {
  const re = /\b([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\{/g;
  for (const m of text.matchAll(re)) {
    if (['return', 'else', 'kernel', 'reduce'].includes(m[1]!)) continue;
    const params = m[3]!.trim() === '' || m[3]!.trim() === 'void' ? [] : m[3]!.split(',').map((p) => {
      const words = p.trim().split(/\s+/).filter((w) => !['in', 'out', 'inout', 'const'].includes(w));
      return /\bout\b|\binout\b/.test(p) ? undefined : words.length >= 2 ? words[words.length - 2] : undefined;
    });
    into.set(m[2]!, { ret: m[1]!, params });
  }
}

/** A parsed expression: its first and last solid positions, its type, whether it is a gather read. */
type Node = { a: number; b: number; ty: Ty | undefined; gather?: boolean };

/**
 * The promotion pass over one token list: a recursive-descent parser of C statements and
 * expressions (precedence climbing for the binary operators) that types each node bottom up
 * and marks where `float(...)` goes.
 */
class Promoter {
  readonly functions: Map<string, FunctionTypes>;
  /** The tokens (copies: literals are rewritten in place). */
  readonly t: Token[];
  /** Solid tokens only, by index into t. */
  readonly idx: number[] = [];
  /** Text to put before and after a token (by index into t). */
  readonly before = new Map<number, string[]>();
  readonly after = new Map<number, string[]>();
  /** Position in idx. */
  p = 0;

  constructor(
    input: Token[],
    readonly env: CgEnv,
    readonly gathers: ReadonlySet<string>,
  ) {
    this.functions = env.functions ?? new Map<string, FunctionTypes>();
    this.t = input.map((x) => ({ ...x }));
    this.t.forEach((x, i) => x.kind !== 'space' && this.idx.push(i));
  }

  typeOf(name: string) {
    return (this.env.ambiguous.has(name) ? undefined : this.env.types.get(name));
  }

  tok(q = this.p) {
    return (q < this.idx.length ? this.t[this.idx[q]!]! : undefined);
  }

  text(q = this.p) {
    return this.tok(q)?.text;
  }

  /** The operator starting at solid position q (multi-character operators are adjacent puncts). */
  opAt(q = this.p): string | undefined {
    const a = this.tok(q);
    if (!a || a.kind !== 'punct') return undefined;
    const adjacent = (k: number) => this.idx[q + k] === this.idx[q]! + k && this.tok(q + k)?.kind === 'punct';
    const s3 = adjacent(1) && adjacent(2) ? a.text + this.text(q + 1) + this.text(q + 2) : '';
    if (OPS3.includes(s3)) return s3;
    const s2 = adjacent(1) ? a.text + this.text(q + 1) : '';
    if (OPS2.includes(s2)) return s2;
    return a.text;
  }

  eat(op: string) {
    this.p += op.length; // operators are one punct token per character
  }

  /** Wraps the node [a, b] (solid positions) of integer type `ty` as float. */
  promote(a: number, b: number, ty: Ty) {
    if (ty.kind === 'lit' && ty.lit !== undefined) {
      const lit = this.t[ty.lit]!;
      if (/^\d+$/.test(lit.text)) lit.text += '.0';
      return;
    }
    const open = ty.n > 1 ? `vec${ty.n}(` : 'float(';
    this.before.set(this.idx[a]!, [...(this.before.get(this.idx[a]!) ?? []), open]);
    this.after.set(this.idx[b]!, [')', ...(this.after.get(this.idx[b]!) ?? [])]);
  }

  /** Makes l and r agree where one is float and the other int (Cg's promotion); returns the result type. */
  unify(l: Node, r: Node): Ty | undefined {
    const lt = l.ty;
    const rt = r.ty;
    if (!lt || !rt) return undefined;
    if (lt.kind === 'float' && (isIntKind(rt) || rt.kind === 'lit')) {
      this.promote(r.a, r.b, rt);
      return { kind: 'float', n: Math.max(lt.n, rt.n) };
    }
    if (rt.kind === 'float' && (isIntKind(lt) || lt.kind === 'lit')) {
      this.promote(l.a, l.b, lt);
      return { kind: 'float', n: Math.max(lt.n, rt.n) };
    }
    if (lt.kind === 'lit' && rt.kind === 'lit') return lt;
    // an integer literal beside a uint is a uint literal (GLSL has no int-uint arithmetic)
    const asUint = (x: Ty) => {
      const lit = this.t[x.lit!]!;
      if (/^\d+$/.test(lit.text)) lit.text += 'u';
    };
    if (lt.kind === 'lit') {
      if (rt.kind === 'uint') asUint(lt);
      return rt;
    }
    if (rt.kind === 'lit') {
      if (lt.kind === 'uint') asUint(rt);
      return lt;
    }
    if (lt.kind === rt.kind) return { kind: lt.kind, n: Math.max(lt.n, rt.n) };
    return undefined;
  }

  parseExpr(): Node | undefined {
    // comma expressions (for headers, declarator lists are handled by the caller)
    let n = this.parseAssign();
    while (n && this.opAt() === ',') {
      this.eat(',');
      const r = this.parseAssign();
      if (!r) break;
      n = { a: n.a, b: r.b, ty: r.ty };
    }
    return n;
  }

  parseAssign(): Node | undefined {
    const l = this.parseCond();
    if (!l) return undefined;
    const op = this.opAt();
    if (op && ASSIGN.has(op) && !(op === '=' && this.opAt(this.p + 1) === '=')) {
      this.eat(op);
      const r = this.parseAssign();
      return r ? { a: l.a, b: r.b, ty: l.ty } : l;
    }
    return l;
  }

  parseCond(): Node | undefined {
    const c = this.parseBinary(0);
    if (!c || this.opAt() !== '?') return c;
    this.eat('?');
    const x = this.parseAssign();
    if (!x || this.opAt() !== ':') return x ? { a: c.a, b: x.b, ty: undefined } : c;
    this.eat(':');
    const y = this.parseAssign();
    if (!y) return { a: c.a, b: x.b, ty: undefined };
    return { a: c.a, b: y.b, ty: this.unify(x, y) };
  }

  /** Binary operators by precedence climbing: one call per operator that binds tighter, not per level. */
  parseBinary(minLevel: number): Node | undefined {
    let l = this.parseUnary();
    while (l) {
      const op = this.opAt();
      if (op === undefined) break;
      const level = PRECEDENCE.findIndex((ops) => ops.includes(op));
      if (level < minLevel) break; // -1: not a binary operator
      this.eat(op);
      const r = this.parseBinary(level + 1);
      if (!r) return l;
      let ty: Ty | undefined;
      if (['+', '-', '*', '/'].includes(op)) ty = this.unify(l, r);
      else if (['<', '>', '<=', '>=', '==', '!='].includes(op)) {
        this.unify(l, r);
        ty = { kind: 'bool', n: 1 };
      } else if (op === '&&' || op === '||') ty = { kind: 'bool', n: 1 };
      else ty = l.ty && (isIntKind(l.ty) || l.ty.kind === 'lit') ? l.ty : undefined; // % & | ^ << >>
      l = { a: l.a, b: r.b, ty };
    }
    return l;
  }

  parseUnary(): Node | undefined {
    // prefix operators in a loop (a run of them never deepens the stack), applied inside out
    const prefix: Array<{ a: number; op: string }> = [];
    for (let op = this.opAt(); op === '-' || op === '+' || op === '!' || op === '~' || op === '++' || op === '--'; op = this.opAt()) {
      prefix.push({ a: this.p, op });
      this.eat(op);
    }
    let x = this.parsePostfix();
    for (let i = prefix.length - 1; i >= 0 && x; i--) x = { a: prefix[i]!.a, b: x.b, ty: prefix[i]!.op === '!' ? { kind: 'bool', n: 1 } : x.ty };
    return x;
  }

  parseArgs(): Node[] {
    const args: Node[] = [];
    if (this.opAt() === ')') {
      this.eat(')');
      return args;
    }
    for (;;) {
      const x = this.parseAssign();
      if (!x) return args;
      args.push(x);
      if (this.opAt() === ',') this.eat(',');
      else break;
    }
    if (this.opAt() === ')') this.eat(')');
    return args;
  }

  parsePostfix(): Node | undefined {
    const a = this.p;
    const x = this.tok();
    if (!x) return undefined;
    let node: Node;
    if (x.kind === 'num') {
      this.p++;
      const s = x.text;
      const ty: Ty = /^0[xX]/.test(s) ? { kind: /[uU]$/.test(s) ? 'uint' : 'int', n: 1 }
        : /[uU]$/.test(s) ? { kind: 'uint', n: 1 }
        : /^\d+$/.test(s) ? { kind: 'lit', n: 1, lit: this.idx[a] }
        : { kind: 'float', n: 1 };
      node = { a, b: a, ty };
    } else if (x.kind === 'id') {
      this.p++;
      const name = x.text;
      if (this.opAt() === '(' && !name.includes('(')) {
        this.eat('(');
        const args = this.parseArgs();
        node = { a, b: this.p - 1, ty: this.callType(name, args) };
      } else {
        // rewritten single tokens: brook_indexof(), vec2(f) (scalar swizzles)
        const m = /^(?:(i|u|b)?vec([234])\(|brook_indexof)/.exec(name);
        const ty = m ? (name.startsWith('brook_indexof') ? { kind: 'float' as const, n: 4 } : tyOf(`${m[1] ?? ''}vec${m[2]}`, this.env)) : tyOf(this.typeOf(name), this.env);
        node = { a, b: a, ty };
      }
    } else if (this.opAt() === '(') {
      this.eat('(');
      const inner = this.parseExpr();
      if (this.opAt() !== ')') return inner ? { a, b: inner.b, ty: undefined } : undefined;
      this.eat(')');
      node = { a, b: this.p - 1, ty: inner?.ty };
    } else return undefined;
    for (;;) {
      const op = this.opAt();
      if (op === '[') {
        const base = node;
        this.eat('[');
        this.parseExpr();
        if (this.opAt() === ']') this.eat(']');
        const gather = base.gather || (this.tok(base.a)?.kind === 'id' && base.a === base.b && this.gathers.has(this.text(base.a)!));
        let ty: Ty | undefined;
        if (gather) ty = base.ty; // g[i] and g[i][j] are records
        else if (base.ty && base.ty.kind !== 'struct' && base.ty.kind !== 'lit') ty = { kind: base.ty.kind, n: 1 };
        node = { a: base.a, b: this.p - 1, ty, gather };
      } else if (op === '.' && this.tok(this.p + 1)?.kind === 'id') {
        this.eat('.');
        const f = this.text()!;
        this.p++;
        let ty: Ty | undefined;
        if (node.ty?.kind === 'struct') ty = tyOf(this.env.structs[node.ty.struct!]?.fields.find((x) => x.name === f)?.type, this.env);
        else if (node.ty && /^(?:[xyzw]{1,4}|[rgba]{1,4})$/.test(f) && node.ty.kind !== 'lit') ty = { kind: node.ty.kind, n: f.length };
        node = { a: node.a, b: this.p - 1, ty };
      } else if (op === '++' || op === '--') {
        this.eat(op);
        node = { a: node.a, b: this.p - 1, ty: node.ty };
      } else break;
    }
    return node;
  }

  callType(name: string, args: Node[]): Ty | undefined {
    const ctor = tyOf(name, this.env);
    if (ctor) return ctor; // constructors convert their arguments themselves
    const conv = /^brook_to_(\w+)$/.exec(name);
    if (conv) return tyOf(conv[1], this.env);
    if (name === 'brook_bool') return { kind: 'bool', n: 1 };
    if (FLOAT_ONLY.has(name) || TO_SCALAR.has(name)) {
      for (const x of args) if (x.ty && (isIntKind(x.ty) || x.ty.kind === 'lit')) this.promote(x.a, x.b, x.ty);
      const first = args[0]?.ty;
      if (!first) return undefined;
      if (TO_SCALAR.has(name)) return { kind: 'float', n: 1 };
      return { kind: BOOL_RESULT.has(name) ? 'bool' : 'float', n: first.n };
    }
    if (UNIFY.has(name)) {
      const known = args.map((x) => x.ty);
      if (known.some((x) => x?.kind === 'float') && known.every((x) => x && x.kind !== 'struct' && x.kind !== 'bool')) {
        for (const x of args) if (isIntKind(x.ty) || x.ty!.kind === 'lit') this.promote(x.a, x.b, x.ty!);
        return { kind: 'float', n: name === 'step' || name === 'smoothstep' ? known[known.length - 1]!.n : Math.max(...known.map((x) => x!.n)) };
      }
      return known[0] && known.every((x) => x?.kind === known[0]!.kind) ? known[0] : undefined;
    }
    const fn = this.functions.get(name);
    if (fn) {
      args.forEach((x, i) => {
        const want = tyOf(fn.params[i], this.env);
        if (want?.kind === 'float' && x.ty && (isIntKind(x.ty) || x.ty.kind === 'lit') && x.ty.n === want.n) this.promote(x.a, x.b, x.ty);
      });
      return tyOf(fn.ret, this.env);
    }
    return undefined;
  }

  // Statements: keywords, declarations and expression statements, skipping what is not read.
  /** Statements: keywords, declarations and expression statements, skipping what is not read. */
  statements(): void {
    while (this.p < this.idx.length) {
      const x = this.tok()!;
      const start = this.p;
      if (x.kind === 'id' && STATEMENT_WORDS.has(x.text) && this.opAt(this.p + 1) === '(') {
        this.p += 2;
        this.parseExpr();
        if (this.opAt() === ')') this.eat(')');
      } else if (x.kind === 'id' && x.text === 'for' && this.opAt(this.p + 1) === '(') {
        this.p += 2;
        for (let k = 0; k < 3 && this.p < this.idx.length; k++) {
          this.statementPiece();
          if (this.opAt() === ';') this.eat(';');
          else break;
        }
        if (this.opAt() === ')') this.eat(')');
      } else if (x.kind === 'id' && x.text === 'return') {
        this.p++;
        this.parseExpr();
      } else if (x.kind === 'punct' || (x.kind === 'id' && (x.text === 'else' || x.text === 'do'))) {
        this.p++;
      } else {
        this.statementPiece();
      }
      if (this.p === start) this.p++; // never stall on what is not understood
    }
  }

  /** A declaration (its initialisers parsed; a function header skipped) or an expression. */
  statementPiece(): void {
    const x = this.tok();
    if (!x) return;
    // declarations: [const] TYPE name [= e] [, name [= e]] ...; function headers are skipped
    let q = this.p;
    if (this.text(q) === 'const') q++;
    const declared = this.tok(q)?.kind === 'id' && (tyOf(this.text(q), this.env) || this.env.structs[this.text(q)!] || this.text(q) === 'void') && this.tok(q + 1)?.kind === 'id';
    if (declared) {
      if (this.opAt(q + 2) === '(') {
        // a function header: skip its parameter list
        this.p = q + 3;
        let depth = 1;
        while (this.p < this.idx.length && depth > 0) {
          if (this.opAt() === '(') depth++;
          else if (this.opAt() === ')') depth--;
          this.p++;
        }
        return;
      }
      this.p = q + 1;
      for (;;) {
        if (this.tok()?.kind !== 'id') return;
        this.p++;
        while (this.opAt() === '[') {
          while (this.p < this.idx.length && this.opAt() !== ']') this.p++;
          if (this.opAt() === ']') this.eat(']');
        }
        if (this.opAt() === '=') {
          this.eat('=');
          this.parseAssign();
        }
        if (this.opAt() === ',') this.eat(',');
        else return;
      }
    }
    this.parseExpr();
  }
}

/** Inserts Cg's int-to-float promotions (see the module comment) into translated tokens. */
export function promoteMixed(input: Token[], env: CgEnv, gathers: ReadonlySet<string>): Token[] {
  const promoter = new Promoter(input, env, gathers);
  promoter.statements();
  return spliceTokens(promoter.t, promoter.before, promoter.after);
}
