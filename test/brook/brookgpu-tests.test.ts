// BrookGPU's kernels and gold files quoted here are under its licence: test/brook/BROOKGPU-LICENSE.txt.
// BrookGPU 0.5's own regression programs (prog/tests), ported: each kernel verbatim through the
// `brook` tag, each main() translated line for line onto brookgl's Brook host API (streamDecl,
// streamRead, streamWrite, ctx.run, reduceValue, streamGatherOp, ...), its printf calls onto a C
// printf, and the printed text compared with the program's gold file (brookgpu-gold.ts) as it
// stands (pack_vout in brookgpu-pack-vout.test.ts). Programs whose gold is not brookgl's answer run
// against a reference; those without golds are compiled (brookgpu-compile-only.test.ts); the
// reasons are listed at the end (NOT_PASSING).
import { expect } from 'chai';
import {
  BrookContext, Stream, StructStream, brook, brookStructs, iter, reduceValue, streamDecl, streamGatherOp, streamRead, streamScatterOp, streamWrite,
  parseBrook, voutRun, writeMask, writeQuery, CPU_RENDERER,
} from '../../src/index';
import { charToFloat, floatToChar } from '../../src/reference';
import { newContext } from '../helpers';
import { GOLD } from './brookgpu-gold';

/** C's printf for %d, %i, %u, %x, %c, %s, %f, %e and %g (flags - + space 0, width, precision; h/hh/l ignored except %hhd). */
export function cprintf(format: string, ...args: (number | string)[]): string {
  let k = 0;
  return format.replace(/%([-+ 0#]*)(\d*)(?:\.(\d*))?(hh|h|ll|l)?([diouxXcsfFeEgG%])/g, (_all, flags: string, width: string, prec: string | undefined, len: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const v = args[k++]!;
    let body: string;
    let sign = '';
    if (conv === 's') body = String(v);
    else if (conv === 'c') body = String.fromCharCode(Number(v));
    else if ('diouxX'.includes(conv)) {
      let n = Math.trunc(Number(v));
      if (len === 'hh') n = conv === 'd' || conv === 'i' ? ((n & 0xff) << 24) >> 24 : n & 0xff;
      if (n < 0) sign = '-';
      body = conv === 'x' ? Math.abs(n).toString(16) : conv === 'X' ? Math.abs(n).toString(16).toUpperCase() : String(Math.abs(n));
    } else {
      const x = Number(v);
      const p = prec === undefined ? 6 : prec === '' ? 0 : Number(prec);
      if (x < 0 || Object.is(x, -0)) sign = '-';
      body = Number.isNaN(x) ? 'nan' : !Number.isFinite(x) ? 'inf' : conv === 'f' || conv === 'F' ? fixed(Math.abs(x), p) : conv === 'e' || conv === 'E' ? expo(Math.abs(x), p) : general(Math.abs(x), p);
      if (Number.isNaN(x)) sign = '';
    }
    if (!sign && flags.includes('+')) sign = '+';
    else if (!sign && flags.includes(' ')) sign = ' ';
    const w = Number(width || 0);
    const len0 = sign.length + body.length;
    if (len0 >= w) return sign + body;
    if (flags.includes('-')) return sign + body + ' '.repeat(w - len0);
    if (flags.includes('0') && conv !== 's') return sign + '0'.repeat(w - len0) + body;
    return ' '.repeat(w - len0) + sign + body;
  });
}

/** x ≥ 0 to p decimals, rounding its exact binary value half to even as glibc does. */
function fixed(x: number, p: number): string {
  const exact = x.toFixed(Math.min(100, p + 30)); // the exact expansion to well past p digits
  const [int, frac = ''] = exact.split('.');
  const keep = int! + frac.slice(0, p);
  const rest = frac.slice(p);
  let digits = keep.split('').map(Number);
  const up = rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || digits[digits.length - 1]! % 2 === 1));
  if (rest.length && up) {
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 9) digits[i--] = 0;
    if (i < 0) digits = [1, ...digits];
    else digits[i]!++;
  }
  const s = digits.join('');
  const intLen = s.length - p;
  return p ? `${s.slice(0, intLen)}.${s.slice(intLen)}` : s;
}
function expo(x: number, p: number): string {
  const [m, e] = x.toExponential(p).split('e');
  const n = Number(e);
  return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}
function general(x: number, p: number): string {
  const P = p === 0 ? 1 : p;
  if (x === 0) return '0';
  const e = Math.floor(Math.log10(x));
  const s = e < -4 || e >= P ? expo(x, P - 1) : fixed(x, P - 1 - e);
  return s.includes('e') ? s.replace(/\.?0+e/, 'e') : s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** What a program printed. */
export class Out {
  text = '';
  printf(format: string, ...args: (number | string)[]): void {
    this.text += cprintf(format, ...args);
  }
  /** BrookGPU's streamPrint (runtime/brt.cpp): each record as {a, b} (or "a " for one float), %3.2f, a row per line. */
  streamPrint(s: Stream | StructStream): void {
    const data = s instanceof StructStream ? s.readSync() : s.readSync();
    const shape = s instanceof StructStream ? s.shape : s.shape;
    const per = data.length / shape.reduce((a, b) => a * b, 1);
    const last = shape[shape.length - 1]!;
    for (let i = 0; i < data.length / per; i++) {
      if (per !== 1) this.text += '{';
      for (let j = 0; j < per; j++) {
        const x = data[i * per + j]!;
        if (j) this.text += ', ';
        this.text += Number.isNaN(x) ? 'NaN' : !Number.isFinite(x) ? 'inf' : Math.abs(x) < 0.000001 ? '0.00' : cprintf('%3.2f', x);
      }
      this.text += per !== 1 ? '}' : ' ';
      if ((i + 1) % last === 0) this.text += '\n';
    }
  }
}

const f = Math.fround;
export const decl = (ctx: BrookContext, d: string) => streamDecl(ctx, d) as Stream;

/** The host arrays of prog/tests/sum_<type>: Uint8Array for the 8-bit types, Int32Array for int, Uint32Array for unsigned int. */
const sumArray = (type: string, n: number) => (type === 'int' ? new Int32Array(n) : type === 'unsigned int' ? new Uint32Array(n) : new Uint8Array(n));

/**
 * prog/tests/sum_<type>'s main() up to its printing: its kernel `c = a + b` as written, a1 and a2 all
 * aValue, b1 and b2 10i+j (a2 read from input_a1, as the sources do), summed as 1D <100> and 2D <10, 10>.
 */
function sumProgram(ctx: BrookContext, type: string, aValue: number) {
  const { sum } = parseBrook(`kernel void sum( ${type} a<>, ${type} b<>, out ${type} c<> ) {\n\tc = a + b;\n}`);
  const comps = dims(type);
  const arr = (n: number) => sumArray(type, n);
  const input_a1 = arr(100 * comps), input_b1 = arr(100 * comps), input_b2 = arr(100 * comps);
  const output_c1 = arr(100 * comps), output_c2 = arr(100 * comps);
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      for (let k = 0; k < comps; k++) {
        input_a1[(10 * i + j) * comps + k] = aValue;
        input_b1[(10 * i + j) * comps + k] = 10 * i + j;
        input_b2[(10 * i + j) * comps + k] = 10 * i + j;
      }
    }
  }
  const a1 = decl(ctx, `${type} a1< 100 >`), b1 = decl(ctx, `${type} b1< 100 >`), c1 = decl(ctx, `${type} c1< 100 >`);
  const a2 = decl(ctx, `${type} a2< 10, 10 >`), b2 = decl(ctx, `${type} b2< 10, 10 >`), c2 = decl(ctx, `${type} c2< 10, 10 >`);
  streamRead(a1, input_a1);
  streamRead(b1, input_b1);
  streamRead(a2, input_a1);
  streamRead(b2, input_b2);
  ctx.run(sum!, { a: a1, b: b1, c: c1 });
  ctx.run(sum!, { a: a2, b: b2, c: c2 });
  streamWrite(c1, output_c1);
  streamWrite(c2, output_c2);
  [a1, b1, c1, a2, b2, c2].forEach((s) => s.dispose());
  return { input_a1, input_b1, input_b2, output_c1, output_c2 };
}

/**
 * The sum programs' printing: each record of c1 through `format`, ten a line, then c2's; `second`
 * picks what the second loop prints of c1's and c2's record (sum_uchar3 and sum_uchar4 print c1's z there).
 */
function printSums(
  format: string, comps: number, c1: ArrayLike<number>, c2: ArrayLike<number>,
  second: (r1: number[], r2: number[]) => number[] = (_r1, r2) => r2,
): string {
  const out = new Out();
  const rec = (o: ArrayLike<number>, k: number) => Array.from({ length: comps }, (_, m) => o[k * comps + m]!);
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) out.printf(format, ...rec(c1, 10 * i + j));
    out.printf('\n');
  }
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) out.printf(format, ...second(rec(c1, 10 * i + j), rec(c2, 10 * i + j)));
    out.printf('\n');
  }
  return out.text;
}
const dims = (type: string) => (/[234]$/.test(type) ? Number(type.at(-1)) : 1);

