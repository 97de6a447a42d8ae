// A seeded generator of random well-typed Brook kernels, for differential testing of the two
// backends (as Csmith and GraphicsFuzz test compilers): expressions over float, float2..4, int and
// uint with swizzles and Cg's implicit conversions, gathers at indices in and out of range, loops
// with break and continue, branches, discard, struct streams, reduce kernels, and matrices
// (float2x2..float4x4: constructors, a float2x2 constant, products with matrices and vectors,
// componentwise operators, transpose, determinant, matrixCompMult, columns read and assigned). Each program
// comes with its arguments (seeded data) and what it uses that GLSL ES 3.00 does not round
// exactly (division, sqrt, exp...), which explains a difference beyond the tolerance.
//
// What it avoids, because GLSL ES 3.00 leaves it undefined (so the backends may rightly differ):
// int % and / of negative or zero operands, shifts by 32 or more, float to int of values outside
// int's range or NaN, min/max/clamp of NaN. Ints wrap on overflow on both (GLSL ES 3.00 4.1.3).
import { BrookContext, KernelArgs, KernelSpec, Stream, StructStream, iter, parseBrook, seededRandom, structStream } from '../../src/index';

type Ty = 'float' | 'float2' | 'float3' | 'float4' | 'int' | 'uint';

export interface GeneratedKernel {
  seed: number;
  source: string;
  /** Inexact operations the program uses (a difference beyond the tolerance is theirs). */
  inexact: Set<string>;
  kind: 'map' | 'reduce' | 'struct';
  /** Makes the arguments on a context (streams the caller disposes). */
  args(ctx: BrookContext): { kernel: KernelSpec; args: KernelArgs; streams: Array<Stream | StructStream> };
}

const N = 64; // records of every stream
const FLOATS: Ty[] = ['float', 'float2', 'float3', 'float4'];
const width = (t: Ty) => (t === 'int' || t === 'uint' || t === 'float' ? 1 : Number(t[5]));

