/**
 * Brook's syntax tree, as brcc's (express.cpp, stemnt.cpp, decl.cpp): what parse.ts builds from
 * the tokens and what check.ts types. The parser's tree carries no types; the checker returns a
 * new tree of the same nodes in which every expression has its `ty` and every implicit
 * conversion Cg makes is an explicit `convert` node, so that a generator (glsl.ts, and the CPU
 * backend's JavaScript) only prints what the tree says and decides nothing.
 */
import type { Pos } from './lex';
import type { Type } from './types';

/** A type as written: its name (`float4`, `unsigned int`, a struct or typedef) and where. */
export interface TypeRef {
  name: string;
  pos: Pos;
}

export type Expr =
  /** A number as written; `float` when it has a point, an exponent or an f/h suffix. */
  | { k: 'num'; text: string; float: boolean; uint: boolean; pos: Pos; ty?: Type }
  | { k: 'bool'; value: boolean; pos: Pos; ty?: Type }
  | { k: 'name'; name: string; pos: Pos; ty?: Type; sym?: Sym }
  /** Prefix - + ! ~ ++ --. */
  | { k: 'unary'; op: string; e: Expr; pos: Pos; ty?: Type }
  /** Postfix ++ --. */
  | { k: 'postfix'; op: string; e: Expr; pos: Pos; ty?: Type }
  | { k: 'binary'; op: string; l: Expr; r: Expr; pos: Pos; ty?: Type }
  /** = and the compound assignments. */
  | { k: 'assign'; op: string; l: Expr; r: Expr; pos: Pos; ty?: Type }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr; pos: Pos; ty?: Type }
  | { k: 'comma'; l: Expr; r: Expr; pos: Pos; ty?: Type }
  /** A call of a function, a built-in or a constructor (`float3(...)`: a type name). */
  | { k: 'call'; name: string; args: Expr[]; pos: Pos; ty?: Type; target?: CallTarget }
  /** `(float3)(v)`, C's cast. */
  | { k: 'cast'; to: TypeRef; e: Expr; pos: Pos; ty?: Type }
  /** `e[i]`: an array element, a vector component or (typed) a gather's record. */
  | { k: 'index'; e: Expr; i: Expr; pos: Pos; ty?: Type }
  /** `e.f`: a struct field or a swizzle. */
  | { k: 'field'; e: Expr; f: string; pos: Pos; ty?: Type }
  /** Brook's `indexof(s)` / `indexof s`: the position of the record being written, float4. */
  | { k: 'indexof'; name: string; pos: Pos; ty?: Type; sym?: Sym }
  /** A `{...}` initialiser (only in a declaration). */
  | { k: 'init'; items: Expr[]; pos: Pos; ty?: Type }
  // ---- nodes only the checker makes ----
  /** A gather's record: `g[i][j]` with its indices, slowest first, each typed for the accessor. */
  | { k: 'gather'; sym: Sym; indices: Expr[]; pos: Pos; ty?: Type }
  /** A swizzle (typed): components as indices 0..3; `scalar` when applied to a scalar. */
  | { k: 'swizzle'; e: Expr; comps: number[]; pos: Pos; ty?: Type }
  /** An implicit (Cg's rules) or explicit (cast) conversion of e to `ty`. */
  | { k: 'convert'; e: Expr; explicit: boolean; pos: Pos; ty?: Type }
  /** vout's `push(o)`. */
  | { k: 'push'; e: Expr; pos: Pos; ty?: Type };

/** What a typed call calls. */
export type CallTarget =
  | { kind: 'builtin'; glsl: string }
  | { kind: 'ctor' }
  | { kind: 'function'; fn: FunctionDecl; gathers: Array<Sym | undefined> }
  /** A helper generated with the kernel (glsl.ts HELPERS): Cg's componentwise && || ?: on vectors. */
  | { kind: 'helper'; helper: string };

/** A declared name: what the checker resolved it to. */
export interface Sym {
  name: string;
  ty: Type;
  role: 'local' | 'global' | 'param' | 'input' | 'gather' | 'iter' | 'uniform' | 'output' | 'reduceInput' | 'reduceResult';
  /** A struct parameter (its fields are streams of their own). */
  struct?: boolean;
  /** A `const` declaration. */
  isConst?: boolean;
  /** A kernel's elementwise stream (`float a<>`) of a scalar or vector type. */
  stream?: boolean;
}

export interface Declarator {
  name: string;
  /** Array dimensions, as written (constant expressions). */
  dims: Expr[];
  init?: Expr;
  pos: Pos;
  /** Set by the checker: the declared type and the symbol. */
  ty?: Type;
  sym?: Sym;
}

export type Stmt =
  | { k: 'block'; body: Stmt[]; pos: Pos; end: Pos }
  | { k: 'decl'; type: TypeRef; isConst: boolean; vars: Declarator[]; pos: Pos }
  | { k: 'expr'; e: Expr; pos: Pos }
  | { k: 'if'; c: Expr; then: Stmt; else?: Stmt; pos: Pos }
  | { k: 'while'; c: Expr; body: Stmt; pos: Pos }
  | { k: 'do'; body: Stmt; c: Expr; pos: Pos }
  | { k: 'for'; init?: Stmt; c?: Expr; step?: Expr; body: Stmt; pos: Pos }
  | { k: 'switch'; e: Expr; body: Stmt; pos: Pos }
  | { k: 'case'; e?: Expr; pos: Pos }
  | { k: 'return'; e?: Expr; pos: Pos }
  | { k: 'break' | 'continue' | 'discard' | 'empty'; pos: Pos };

/** A kernel's or function's parameter with Brook's kinds. */
export interface Param {
  name: string;
  type: TypeRef;
  qual?: 'out' | 'inout' | 'in' | 'iter' | 'const' | 'reduce';
  /** `<>`: a stream. */
  stream: boolean;
  /** `[...]` groups: a gather (the text between the brackets is kept, never used). */
  gather: number;
  /** `vout[N]` (most 0 for `vout []`). */
  vout?: { most: number; pos: Pos };
  pos: Pos;
}

export interface FunctionDecl {
  k: 'function';
  /** 'kernel' or 'reduce' for Brook's kernels, undefined for plain functions. */
  kind?: 'kernel' | 'reduce';
  ret: TypeRef;
  name: string;
  params: Param[];
  /** Undefined for a prototype. */
  body?: Stmt & { k: 'block' };
  pos: Pos;
  /** The source text of the body between its braces, as the user wrote it (error listings). */
  shown?: string;
}

export interface StructDecl {
  k: 'struct';
  name: string;
  fields: Array<{ type: TypeRef; names: string[]; pos: Pos }>;
  pos: Pos;
}

export type TopLevel = FunctionDecl | StructDecl | { k: 'typedef'; name: string; type: TypeRef; pos: Pos } | { k: 'global'; decl: Stmt & { k: 'decl' } };

export interface Program {
  items: TopLevel[];
}
