// BrookGPU's kernels and gold files quoted here are under its licence: test/brook/BROOKGPU-LICENSE.txt.
// The GLES port's versions of BrookGPU 0.5's prog/tests (lkosmid/brook's *GLES directories): the
// same programs rewritten for OpenGL ES 2 (one output a kernel, float2/float4 streams split into
// float streams, float2 constants passed as two floats), so their kernels are other kernels. Each is
// ported as the others are: kernels verbatim through the `brook` tag, main() line for line, the
// printed text compared with the gold file its Makefile names (most are byte for byte the gold of
// the program they rewrite). Where the gold does not belong to the GLES source, the source runs
// against a reference and the mismatch is checked (iterator_dimensionsGLES, constantGLES).
import { expect } from 'chai';
import { BrookContext, Stream, StructStream, brook, iter, reduceValue, streamDecl, streamGatherOp, streamRead, streamWrite } from '../../src/index';
import { brookIteratorReference } from '../../src/reference';
import { newContext } from '../helpers';
import { GOLD } from './brookgpu-gold';
import { Out, decl } from './brookgpu-tests.test';

describe('brook/BrookGPU 0.5 prog/tests, GLES versions, ported: the printed output equals the gold file', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('gather_directGLES (a 1D gather at a float2 built from two constants: y ignored)', () => {
    const { gather1 } = brook`
      kernel void gather1( float indexx, float indexy, float a[100], out float b<> ) {
              float2 index=float2(indexx, indexy);
      	b = a[ index ];
      }`;
    const out = new Out();
    const indexx = 3;
    const indexy = 4; // This argument is ignored since it is a single dimentional stream
    const a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const input_a1 = new Float32Array(100), output_b1 = new Float32Array(100);
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) input_a1[10 * i + j] = 10 * i + j;
    streamRead(a1, input_a1);
    ctx.run(gather1!, { indexx, indexy, a: a1, b: b1 });
    streamWrite(b1, output_b1);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f ', output_b1[10 * i + j]!);
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.gather_directGLES);
    [a1, b1].forEach((s) => s.dispose());
  });

  it('multiple_outputGLES (the two outputs as two kernels; gold: multiple_output\'s)', () => {
    const { computeDouble, computeSquare } = brook`
      kernel void computeDouble( float input<>, out float doubled<>) {
        doubled = 2*input;
      }
      kernel void computeSquare( float input<>, out float squared<> ) {
        squared = input*input;
      }`;
    const out = new Out();
    const input = decl(ctx, 'float input< 100 >'), doubled = decl(ctx, 'float doubled< 100 >'), squared = decl(ctx, 'float squared< 100 >');
    const input_data = new Float32Array(100), doubled_data = new Float32Array(100), squared_data = new Float32Array(100);
    for (let i = 0; i < 100; i++) input_data[i] = i;
    streamRead(input, input_data);
    ctx.run(computeDouble!, { input, doubled });
    ctx.run(computeSquare!, { input, squared });
    streamWrite(doubled, doubled_data);
    streamWrite(squared, squared_data);
    for (let i = 0; i < 100; i++) {
      out.printf('{%6.1f, %6.1f}', doubled_data[i]!, squared_data[i]!);
      if (i % 5 === 4) out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.multiple_output); // multiple_outputGLES.gold: the same file
    [input, doubled, squared].forEach((s) => s.dispose());
  });

  it('domain_gatherGLES (a gather through a domain, x and y as two float streams and two passes)', () => {
    const { gatherFetch } = brook`
      kernel void gatherFetch( float indexx<>,  float indexy<>, float g[][], out float result<> )
      {
              float2 index=float2(indexx, indexy);
      	result = g[ index ];
      }`;
    const out = new Out();
    const indexStreamx = decl(ctx, 'float indexStreamx< 100 >'), indexStreamy = decl(ctx, 'float indexStreamy< 100 >');
    const gatherStreamx = decl(ctx, 'float gatherStreamx< 20, 20 >'), gatherStreamy = decl(ctx, 'float gatherStreamy< 20, 20 >');
    const resultStreamx = decl(ctx, 'float resultStreamx< 100 >'), resultStreamy = decl(ctx, 'float resultStreamy< 100 >');
    const index_datax = new Float32Array(100), index_datay = new Float32Array(100);
    const gather_datax = new Float32Array(400), gather_datay = new Float32Array(400);
    const result_datax = new Float32Array(100), result_datay = new Float32Array(100);
    for (let i = 0; i < 100; i++) {
      index_datax[i] = i % 10;
      index_datay[i] = Math.floor(i / 10);
    }
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) {
        gather_datax[20 * i + j] = i;
        gather_datay[20 * i + j] = j;
      }
    }
    streamRead(indexStreamx, index_datax);
    streamRead(indexStreamy, index_datay);
    streamRead(gatherStreamx, gather_datax);
    streamRead(gatherStreamy, gather_datay);
    ctx.run(gatherFetch!, { indexx: indexStreamx, indexy: indexStreamy, g: gatherStreamx.domain([0, 7], [10, 17]), result: resultStreamx });
    streamWrite(resultStreamx, result_datax);
    ctx.run(gatherFetch!, { indexx: indexStreamx, indexy: indexStreamy, g: gatherStreamy.domain([0, 7], [10, 17]), result: resultStreamy });
    streamWrite(resultStreamy, result_datay);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        const x = result_datax[j * 10 + i]!;
        const y = result_datay[j * 10 + i]!;
        out.printf('<%f %f> ', x, y);
      }
      out.printf('\n');
    }
    expect(out.text).to.equal(GOLD.domain_gather); // domain_gatherGLES.gold: the same file
    [indexStreamx, indexStreamy, gatherStreamx, gatherStreamy, resultStreamx, resultStreamy].forEach((s) => s.dispose());
  });

  it('gather_dependentGLES (a 2D gather at an index built from two float streams)', () => {
    const { gather1, gather2 } = brook`
      kernel void gather1( float index<>, float a[100], out float b<> ) {
      	b = a[ index.x ];
      }
      kernel void gather2( float indexx<>, float indexy<>, float a[10][10], out float b<> ) {
              float2 index=float2(indexx, indexy);
      	b = a[ index.xy ];
      }`;
    const out = new Out();
    const index1 = decl(ctx, 'float index1< 100 >'), a1 = decl(ctx, 'float a1< 100 >'), b1 = decl(ctx, 'float b1< 100 >');
    const index2x = decl(ctx, 'float index2x < 10, 10 >'), index2y = decl(ctx, 'float index2y < 10, 10 >');
    const a2 = decl(ctx, 'float a2< 10, 10 >'), b2 = decl(ctx, 'float b2< 10, 10 >');
    const input_index1 = new Float32Array(100), input_a1 = new Float32Array(100), output_b1 = new Float32Array(100);
    const input_index2x = new Float32Array(100), input_index2y = new Float32Array(100), input_a2 = new Float32Array(100), output_b2 = new Float32Array(100);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        input_index1[10 * i + j] = 10 * i + j;
        input_a1[10 * i + j] = 99 - (10 * i + j);
        input_index2x[10 * i + j] = j;
        input_index2y[10 * i + j] = i;
        input_a2[10 * i + j] = 99 - (10 * i + j);
      }
    }
    streamRead(index1, input_index1);
    streamRead(a1, input_a1);
    streamRead(index2x, input_index2x);
    streamRead(index2y, input_index2y);
    streamRead(a2, input_a2);
    ctx.run(gather1!, { index: index1, a: a1, b: b1 });
    ctx.run(gather2!, { indexx: index2x, indexy: index2y, a: a2, b: b2 });
    streamWrite(b1, output_b1);
    streamWrite(b2, output_b2);
    for (const o of [output_b1, output_b2]) {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', o[10 * i + j]!);
        out.printf('\n');
      }
    }
    expect(out.text).to.equal(GOLD.gather_dependent); // gather_dependentGLES.gold: the same file
    [index1, a1, b1, index2x, index2y, a2, b2].forEach((s) => s.dispose());
  });

  it('gatheropGLES (streamGatherOp twice with a permutation; its gold is gatherop\'s, whose test 2 the GLES source dropped)', () => {
    const { mydec1 } = brook`
      reduce void mydec1(float a <>, reduce float b <> ) {
         b = a - 1;
      }
      reduce void myfetch1(float a <>, reduce float b <> ) {
        b = a;
      }
      reduce void myinc1(float a <>, reduce float b <> ) {
        b = a + 1;
      }`;
    const out = new Out();
    const printarray1 = (data: Float32Array) => {
      for (let i = 0; i < 10; i++) {
        for (let j = 0; j < 10; j++) out.printf('%3.2f ', data[10 * i + j]!);
        out.printf('\n');
      }
    };
    const a = decl(ctx, 'float  a<10, 10>'), b = decl(ctx, 'float2 b<10, 10>'), e = decl(ctx, 'float  e<10, 10>');
    const f = decl(ctx, 'float4 f<2,2>'), g = decl(ctx, 'float4 g<2,2>'), index = decl(ctx, 'float2 index<2,2>');
    const data_a = new Float32Array(100), data_b = new Float32Array(200), data_e = new Float32Array(100);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        data_a[10 * i + j] = i + 10 * j;
        data_b[2 * (10 * i + j)] = 9 - i;
        data_b[2 * (10 * i + j) + 1] = 9 - j;
      }
    }
    streamRead(a, data_a);
    streamRead(b, data_b);
    streamGatherOp(ctx, e, b, a, mydec1!);
    streamGatherOp(ctx, e, b, a, mydec1!);
    streamWrite(e, data_e);
    streamWrite(a, data_a);
    printarray1(data_e);
    printarray1(data_a);
    out.printf('\n');
    // gatheropGLES/gatherop.gold is gatherop.gold byte for byte: its first 21 lines are this test 1
    const test1 = GOLD.gatherop!.split('\n').slice(0, 21).join('\n') + '\n';
    expect(out.text).to.equal(test1);
    [a, b, e, f, g, index].forEach((s) => s.dispose());
  });

  it('indexofGLES (indexof passed on as a float4 constant with float, int and float2 extra constants; four kernels for four components)', () => {
    const { test, foo1, foo2, foo3, foo4 } = brook`
      kernel void
      bar1(float d_prime<>, float d[][], out float e<>, float4 indexofe, float x, float y)
      {
        e = d[indexof(d_prime)];
      }
      kernel void
      bar2(float d_prime<>, float d[][], out float e<>, float4 indexofe, int x, int y)
      {
        e = d[indexof(d_prime)];
      }
      kernel void
      bar3(float d_prime<>, float d[][], out float e<>, float4 indexofe, float2 dim)
      {
        e = d[indexof(d_prime).xy];
      }
      kernel void
      bar4(float d_prime<>, float d[][], out float e<>, float4 indexofe)
      {
        e = d[1?(indexofe).xy:indexofe.zz];
      }
      kernel void
      foo1(float d_prime<>, float d[][],out float e<>, float x, float y)
      {
         bar1(d_prime,d,e,indexof(e), x, y);
      }
      kernel void
      foo2(float d_prime<>, float d[][],out float e<>, int x, int y)
      {
         bar2(d_prime,d,e,indexof(e), x, y);
      }
      kernel void
      foo3(float d_prime<>, float d[][],out float e<>, float2 dim)
      {
         bar3(d_prime,d,e,indexof(e), dim);
      }
      kernel void
      foo4(float d_prime<>, float d[][],out float e<>)
      {
         bar4(d_prime,d,e,indexof(e));
      }
      kernel void
      test(float a<>, out float b<>)
      {
         b = indexof(a).x;
      }`;
    const out = new Out();
    const data_d = new Float32Array(100), data_c = new Float32Array(100);
    const d = decl(ctx, 'float d<10, 10>'), c = decl(ctx, 'float c<10,10>');
    const ex = decl(ctx, 'float ex<10, 10>'), ey = decl(ctx, 'float ey<10, 10>'), ez = decl(ctx, 'float ez<10, 10>'), ew = decl(ctx, 'float ew<10, 10>');
    const data_ex = new Float32Array(100), data_ey = new Float32Array(100), data_ez = new Float32Array(100), data_ew = new Float32Array(100);
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) data_d[10 * i + j] = i * 10 + j;
    streamRead(d, data_d);
    ctx.run(test!, { a: d, b: c });
    streamWrite(c, data_c);
    out.printf('Here are the results from the simple indexof test:\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) out.printf('%3.2f  ', data_c[10 * i + j]!);
      out.printf('\n');
    }
    out.printf('\n');
    ctx.run(foo1!, { d_prime: d, d, e: ex, x: 10, y: 10 });
    ctx.run(foo2!, { d_prime: d, d, e: ey, x: 10, y: 10 });
    ctx.run(foo3!, { d_prime: d, d, e: ez, dim: [10, 10] });
    ctx.run(foo4!, { d_prime: d, d, e: ew });
    streamWrite(ex, data_ex);
    streamWrite(ey, data_ey);
    streamWrite(ez, data_ez);
    streamWrite(ew, data_ew);
    out.printf('Here are the results from the advanced indexof test:\n');
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        if (!(j % 2)) out.printf('\n');
        out.printf('%3.2f %3.2f %3.2f %3.2f\t', data_ex[10 * i + j]!, data_ey[10 * i + j]!, data_ez[10 * i + j]!, data_ew[10 * i + j]!);
      }
    }
    out.printf('\n');
    expect(out.text).to.equal(GOLD.indexof); // indexofGLES.gold: the same file
    [d, c, ex, ey, ez, ew].forEach((s) => s.dispose());
  });

  it('read_write_domainGLES (streamRead of domains of float and one-field struct streams, 1D and 2D)', () => {
    const { clear2, clearPair } = brook`
      typedef struct Pair_t {
      	float field1;
      } Pair;
      kernel void clear2( out float result<> ) {
      	result = -1;
      }
      kernel void clearPair( out Pair result<> ) {
      	result.field1 = -1;
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
      failed = true; // exit(-1);
    };
    const check1 = (name: string, data: Float32Array) => {
      for (let i = 0; i < SIZE_X1; i++) {
        let dx = -1;
        if (i >= START_X1 && i < END_X1) dx = i - START_X1;
        check(name, 'x', i, 0, dx, data[i]!);
      }
    };
    const check2 = (name: string, data: Float32Array) => {
      for (let j = 0; j < SIZE_Y2; j++) {
        for (let i = 0; i < SIZE_X2; i++) {
          let dx = -1;
          if (i >= START_X2 && i < END_X2 && j >= START_Y2 && j < END_Y2) dx = i - START_X2;
          check(name, 'x', i, j, dx, data[j * SIZE_X2 + i]!);
        }
      }
    };
    const structs = clearPair!.structs!;
    const a1 = decl(ctx, `float a1< ${SIZE_X1} >`);
    const b1 = streamDecl(ctx, `Pair b1< ${SIZE_X1} >`, structs) as StructStream;
    const a2 = decl(ctx, `float a2< ${SIZE_Y2}, ${SIZE_X2} >`);
    const b2 = streamDecl(ctx, `Pair b2< ${SIZE_Y2}, ${SIZE_X2} >`, structs) as StructStream;
    const input1 = new Float32Array(DOMAIN_X1), input2 = new Float32Array(DOMAIN_Y2 * DOMAIN_X2);
    const a1_data = new Float32Array(SIZE_X1), b1_data = new Float32Array(SIZE_X1);
    const a2_data = new Float32Array(SIZE_Y2 * SIZE_X2), b2_data = new Float32Array(SIZE_Y2 * SIZE_X2);
    for (let i = 0; i < DOMAIN_X1; i++) input1[i] = i;
    for (let j = 0; j < DOMAIN_Y2; j++) for (let i = 0; i < DOMAIN_X2; i++) input2[j * DOMAIN_X2 + i] = i;
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
    expect(out.text).to.equal(GOLD.read_write_domain); // read_write_domainGLES/read_write_domain.gold: the same file
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('reduce_basicGLES (float sums of 10x10, 9x9 and 11x10 streams, a component at a time)', async () => {
    const { SUM } = brook`
      reduce void SUM( float a<>, reduce float b <>) {
      	b = b + a;
      }`;
    const out = new Out();
    for (const [h, w] of [[10, 10], [9, 9], [11, 10]] as const) {
      const [x, y, z, ww] = ['x', 'y', 'z', 'w'].map((c) => decl(ctx, `float a${c}< ${h}, ${w} >`));
      const [data_x, data_y, data_z, data_w] = [0, 1, 2, 3].map(() => new Float32Array(h * w));
      for (let i = 0; i < h; i++) {
        for (let j = 0; j < w; j++) {
          data_x![i * w + j] = i;
          data_y![i * w + j] = j;
          data_z![i * w + j] = 1;
          data_w![i * w + j] = 2;
        }
      }
      streamRead(x!, data_x!);
      streamRead(y!, data_y!);
      streamRead(z!, data_z!);
      streamRead(ww!, data_w!);
      const [resultx] = await reduceValue(ctx, SUM!, { a: x! });
      const [resulty] = await reduceValue(ctx, SUM!, { a: y! });
      const [resultz] = await reduceValue(ctx, SUM!, { a: z! });
      const [resultw] = await reduceValue(ctx, SUM!, { a: ww! });
      out.printf('{%3.2f %3.2f %3.2f %3.2f}\n', resultx!, resulty!, resultz!, resultw!);
      [x!, y!, z!, ww!].forEach((s) => s.dispose());
    }
    expect(out.text).to.equal(GOLD.reduce_basic); // reduce_basicGLES.gold: the same file
  });

  it('scanGLES (the prefix count on 4x4, x and y of the neighbour\'s index computed by two kernels called from a kernel)', () => {
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
      kernel void getIndexAtX(
                             float inputindexx<>,
                             float inputindexy<>,
                             float shiftRight,
                             float2 maxvalue,
                             out float outputindexx<>) {
         float indexx;
         indexx=inputindexx+shiftRight;
         indexx=round(fmod(round(indexx),maxvalue.x));
         if (indexx<=-.50)
            indexx+=maxvalue.x;//only necessary if shiftRight<0
         if (indexx+.25 >= maxvalue.x)
           indexx = 0;//if fmod fails us
         outputindexx=indexx;
         //   printf(maxvalue.x,maxvalue.y,outputindex.x,outputindex.y);
      }
      kernel void getIndexAtY(
                             float inputindexx<>,
                             float inputindexy<>,
                             float shiftRight,
                             float2 maxvalue,
                             out float outputindexy<>) {
         float2 index;
         index.x=inputindexx+shiftRight;
         index.y=inputindexy+floor((.5+index.x)/maxvalue.x);
         outputindexy=index.y;
         //   printf(maxvalue.x,maxvalue.y,outputindex.x,outputindex.y);
      }
      kernel void CountToRight (float value [][],
                                out float output<>,
                                float twotoi,
                                float2 maxvalue) {
      //FIXME when I define put nextPlaceToLook as float2 CPU backened fails
         float nextPlaceToLookx;
         float nextPlaceToLooky;
         float neighbor;
         getIndexAtX((indexof(output)).x,(indexof(output)).y,twotoi,maxvalue,nextPlaceToLookx);
         getIndexAtY((indexof(output)).x,(indexof(output)).y,twotoi,maxvalue,nextPlaceToLooky);
         valueAt(value,float2(nextPlaceToLookx, nextPlaceToLooky),neighbor,maxvalue,0);
         output = value[indexof(output)]+neighbor;
      }`;
    const out = new Out();
    const CountValues = (list_stream: Stream, output_stream: { s: Stream }, WIDTH: number, LENGTH: number, sign: number) => {
      let tmp_stream = decl(ctx, `float tmp_stream<${WIDTH},${LENGTH}>`);
      const maxvalue = [LENGTH, WIDTH];
      const logN = Math.ceil(Math.log(LENGTH * WIDTH) / Math.log(2.0)) >>> 0;
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
    const inputval = decl(ctx, 'float inputval<4,4>');
    const outputval = { s: decl(ctx, 'float outputval<4,4>') };
    const val = new Float32Array(16);
    val[4 * 1 + 0] = 1;
    val[4 * 3 + 0] = 1;
    streamRead(inputval, val); // (inputindexx and inputindexy are read too, for the if (0) branch only)
    out.printf('input\n');
    out.streamPrint(inputval);
    CountValues(inputval, outputval, 4, 4, -1);
    out.printf('\noutput\n');
    out.streamPrint(outputval.s);
    out.printf('\n');
    expect(out.text).to.equal(GOLD.scanGLES);
    [inputval, outputval.s].forEach((s) => s.dispose());
  });
});