describe('brook/BrookGPU 0.5 prog/tests, ported: the printed output equals the gold file', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('accumulate (a kernel writing one of its inputs, 1D and 2D, 12 times)', () => {
    const { sum } = brook`
      kernel void
      sum(float a<>, float b<>, out float c<>)
      {
         c = a + b;
      }`;
    const out = new Out();
    const callKernel = (a: Stream, b: Stream) => ctx.run(sum!, { a, b, c: b }); // sum(a, b, b);
    const input_a1 = new Float32Array(100), input_b1 = new Float32Array(100), output_b1 = new Float32Array(100);
    const output_b2 = new Float32Array(100);
    const a1 = decl(ctx, 'float a1<100>'), b1 = decl(ctx, 'float b1<100>');
    const a2 = decl(ctx, 'float a2<10,10>'), b2 = decl(ctx, 'float b2<10,10>');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_a1[10 * i + j] = f(0.125 * (10 * i + j));
        input_b1[10 * i + j] = 0;
      }
    }
    streamRead(a1, input_a1); streamRead(a2, input_a1);
    streamRead(b1, input_b1); streamRead(b2, input_b1);
    for (let i = 0; i < 12; i++) {
      callKernel(a1, b1);
      callKernel(a2, b2);
    }
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%6.2f ', output_b1[10 * i + j]!);
      out.printf('\n');
    }
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%6.2f ', output_b2[10 * i + j]!);
      out.printf('\n');
    }
    // the gold was printed with %3.2f (its .br says %6.2f): compare the numbers, not the padding
    expect(out.text.replace(/ +/g, ' ').replace(/^ /gm, '')).to.equal(GOLD.accumulate);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('cachetest (addone(a1, a1) 12 times)', () => {
    const { addone } = brook`
      kernel void
      addone(float a<>, out float c<>)
      {
         c = a + 1.0f;
      }`;
    const out = new Out();
    const input_a1 = new Float32Array(100);
    const a1 = decl(ctx, 'float a1<100>');
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) input_a1[10 * i + j] = 10 * i + j;
    streamRead(a1, input_a1);
    for (let i = 0; i < 12; i++) ctx.run(addone!, { a: a1, c: a1 });
    streamWrite(a1, input_a1);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%6.2f ', input_a1[10 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.cachetest);
    a1.dispose();
  });

  it('constant (float, float2, float3, float4 constants)', () => {
    const kernels = brook`
      kernel void
      k1(float n, float a, float2 b, float3 c, float4 d, out float4 s<>)
      {
         s = float4(a, 0, 0, 0);
      }
      kernel void
      k2(float n, float a, float2 b, float3 c, float4 d, out float4 s<>)
      {
         s = float4(b.x, b.y, 0, 0);
      }
      kernel void
      k3(float n, float a, float2 b, float3 c, float4 d, out float4 s<>)
      {
         s = float4(c.x, c.y, c.z, 0);
      }
      kernel void
      k4(float n, float a, float2 b, float3 c, float4 d, out float4 s<>)
      {
         s = float4(d.x, d.y, d.z, d.w);
      }
      kernel void
      k(float n, float a, float2 b, float3 c, float4 d, out float4 s<>)
      {
         if (n == 1.0) {
            s = float4(a, n, 0, 0);
         } else if (n == 2.0) {
            s = float4(b.x, b.y, 0, 0);
         } else if (n == 3.0) {
            s = float4(c.x, c.y, c.z, 0);
         } else if (n == 4.0) {
            s = d;
         } else {
            s = float4(0, 0, 0, 0);
         }
      }`;
    const out = new Out();
    const data = new Float32Array(40);
    const s = decl(ctx, 'float4 s<10>');
    const d = [5.1, 1.5, 4.2, 2.4];
    const c = [0.1, 0.2, 0.3];
    const b = [67.89, 98.76];
    const a = 12.34;
    const print = (what: string, i: number) => {
      streamWrite(s, data);
      out.printf(`Results with n = %d and a ${what} kernel:\n`, i);
      out.printf('00: ');
      for (let j = 0; j < 10; j++) {
        out.printf('(%4.2f, %4.2f, %4.2f, %4.2f) ', data[4 * j]!, data[4 * j + 1]!, data[4 * j + 2]!, data[4 * j + 3]!);
        if (j % 2 === 1) out.printf('\n%02d: ', j + 1);
      }
      out.printf('\n\n');
    };
    for (let i = 1; i <= 4; i++) {
      ctx.run(kernels[`k${i}`]!, { n: i * 1.0, a, b, c, d, s });
      print('static', i);
      ctx.run(kernels.k!, { n: i * 1.0, a, b, c, d, s });
      print('conditional', i);
    }
    expect(out.text).to.equal(GOLD.constant);
    s.dispose();
  });

  it('convert_iter_to_stream (an iterator passed where a stream is expected)', () => {
    const { copy } = brook`
      kernel void copy( float input<>, out float output<> ) {
      	output = input;
      }`;
    const out = new Out();
    const iterator = iter(0.0, 25.0); //                          iter float iterator< 100 > = iter( 0.0f, 25.0f );
    const stream = decl(ctx, 'float stream< 100 >');
    const stream_data = new Float32Array(100);
    ctx.run(copy!, { input: iterator, output: stream }); //       copy( iterator, stream );
    streamWrite(stream, stream_data);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%6.3f ', stream_data[10 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.convert_iter_to_stream);
    stream.dispose();
  });

  it('domain_gather (a gather through a domain of a 2D stream)', () => {
    const { gatherFetch } = brook`
      kernel void gatherFetch( float2 index<>, float2 g[][], out float2 result<> )
      {
      	result = g[ index ];
      }`;
    const out = new Out();
    const indexStream = decl(ctx, 'float2 indexStream< 100 >');
    const gatherStream = decl(ctx, 'float2 gatherStream< 20, 20 >');
    const resultStream = decl(ctx, 'float2 resultStream< 100 >');
    const index_data = new Float32Array(200), gather_data = new Float32Array(800), result_data = new Float32Array(200);
    for (let i = 0; i < 100; i++) {
      index_data[2 * i] = i % 10;
      index_data[2 * i + 1] = Math.floor(i / 10);
    }
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) {
        gather_data[2 * (20 * i + j)] = i;
        gather_data[2 * (20 * i + j) + 1] = j;
      }
    }
    streamRead(indexStream, index_data);
    streamRead(gatherStream, gather_data);
    ctx.run(gatherFetch!, { index: indexStream, g: gatherStream.domain([0, 7], [10, 17]), result: resultStream });
    streamWrite(resultStream, result_data);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('<%f %f> ', result_data[2 * (j * 10 + i)]!, result_data[2 * (j * 10 + i) + 1]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.domain_gather);
    [indexStream, gatherStream, resultStream].forEach((s) => s.dispose());
  });

  it('domain_read (domains of 1D and 2D streams as kernel inputs)', () => {
    const { copy } = brook`
      kernel void copy( float input<>, out float output<> )
      {
        output = input;
      }`;
    const out = new Out();
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 50 >');
    const a2 = decl(ctx, 'float a2< 100, 100 >'), b2 = decl(ctx, 'float b2< 4, 7 >');
    const input_a1 = new Float32Array(100), output_b1 = new Float32Array(50), input_a2 = new Float32Array(10000), output_b2 = new Float32Array(28);
    for (let i = 0; i < 100; i++) {
      input_a1[i] = i;
      for (let j = 0; j < 100; j++) input_a2[i * 100 + j] = i * 100 + j;
    }
    streamRead(a1, input_a1);
    streamRead(a2, input_a2);
    ctx.run(copy!, { input: a1.domain(30, 80), output: b1 });
    ctx.run(copy!, { input: a2.domain([5, 90], [12, 94]), output: b2 });
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 5; j++) out.printf('%3.2f ', output_b1[5 * i + j]!);
      out.printf('\n');
    }
    out.printf('***\n');
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 7; j++) out.printf('%3.2f ', output_b2[7 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.domain_read);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('domain_streamreadwrite (streamRead and streamWrite of domains)', () => {
    const out = new Out();
    const a1 = decl(ctx, 'float a1< 100 >'), a2 = decl(ctx, 'float a2< 10, 10 >');
    const input_a1 = new Float32Array(100), input_a2 = new Float32Array(100), input_b1 = new Float32Array(7), input_b2 = new Float32Array(21);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_a1[10 * i + j] = i * 10 + j;
        input_a2[10 * i + j] = i * 10 + j;
      }
    }
    for (let i = 0; i < 7; i++) input_b1[i] = i;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 7; j++) input_b2[7 * i + j] = i * 10 + j;
    streamRead(a1, input_a1);
    streamRead(a2, input_a2);
    streamRead(a1.domain(19, 19 + 7), input_b1);
    streamRead(a2.domain([1, 5], [1 + 7, 5 + 3]), input_b2);
    streamWrite(a1, input_a1);
    streamWrite(a2, input_a2);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', input_a1[10 * i + j]!);
      out.printf('\n');
    }
    out.printf('\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', input_a2[10 * i + j]!);
      out.printf('\n');
    }
    out.printf('\n');
    input_b1.fill(0);
    input_b2.fill(0);
    streamWrite(a1.domain(15, 15 + 7), input_b1);
    streamWrite(a2.domain([2, 4], [2 + 7, 4 + 3]), input_b2);
    for (let i = 0; i < 7; i++) out.printf('%3.2f ', input_b1[i]!);
    out.printf('\n');
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 7; j++) out.printf('%3.2f ', input_b2[7 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.domain_streamreadwrite);
    [a1, a2].forEach((s) => s.dispose());
  });

  it('domain_write (domains as kernel outputs)', () => {
    const { copy } = brook`
      kernel void copy( float input<>, out float output<> )
      {
        output = input;
      }`;
    const out = new Out();
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >');
    const a1_data = new Float32Array(100), b1_data = new Float32Array(100), a2_data = new Float32Array(100), b2_data = new Float32Array(100);
    for (let i = 0; i < 100; i++) {
      a1_data[i] = i;
      a2_data[i] = i;
      b1_data[i] = -1.0;
      b2_data[i] = -1.0;
    }
    streamRead(a1, a1_data);
    streamRead(b1, b1_data);
    streamRead(a2, a2_data);
    streamRead(b2, b2_data);
    ctx.run(copy!, { input: a1.domain(30, 80), output: b1.domain(20, 70) });
    ctx.run(copy!, { input: a2.domain([3, 5], [9, 10]), output: b2.domain([0, 2], [6, 7]) });
    streamWrite(b1, b1_data);
    streamWrite(b2, b2_data);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', b1_data[10 * i + j]!);
      out.printf('\n');
    }
    out.printf('***\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', b2_data[10 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.domain_write);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('gather_dependent (gathers at indices read from streams, 1D and 2D)', () => {
    const { gather1, gather2 } = brook`
      kernel void gather1( float index<>, float a[100], out float b<> ) {
      	b = a[ index.x ];
      }
      kernel void gather2( float2 index<>, float a[10][10], out float b<> ) {
      	b = a[ index.xy ];
      }`;
    const out = new Out();
    const index1 = decl(ctx, 'float index1< 100 >'), a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const index2 = decl(ctx, 'float2 index2< 10, 10 >'), a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >');
    const input_index1 = new Float32Array(100), input_a1 = new Float32Array(100), output_b1 = new Float32Array(100);
    const input_index2 = new Float32Array(200), input_a2 = new Float32Array(100), output_b2 = new Float32Array(100);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_index1[10 * i + j] = 10 * i + j;
        input_a1[10 * i + j] = 99 - (10 * i + j);
        input_index2[2 * (10 * i + j)] = j;
        input_index2[2 * (10 * i + j) + 1] = i;
        input_a2[10 * i + j] = 99 - (10 * i + j);
      }
    }
    streamRead(index1, input_index1);
    streamRead(a1, input_a1);
    streamRead(index2, input_index2);
    streamRead(a2, input_a2);
    ctx.run(gather1!, { index: index1, a: a1, b: b1 });
    ctx.run(gather2!, { index: index2, a: a2, b: b2 });
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (const o of [output_b1, output_b2]) {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', o[10 * i + j]!);
        out.printf('\n');
      }
    }
    expect(out.text).to.equal(GOLD.gather_dependent);
    [index1, a1, b1, index2, a2, b2].forEach((s) => s.dispose());
  });

  it('gather_direct (gathers at a constant index)', () => {
    const { gather1, gather2 } = brook`
      kernel void gather1( float2 index, float a[100], out float b<> ) {
      	b = a[ index.x ];
      }
      kernel void gather2( float2 index, float a[10][10], out float b<> ) {
      	b = a[ index.xy ];
      }`;
    const out = new Out();
    const index = [3, 4];
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >');
    const input_a1 = new Float32Array(100), output_b1 = new Float32Array(100), output_b2 = new Float32Array(100);
    for (let i = 0; i < 100; i++) input_a1[i] = i;
    streamRead(a1, input_a1);
    streamRead(a2, input_a1);
    ctx.run(gather1!, { index, a: a1, b: b1 });
    ctx.run(gather2!, { index, a: a2, b: b2 });
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (const o of [output_b1, output_b2]) {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', o[10 * i + j]!);
        out.printf('\n');
      }
    }
    expect(out.text).to.equal(GOLD.gather_direct);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('gatherop (streamGatherOp twice with a permutation; then with float4 records)', () => {
    const kernels = brook`
      reduce void mydec(float4 a <>, reduce float4 b <> ) {
         b = a - 1;
      }
      reduce void mydec1(float a <>, reduce float b <> ) {
         b = a - 1;
      }
      reduce void myfetch(float4 a <>, reduce float4 b <> ) {
        b = a;
      }
      reduce void myinc(float4 a <>, reduce float4 b <> ) {
        float4 one = float4(1.0f, 1.0f, 1.0f, 1.0f);
        b = a + one;
      }
      reduce void myfetch1(float a <>, reduce float b <> ) {
        b = a;
      }
      reduce void myinc1(float a <>, reduce float b <> ) {
        b = a + 1;
      }`;
    const out = new Out();
    const print_dataf = (d: Float32Array) => {
      for (let i = 0; i < 2; i++) {
        for (let j = 0; j < 2; j++) {
          const r = 4 * (2 * i + j);
          out.printf('{%3.2f %3.2f %3.2f %3.2f}', d[r]!, d[r + 1]!, d[r + 2]!, d[r + 3]!);
        }
        out.printf('\n');
      }
    };
    const printarray1 = (d: Float32Array) => {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', d[10 * i + j]!);
        out.printf('\n');
      }
    };
    const a = decl(ctx, 'float  a<10, 10>'), b = decl(ctx, 'float2 b<10, 10>'), e = decl(ctx, 'float  e<10, 10>');
    const fs = decl(ctx, 'float4 f<2,2>'), g = decl(ctx, 'float4 g<2,2>'), index = decl(ctx, 'float2 index<2,2>');
    const data_a = new Float32Array(100), data_b = new Float32Array(200), data_e = new Float32Array(100);
    const data_f = Float32Array.from([0, 0, 0, 0, 1, -1, 1, -1, 2, -2, 2, -2, 3, -3, 3, -3]);
    const data_g = new Float32Array(16);
    const data_i = Float32Array.from([0, 1, 1, 0, 1, 1, 0, 0]);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        data_a[10 * i + j] = i + 10 * j;
        data_b[2 * (10 * i + j)] = 9 - i;
        data_b[2 * (10 * i + j) + 1] = 9 - j;
      }
    }
    streamRead(a, data_a);
    streamRead(b, data_b);
    streamGatherOp(ctx, e, b, a, kernels.mydec1!);
    streamGatherOp(ctx, e, b, a, kernels.mydec1!);
    streamWrite(e, data_e);
    streamWrite(a, data_a);
    printarray1(data_e);
    printarray1(data_a);
    out.printf('\n');
    streamRead(index, data_i);
    streamRead(fs, data_f);
    streamGatherOp(ctx, g, index, fs, kernels.myinc!);
    streamWrite(g, data_g);
    streamWrite(fs, data_f);
    print_dataf(data_g);
    out.printf('\n');
    print_dataf(data_f);
    out.printf('\n');
    expect(out.text).to.equal(GOLD.gatherop);
    [a, b, e, fs, g, index].forEach((s) => s.dispose());
  });

  it('scatter (streamScatterOp: a[p] = op(a[p], c[b[p]]))', () => {
    const kernels = brook`
      reduce void mydec(float4 a <>, reduce float4 b <> ) {
         b -= a;
      }
      reduce void mydec1(float a <>, reduce float b <> ) {
         b -= a;
      }
      reduce void myinc(float4 a <>, reduce float4 b <> ) {
         b += a;
      }
      reduce void myinc1(float a <>, reduce float b <> ) {
         b += a;
      }`;
    const out = new Out();
    const a = decl(ctx, 'float  a<10, 10>'), b = decl(ctx, 'float2 b<10, 10>'), e = decl(ctx, 'float  e<10, 10>');
    const fs = decl(ctx, 'float4 f<2,2>'), g = decl(ctx, 'float4 g<2,2>'), index = decl(ctx, 'float2 index<2,2>');
    const data_a = new Float32Array(100), data_b = new Float32Array(200), data_e = new Float32Array(100);
    const data_f = Float32Array.from([0, 0, 0, 0, 1, -1, 1, -1, 2, -2, 2, -2, 3, -3, 3, -3]);
    const data_g = Float32Array.from([3, 2, 1, 0, 5, 6, 7, 8, 6, 4, 2, 0, 1, 2, 3, 4]);
    const data_i = Float32Array.from([0, 1, 1, 0, 1, 1, 0, 0]);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        data_a[10 * i + j] = i + 10 * j;
        data_b[2 * (10 * i + j)] = 9 - i;
        data_b[2 * (10 * i + j) + 1] = 9 - j;
        data_e[10 * i + j] = 5.0;
      }
    }
    streamRead(a, data_a);
    streamRead(b, data_b);
    streamRead(e, data_e);
    streamScatterOp(ctx, e, b, a, kernels.mydec1!);
    streamWrite(e, data_e);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', data_e[10 * i + j]!);
      out.printf('\n');
    }
    out.printf('\n');
    streamRead(index, data_i);
    streamRead(fs, data_f);
    streamRead(g, data_g);
    streamScatterOp(ctx, g, index, fs, kernels.myinc!);
    streamWrite(g, data_g);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) {
        const r = 4 * (2 * i + j);
        out.printf('{%3.2f %3.2f %3.2f %3.2f}', data_g[r]!, data_g[r + 1]!, data_g[r + 2]!, data_g[r + 3]!);
      }
      out.printf('\n');
    }
    out.printf('\n');
    expect(out.text).to.equal(GOLD.scatter);
    [a, b, e, fs, g, index].forEach((s) => s.dispose());
  });
  it('indexof (indexof of an input, of an output passed on to another kernel)', () => {
    const { foo, test } = brook`
      kernel void
      bar(float d_prime<>, float d[10][10], out float4 e<>, float4 indexofe)
      {
        /* this test should make a matrix of 1 and a diagonal of 0's*/
        e = float4(d[indexof(d_prime)],
                   d[indexof(d_prime).xy],
                   d[indexof(d_prime).xy],
                   d[1?(indexofe).xy:indexofe.zz]);
      }
      kernel void
      foo(float d_prime<>, float d[10][10],out float4 e<>)
      {
         bar(d_prime,d,e,indexof(e));
      }
      kernel void
      test(float a<>, out float b<>)
      {
         b = (indexof(a)).x;
      }`;
    const out = new Out();
    const data_d = new Float32Array(100), data_e = new Float32Array(400), data_c = new Float32Array(100);
    const d = decl(ctx, 'float d<10, 10>'), c = decl(ctx, 'float c<10,10>'), e = decl(ctx, 'float4 e<10, 10>');
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) data_d[10 * i + j] = i * 10 + j;
    streamRead(d, data_d);
    ctx.run(test!, { a: d, b: c });
    streamWrite(c, data_c);
    out.printf('Here are the results from the simple indexof test:\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f  ', Math.trunc(data_c[10 * i + j]!));
      out.printf('\n');
    }
    out.printf('\n');
    ctx.run(foo!, { d_prime: d, d, e });
    streamWrite(e, data_e);
    out.printf('Here are the results from the advanced indexof test:\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        if (!(j % 2)) out.printf('\n');
        const r = 4 * (10 * i + j);
        out.printf('%3.2f %3.2f %3.2f %3.2f\t', data_e[r]!, data_e[r + 1]!, data_e[r + 2]!, data_e[r + 3]!);
      }
    }
    out.printf('\n');
    expect(out.text).to.equal(GOLD.indexof);
    [d, c, e].forEach((s) => s.dispose());
  });

  it('indexof_output (indexof of the output stream)', () => {
    const { foo } = brook`
      kernel void foo (out float e<>) {
         e = (indexof(e)).x+(indexof(e)).y*10;
      }`;
    const out = new Out();
    const e = decl(ctx, 'float e<10, 10>');
    const data_e = new Float32Array(100);
    ctx.run(foo!, { e });
    streamWrite(e, data_e);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', Math.trunc(data_e[10 * i + j]!));
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.indexof_output);
    e.dispose();
  });

  it('infinite (isfinite, isnan, isinf of inf, NaN and -inf streamed in, and of 1/0 in a kernel)', () => {
    const { foo } = brook`
      kernel void FiniteTest(float a<>, out float4 e<>, float inf) {
         e.x = isfinite(a);
         e.y = isnan(a);
         e.z = isinf(a);
         e.w = 1||a==inf;
      }
      kernel void foo (float a<>, out float4 e<>, float one, float nil, float inf) {
         if ((indexof a).x==3) {
            FiniteTest (one/nil,e,inf);
         }else {
            FiniteTest(a,e,inf);
         }
      }`;
    const out = new Out();
    const a = decl(ctx, 'float a<4>'), e = decl(ctx, 'float4 e<4>');
    const data_a = Float32Array.from([1.0 / Math.floor(0.5), 0.0 / Math.floor(0.5), -1.0 / Math.floor(0.5), 1.0 / Math.floor(0.5)]);
    streamRead(a, data_a);
    ctx.run(foo!, { a, e, one: 1.0, nil: 0.0, inf: 1.0 / Math.floor(0.5) });
    out.streamPrint(e);
    out.printf('\n');
    expect(out.text).to.equal(GOLD.infinite);
    [a, e].forEach((s) => s.dispose());
  });

  it('input_output (sum(a1, b1, b1): an output that is also an input)', () => {
    const { sum } = brook`
      kernel void sum( float a<>, float b<>, out float c<> ) {
      	c = a + b;
      }`;
    const out = new Out();
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >');
    const input_a1 = new Float32Array(100), input_b1 = new Float32Array(100), output_b1 = new Float32Array(100);
    const input_a2 = new Float32Array(100), input_b2 = new Float32Array(100), output_b2 = new Float32Array(100);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_a1[10 * i + j] = i;
        input_b1[10 * i + j] = 10 * j;
        input_a2[10 * i + j] = i;
        input_b2[10 * i + j] = 10 * j;
      }
    }
    streamRead(a1, input_a1);
    streamRead(b1, input_b1);
    streamRead(a2, input_a1);
    streamRead(b2, input_b2);
    ctx.run(sum!, { a: a1, b: b1, c: b1 });
    ctx.run(sum!, { a: a2, b: b2, c: b2 });
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (const o of [output_b1, output_b2]) {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', o[10 * i + j]!);
        out.printf('\n');
      }
    }
    expect(out.text).to.equal(GOLD.input_output);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('iterator (streamGatherOp through an iterator index; a float2 iterator over a 2D domain)', () => {
    const { iterator_test, fetch } = brook`
      kernel void
      iterator_test (float2 d<>, iter float2 iterator<>, out float2 e<>)
      {
         e = iterator + d;
      }
      reduce void
      fetch (float2 a<>, reduce float2 b<>) {
        b = a;
      }`;
    const out = new Out();
    const ian = iter([0.0, 0.0], [200.0, 100.0]); //              iter float2 ian<20, 10> = iter(float2(0.0f, 0.0f), float2(200.0f, 100.0f));
    const indexstream = iter([9.0, 19.0], [-1.0, -1.0]); //        iter float2 indexstream<20, 10> = iter(float2(9.0f, 19.0f), float2(-1.0f, -1.0f));
    const d = decl(ctx, 'float2 d<20, 10>'), e = decl(ctx, 'float2 e<20, 10>');
    const data_d = new Float32Array(400), data_e = new Float32Array(400);
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 10; j++) {
        data_d[2 * (10 * i + j)] = i;
        data_d[2 * (10 * i + j) + 1] = j;
      }
    }
    const print = () => {
      for (let i = 0; i < 20; i++) {
        for (let j = 0; j < 10; j++) out.printf('{%3.2f,%3.2f} ', data_e[2 * (10 * i + j)]!, data_e[2 * (10 * i + j) + 1]!);
        out.printf('\n');
      }
    };
    streamRead(d, data_d);
    streamGatherOp(ctx, e, indexstream, d, fetch!);
    streamWrite(e, data_e);
    out.printf('gatherOp test:\n');
    print();
    ctx.run(iterator_test!, { d, iterator: ian, e });
    streamWrite(e, data_e);
    out.printf('iterator test:\n');
    print();
    expect(out.text).to.equal(GOLD.iterator);
    [d, e].forEach((s) => s.dispose());
  });

  it('iterator_dimensions (float to float4 iterators over 1D domains)', () => {
    const { copy1, copy2, copy3, copy4 } = brook`
      kernel void copy1( iter float i<>, out float output<> ) {
      	output = i;
      }
      kernel void copy2( iter float2 i<>, out float2 output<> ) {
      	output = i;
      }
      kernel void copy3( iter float3 i<>, out float3 output<> ) {
      	output = i;
      }
      kernel void copy4( iter float4 i<>, out float4 output<> ) {
      	output = i;
      }`;
    const out = new Out();
    const test = (c: number, extent: number, min: number[], max: number[]) => {
      const t = c === 1 ? 'float' : `float${c}`;
      const stream = decl(ctx, `${t} stream< ${extent} >`);
      ctx.run([copy1, copy2, copy3, copy4][c - 1]!, { i: c === 1 ? iter(min[0]!, max[0]!) : iter(min, max), output: stream });
      const stream_data = new Float32Array(extent * c);
      streamWrite(stream, stream_data);
      let count = 0;
      for (let i = 0; i < extent; i++) {
        if (count++ === 10) {
          out.printf('\n');
          count = 1;
        }
        const v = Array.from(stream_data.subarray(i * c, i * c + c));
        out.printf(c === 1 ? '%6.3f ' : `{${Array(c).fill('%6.3f').join(' ')}} `, ...v);
      }
      out.printf('\n');
      stream.dispose();
    };
    out.printf(' -- 1D, float, 10 elements, 0 - 10\n');
    test(1, 10, [0.0], [10.0]);
    out.printf(' -- 1D, float, 10 elements, 10 - 0\n');
    test(1, 10, [9.0], [-1.0]);
    out.printf(' -- 1D, float, 128 elements, 0 - 64\n');
    test(1, 128, [0.0], [64.0]);
    out.printf(' -- 1D, float2, 8 elements, (0,0) - (8,4)\n');
    test(2, 8, [0.0, 0.0], [8.0, 4.0]);
    out.printf(' -- 1D, float3, 4 elements, (0,0,0) - (8,4,2)\n');
    test(3, 4, [0.0, 0.0, 0.0], [8.0, 4.0, 2.0]);
    out.printf(' -- 1D, float4, 4 elements, (0,0,0,0) - (8,4,2,1)\n');
    test(4, 4, [0.0, 0.0, 0.0, 0.0], [8.0, 4.0, 2.0, 1.0]);
    expect(out.text).to.equal(GOLD.iterator_dimensions);
  });

  it('loop (a data-dependent while loop of gathers)', () => {
    const { krnIterate } = brook`
      kernel void krnIterate( float count<>, float input<>, float g[], out float result<> )
      {
        float i = count;
        float x = input;
        while( i > 0 )
        {
          x = g[x];
          i = i-1;
        }
        result = x;
      }`;
    const out = new Out();
    const count = decl(ctx, 'float count<10>'), input = decl(ctx, 'float input<10>'), gather = decl(ctx, 'float gather<100>'), result = decl(ctx, 'float result<10>');
    const count_data = new Float32Array(10), input_data = new Float32Array(10), gather_data = new Float32Array(100), result_data = new Float32Array(10);
    for (let i = 0; i < 10; i++) {
      count_data[i] = i % 4;
      input_data[i] = i;
      result_data[i] = -1.0;
    }
    for (let i = 0; i < 100; i++) gather_data[i] = i + 1;
    streamRead(count, count_data);
    streamRead(input, input_data);
    streamRead(gather, gather_data);
    streamRead(result, result_data);
    ctx.run(krnIterate!, { count, input, g: gather, result });
    streamWrite(result, result_data);
    for (let i = 0; i < 10; i++) out.printf('result[%d] = %f\n', i, result_data[i]!);
    expect(out.text).to.equal(GOLD.loop);
    [count, input, gather, result].forEach((s) => s.dispose());
  });

  it('multiple_output (a kernel with two outputs)', () => {
    const { doubleAndSquare } = brook`
      kernel void doubleAndSquare( float input<>, out float doubled<>, out float squared<> ) {
        doubled = 2*input;
        squared = input*input;
      }`;
    const out = new Out();
    const input = decl(ctx, 'float input< 100 >'), doubled = decl(ctx, 'float doubled< 100 >'), squared = decl(ctx, 'float squared< 100 >');
    const input_data = new Float32Array(100), doubled_data = new Float32Array(100), squared_data = new Float32Array(100);
    for (let i = 0; i < 100; i++) input_data[i] = i;
    streamRead(input, input_data);
    ctx.run(doubleAndSquare!, { input, doubled, squared });
    streamWrite(doubled, doubled_data);
    streamWrite(squared, squared_data);
    for (let i = 0; i < 100; i++) {
      out.printf('{%6.1f, %6.1f}', doubled_data[i]!, squared_data[i]!);
      if (i % 5 === 4) out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.multiple_output);
    [input, doubled, squared].forEach((s) => s.dispose());
  });
  it('read_write (streamRead then streamWrite: a struct stream, 1D and 2D streams)', () => {
    const { Traverser } = brookStructs`
      typedef struct traverser_t {
        float4 index;//.xy is index into the aTree  .zw is index into bTree
        float3 Translation; 
        float3 Rotationx;
        float3 Rotationy;
        float3 Rotationz;
      }Traverser;`;
    const out = new Out();
    const a = decl(ctx, 'float a< 256 >'), b = decl(ctx, 'float b< 16, 16 >');
    const input_a = new Float32Array(256), output_a = new Float32Array(256), input_b = new Float32Array(256), output_b = new Float32Array(256);
    const hacktrav = new Float32Array(16);
    const trav = streamDecl(ctx, 'Traverser trav<1,1>', { Traverser: Traverser! }) as StructStream;
    const baseTraverser = [2, 0, 2, 0, -0.13644515, 0.112712905, -0.0222729594, -0.170251727, 0.966706932, -0.191028923, 0.966706932, 0.201434806, 0.15780279, -0.191028923, 0.15780279, 0.968816876];
    streamRead(trav, baseTraverser);
    streamWrite(trav, hacktrav);
    out.printf('index %.2f %.2f %.2f %.2f\nTranslation %.2f %.2f %.2f\nRotationx %.2f %.2f %.2f\nRotationy %.2f %.2f %.2f\nRotationz %.2f %.2f %.2f\n', ...hacktrav);
    for (let i = 0; i < 256; i++) input_a[i] = i;
    streamRead(a, input_a);
    streamWrite(a, output_a);
    for (let i = 0; i < 32; i++) {
      for (let j = 0; j < 8; j++) out.printf('%3.2f ', output_a[8 * i + j]!);
      out.printf('\n');
    }
    for (let i = 0; i < 32; i++) for (let j = 0; j < 8; j++) input_b[8 * i + j] = 8 * i + j;
    streamRead(b, input_b);
    streamWrite(b, output_b);
    for (let i = 0; i < 32; i++) {
      for (let j = 0; j < 8; j++) out.printf('%3.2f ', output_b[8 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.read_write);
    [a, b, trav].forEach((s) => s.dispose());
  });

  it('read_write_domain (streamRead of domains of float2 and struct streams, 1D and 2D)', () => {
    const { clear2, clearPair } = brook`
      typedef struct Pair_t {
      	float field1;
      	float field2;
      } Pair;
      kernel void clear2( out float2 result<> ) {
      	result = -1;
      }
      kernel void clearPair( out Pair result<> ) {
      	result.field1 = -1;
      	result.field2 = -1;
      }`;
    const out = new Out();
    const [SIZE_X1, START_X1, END_X1] = [333, 127, 305];
    const DOMAIN_X1 = END_X1 - START_X1;
    const [SIZE_X2, SIZE_Y2, START_X2, END_X2, START_Y2, END_Y2] = [427, 987, 0, 199, 576, 987];
    const [DOMAIN_X2, DOMAIN_Y2] = [END_X2 - START_X2, END_Y2 - START_Y2];
    let failed = false;
    const check = (name: string, dim: string, xidx: number, yidx: number, expected: number, actual: number) => {
      if (expected === actual || failed) return;
      out.printf('fail: %s[%d][%d].%s = %f, expected %d\n', name, yidx, xidx, dim, actual, expected);
      failed = true; //                                                 exit(-1);
    };
    const check1 = (name: string, data: Float32Array) => {
      for (let i = 0; i < SIZE_X1; i++) {
        const inside = i >= START_X1 && i < END_X1;
        check(name, 'x', i, 0, inside ? i - START_X1 : -1, data[2 * i]!);
        check(name, 'y', i, 0, inside ? i - START_X1 : -1, data[2 * i + 1]!);
      }
    };
    const check2 = (name: string, data: Float32Array) => {
      for (let j = 0; j < SIZE_Y2; j++) {
        for (let i = 0; i < SIZE_X2; i++) {
          const inside = i >= START_X2 && i < END_X2 && j >= START_Y2 && j < END_Y2;
          check(name, 'x', i, j, inside ? i - START_X2 : -1, data[2 * (j * SIZE_X2 + i)]!);
          check(name, 'y', i, j, inside ? j - START_Y2 : -1, data[2 * (j * SIZE_X2 + i) + 1]!);
        }
      }
    };
    const structs = clearPair!.structs!;
    const a1 = decl(ctx, `float2 a1< ${SIZE_X1} >`);
    const b1 = streamDecl(ctx, `Pair b1< ${SIZE_X1} >`, structs) as StructStream;
    const a2 = decl(ctx, `float2 a2< ${SIZE_Y2}, ${SIZE_X2} >`);
    const b2 = streamDecl(ctx, `Pair b2< ${SIZE_Y2}, ${SIZE_X2} >`, structs) as StructStream;
    const input1 = new Float32Array(DOMAIN_X1 * 2), input2 = new Float32Array(DOMAIN_Y2 * DOMAIN_X2 * 2);
    const a1_data = new Float32Array(SIZE_X1 * 2), b1_data = new Float32Array(SIZE_X1 * 2);
    const a2_data = new Float32Array(SIZE_Y2 * SIZE_X2 * 2), b2_data = new Float32Array(SIZE_Y2 * SIZE_X2 * 2);
    for (let i = 0; i < DOMAIN_X1; i++) input1[2 * i] = input1[2 * i + 1] = i;
    for (let j = 0; j < DOMAIN_Y2; j++) {
      for (let i = 0; i < DOMAIN_X2; i++) {
        input2[2 * (j * DOMAIN_X2 + i)] = i;
        input2[2 * (j * DOMAIN_X2 + i) + 1] = j;
      }
    }
    ctx.run(clear2!, { result: a1 });
    ctx.run(clear2!, { result: a2 });
    ctx.run(clearPair!, { result: b1 });
    ctx.run(clearPair!, { result: b2 });
    streamRead(a1.domain(START_X1, END_X1), input1);
    streamRead(b1.domain(START_X1, END_X1), input1);
    streamRead(a2.domain([START_X2, START_Y2], [END_X2, END_Y2]), input2);
    streamRead(b2.domain([START_X2, START_Y2], [END_X2, END_Y2]), input2);
    streamWrite(a1, a1_data);
    streamWrite(b1, b1_data);
    streamWrite(a2, a2_data);
    streamWrite(b2, b2_data);
    check1('a1', a1_data);
    check1('b1', b1_data);
    check2('a2', a2_data);
    check2('b2', b2_data);
    if (!failed) out.printf('pass\n');
    expect(out.text).to.equal(GOLD.read_write_domain);
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('struct_gather (gathers of structs; a Cg brace initialiser float2 ind={2,0})', () => {
    const { gatherBBox, gatherPairs } = brook`
      typedef struct Pair_t {
        float first;
        float second;
      } Pair;
      typedef struct bbox_t{
        float4 Rotationx;
        float4 Radius;// if it's a leaf Radius.w is 1 else Radius.w = 0
        float3 Rotationy;
        // float3 mRotationz  // since Rotationx and Rotationy are orthogonal
        /// cross(Rotationx,Rotationy);
        float3 Translation;
        // if leaf, the Children.xy is an index to the Triangle
        // if node, the Children.xy is an index to left child
        // assert right.xy is always left + {1,0} this may require gaps in the tree
        float2 Children;
      }BBox;
      kernel void gatherBBox( BBox tmp [][], out float2 child<>) {
        float2 ind={2,0};
        BBox gath = tmp[ind];
        child = gath.Children;
      }
      kernel void gatherPairs( float index<>, Pair pairs[], out float result<> ) {
        Pair p = pairs[index];
        result = p.first + p.second;
      }`;
    const out = new Out();
    const structs = gatherBBox!.structs!;
    const bboxes = streamDecl(ctx, 'BBox bboxes<1,4>', structs) as StructStream;
    const bboxout = decl(ctx, 'float2 bboxout<1,1>');
    const pairs = streamDecl(ctx, 'Pair pairs< 100 >', structs) as StructStream;
    const indices = decl(ctx, 'float indices< 100 >'), output = decl(ctx, 'float output< 100 >');
    const assign = Array.from({ length: 4 }, () => ({ Rotationx: [0, 0, 0, 0], Radius: [0, 0, 0, 0], Rotationy: [0, 0, 0], Translation: [0, 0, 0], Children: [0, 0] }));
    assign[0]!.Children = [2, 0];
    assign[0]!.Rotationx = [-0.0854557604, 0.99632597, -0.0056440942, -1];
    assign[0]!.Rotationy = [0.978623033, 0.0849982575, 0.187275991];
    assign[0]!.Radius = [0.0763418078, 0.100202203, 0.0545564666, 0];
    assign[1]!.Children = [0, 0];
    assign[1]!.Rotationx = [1, 0, 0, 1];
    assign[1]!.Rotationy = [0, 1, 0];
    assign[2]!.Children = [4, 0];
    assign[2]!.Rotationx = [1, 0, 0, 1];
    assign[2]!.Rotationy = [0, 1, 0];
    assign[3]!.Children = [1006, 1];
    assign[3]!.Rotationx = [1, 0, 0, 1];
    assign[3]!.Rotationy = [0, 1, 0];
    streamRead(bboxes, assign.flatMap((b) => [...b.Rotationx, ...b.Radius, ...b.Rotationy, ...b.Translation, ...b.Children]));
    ctx.run(gatherBBox!, { tmp: bboxes, child: bboxout });
    out.streamPrint(bboxout);
    const pairs_data = new Float32Array(200), indices_data = new Float32Array(100), output_data = new Float32Array(100);
    for (let i = 0; i < 100; i++) {
      pairs_data[2 * i] = i;
      pairs_data[2 * i + 1] = i * 100;
      indices_data[i] = 99 - i;
    }
    streamRead(pairs, pairs_data);
    streamRead(indices, indices_data);
    ctx.run(gatherPairs!, { index: indices, pairs, result: output });
    streamWrite(output, output_data);
    for (let i = 0; i < 100; i++) {
      out.printf('%6.1f ', output_data[i]!);
      if (i % 10 === 9) out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.struct_gather);
    [bboxes, bboxout, pairs, indices, output].forEach((s) => s.dispose());
  });

  it('struct_input (a struct stream as a kernel input)', () => {
    const { sumPairs } = brook`
      typedef struct Pair_t {
        float first;
        float second;
      } Pair;
      kernel void sumPairs( Pair p<>, out float result<> ) {
        result = p.first + p.second;
      }`;
    const out = new Out();
    const pairs = streamDecl(ctx, 'Pair pairs< 100 >', sumPairs!.structs!) as StructStream;
    const output = decl(ctx, 'float output< 100 >');
    const pairs_data = new Float32Array(200), output_data = new Float32Array(100);
    for (let i = 0; i < 100; i++) {
      pairs_data[2 * i] = i;
      pairs_data[2 * i + 1] = i * 100;
    }
    streamRead(pairs, pairs_data);
    ctx.run(sumPairs!, { p: pairs, result: output });
    streamWrite(output, output_data);
    for (let i = 0; i < 100; i++) {
      out.printf('%6.1f ', output_data[i]!);
      if (i % 10 === 9) out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.struct_input);
    [pairs, output].forEach((s) => s.dispose());
  });

  it('struct_output (a struct stream as a kernel output)', () => {
    const { makePairs } = brook`
      typedef struct Pair_t {
        float first;
        float second;
      } Pair;
      kernel void makePairs( float first<>, float second<>, out Pair p<> ) {
        p.first = first;
        p.second = second;
      }`;
    const out = new Out();
    const first = decl(ctx, 'float first< 100 >'), second = decl(ctx, 'float second< 100 >');
    const pairs = streamDecl(ctx, 'Pair pairs< 100 >', makePairs!.structs!) as StructStream;
    const first_data = new Float32Array(100), second_data = new Float32Array(100), pairs_data = new Float32Array(200);
    for (let i = 0; i < 100; i++) {
      first_data[i] = i;
      second_data[i] = 100 - i;
    }
    streamRead(first, first_data);
    streamRead(second, second_data);
    ctx.run(makePairs!, { first, second, p: pairs });
    streamWrite(pairs, pairs_data);
    for (let i = 0; i < 100; i++) {
      out.printf('{%3.0f, %3.0f} ', pairs_data[2 * i]!, pairs_data[2 * i + 1]!);
      if (i % 5 === 4) out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.struct_output);
    [first, second, pairs].forEach((s) => s.dispose());
  });

  it('splitstruct (a struct output with a float output; the same as four plain outputs)', () => {
    const { Cinv_kernel, Cinv_kernel_nostruct } = brook`
      typedef struct NHType_t
      {
          float3 row1;
          float3 row2;
          float3 row3;// 3X3 matrix
      } NHType;
      kernel void Cinv_kernel(float2 constants, NHType F<>, 
      			out NHType Cinv<>,
      			out float q<>)
      {
         Cinv.row1 = float3(1,2,3);
         Cinv.row2 = float3(2,3,4);
         Cinv.row3 = float3(5,6,7);
         q = 8;
      }
      kernel void Cinv_kernel_nostruct(float2 constants, NHType F<>, 
      				 out float3 Cinv1<>, 
                                       out float3 Cinv2<>, 
                                       out float3 Cinv3<>,
      				 out float q<>)
      {
         Cinv1 = float3(1,2,3);
         Cinv2 = float3(2,3,4);
         Cinv3 = float3(5,6,7);
         q = 8;
      }`;
    const out = new Out();
    const NUM = 100;
    const structs = Cinv_kernel!.structs!;
    const S = new Float32Array(NUM * 9), S1 = new Float32Array(NUM * 3), S2 = new Float32Array(NUM * 3), S3 = new Float32Array(NUM * 3);
    const q = new Float32Array(NUM);
    const Cinvstream = streamDecl(ctx, `NHType Cinvstream<${NUM}>`, structs) as StructStream;
    const Cinvstream1 = decl(ctx, `float3 Cinvstream1<${NUM}>`), Cinvstream2 = decl(ctx, `float3 Cinvstream2<${NUM}>`), Cinvstream3 = decl(ctx, `float3 Cinvstream3<${NUM}>`);
    const F = streamDecl(ctx, `NHType F<${NUM}>`, structs) as StructStream;
    const qstream = decl(ctx, `float qstream<${NUM}>`), q2stream = decl(ctx, `float q2stream<${NUM}>`);
    streamRead(Cinvstream, S);
    streamRead(Cinvstream1, S1);
    streamRead(Cinvstream2, S2);
    streamRead(Cinvstream3, S3);
    streamRead(qstream, q);
    streamRead(q2stream, q);
    ctx.run(Cinv_kernel!, { constants: [3.0, 2.0], F, Cinv: Cinvstream, q: qstream });
    streamWrite(Cinvstream, S);
    streamWrite(qstream, q);
    out.printf('%3.2f %3.2f %3.2f\n', S[0]!, S[1]!, S[2]!);
    out.printf('%3.2f %3.2f %3.2f\n', S[3]!, S[4]!, S[5]!);
    out.printf('%3.2f %3.2f %3.2f\n', S[6]!, S[7]!, S[8]!);
    out.printf('%3.2f\n\n', q[0]!);
    ctx.run(Cinv_kernel_nostruct!, { constants: [3.0, 2.0], F, Cinv1: Cinvstream1, Cinv2: Cinvstream2, Cinv3: Cinvstream3, q: q2stream });
    streamWrite(Cinvstream1, S1);
    streamWrite(Cinvstream2, S2);
    streamWrite(Cinvstream3, S3);
    streamWrite(q2stream, q);
    out.printf('%3.2f %3.2f %3.2f\n', S1[0]!, S1[1]!, S1[2]!);
    out.printf('%3.2f %3.2f %3.2f\n', S2[0]!, S2[1]!, S2[2]!);
    out.printf('%3.2f %3.2f %3.2f\n', S3[0]!, S3[1]!, S3[2]!);
    out.printf('%3.2f\n\n', q[0]!);
    expect(out.text).to.equal(GOLD.splitstruct);
    [Cinvstream, Cinvstream1, Cinvstream2, Cinvstream3, F, qstream, q2stream].forEach((s) => s.dispose());
  });

  it('split (a kernel of five gathers, called directly and through another kernel)', () => {
    const { big } = brook`
      kernel void big(
      	float4 arg1[], float4 arg2[], float4 arg3[],
      	float4 arg4[], float4 arg5<>, out float4 result<> )
      {
      	float temp = arg5.x;
      	temp = arg4[ temp ].x;
      	temp = arg3[ temp ].x;
      	temp = arg2[ temp ].x;
      	result = arg1[ temp ];
      }
      kernel void caller(
      	float4 arg1[], float4 arg2[], float4 arg3[],
      	float4 arg4[], float4 arg5<>, out float4 result<> )
      {
      	big( arg1, arg2, arg3, arg4, arg5, result );
      }`;
    const out = new Out();
    const a = decl(ctx, 'float4 a<10>'), b = decl(ctx, 'float4 b<10>');
    const a_data = new Float32Array(40), b_data = new Float32Array(40);
    for (let i = 0; i < 10; i++) a_data.set([(i + 1) % 10, 1.0, i, 0.0], 4 * i);
    streamRead(a, a_data);
    ctx.run(big!, { arg1: a, arg2: a, arg3: a, arg4: a, arg5: a, result: b });
    streamWrite(b, b_data);
    for (let i = 0; i < 10; i++) out.printf('<%f %f %f>\n', b_data[4 * i]!, b_data[4 * i + 1]!, b_data[4 * i + 2]!);
    expect(out.text).to.equal(GOLD.split);
    [a, b].forEach((s) => s.dispose());
  });

  it('sum (the minimal test: c = a + b, 1D and 2D)', () => {
    const { sum } = brook`
      kernel void sum( float a<>, float b<>, out float c<> ) {
      	c = a + b;
      }`;
    const out = new Out();
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >'), c1 = decl(ctx, 'float c1< 100 >');
    const a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >'), c2 = decl(ctx, 'float c2< 10, 10 >');
    const input_a1 = new Float32Array(100), input_b1 = new Float32Array(100), output_c1 = new Float32Array(100);
    const input_a2 = new Float32Array(100), input_b2 = new Float32Array(100), output_c2 = new Float32Array(100);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_a1[10 * i + j] = i;
        input_b1[10 * i + j] = 10 * j;
        input_a2[10 * i + j] = i;
        input_b2[10 * i + j] = 10 * j;
      }
    }
    streamRead(a1, input_a1);
    streamRead(b1, input_b1);
    streamRead(a2, input_a1);
    streamRead(b2, input_b2);
    ctx.run(sum!, { a: a1, b: b1, c: c1 });
    ctx.run(sum!, { a: a2, b: b2, c: c2 });
    streamWrite(c1, output_c1);
    streamWrite(c2, output_c2);
    for (const o of [output_c1, output_c2]) {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', o[10 * i + j]!);
        out.printf('\n');
      }
    }
    expect(out.text).to.equal(GOLD.sum);
    [a1, b1, c1, a2, b2, c2].forEach((s) => s.dispose());
  });

  it('toy (a constant float4 indexing a 2D gather; a return; at the end)', () => {
    const { foo } = brook`
      kernel void foo (float a<>, float b<>, float4 c,
      		 float d[10][10], out float e<>) {
        e = a+b+d[c.xy];
        return;//just to foul up DX and NV30
      }`;
    const out = new Out();
    const a = decl(ctx, 'float a<10, 10>'), b = decl(ctx, 'float b<10, 10>'), d = decl(ctx, 'float d<10, 10>'), e = decl(ctx, 'float e<10, 10>');
    const data_a = new Float32Array(100), data_b = new Float32Array(100), data_d = new Float32Array(100), data_e = new Float32Array(100);
    const c = [1.0, 0.0, 3.2, 5.0];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        data_a[10 * i + j] = f(i + f(j / 10.0));
        data_b[10 * i + j] = f(j + f(i / 10.0));
        data_d[10 * i + j] = f(i / 100.0);
      }
    }
    streamRead(a, data_a);
    streamRead(b, data_b);
    streamRead(d, data_d);
    ctx.run(foo!, { a, b, c, d, e });
    streamWrite(e, data_e);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', data_e[10 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.toy);
    [a, b, d, e].forEach((s) => s.dispose());
  });

  it('replication_stride (inputs of another length or shape are resampled: replicated or strided)', () => {
    const { copy } = brook`
      kernel void copy( float input<>, out float output<> ) {
      	output = input;
      }`;
    const out = new Out();
    const test1 = (extentIn: number, extentOut: number) => {
      const input = decl(ctx, `float input< ${extentIn} >`), output = decl(ctx, `float output< ${extentOut} >`);
      const input_data = Float32Array.from({ length: extentIn }, (_, i) => i), output_data = new Float32Array(extentOut);
      streamRead(input, input_data);
      ctx.run(copy!, { input, output });
      streamWrite(output, output_data);
      for (let i = 0; i < extentOut; i++) out.printf('%6.3f ', output_data[i]!);
      out.printf('\n');
      [input, output].forEach((s) => s.dispose());
    };
    const test2 = (extentInX: number, extentInY: number, extentOutX: number, extentOutY: number) => {
      const input = decl(ctx, `float input< ${extentInY}, ${extentInX} >`), output = decl(ctx, `float output< ${extentOutY}, ${extentOutX} >`);
      const input_data = new Float32Array(extentInX * extentInY), output_data = new Float32Array(extentOutX * extentOutY);
      for (let i = 0; i < extentInY; i++) for (let j = 0; j < extentInX; j++) input_data[i * extentInX + j] = 100 * i + j;
      streamRead(input, input_data);
      ctx.run(copy!, { input, output });
      streamWrite(output, output_data);
      for (let i = 0; i < extentOutY; i++) {
        for (let j = 0; j < extentOutX; j++) out.printf('%6.3f ', output_data[i * extentOutX + j]!);
        out.printf('\n');
      }
      [input, output].forEach((s) => s.dispose());
    };
    out.printf('5 -> 10\n');
    test1(5, 10);
    out.printf('10 -> 5\n');
    test1(10, 5);
    out.printf('7 -> 21\n');
    test1(7, 21);
    out.printf('21 -> 7\n');
    test1(21, 7);
    out.printf('15 -> 5, 2 ->4\n');
    test2(15, 2, 5, 4);
    out.printf('3 -> 21, 10 ->2\n');
    test2(3, 10, 21, 2);
    expect(out.text).to.equal(GOLD.replication_stride);
  });

  it('rayBug (an iterator for a float2 stream parameter; scalars to float4; a kernel reading and writing the same streams)', () => {
    const { krnKD_Initialize, krnKD_Leaf, krnGenEyeRays } = brook`
      typedef struct ray_t {
        float3 o;
        float3 d;
      } Ray;
      kernel void krnKD_Initialize(out float4 outCoreState<>, out float4 outIntersectState<> )
      {
        outCoreState = 11; 
        outIntersectState = 22;
      }
      kernel void krnKD_Leaf(
        float4 inCoreState<>, float4 inIntersectState<>,
        out float4 outCoreState<>, out float4 outIntersectState<> )
      {
        float4 coreState = inCoreState;
        float4 intersectState = inIntersectState;
        if( coreState.x > 0 )
        {
          coreState = float4( 0, 1, 2, 3 );
          intersectState = float4( 4, 3, 2, 1 );
        }
        outCoreState = coreState;
        outIntersectState = intersectState;
      }
      kernel void
      krnGenEyeRays( float2 filmPos<>, out Ray ray<>)
      { 
        ray.o = 0;
        ray.d = 0;
      }`;
    const out = new Out();
    const [height, width] = [256, 256];
    const gDebugCoreStates = new Float32Array(width * height * 4), gDebugIntersectStates = new Float32Array(width * height * 4);
    const debugDump = (coreStateStream: Stream, intersectStateStream: Stream) => {
      streamWrite(coreStateStream, gDebugCoreStates);
      streamWrite(intersectStateStream, gDebugIntersectStates);
      out.printf('core=<%f, %f, %f, %f> isect=<%f, %f, %f, %f>\n', ...gDebugCoreStates.subarray(0, 4), ...gDebugIntersectStates.subarray(0, 4));
    };
    const filmPos = iter([1.0, 1.0], [-1.0, -1.0]); //          iter filmPos(__BRTFLOAT2, height, width, -1, 1.0f, 1.0f, -1.0f, -1.0f, -1);
    const rays = streamDecl(ctx, `Ray rays<${height}, ${width}>`, krnGenEyeRays!.structs!) as StructStream;
    ctx.run(krnGenEyeRays!, { filmPos, ray: rays }); //         krnGenEyeRays( filmPos, rays );
    const coreStateStream = decl(ctx, `float4 coreStateStream<${height}, ${width}>`);
    const intersectStateStream = decl(ctx, `float4 intersectStateStream<${height}, ${width}>`);
    out.printf('initialize\n');
    ctx.run(krnKD_Initialize!, { outCoreState: coreStateStream, outIntersectState: intersectStateStream });
    debugDump(coreStateStream, intersectStateStream);
    out.printf('leaf\n');
    ctx.run(krnKD_Leaf!, { inCoreState: coreStateStream, inIntersectState: intersectStateStream, outCoreState: coreStateStream, outIntersectState: intersectStateStream });
    debugDump(coreStateStream, intersectStateStream);
    expect(out.text).to.equal(GOLD.rayBug);
    [rays, coreStateStream, intersectStateStream].forEach((s) => s.dispose());
  });

  it('writeQuery (a write query counting records written under a write mask: all, those set, the rest)', () => {
    const { krn_CopyStream, krn_CopyBelowThresholdKill } = brook`
      kernel void
      krn_CopyStream(float inStream<>, out float o<>)
      {
         o = inStream;
      }
      kernel void
      krn_CopyBelowThresholdKill(float inStream<>, float t, out float o<>)
      {
         if (inStream >= t) {
            discard;
         }
         o = inStream;
      }`;
    const out = new Out();
    const size = 400;
    const threshold = f(size * size / 2);
    const q = writeQuery(ctx);
    const m = writeMask(ctx, size, size);
    const inStream = decl(ctx, `float inStream<${size}, ${size}>`), outStream = decl(ctx, `float outStream<${size}, ${size}>`);
    const data = new Float32Array(size * size);
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) data[i * size + j] = i * size + j;
    streamRead(inStream, data); //                               inStream.read(data);
    m.bind();
    m.enableSet();
    m.clear();
    m.disableSet();
    m.enableTest();
    q.begin();
    ctx.run(krn_CopyStream!, { inStream, o: outStream });
    q.end();
    let numCopied = q.countSync();
    out.printf('%d elements copied (expecting %d)\n', numCopied, size * size);
    m.enableSet();
    q.begin();
    ctx.run(krn_CopyBelowThresholdKill!, { inStream, t: threshold, o: outStream });
    q.end();
    numCopied = q.countSync();
    m.disableSet();
    out.printf('%d elements copied (expecting %g)\n', numCopied, threshold); //  std::cout << threshold
    q.begin();
    ctx.run(krn_CopyStream!, { inStream, o: outStream });
    q.end();
    numCopied = q.countSync();
    out.printf('%d elements copied (expecting %g)\n', numCopied, size * size - threshold);
    m.unbind();
    expect(out.text).to.equal(GOLD.writeQuery);
    [inStream, outStream].forEach((s) => s.dispose());
    m.dispose();
    q.dispose();
  });
  it('vout (a vout[4] kernel over 10x10 inputs: pushes that depend on indexof; the records printed as BrookGPU printed the stream)', async () => {
    const { foo } = brook`
      kernel void foo (float a<>, float b<>, float4 c,
      		 float d[10][10], vout [4]float e<>) {
        e = a+b;
        push(e);
        if (round(fmod( (indexof a).x,2))!=1) {
          e = 2;
          push (e);
        }
        if (round(fmod((indexof a).y,3))!=1) {
           e=3;
           push (e);
           e=-3;
           push (e);
        }
      }`;
    const out = new Out();
    const [WID, LEN] = [10, 10];
    const a = decl(ctx, `float a<${WID}, ${LEN}>`), b = decl(ctx, `float b<${WID}, ${LEN}>`), d = decl(ctx, `float d<${WID}, ${LEN}>`);
    const c = [1.0, 0.0, 3.2, 5.0];
    const data_a = new Float32Array(WID * LEN), data_b = new Float32Array(WID * LEN), data_d = new Float32Array(WID * LEN);
    for (let i = 0; i < WID; i++) {
      for (let j = 0; j < LEN; j++) {
        data_a[i * LEN + j] = i;
        data_b[i * LEN + j] = f(j / 10);
        data_d[i * LEN + j] = 0;
      }
    }
    streamRead(a, data_a);
    streamRead(b, data_b);
    streamRead(d, data_d);
    const { stream: e, count } = await voutRun(ctx, foo!, { a, b, c, d }); // foo(a,b,c,d,e);
    // streamPrint(e): as BrookGPU's, e keeps the width of LEN records a row and grows its rows
    expect(e!.shape).to.deep.equal([Math.ceil(count / LEN), LEN]);
    const [rows, columns] = e!.shape as [number, number];
    const values = e!.readSync();
    for (let r = 0; r < rows; r++) {
      for (let col = 0; col < columns; col++) out.printf('%3.2f ', values[r * columns + col]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.vout);
    [a, b, d, e!].forEach((s) => s.dispose());
  });

  it('reduce (a reduce kernel with a constant and a gather to a value; 2x2 matrix products, in order, to a value and to 4 blocks)', async () => {
    const { foo, matrix_mult } = brook`
      reduce void foo (float4 a<>, float4 c,
      		 float d[10][10], reduce float4 e<>) {
        e.x = a.x+e.x+d[c.xy]+d[c.yx];
        e.y = a.y+e.y+c.y;
        e.z = a.z+e.z+c.w;
        e.w = a.w+e.w+c.z;
      }
      reduce void matrix_mult (reduce float4 a<>, float4 b<>) {
         a=float4 (a.x*b.x+a.y*b.z, a.x*b.y+a.y*b.w, 
                   a.z*b.x+a.w*b.z, a.z*b.y+a.w*b.w);
      }`;
    const out = new Out();
    // unsigned int seed=06294306; -- not a C constant (an octal with a 9): BrookGPU's brcc read it
    // as 0, and the gold's matrices are those of seed 0 (no other seed below 10^5 gives them)
    let seed = 0;
    const myrand = () => {
      const rand_max = 1509281;
      seed = (seed + 26129357) % rand_max;
      if (seed < Math.floor(rand_max / 5) * 2) return 0.5;
      else if (seed < Math.floor(rand_max / 2)) return 1;
      else if (seed < Math.floor(rand_max / 4) * 3) return 0;
      else if (seed < Math.floor(rand_max / 11) * 10) return 0.25;
      else return 4;
    };
    const matrices = decl(ctx, 'float4 matrices<1,100>'), quadresult = decl(ctx, 'float4 quadresult <1,4>');
    const qresult = new Float32Array(16);
    const a = decl(ctx, 'float4 a<10, 10>'), d = decl(ctx, 'float d<10, 10>');
    const data_a = new Float32Array(400), data_d = new Float32Array(100);
    const c = [1.0, 0.0, 3.2, 5.0];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        data_a.fill(f(0.0625 + i + f(j / 10.0)), 4 * (10 * i + j), 4 * (10 * i + j) + 4);
        data_d[10 * i + j] = f(0.0625 + j / 8 + i / 64.0);
      }
    }
    streamRead(a, data_a);
    streamRead(d, data_d);
    const output = await reduceValue(ctx, foo!, { a, c, d }); //   foo(a,c,d,output);
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) for (let k = 0; k < 4; k++) data_a[4 * (10 * i + j) + k] = myrand();
    streamRead(matrices, data_a);
    let result = await reduceValue(ctx, matrix_mult!, { b: matrices }); // matrix_mult(result,matrices);
    ctx.run(matrix_mult!, { b: matrices, a: quadresult }); //            matrix_mult(quadresult,matrices);
    streamWrite(quadresult, qresult);
    const q = (k: number) => Array.from(qresult.subarray(4 * k, 4 * k + 4));
    out.printf('begin adding float4 test ...\n');
    out.printf('{%3.0f %3.0f %3.0f %3.0f}\n', ...output);
    out.printf('matrix multiply: together is:\n');
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n', ...result);
    out.printf('-------------------------------\n');
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n\n', ...q(0));
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n\n', ...q(1));
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n\n', ...q(2));
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n', ...q(3));
    result = await reduceValue(ctx, matrix_mult!, { b: quadresult }); //    matrix_mult(result,quadresult);
    out.printf('------------------------------\n');
    out.printf('Two stage multiply gives:\n');
    out.printf('[%3.0f %3.0f]\n[%3.0f %3.0f]\n', ...result);
    expect(out.text).to.equal(GOLD.reduce);
    [a, d, matrices, quadresult].forEach((s) => s.dispose());
  });

  it('reduce_basic (float4 sums of 10x10, 9x9 and 11x10 streams to a value)', async () => {
    const { SUM } = brook`
      reduce void SUM( float4 a<>, reduce float4 b <>) {
      	b = b + a;
      }`;
    const out = new Out();
    for (const [h, w] of [[10, 10], [9, 9], [11, 10]] as const) {
      const s = decl(ctx, `float4 a<${h}, ${w}>`);
      const data = new Float32Array(h * w * 4);
      for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) data.set([i, j, 1, 2], 4 * (i * w + j));
      streamRead(s, data);
      const result = await reduceValue(ctx, SUM!, { a: s });
      out.printf('{%3.2f %3.2f %3.2f %3.2f}\n', ...result);
      s.dispose();
    }
    expect(out.text).to.equal(GOLD.reduce_basic);
  });

  for (const name of ['reduce_simplest', 'reduce_simplest_nocopy'] as const) {
    it(`${name} (2x2, 4x4 and 8x8 sums ${name === 'reduce_simplest' ? 'into a 1x1 stream' : 'to a value'})`, async () => {
      const { SUM } = brook`
        reduce void SUM( float a<>, reduce float b <>) {
        	b = b + a;
        }`;
      const out = new Out();
      for (const side of [2, 4, 8]) {
        const a = decl(ctx, `float a< ${side}, ${side} >`);
        const input = Float32Array.from({ length: side * side }, (_, k) => (side === 2 ? k : k % side));
        streamRead(a, input);
        let output: number;
        if (name === 'reduce_simplest') {
          const b = decl(ctx, 'float b< 1, 1 >');
          streamRead(b, [0]);
          ctx.run(SUM!, { a, b }); //                                  SUM(a,b);
          const o = new Float32Array(1);
          streamWrite(b, o);
          output = o[0]!;
          b.dispose();
        } else {
          [output] = (await reduceValue(ctx, SUM!, { a })) as [number]; // SUM(a,output);
        }
        out.printf('{%3.2f}\n', output);
        a.dispose();
      }
      expect(out.text).to.equal(GOLD[name]);
    });
  }

  it('reducetostream (a reduce kernel with a constant and a gather, and a sum, from 10x10 to 2x5)', () => {
    const { foo, SUM } = brook`
      reduce void foo (float4 a<>, float4 c,
      		 float d[10][10], reduce float4 e<>) {
        e.x = a.x+e.x+d[c.xy]+d[c.yx];
        e.y = a.y+e.y;
        e.z = (a.z)*c.z*(e.z);
        e.w = (a.w)*.0625*c.w*(e.w);
      }
      reduce void SUM( float4 a<>, reduce float4 b<> ) {
      	b = b + a;
      }`;
    const out = new Out();
    const bane = () => {
      const a = decl(ctx, 'float4 a< 10, 10 >'), result = decl(ctx, 'float4 result<2,5>');
      const data_a = new Float32Array(400), rez = new Float32Array(40);
      for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) data_a.set([i, j, 1, 2], 4 * (10 * i + j));
      streamRead(a, data_a);
      ctx.run(SUM!, { a, b: result });
      streamWrite(result, rez);
      for (let i = 0; i < 2; ++i) {
        for (let j = 0; j < 5; ++j) out.printf('{%3.2f %3.2f %3.2f %3.2f}\n', ...rez.subarray(4 * (5 * i + j), 4 * (5 * i + j) + 4));
        out.printf('\n');
      }
      [a, result].forEach((s) => s.dispose());
    };
    const a = decl(ctx, 'float4 a<10, 10>'), d = decl(ctx, 'float d<10, 10>'), output = decl(ctx, 'float4 output<2,5>');
    const data_a = new Float32Array(400), data_d = new Float32Array(100), rez = new Float32Array(40);
    const c = [1.0, 0.0, 3.2, 5.0];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        const x = f(i + f(j / 10.0));
        data_a.set([x, x, f(0.25 * (0.25 + i)), f(i + 0.25 + j)], 4 * (10 * i + j));
        data_d[10 * i + j] = f(j / 8 + i / 64.0);
      }
    }
    streamRead(a, data_a);
    streamRead(d, data_d);
    ctx.run(foo!, { a, c, d, e: output });
    streamWrite(output, rez);
    out.printf('{%3.2f %3.2f %3.2f %3.2f}\n', rez[0]!, rez[1]!, rez[2]!, rez[3]!);
    bane();
    expect(out.text).to.equal(GOLD.reducetostream);
    [a, d, output].forEach((s) => s.dispose());
  });

  it('scan (a prefix count by log n gather passes, kernels calling kernels, streamPrint of every stage)', () => {
    const { CountToRight } = brook`
      kernel void valueAt (float value[][],
                                   float2 index,
                                   out float output<>,
                                   float2 maxvalue,
                                   float nothing) {
         if (index.y>=maxvalue.y||index.y<-.125)
            output = nothing;
         else 
            output = value[index];
      }
      kernel void getIndexAt(float4 inputindex<>,
                             float shiftRight,
                             float2 maxvalue,
                             out float2 outputindex<>) {
         float2 index;
         index.x=inputindex.x+shiftRight;
         index.y=inputindex.y+floor((.5+index.x)/maxvalue.x);
         index.x=round(fmod(round(index.x),maxvalue.x));
         if (index.x<=-.50)
            index.x+=maxvalue.x;//only necessary if shiftRight<0
         if (index.x+.25 >= maxvalue.x)
           index.x = 0;//if fmod fails us
         outputindex=index;
      }
      kernel void CountToRight (float value [][],
                                out float output<>,
                                float twotoi,
                                float2 maxvalue) {
         float2 nextPlaceToLook;
         float neighbor;
         getIndexAt(indexof(output),twotoi,maxvalue,nextPlaceToLook);
         valueAt(value,nextPlaceToLook,neighbor,maxvalue,0);
         output = value[indexof(output)]+neighbor;
      }`;
    const out = new Out();
    const CountValues = (list_stream: Stream, output_stream: { s: Stream }, WIDTH: number, LENGTH: number, sign: number) => {
      let tmp_stream = decl(ctx, `float tmp_stream<${WIDTH},${LENGTH}>`);
      const maxvalue = [LENGTH, WIDTH];
      const logN = Math.ceil(Math.log(f(LENGTH * WIDTH)) / Math.log(2.0));
      ctx.run(CountToRight!, { value: list_stream, output: output_stream.s, twotoi: sign, maxvalue });
      for (let i = 1; i < logN; ++i) {
        out.printf('\nStage %d\n', i);
        out.streamPrint(i % 2 ? output_stream.s : tmp_stream);
        if (i % 2) ctx.run(CountToRight!, { value: output_stream.s, output: tmp_stream, twotoi: sign * (1 << i), maxvalue });
        else ctx.run(CountToRight!, { value: tmp_stream, output: output_stream.s, twotoi: sign * (1 << i), maxvalue });
      }
      if (logN % 2 === 0) [tmp_stream, output_stream.s] = [output_stream.s, tmp_stream]; // streamSwap(tmp_stream,*output_stream);
      tmp_stream.dispose();
    };
    const inputval = decl(ctx, 'float inputval<4,3>');
    const outputval = { s: decl(ctx, 'float outputval<4,3>') };
    const val = new Float32Array(12);
    val[3] = 1;
    val[9] = 1;
    streamRead(inputval, val);
    out.printf('input\n');
    out.streamPrint(inputval);
    CountValues(inputval, outputval, 4, 3, -1);
    out.printf('\noutput\n');
    out.streamPrint(outputval.s);
    out.printf('\n');
    expect(out.text).to.equal(GOLD.scan);
    [inputval, outputval.s].forEach((s) => s.dispose());
  });

  // sum_char..sum_fixed4 and sum_uint: the minimal sum over 8-bit and 32-bit unsigned streams,
  // each with its kernel and printf as written (sum_uchar, sum_uchar3, sum_uchar4 and sum_int are
  // run below, against a reference instead of their golds).
  const SUMS: [name: string, type: string, a: number, format: string][] = [
    ['sum_char', 'char', 120, '%hhd '],
    ['sum_char2', 'char2', 120, '(%hhd,%hhd) '],
    ['sum_char3', 'char3', 120, '(%hhd,%hhd,%hhd) '],
    ['sum_char4', 'char4', 120, '(%hhd,%hhd,%hhd,%hhd) '],
    ['sum_uchar2', 'uchar2', 120, '(%u,%u) '],
    ['sum_fixed', 'fixed', 200, '%u '],
    ['sum_fixed2', 'fixed2', 200, '(%u,%u) '],
    ['sum_fixed3', 'fixed3', 200, '(%u,%u,%u) '],
    ['sum_fixed4', 'fixed4', 200, '(%u,%u,%u,%u) '],
    ['sum_uint', 'unsigned int', 1 << 23, '%d '],
  ];
  for (const [name, type, aValue, format] of SUMS) {
    it(`${name} (c = a + b over ${type} streams, 1D and 2D)`, () => {
      const { output_c1, output_c2 } = sumProgram(ctx, type, aValue);
      expect(printSums(format, dims(type), output_c1, output_c2)).to.equal(GOLD[name]);
    });
  }
  // prog/tests/address_translation: each program checks every record itself and prints the first
  // FAIL (then exits) or "pass"; the checks are the programs' own, translated.
  /** The C programs' check-and-exit: the first failure is printed and ends the checking. */
  const checker = (out: Out) => {
    let failed = false;
    return {
      check(ok: boolean, message: () => string): void {
        if (ok || failed) return;
        out.printf('%s\n', message());
        failed = true;
      },
      pass(): void {
        if (!failed) out.printf('pass\n');
      },
    };
  };

  it('address_translation/at_gather_domain (a gather through a 1D domain)', () => {
    const { clear1, getIndexStream1, gather1 } = brook`
      kernel void clear1( out float result<> ) { result = -1; }
      kernel void getIndexStream1( out float result<> ) {
      	result = (indexof result).x;
      }
      kernel void gather1( float g[], out float result<> )
      {
      	float i = (indexof result).x;
      	result = g[i];
      }`;
    const out = new Out();
    const c = checker(out);
    const [RESULT_SIZE, GATHER_SIZE, GATHER_START, GATHER_END] = [1337, 10780, 8900, 10237];
    const result = decl(ctx, `float result< ${RESULT_SIZE} >`), g = decl(ctx, `float g< ${GATHER_SIZE} >`);
    const data_result = new Float32Array(RESULT_SIZE), data_g = new Float32Array(GATHER_SIZE);
    ctx.run(getIndexStream1!, { result: g });
    streamWrite(g, data_g);
    for (let x = 0; x < GATHER_SIZE; x++) c.check(Math.trunc(data_g[x]!) === x, () => cprintf('FAIL: %s[%d].%s : expected %d got %f', 'gather', x, 'x', x, data_g[x]!));
    ctx.run(clear1!, { result });
    ctx.run(gather1!, { g: g.domain(GATHER_START, GATHER_END), result });
    streamWrite(result, data_result);
    for (let x = 0; x < RESULT_SIZE; x++) c.check(Math.trunc(data_result[x]!) === x + GATHER_START, () => cprintf('FAIL: %s[%d].%s : expected %d got %f', 'result', x, 'x', x + GATHER_START, data_result[x]!));
    c.pass();
    expect(out.text).to.equal(GOLD.at_gather_domain);
    [result, g].forEach((s) => s.dispose());
  });

  it('address_translation/at_gather_fetch (a 4D gather at a swizzled 4D index)', () => {
    const { clear4, getIndexStream4, gather4 } = brook`
      kernel void clear4( out float4 result<> ) { result = -1; }
      kernel void getIndexStream4( out float4 result<> ) {
      	result = (indexof result).xyzw;
      }
      kernel void gather4( float4 g[][][][], out float4 result<> )
      {
      	float4 i = (indexof result).xyzw;
      	i = i.zwxy;
      	result = g[i];
      }`;
    const out = new Out();
    const c = checker(out);
    const [RX, RY, RZ, RW, GX, GY, GZ, GW] = [33, 13, 20, 9, 20, 9, 33, 13];
    const result = decl(ctx, `float4 result< ${RW}, ${RZ}, ${RY}, ${RX} >`), g = decl(ctx, `float4 g< ${GW}, ${GZ}, ${GY}, ${GX} >`);
    ctx.run(getIndexStream4!, { result: g });
    const data_g = new Float32Array(GW * GZ * GY * GX * 4);
    streamWrite(g, data_g);
    let k = 0;
    for (let w = 0; w < GW; w++) for (let z = 0; z < GZ; z++) for (let y = 0; y < GY; y++) for (let x = 0; x < GX; x++) {
      for (const [e, n] of [[x, 'x'], [y, 'y'], [z, 'z'], [w, 'w']] as const) {
        const v = data_g[k++]!;
        c.check(Math.trunc(v) === e, () => cprintf('FAIL: %s[%d][%d][%d][%d].%s : expected %d got %f', 'gather', w, z, y, x, n, e, v));
      }
    }
    ctx.run(clear4!, { result });
    ctx.run(gather4!, { g, result });
    const data_result = new Float32Array(RW * RZ * RY * RX * 4);
    streamWrite(result, data_result);
    k = 0;
    for (let w = 0; w < RW; w++) for (let z = 0; z < RZ; z++) for (let y = 0; y < RY; y++) for (let x = 0; x < RX; x++) {
      for (const [e, n] of [[z, 'x'], [w, 'y'], [x, 'z'], [y, 'w']] as const) {
        const v = data_result[k++]!;
        c.check(Math.trunc(v) === e, () => cprintf('FAIL: %s[%d][%d][%d][%d].%s : expected %d got %f', 'result', w, z, y, x, n, e, v));
      }
    }
    c.pass();
    expect(out.text).to.equal(GOLD.at_gather_fetch);
    [result, g].forEach((s) => s.dispose());
  });

  it('address_translation/at_indexof_output (indexof of 1D to 4D outputs)', () => {
    const kernels = brook`
      kernel void getIndexStream1( out float result<> ) {
      	result = (indexof result).x;
      }
      kernel void getIndexStream2( out float2 result<> ) {
      	result = (indexof result).xy;
      }
      kernel void getIndexStream3( out float3 result<> ) {
      	result = (indexof result).xyz;
      }
      kernel void getIndexStream4( out float4 result<> ) {
      	result = indexof result;
      }`;
    const out = new Out();
    const c = checker(out);
    const shapes = [[10000], [4, 5000], [7, 10, 40], [5, 8, 6, 3]];
    const data: Float32Array[] = [];
    shapes.forEach((shape, d) => {
      const t = d === 0 ? 'float' : `float${d + 1}`;
      const st = decl(ctx, `${t} stream_${d + 1}d< ${shape.join(', ')} >`);
      ctx.run(kernels[`getIndexStream${d + 1}`]!, { result: st });
      const buf = new Float32Array(st.length * (d + 1));
      streamWrite(st, buf);
      data.push(buf);
      st.dispose();
    });
    data.forEach((buf, d) => {
      const ext = [...shapes[d]!].reverse(); // x first
      for (let i = 0; i < buf.length / (d + 1); i++) {
        let rest = i;
        for (let k = 0; k <= d; k++) {
          const e = rest % ext[k]!;
          rest = Math.floor(rest / ext[k]!);
          const v = buf[i * (d + 1) + k]!;
          c.check(Math.trunc(v) === e, () => cprintf('FAIL: %dD.%s : expected %d got %f', d + 1, 'xyzw'[k]!, e, v));
        }
      }
    });
    c.pass();
    expect(out.text).to.equal(GOLD.at_indexof_output);
  });

  for (const [name, kernelSrc] of [
    ['at_indexof_stream', 'kernel void getIndexStream2( float input<>, out float2 result<> ) {\n\tresult = (indexof input).xy;\n}'],
    ['at_stream_fetch', 'kernel void copy2( float2 input<>, out float2 result<> ) {\n\tresult = input;\n}\nkernel void getIndexStream2( out float2 result<> ) {\n\tresult = (indexof result).xy;\n}'],
  ] as const) {
    it(`address_translation/${name} (${name === 'at_indexof_stream' ? 'indexof of an input resampled to the output' : 'inputs of other shapes fetched by resampling'}: 10x6, 500x48, 5000x24 into 5000x24)`, () => {
      const kernels = parseBrook(`kernel void clear1( out float result<> ) { result = -1; }\nkernel void clear2( out float2 result<> ) { result = -1; }\n${kernelSrc}`);
      const out = new Out();
      const c = checker(out);
      const [RX, RY] = [5000, 24];
      const result = decl(ctx, `float2 result< ${RY}, ${RX} >`);
      const data_result = new Float32Array(RX * RY * 2);
      for (const [sname, IX, IY] of [['a', 10, 6], ['b', 500, 48], ['c', 5000, 24]] as const) {
        const input = decl(ctx, `${name === 'at_indexof_stream' ? 'float' : 'float2'} ${sname}< ${IY}, ${IX} >`);
        if (name === 'at_indexof_stream') {
          ctx.run(kernels.clear1!, { result: input });
          ctx.run(kernels.clear2!, { result });
          ctx.run(kernels.getIndexStream2!, { input, result });
        } else {
          ctx.run(kernels.getIndexStream2!, { result: input });
          ctx.run(kernels.clear2!, { result });
          ctx.run(kernels.copy2!, { input, result });
        }
        streamWrite(result, data_result);
        for (let y = 0; y < RY; y++) for (let x = 0; x < RX; x++) {
          const xi = Math.floor((x * IX) / RX), yi = Math.floor((y * IY) / RY);
          const [vx, vy] = [data_result[2 * (y * RX + x)]!, data_result[2 * (y * RX + x) + 1]!];
          c.check(Math.trunc(vx) === xi, () => cprintf('FAIL: %s[%d][%d].%s : expected %d got %f', sname, y, x, 'x', xi, vx));
          c.check(Math.trunc(vy) === yi, () => cprintf('FAIL: %s[%d][%d].%s : expected %d got %f', sname, y, x, 'y', yi, vy));
        }
        input.dispose();
      }
      c.pass();
      expect(out.text).to.equal(GOLD[name]);
      result.dispose();
    });
  }

  it('address_translation/at_iterator (a float4 iterator over 1D and 4D domains)', () => {
    const { clear4, copyIterator4 } = brook`
      kernel void clear4( out float4 result<> ) { result = -1; }
      kernel void copyIterator4( iter float4 iterator<>, out float4 result<> ) {
      	result = iterator;
      }`;
    const out = new Out();
    const c = checker(out);
    const lerp = (start: number, end: number, amount: number, total: number) => f(start + f(f(f(end - start) * amount) / total));
    const match = (a: number, b: number) => Math.abs(a - b) < 0.01;
    const X_1D = 10000;
    const [s1, e1] = [[0, 0, 0, 0], [10000, 5000, 1000, 20000]];
    const [X4, Y4, Z4, W4] = [3, 6, 8, 5];
    const [s4, e4] = [[0, 1, 0, 10], [3, 7, 24, 0]];
    const stream_1d = decl(ctx, `float4 stream_1d< ${X_1D} >`), stream_4d = decl(ctx, `float4 stream_4d< ${W4}, ${Z4}, ${Y4}, ${X4} >`);
    ctx.run(clear4!, { result: stream_1d });
    ctx.run(copyIterator4!, { iterator: iter(s1, e1), result: stream_1d });
    const data_1d = new Float32Array(X_1D * 4);
    streamWrite(stream_1d, data_1d);
    for (let x = 0; x < X_1D; x++) for (let k = 0; k < 4; k++) {
      const want = lerp(s1[k]!, e1[k]!, x, X_1D), got = data_1d[4 * x + k]!;
      c.check(match(got, want), () => cprintf('FAIL: 1D[%d].%s : expected %f got %f', x, 'xyzw'[k]!, want, got));
    }
    ctx.run(clear4!, { result: stream_4d });
    ctx.run(copyIterator4!, { iterator: iter(s4, e4), result: stream_4d });
    const data_4d = new Float32Array(W4 * Z4 * Y4 * X4 * 4);
    streamWrite(stream_4d, data_4d);
    let i = 0;
    for (let w = 0; w < W4; w++) for (let z = 0; z < Z4; z++) for (let y = 0; y < Y4; y++) for (let x = 0; x < X4; x++) {
      const at = [x, y, z, w], n = [X4, Y4, Z4, W4];
      for (let k = 0; k < 4; k++) {
        const want = lerp(s4[k]!, e4[k]!, at[k]!, n[k]!), got = data_4d[i++]!;
        c.check(match(got, want), () => cprintf('FAIL: 1D[%d][%d][%d][%d].%s : expected %f got %f', w, z, y, x, 'xyzw'[k]!, want, got));
      }
    }
    c.pass();
    expect(out.text).to.equal(GOLD.at_iterator);
    [stream_1d, stream_4d].forEach((s) => s.dispose());
  });

  it('address_translation/at_output_domain (domains of 1D to 4D outputs; indexof counts from the domain)', () => {
    const kernels = brook`
      kernel void clear1( out float result<> ) { result = -1; }
      kernel void clear2( out float2 result<> ) { result = -1; }
      kernel void clear3( out float3 result<> ) { result = -1; }
      kernel void clear4( out float4 result<> ) { result = -1; }
      kernel void getIndexStream1( out float result<> ) {
      	result = (indexof result).x;
      }
      kernel void getIndexStream2( out float2 result<> ) {
      	result = (indexof result).xy;
      }
      kernel void getIndexStream3( out float3 result<> ) {
      	result = (indexof result).xyz;
      }
      kernel void getIndexStream4( out float4 result<> ) {
      	result = indexof result;
      }`;
    const out = new Out();
    const c = checker(out);
    // extents, domain start and end, x first
    const cases = [
      { ext: [10000], start: [347], end: [7123] },
      { ext: [5000, 4], start: [3997, 1], end: [4128, 4] },
      { ext: [40, 10, 7], start: [11, 3, 0], end: [25, 5, 7] },
      { ext: [3, 6, 8, 5], start: [1, 2, 0, 0], end: [3, 5, 7, 5] },
    ];
    const results = cases.map(({ ext, start, end }, d) => {
      const t = d === 0 ? 'float' : `float${d + 1}`;
      const st = decl(ctx, `${t} stream_${d + 1}d< ${[...ext].reverse().join(', ')} >`);
      ctx.run(kernels[`clear${d + 1}`]!, { result: st });
      ctx.run(kernels[`getIndexStream${d + 1}`]!, { result: d === 0 ? st.domain(start[0]!, end[0]!) : st.domain(start, end) });
      const buf = new Float32Array(st.length * (d + 1));
      streamWrite(st, buf);
      st.dispose();
      return buf;
    });
    results.forEach((buf, d) => {
      const { ext, start, end } = cases[d]!;
      for (let i = 0; i < buf.length / (d + 1); i++) {
        let rest = i;
        const at = ext.map((e) => {
          const v = rest % e;
          rest = Math.floor(rest / e);
          return v;
        });
        const inDomain = at.every((v, k) => v >= start[k]! && v < end[k]!);
        for (let k = 0; k <= d; k++) {
          const want = inDomain ? at[k]! - start[k]! : -1, got = buf[i * (d + 1) + k]!;
          c.check(Math.trunc(got) === want, () => cprintf('FAIL: %dD.%s : expected %d got %f', d + 1, 'xyzw'[k]!, want, got));
        }
      }
    });
    c.pass();
    expect(out.text).to.equal(GOLD.at_output_domain);
  });

  it('address_translation/at_stream_domain (a 3D domain of a 3D input)', () => {
    const { clear3, getIndexStream3, copy3 } = brook`
      kernel void clear3( out float3 result<> ) { result = -1; }
      kernel void getIndexStream3( out float3 result<> ) {
      	result = (indexof result).xyz;
      }
      kernel void copy3( float3 input<>, out float3 result<> ) {
      	result = input;
      }`;
    const out = new Out();
    const c = checker(out);
    const [RX, RY, RZ, IX, IY, IZ] = [50, 24, 13, 51, 40, 19];
    const [XS, XE, YS, YE, ZS, ZE] = [1, 51, 5, 29, 0, 13];
    const result = decl(ctx, `float3 result< ${RZ}, ${RY}, ${RX} >`), input = decl(ctx, `float3 input< ${IZ}, ${IY}, ${IX} >`);
    ctx.run(getIndexStream3!, { result: input });
    const data_input = new Float32Array(IX * IY * IZ * 3);
    streamWrite(input, data_input);
    let i = 0;
    for (let z = 0; z < IZ; z++) for (let y = 0; y < IY; y++) for (let x = 0; x < IX; x++) {
      for (const [e, n] of [[x, 'x'], [y, 'y'], [z, 'z']] as const) {
        const v = data_input[i++]!;
        c.check(Math.trunc(v) === e, () => cprintf('FAIL: input[%d][%d][%d].%s : expected %d got %f', z, y, x, n, e, v));
      }
    }
    ctx.run(clear3!, { result });
    ctx.run(copy3!, { input: input.domain([XS, YS, ZS], [XE, YE, ZE]), result });
    const data_result = new Float32Array(RX * RY * RZ * 3);
    streamWrite(result, data_result);
    i = 0;
    for (let z = 0; z < RZ; z++) for (let y = 0; y < RY; y++) for (let x = 0; x < RX; x++) {
      for (const [e, n] of [[x + XS, 'x'], [y + YS, 'y'], [z + ZS, 'z']] as const) {
        const v = data_result[i++]!;
        c.check(Math.trunc(v) === e, () => cprintf('FAIL: result[%d][%d][%d].%s : expected %d got %f', z, y, x, n, e, v));
      }
    }
    c.pass();
    expect(out.text).to.equal(GOLD.at_stream_domain);
    [result, input].forEach((s) => s.dispose());
  });
  it('allocate (streams of 1024x512 float4, 1024x1 and 1x512 float2 allocated, nothing printed)', () => {
    const out = new Out();
    const streams = ['float4 a< 1024,512 >', 'float4 b< 1024,512 >', 'float2 c <1024,1>', 'float2 d <1024,1>', 'float2 e <1,512>', 'float2 f <1,512>'].map((d) => decl(ctx, d));
    expect(out.text).to.equal(GOLD.allocate);
    streams.forEach((s) => s.dispose());
  });
});