class Gen {
  r: () => number;
  inexact = new Set<string>();
  vars: Array<{ name: string; ty: Ty }> = [];
  /** Matrix locals (float2x2..float4x4). */
  mats: Array<{ name: string; n: number }> = [];
  locals = 0;
  constructor(seed: number) {
    this.r = seededRandom(seed);
  }
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  lit(ty: Ty): string {
    if (ty === 'int') return String(this.int(19) - 9);
    if (ty === 'uint') return `${this.int(100)}u`;
    const v = (this.int(161) - 80) / 8; // exact in float32
    const s = Number.isInteger(v) ? `${v}.0` : String(v);
    if (ty === 'float') return s;
    return `${ty}(${Array.from({ length: width(ty) }, () => (this.int(161) - 80) / 8).map((x) => (Number.isInteger(x) ? `${x}.0` : String(x))).join(', ')})`;
  }
  leaf(ty: Ty): string {
    const same = this.vars.filter((v) => v.ty === ty);
    if (same.length && this.chance(0.7)) return this.pick(same).name;
    // a swizzle of a wider float vector
    if (FLOATS.includes(ty) && this.chance(0.4)) {
      const wide = this.vars.filter((v) => FLOATS.includes(v.ty) && width(v.ty) >= 2);
      if (wide.length) {
        const v = this.pick(wide);
        const comps = 'xyzw'.slice(0, width(v.ty));
        return `${v.name}.${Array.from({ length: width(ty) }, () => this.pick([...comps])).join('')}`;
      }
    }
    return this.lit(ty);
  }
  /** A float expression (`ty` float..float4) of at most `d` levels. */
  expr(ty: Ty, d: number): string {
    if (d <= 0 || this.chance(0.25)) return this.leaf(ty);
    if (ty === 'int') return this.intExpr(d);
    if (ty === 'uint') return this.uintExpr(d);
    const w = width(ty);
    const e = (t: Ty = ty) => this.expr(t, d - 1);
    switch (this.int(16)) {
      case 0: return `(${e()} + ${e()})`;
      case 1: return `(${e()} - ${e()})`;
      case 2: return `(${e()} * ${this.chance(0.5) ? e('float') : e()})`;
      case 3: return `-(${e()})`;
      case 4: return `min(${e()}, ${e()})`;
      case 5: return `max(${e()}, ${e()})`;
      case 6: return `floor(${e()})`;
      case 7: return `abs(${e()})`;
      case 8: return `clamp(${e()}, -4.0, 4.0)`;
      case 9: {
        // Cg's conversions: an int (implicitly) where a float is expected
        return w === 1 ? `(${this.intExpr(d - 1)} + ${e()})` : `(${e()} + ${this.intExpr(d - 1)})`;
      }
      case 10: return `(${this.cond(d - 1)} ? ${e()} : ${e()})`;
      case 11: {
        this.inexact.add('division');
        return `(${e()} / (abs(${e('float')}) + 1.0))`;
      }
      case 12: {
        const f = this.pick(['sqrt', 'exp', 'sin', 'fract', 'step']);
        if (f === 'step') return `step(${e()}, ${e()})`;
        if (f !== 'fract') this.inexact.add(f);
        else this.inexact.add('fract'); // fract(x) = x - floor(x) is exact, but GPUs compute it otherwise near integers
        return f === 'sqrt' ? `sqrt(abs(${e()}))` : f === 'exp' ? `exp(clamp(${e()}, -8.0, 8.0))` : `${f}(${e()})`;
      }
      case 13: {
        if (w === 1) return `dot(${e('float2')}, ${e('float2')})`;
        // a vector built of parts
        const parts: string[] = [];
        let left = w;
        while (left > 0) {
          const k = 1 + this.int(left);
          parts.push(this.expr(k === 1 ? 'float' : (`float${k}` as Ty), d - 1));
          left -= k;
        }
        return `${ty}(${parts.join(', ')})`;
      }
      case 14: {
        // matrices: a determinant or a component (float), a product with a vector or a column (vectors)
        if (w === 1) return this.chance(0.5) ? `determinant(${this.matExpr(2, d - 1)})` : `${this.matExpr(2 + this.int(3), d - 1)}[${this.int(2)}][${this.int(2)}]`;
        const m = this.matExpr(w, d - 1);
        switch (this.int(3)) {
          case 0: return `(${m} * ${e()})`;
          case 1: return `(${e()} * ${m})`;
          default: return `${m}[${this.chance(0.5) ? String(this.int(w)) : `(c & 7) % ${w}`}]`;
        }
      }
      default: {
        // a gather, in and out of range
        const g = this.pick(['g', 'h']);
        const rec = g === 'g' ? `g[${this.expr('float', d - 1)} * 9.0]` : `h[${this.expr('float2', d - 1)} * 3.0]`;
        if (g === 'g') return w === 1 ? rec : `${ty}(${rec})`;
        if (w === 1) return `${rec}.${this.pick(['x', 'y', 'z', 'w'])}`;
        return w === 4 ? rec : `${rec}.${'wzyx'.slice(0, w)}`;
      }
    }
  }
  /** A floatNxN expression of at most `d` levels (GLSL's operations: the backends must agree). */
  matExpr(n: number, d: number): string {
    const T = `float${n}x${n}`;
    const vt = (n === 1 ? 'float' : `float${n}`) as Ty;
    const m = () => this.matExpr(n, d - 1);
    if (d <= 0 || this.chance(0.3)) {
      const own = this.mats.filter((x) => x.n === n);
      if (own.length && this.chance(0.5)) return this.pick(own).name;
      switch (this.int(5)) {
        case 0: return `${T}(${Array.from({ length: n }, () => this.leaf(vt)).join(', ')})`; // columns
        case 1: return `${T}(${this.leaf('float')})`; // a diagonal
        case 2: return n === 2 ? 'mu' : `${T}(mu)`; // the constant (resized over the identity)
        case 3: return n === 2 ? `float2x2(${this.matExpr(3, d - 1)})` : `${T}(${Array.from({ length: n * n }, () => this.leaf('float')).join(', ')})`;
        default: return `${T}(${Array.from({ length: n * n }, () => this.leaf('float')).join(', ')})`;
      }
    }
    switch (this.int(8)) {
      case 0: return `(${m()} + ${m()})`;
      case 1: return `(${m()} - ${m()})`;
      case 2: return `(${m()} * ${m()})`;
      case 3: return this.chance(0.5) ? `(${m()} * ${this.expr('float', d - 1)})` : `(${this.expr('float', d - 1)} - ${m()})`;
      case 4: return `-(${m()})`;
      case 5: return `transpose(${m()})`;
      case 6: return `matrixCompMult(${m()}, ${m()})`;
      default: return `(${this.cond(d - 1)} ? ${m()} : ${m()})`;
    }
  }
  intExpr(d: number): string {
    if (d <= 0 || this.chance(0.3)) return this.leaf('int');
    const e = () => this.intExpr(d - 1);
    switch (this.int(10)) {
      case 0: return `(${e()} + ${e()})`;
      case 1: return `(${e()} - ${e()})`;
      case 2: return `(${e()} * ${e()})`;
      case 3: return `((${e()} & 1023) / ((${e()} & 7) + 1))`;
      case 4: return `((${e()} & 1023) % ((${e()} & 7) + 1))`;
      case 5: return `(${e()} ${this.pick(['&', '|', '^'])} ${e()})`;
      case 6: return `(${e()} ${this.pick(['<<', '>>'])} (${e()} & 7))`;
      case 7: return `int(clamp(${this.expr('float', d - 1)}, -1000.0, 1000.0))`;
      case 8: return `(${this.cond(d - 1)} ? ${e()} : ${e()})`;
      default: return `-(${e()})`;
    }
  }
  uintExpr(d: number): string {
    if (d <= 0 || this.chance(0.3)) return this.leaf('uint');
    const e = () => this.uintExpr(d - 1);
    switch (this.int(6)) {
      case 0: return `(${e()} + ${e()})`;
      case 1: return `(${e()} - ${e()})`;
      case 2: return `(${e()} * 2654435761u)`;
      case 3: return `(${e()} >> (${e()} & 15u))`;
      case 4: return `uint(${this.intExpr(d - 1)} & 65535)`;
      default: return `(${e()} ^ ${e()})`;
    }
  }
  cond(d: number): string {
    const t = this.pick(['float', 'int', 'float2'] as Ty[]);
    if (t === 'float2') return `${this.pick(['any', 'all'])}(${this.expr('float2', d)} ${this.pick(['<', '>='])} ${this.expr('float2', d)})`;
    const e = () => (t === 'int' ? this.intExpr(d) : this.expr('float', d));
    const c = `(${e()} ${this.pick(['<', '>', '<=', '>=', '==', '!='])} ${e()})`;
    return this.chance(0.2) ? `(${c} ${this.pick(['&&', '||'])} ${this.cond(d - 1)})` : c;
  }
  local(ty: Ty, d: number): string {
    const name = `l${this.locals++}`;
    const init = ty === 'int' ? this.intExpr(d) : ty === 'uint' ? this.uintExpr(d) : this.expr(ty, d);
    this.vars.push({ name, ty });
    return `${ty} ${name} = ${init};`;
  }
  /** Statements: locals, branches, loops with break/continue, a discard. */
  body(outs: Array<{ name: string; ty: Ty }>, allowDiscard: boolean): string[] {
    const lines: string[] = [];
    for (let k = 0; k < 1 + this.int(3); k++) lines.push(this.local(this.pick(['float', 'float2', 'float4', 'int', 'uint'] as Ty[]), 2));
    const floats = () => this.vars.filter((v) => FLOATS.includes(v.ty) && v.name.startsWith('l'));
    if (this.chance(0.5) && floats().length) {
      const v = this.pick(floats());
      lines.push(`if (${this.cond(2)}) { ${v.name} = ${this.expr(v.ty, 2)}; } else { ${v.name} += ${this.expr(v.ty, 1)}; }`);
    }
    if (this.chance(0.5) && floats().length) {
      const v = this.pick(floats());
      const brk = this.int(6);
      lines.push(`for (int j = 0; j < (c & 7); j++) { if (j == ${brk}) break; if (j == 1) continue; ${v.name} = ${v.name} * 0.5 + ${this.expr(v.ty, 1)}; }`);
    }
    if (this.chance(0.3) && floats().length) {
      const v = this.pick(floats());
      lines.push(`{ int w = 0; while (w < 3) { ${v.name} = max(${v.name}, ${this.expr(v.ty, 1)}); w++; } }`);
    }
    if (this.chance(0.3)) {
      // a matrix local, a column assigned, a product assigned
      const n = 2 + this.int(3);
      const name = `m${this.locals++}`;
      lines.push(`float${n}x${n} ${name} = ${this.matExpr(n, 2)};`);
      this.mats.push({ name, n });
      if (this.chance(0.5)) lines.push(`${name}[${this.int(n)}] = ${this.expr(`float${n}` as Ty, 1)};`);
      if (this.chance(0.5)) lines.push(`${name} *= ${this.matExpr(n, 1)};`);
    }
    if (allowDiscard && this.chance(0.2)) lines.push(`if (${this.cond(1)}) discard;`);
    for (const o of outs) lines.push(`${o.name} = ${o.ty === 'int' ? this.intExpr(3) : o.ty === 'uint' ? this.uintExpr(3) : this.expr(o.ty, 3)};`);
    return lines;
  }
}