// The GLES sources whose gold files are another program's: run as written, printed by their own
// printf, against a reference of what the source computes.
describe('brook/BrookGPU 0.5 prog/tests, GLES versions whose gold is not their own: the source run against a reference', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('iterator_dimensionsGLES (float iterators, a float2 one as two; its gold is iterator_dimensions.gold, whose tests the GLES main() changed)', () => {
    const { copy1 } = brook`
      kernel void copy1( iter float i<>, out float output<> ) {
      	output = i;
      }`;
    /** main() printed through `iterate` (one float iterator's values over `extent` records). */
    const program = (iterate: (extent: number, min: number, max: number) => Float32Array): string => {
      const out = new Out();
      const test1 = (extent: number, min: number, max: number) => {
        const stream_data = iterate(extent, min, max);
        let count = 0;
        for (let i = 0; i < extent; i++) {
          if (count++ === 10) {
            out.printf('\n');
            count = 1;
          }
          out.printf('%6.3f ', stream_data[i]!);
        }
        out.printf('\n');
      };
      const test2 = (extent: number, minX: number, minY: number, maxX: number, maxY: number) => {
        const stream_datax = iterate(extent, minX, maxX);
        const stream_datay = iterate(extent, minY, maxY);
        let count = 0;
        for (let i = 0; i < extent; i++) {
          if (count++ === 10) {
            out.printf('\n');
            count = 1;
          }
          out.printf('{%6.3f %6.3f} ', stream_datax[i]!, stream_datay[i]!);
        }
        out.printf('\n');
      };
      out.printf(' -- 1D, float, 10 elements, 0 - 10\n');
      test1(10, 0.0, 10.0);
      out.printf(' -- 1D, float, 10 elements, 10 - 0\n');
      test1(10, 9.0, -1.0);
      out.printf(' -- 1D, float, 10 elements, 5 - 10\n');
      test1(10, 5.0, 10.0);
      out.printf(' -- 1D, float, 128 elements, 0 - 64\n');
      test1(128, 0.0, 64.0);
      out.printf(' -- 1D, float, 128 elements, 0 - 64\n');
      test1(128, 0.0, 32.0);
      out.printf(' -- 1D, float2, 8 elements, (0,0) - (8,4)\n');
      test2(8, 0.0, 0.0, 8.0, 4.0);
      out.printf(' -- 1D, float3, 4 elements, (0,0,0) - (8,4,2)\n');
      return out.text;
    };
    const onGpu = (extent: number, min: number, max: number) => {
      const stream = decl(ctx, `float stream< ${extent} >`);
      ctx.run(copy1!, { i: iter(min, max), output: stream });
      const stream_data = new Float32Array(extent);
      streamWrite(stream, stream_data);
      stream.dispose();
      return stream_data;
    };
    const text = program(onGpu);
    expect(text).to.equal(program((extent, min, max) => brookIteratorReference([min], [max], [extent])));
    // the gold is iterator_dimensions.gold byte for byte: the original's tests (float2 to float4
    // iterators), not the GLES main()'s (5 - 10 and 0 - 32 added, float3 and float4 dropped)
    const headers = (t: string) => t.split('\n').filter((l) => l.startsWith(' -- '));
    expect(headers(GOLD.iterator_dimensions!)).to.deep.equal([
      ' -- 1D, float, 10 elements, 0 - 10', ' -- 1D, float, 10 elements, 10 - 0', ' -- 1D, float, 128 elements, 0 - 64',
      ' -- 1D, float2, 8 elements, (0,0) - (8,4)', ' -- 1D, float3, 4 elements, (0,0,0) - (8,4,2)', ' -- 1D, float4, 4 elements, (0,0,0,0) - (8,4,2,1)',
    ]);
    expect(headers(text)).to.deep.equal([
      ' -- 1D, float, 10 elements, 0 - 10', ' -- 1D, float, 10 elements, 10 - 0', ' -- 1D, float, 10 elements, 5 - 10', ' -- 1D, float, 128 elements, 0 - 64',
      ' -- 1D, float, 128 elements, 0 - 64', ' -- 1D, float2, 8 elements, (0,0) - (8,4)', ' -- 1D, float3, 4 elements, (0,0,0) - (8,4,2)',
    ]);
  });

  it('constantGLES (float, float2, float3, float4 constants, a component a kernel; its gold is constant.gold, and its main() prints float4 data[10] of which streamWrite fills 10 floats)', () => {
    const kernels = brook`
      kernel void
      k1(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = a;
      }
      kernel void
      k2a(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = b.x;
      }
      kernel void
      k2b(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = b.y;
      }
      kernel void
      k3a(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = c.x;
      }
      kernel void
      k3b(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = c.y;
      }
      kernel void
      k3c(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = c.z;
      }
      kernel void
      k4a(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = d.x;
      }
      kernel void
      k4b(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = d.y;
      }
      kernel void
      k4c(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = d.z;
      }
      kernel void
      k4d(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         s = d.w;
      }
      kernel void
      ka(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         if (n == 1.0) {
            s = a;
         } else if (n == 2.0) {
            s = b.x;
         } else if (n == 3.0) {
            s = c.x;
         } else if (n == 4.0) {
            s = d;
         } else {
            s = 0;
         }
      }
      kernel void
      kb(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         if (n == 1.0) {
            s = n;
         } else if (n == 2.0) {
            s = b.y;
         } else if (n == 3.0) {
            s = c.y;
         } else if (n == 4.0) {
            s = 0;
         } else {
            s = 0;
         }
      }
      kernel void
      kc(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         if (n == 1.0) {
            s = 0;
         } else if (n == 2.0) {
            s = 0;
         } else if (n == 3.0) {
            s = c.z;
         } else if (n == 4.0) {
            s = 0;
         } else {
            s = 0;
         }
      }
      kernel void
      kd(float n, float a, float2 b, float3 c, float4 d, out float s<>)
      {
         if (n == 1.0) {
            s = 0;
         } else if (n == 2.0) {
            s = 0;
         } else if (n == 3.0) {
            s = c.z;
         } else if (n == 4.0) {
            s = 0;
         } else {
            s = 0;
         }
      }`;
    const d = [5.1, 1.5, 4.2, 2.4];
    const c = [0.1, 0.2, 0.3];
    const b = [67.89, 98.76];
    const a = 12.34;
    const F = Math.fround;
    /** main() printed, with `run(name, i)` giving s's 10 floats after kernel `name` ran for n = i. */
    const program = (run: (names: string[], i: number) => Float32Array): string => {
      const out = new Out();
      // float4 data[10]: in C its 30 floats past streamWrite's 10 are never written (stack
      // garbage there); zeros here, on both sides
      const data = new Float32Array(40);
      const print = (what: string, i: number) => {
        out.printf(`Results with n = %d and a ${what} kernel:\n`, i);
        out.printf('00: ');
        for (let j = 0; j < 10; j++) {
          out.printf('(%4.2f, %4.2f, %4.2f, %4.2f) ', data[4 * j]!, data[4 * j + 1]!, data[4 * j + 2]!, data[4 * j + 3]!);
          if (j % 2 === 1) out.printf('\n%02d: ', j + 1);
        }
        out.printf('\n\n');
      };
      const statics: Record<number, string[]> = { 1: ['k1'], 2: ['k2a', 'k2b'], 3: ['k3a', 'k3b', 'k3c'], 4: ['k4a', 'k4b', 'k4c', 'k4d'] };
      for (let i = 1; i <= 4; i++) {
        data.set(run(statics[i]!, i)); // streamWrite(s, data): the first 10 floats
        print('static', i);
        data.set(run(['ka', 'kb', 'kc', 'kd'], i));
        print('conditional', i);
      }
      return out.text;
    };
    const s = decl(ctx, 'float s<10>');
    const onGpu = (names: string[], i: number) => {
      for (const name of names) ctx.run(kernels[name]!, { n: i * 1.0, a, b, c, d, s });
      const ten = new Float32Array(10);
      streamWrite(s, ten);
      return ten;
    };
    // what each kernel writes (s holds the last one's): its constant's component, or the branch's
    const value: Record<string, (n: number) => number> = {
      k1: () => a, k2a: () => b[0]!, k2b: () => b[1]!, k3a: () => c[0]!, k3b: () => c[1]!, k3c: () => c[2]!,
      k4a: () => d[0]!, k4b: () => d[1]!, k4c: () => d[2]!, k4d: () => d[3]!,
      ka: (n) => (n === 1 ? a : n === 2 ? b[0]! : n === 3 ? c[0]! : n === 4 ? d[0]! : 0),
      kb: (n) => (n === 1 ? n : n === 2 ? b[1]! : n === 3 ? c[1]! : 0),
      kc: (n) => (n === 3 ? c[2]! : 0),
      kd: (n) => (n === 3 ? c[2]! : 0),
    };
    const reference = (names: string[], i: number) => new Float32Array(10).fill(F(value[names.at(-1)!]!(i)));
    const text = program(onGpu);
    expect(text).to.equal(program(reference));
    expect(text).to.not.equal(GOLD.constant);
    s.dispose();
  });
});