// sum_uchar, sum_uchar3, sum_uchar4 and sum_int: run as their sources are written, printed by their
// own printf, and compared with a plain reference of what the source computes here: brookgl's 8-bit
// sums saturate at 255 (docs/brook.md: a float b / 255 in the kernel, stored clamped to [0, 1]),
// int sums are exact. Their golds are checked to be what NOT_PASSING says they are.
describe('brook/BrookGPU 0.5 prog/tests whose gold is not brookgl\'s answer: the source run against a reference', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());
  const saturating = (a: ArrayLike<number>, b: ArrayLike<number>) => Uint8Array.from(a, (x, k) => floatToChar(charToFloat(x) + charToFloat(b[k]!)));
  const wrapping = (a: ArrayLike<number>, b: ArrayLike<number>) => Uint8Array.from(a, (x, k) => (x + b[k]!) & 0xff);
  // the CPU backend (createContext({ backend: 'cpu' })) wraps 8-bit sums as BrookGPU's CPU backend, which printed the golds
  const onCpu = () => ctx.caps.renderer === CPU_RENDERER;

  it('sum_uchar (unsigned char: 250 + (10i+j), printed %d): saturates at 255; its gold is sum_char\'s output', () => {
    const { input_a1, input_b1, input_b2, output_c1, output_c2 } = sumProgram(ctx, 'unsigned char', 250);
    const text = printSums('%d ', 1, output_c1, output_c2);
    const sum = onCpu() ? wrapping : saturating;
    expect(text).to.equal(printSums('%d ', 1, sum(input_a1, input_b1), sum(input_a1, input_b2)));
    expect(Array.from(output_c1.slice(0, 7))).to.deep.equal(onCpu() ? [250, 251, 252, 253, 254, 255, 0] : [250, 251, 252, 253, 254, 255, 255]);
    expect(GOLD.sum_uchar, 'sum_uchar.gold is sum_char.gold byte for byte').to.equal(GOLD.sum_char);
    expect(text).to.not.equal(GOLD.sum_uchar);
  });

  for (const [name, type, format, second] of [
    ['sum_uchar3', 'uchar3', '(%u,%u,%u) ', (r1: number[], r2: number[]) => [r2[0]!, r2[1]!, r1[2]!]],
    ['sum_uchar4', 'uchar4', '(%u,%u,%u,%u) ', (r1: number[], r2: number[]) => [r2[0]!, r2[1]!, r1[2]!, r2[2]!]],
  ] as const) {
    it(`${name} (${type}: 200 + (10i+j), second loop printing c1's z as written): saturates at 255; its gold wraps modulo 256`, () => {
      const comps = dims(type);
      const { input_a1, input_b1, input_b2, output_c1, output_c2 } = sumProgram(ctx, type, 200);
      const text = printSums(format, comps, output_c1, output_c2, second);
      if (onCpu()) {
        expect(text, 'the CPU backend wraps as BrookGPU\'s did: the gold').to.equal(GOLD[name]);
        return;
      }
      expect(text).to.equal(printSums(format, comps, saturating(input_a1, input_b1), saturating(input_a1, input_b2), second));
      expect(output_c1[56 * comps], '200 + 56').to.equal(255);
      expect(printSums(format, comps, wrapping(input_a1, input_b1), wrapping(input_a1, input_b2), second), 'the gold is the modulo-256 sum').to.equal(GOLD[name]);
      const lines = (t: string) => t.split('\n');
      const differ = lines(text).filter((l, k) => l !== lines(GOLD[name]!)[k]).length;
      expect(differ, 'lines that differ from the gold: 200 + k > 255 for k = 56..99, in both loops').to.equal(10);
    });
  }

  it('sum_int (int: -(1<<8) + (10i+j), printed %d): exact; its gold is sum_uint\'s output', () => {
    const { input_a1, input_b1, input_b2, output_c1, output_c2 } = sumProgram(ctx, 'int', -(1 << 8));
    expect(output_c1).to.be.instanceOf(Int32Array);
    const text = printSums('%d ', 1, output_c1, output_c2);
    const exact = (a: ArrayLike<number>, b: ArrayLike<number>) => Int32Array.from(a, (x, k) => x + b[k]!);
    expect(text).to.equal(printSums('%d ', 1, exact(input_a1, input_b1), exact(input_a1, input_b2)));
    expect(text.split('\n')[0]).to.equal('-256 -255 -254 -253 -252 -251 -250 -249 -248 -247 ');
    expect(GOLD.sum_int, 'sum_int.gold is sum_uint.gold byte for byte').to.equal(GOLD.sum_uint);
  });
});