function floats(n: number, seed: number, step = 1 / 8, span = 80): Float32Array {
  const r = seededRandom(seed);
  return Float32Array.from({ length: n }, () => (Math.floor(r() * (2 * span + 1)) - span) * step);
}

/** The kernel of `seed`: a map kernel (most), a struct kernel or a reduce kernel. */
export function generateKernel(seed: number): GeneratedKernel {
  const g = new Gen(seed);
  const kind = seed % 10 === 7 ? 'reduce' : seed % 10 === 3 ? 'struct' : 'map';
  if (kind === 'reduce') {
    const ops = Array.from({ length: 4 }, () => g.pick(['max', 'min', 'sum']));
    const comp = (k: number) => {
      const c = 'xyzw'[k];
      return ops[k] === 'sum' ? `r.${c} += a.${c};` : `r.${c} = ${ops[k]}(r.${c}, a.${c});`;
    };
    const source = `reduce void red(float4 a<>, reduce float4 r<>) {\n  ${[0, 1, 2, 3].map(comp).join('\n  ')}\n}`;
    return {
      seed, source, inexact: g.inexact, kind,
      args(ctx) {
        const { red } = parseBrook(source);
        // integer-valued records: sums exact in any order, so the fold order does not matter
        const a = ctx.stream('float4', [8, 16], floats(4 * 128, seed, 1, 50));
        const r = ctx.stream('float4', g.chance(0.5) ? 1 : [2, 4]);
        return { kernel: red!, args: { a, r }, streams: [a, r] };
      },
    };
  }
  g.vars.push({ name: 'a', ty: 'float' }, { name: 'b', ty: 'float4' }, { name: 'c', ty: 'int' }, { name: 'u', ty: 'float' }, { name: 'it', ty: 'float' });
  if (kind === 'struct') g.vars.push({ name: 's.p', ty: 'float2' }, { name: 's.q', ty: 'float' });
  const outs: Array<{ name: string; ty: Ty }> = kind === 'struct'
    ? [{ name: 'so.p', ty: 'float2' }, { name: 'so.q', ty: 'float' }, { name: 'oi', ty: 'int' }]
    : [{ name: 'o0', ty: g.pick(FLOATS) }, { name: 'o1', ty: g.pick(['float', 'float4'] as Ty[]) }, { name: 'oi', ty: 'int' }, { name: 'ou', ty: 'uint' }];
  const body = g.body(outs, kind === 'map');
  const params = [
    'float a<>', 'float4 b<>', 'int c<>', 'float g[]', 'float4 h[][]', 'iter float it<>', 'float u', 'float2x2 mu',
    ...(kind === 'struct' ? ['S s<>', 'out S so<>', 'out int oi<>'] : outs.map((o) => `out ${o.ty} ${o.name}<>`)),
  ];
  const source = `${kind === 'struct' ? 'struct S { float2 p; float q; };\n' : ''}kernel void k(${params.join(', ')}) {\n  ${body.join('\n  ')}\n}`;
  return {
    seed, source, inexact: g.inexact, kind,
    args(ctx) {
      const { k } = parseBrook(source);
      const streams: Array<Stream | StructStream> = [];
      const s = <T extends Stream | StructStream>(x: T) => (streams.push(x), x);
      const r = seededRandom(seed * 7 + 1);
      const args: KernelArgs = {
        a: s(ctx.stream('float', N, floats(N, seed + 1))),
        b: s(ctx.stream('float4', N, floats(4 * N, seed + 2))),
        c: s(ctx.stream('int', N, Int32Array.from({ length: N }, () => Math.floor(r() * 41) - 20))),
        g: s(ctx.stream('float', 13, floats(13, seed + 3))),
        h: s(ctx.stream('float4', [5, 7], floats(4 * 35, seed + 4))),
        it: iter(-4, 12),
        u: (Math.floor(r() * 33) - 16) / 4,
        mu: Array.from({ length: 4 }, () => (Math.floor(r() * 33) - 16) / 4), // column by column
      };
      if (kind === 'struct') {
        const S = k!.structs!.S!;
        args.s = s(structStream(ctx, S, N, floats(3 * N, seed + 5)));
        args.so = s(structStream(ctx, S, N));
        args.oi = s(ctx.stream('int', N));
      } else {
        for (const o of outs) args[o.name] = s(ctx.stream(o.ty, N, o.ty === 'int' ? new Int32Array(N).fill(-1) : o.ty === 'uint' ? new Uint32Array(N) : new Float32Array(N * width(o.ty)).fill(-1)));
      }
      return { kernel: k!, args, streams };
    },
  };
}
