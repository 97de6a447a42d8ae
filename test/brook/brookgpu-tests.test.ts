// BrookGPU 0.5's own regression programs (prog/tests), ported: each kernel verbatim through the
// `brook` tag, each main() translated line for line onto brookgl's Brook host API (streamDecl,
// streamRead, streamWrite, ctx.run, reduceValue, streamGatherOp, ...), its printf calls onto a C
// printf, and the printed text compared with the program's gold file (brookgpu-gold.ts) as it
// stands. Programs that cannot run on WebGL2 are listed at the end with the reason.
import { expect } from 'chai';
import {
  BrookContext, Iter, Stream, StructStream, brook, iter, reduceValue, streamDecl, streamGatherOp, streamRead, streamScatterOp, streamWrite,
} from '../../src/index';
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
class Out {
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
const decl = (ctx: BrookContext, d: string) => streamDecl(ctx, d) as Stream;

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
});