/**
 * The programs of prog/tests (lkosmid/brook, BrookGPU 0.5 with its GL/GLES backends) that are not
 * compared with their gold output here, and why. The *GLES directories rewrite programs above for
 * OpenGL ES 2 with other kernels (one output a kernel, float2 and float4 streams split into floats):
 * brookgpu-gles.test.ts runs them, nine against their golds and two against a reference.
 */
export const NOT_PASSING: Record<string, string> = {
  sum_uchar3: 'its gold wraps (200 + 56 = 0): the golds were printed by BrookGPU\'s CPU backend, whose uchar is C\'s 8-bit integer (include/brook/brtvector.hpp: vec<uchar, N>, arithmetic modulo 256); brookgl\'s 8-bit types are normalized [0, 1] textures with saturating stores (255), as BrookGPU\'s fixed and its GPU textures; on a GPU context a wrapping 8-bit integer stream type is not implemented; the CPU backend (createContext({ backend: \'cpu\' }), scripts/test-node.mjs) wraps as BrookGPU\'s did and prints the gold',
  sum_uchar4: 'as sum_uchar3; both run above against a reference (saturating at 255), and their golds are checked to be the modulo-256 sums',
  sum_uchar: 'its gold is sum_char.gold byte for byte (120 121 ... 127 -128 ...) while its source computes (unsigned char)250 + (10i+j) and prints %d: the gold does not belong to its source; the source runs above against a reference (saturating at 255)',
  sum_int: 'its gold is sum_uint.gold byte for byte (8388608 8388609 ...) while its source computes -(1<<8) + (10i+j): the gold does not belong to its source; the source runs above against a reference (-256 -255 ...)',
  multibackend: 'runs the CPU and a GPU backend at once from two threads; brookgl has one backend (WebGL2) and no threads (its gold also lacks the "Testing %s vs %s" lines main.cpp prints)',
  iterator_dimensionsGLES: 'its gold is iterator_dimensions.gold byte for byte, while the GLES main() adds two float tests and drops the float3 and float4 ones: run in brookgpu-gles.test.ts against a reference (brookIteratorReference)',
  constantGLES: 'its gold is constant.gold byte for byte, while the GLES main() streamWrites a float<10> into float4 data[10] and prints all 40 floats (30 never written): run in brookgpu-gles.test.ts with data zeroed, against a reference of what each kernel writes',
  'big, fractal, gflops, streamcopy, streamcopyGLES, tessellate, realloc, split_testing, toy/toomuchcode': 'no gold files (benchmarks, compiler stress tests and drivers with their own C++ harness): their kernels are compiled in brookgpu-compile-only.test.ts, all of them (tessellate\'s filter has an unbounded vout [], which voutRun runs by doubling its slots until no more records are kept, as BrookGPU ran it pass after pass until nothing was pushed)',
};

describe('brook/BrookGPU 0.5 prog/tests not compared with their gold output', () => {
  for (const [name, why] of Object.entries(NOT_PASSING)) it.skip(`${name}: ${why}`, () => undefined);
});
