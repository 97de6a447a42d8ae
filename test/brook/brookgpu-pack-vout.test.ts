// BrookGPU's kernels and gold files quoted here are under its licence: test/brook/BROOKGPU-LICENSE.txt.
// BrookGPU 0.5's prog/tests/pack_vout, ported: BrookGPU's own vout packing library written in
// Brook (vout.br: a prefix count of the +inf "nothing pushed" records by log n gather passes, a
// binary search for each kept record's source, RelativeGather; then the interleaving of N streams
// by streamCombine*), every kernel verbatim through the `brook` tag (vout.br's commented-out
// streamCombine5..streamCombine7f left out as brcc never saw them), its C host functions and
// test.br's main() translated line for line, and the printed text compared with pack_vout.gold.
// Stream pointers (float (*output)<>) are boxes { s: Stream }; streamSwap swaps their contents.
import { expect } from 'chai';
import { BrookContext, Stream, brook, streamRead, streamWrite } from '../../src/index';
import { newContext } from '../helpers';
import { GOLD } from './brookgpu-gold';
import { Out, cprintf, decl } from './brookgpu-tests.test';

const float32 = Math.fround;

describe('brook/BrookGPU 0.5 prog/tests/pack_vout, ported: the printed output equals the gold file', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('pack_vout (vout.br\'s 22 kernels: two streams with +inf holes packed and joined, 16 streams interleaved; gathers, kernels calling kernels, an output that is also an input)', () => {
    const K = brook`
      kernel void calculateDividedIndex(float4 index,
                                        float modulus,
                                        float length,
                                        out float2 newindex<>){
         float epsilon=1.0f/32.0f;
         //this is needed because the division may result in
         // loss of accuracy.  We know that for a 2048 texture the mantissa holds
         // 1/32 precision
         newindex=float2(index.x,index.y);
         newindex/=modulus;
         newindex.x=floor(fmod(newindex.x+frac(newindex.y)*length+epsilon,length));
         newindex.y=floor(newindex.y+epsilon);

      }
      kernel void calculateIndexModulus (float4 index,
                                         float modulus,
                                         float mod,
                                         float offset,
                                         float lengthmodmodulus,
                                         out float which <>) {
         which= floor(fmod(round(index.y*lengthmodmodulus
                      + fmod(index.x,mod)),
      	               modulus)-offset);
      }
      kernel void streamCombine1(float input0[][],
                                 float modulus,
                                 float mod,
                                 float offset,
                                 float length,
                                 float lengthmodmodulus,
                                 float oldoutput<>,
                                 out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               offset,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else {
            output=oldoutput;
         }

      }
      kernel void streamCombine2f(float input0[][],
                                  float input1[][],
                                  float modulus,
                                 float mod,
                                  float length,
                                  float lengthmodmodulus,
                                  out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               -0.5f,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else {
            output=input1[newindex];
         }
      //output=newindex.x;
      }
      kernel void streamCombine2(float input0[][],
                                 float input1[][],
                                 float modulus,
                                 float mod,
                                 float offset,
                                 float length,
                                 float lengthmodmodulus,
                                 float oldoutput<>,
                                 out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               offset,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else {
            output=oldoutput;
         }
      }
      kernel void streamCombine3f(float input0[][],
                                  float input1[][],
                                  float input2[][],
                                  float modulus,
                                 float mod,
                                  float length,
                                  float lengthmodmodulus,
                                  out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               -0.5f,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else {
            output=input2[newindex];
         }
      }
      kernel void streamCombine3(float input0[][],
                                 float input1[][],
                                 float input2[][],
                                 float modulus,
                                 float mod,
                                 float offset,
                                 float length,
                                 float lengthmodmodulus,
                                 float oldoutput<>,
                                 out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               offset,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else if (whichmod==2) {
            output=input2[newindex];
         }else {
            output=oldoutput;
         }
      }
      kernel void streamCombine4f(float input0[][],
                                  float input1[][],
                                  float input2[][],
                                  float input3[][],
                                  float modulus,
                                 float mod,
                                  float length,
                                  float lengthmodmodulus,
                                  out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               -0.5f,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else if (whichmod==2) {
            output=input2[newindex];
         }else {
            output=input3[newindex];
         }
      }
      kernel void streamCombine4(float input0[][],
                                 float input1[][],
                                 float input2[][],
                                 float input3[][],
                                 float modulus,
                                 float mod,
                                 float offset,
                                 float length,
                                 float lengthmodmodulus,
                                 float oldoutput<>,
                                 out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               offset,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==0||whichmod==modulus) {
            output=input0[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else if (whichmod==2) {
            output=input2[newindex];
         }else if (whichmod==3) {
            output=input3[newindex];
         }else {
            output=oldoutput;
         }
      }
      kernel void streamCombine5f(float input0[][],
                                  float input1[][],
                                  float input2[][],
                                  float input3[][],
                                  float input4[][],
                                  float modulus,
                                 float mod,
                                  float length,
                                  float lengthmodmodulus,
                                  out float output <>) {
         float2 newindex;
         float whichmod;
         calculateDividedIndex(indexof(output), modulus, length, newindex);
         calculateIndexModulus(indexof(output),
                               modulus, mod,
                               -0.5f,
                               lengthmodmodulus,
                               whichmod);
         if (whichmod==4) {
            output=input4[newindex];
         }else if (whichmod==1) {
            output=input1[newindex];
         }else if (whichmod==2) {
            output=input2[newindex];
         }else if (whichmod==3) {
           output=input3[newindex];
         }else {
           output=input0[newindex];
         }
      }
      reduce void valueProduced (float input <>, reduce float output<>) {
         output=isinf(input)?output:input;
      }
      kernel void isFiniteKernel(float inp<>, out float outp<>) {
      	outp=!isinf(inp);
      }
      kernel void getIndexAt(float4 inputindex,
                             float shiftRight,
                             float2 maxvalue,
                             out float2 outputindex<>) {
         float2 index;
         index.x=inputindex.x+shiftRight;
         index.y=inputindex.y+floor(index.x/maxvalue.x);
         index.x=fmod(index.x,maxvalue.x);
         if (index.x<0)
            index.x+=maxvalue.x;//only necessary if shiftRight<0
         outputindex=index;
         //   printf(maxvalue.x,maxvalue.y,outputindex.x,outputindex.y);
      }
      kernel void valueAt(float value[][],
                          float2 index,
                          out float output<>,
                          float2 maxvalue,
                          float nothing) {
         if (index.y>=maxvalue.y||index.y<0)
            output = nothing;
         else
            output = value[index];
      }
      kernel void NanToBoolRight (float value[][],
                                  out float output<>,
                                  float sign,
                                  float2 maxvalue) {
         float2 nextPlaceToLook;
         float neighbor;
         getIndexAt(indexof(output),sign,maxvalue,nextPlaceToLook);
         valueAt(value,nextPlaceToLook,neighbor,maxvalue,0);
         output = (isinf(value[indexof(output)])?1:0) + (isinf(neighbor)?1:0);
      }
      kernel void NanToRight (float value [][],
                              out float output<>,
                              float twotoi,
                              float2 maxvalue) {
         float2 nextPlaceToLook;
         float neighbor;
         getIndexAt(indexof(output),twotoi,maxvalue,nextPlaceToLook);
         valueAt(value,nextPlaceToLook,neighbor,maxvalue,0);
         output = value[indexof(output)]+neighbor;
      }
      kernel void GatherGuess(float scatterindex[][],
                              out float output<>,
                              float value[][],
                              float twotologkminusi,
                              float2 maxvalue,
                              float halfk,
                              float sign) {
           float neighbor;
            float2 nextPlaceToLook;
            getIndexAt(indexof(output),-sign*halfk,maxvalue,nextPlaceToLook);
            valueAt(scatterindex,nextPlaceToLook,neighbor,maxvalue,0);
            if (neighbor>halfk) {
               output=halfk+twotologkminusi;
            }else {
               float actualValue;
               valueAt(value,nextPlaceToLook,actualValue,maxvalue,0);
               if (neighbor==halfk&&!isinf(actualValue)) {
                  output=halfk;
               }else {
                  output = halfk-twotologkminusi;
               }
            }
      }
      kernel void EstablishGuess(float scatterindex[][],
                                 out float output<>,
                                 float value[][],
                                 float twotologkminusi,
                                 float2 maxvalue,
                                 float halfk,
                                 float sign) {
         if (scatterindex[indexof(output)]==0) {
            output=0;
         } else {
            GatherGuess(scatterindex,
                        output,
                        value,
                        twotologkminusi,
                        maxvalue,
                        halfk,
                        sign);
          }
      }
      kernel void UpdateGuess(float scatterindex[][],
                              out float output<>,
                              float value[][],
                              float twotologkminusi,
                              float2 maxvalue,
                              float lastguess<>,
                              float sign) {
         GatherGuess(scatterindex,
                     output,
                     value,
                     twotologkminusi,
                     maxvalue,
                     lastguess,
                     sign);
      }
      kernel void RelativeGather(out float output<>,
                                 float gatherindex[][],
                                 float value[][],
                                 float2 sign,
                                 float2 maxvalue) {
         float2 nextPlaceToLook;
         getIndexAt(indexof(output),
                    -sign.x*gatherindex[indexof(output)],
                    maxvalue,
                    nextPlaceToLook);
         valueAt(value,nextPlaceToLook,output,maxvalue,sign.y);
      }
      kernel void kernelReadItem (float items[][], float2 index, out float item<>) {
        item = items[index];
      }
      kernel void combine (float input1[][],
                           float input2[][],
                           out float output<>,
                           float2 startsecond,
                           float2 endsecond,
                           float2 maxinput2value,
                           float inf){
         //   getIndexAt(float4(maxinputvalue.x,maxinputvalue.y-1,0,0),
         //              -shift1,
         //              maxinput1value,
         //              startsecond);//moved outside kernel
         if ((indexof(output)).y>startsecond.y
             ||((indexof(output)).y==startsecond.y
                &&(indexof(output)).x>=startsecond.x)) {
            float2 secondindex;
            getIndexAt(float4((indexof(output)).x,
                              (indexof(output)).y-startsecond.y,
                              0,
                              0),
                       -startsecond.x,
                       maxinput2value,
                       secondindex);
            //getIndexAt(float4(maxinputvalue.x,maxinputvalue.y-1,0,0),
            //           -shift2,
            //           maxinput1value,
            //           endsecond); // moved outside kernel
            if (secondindex.y>endsecond.y
                ||(secondindex.y==endsecond.y
                   &&secondindex.x>=endsecond.x)) {
               output=inf;
            }else {
               output = input2[secondindex];
            }
         }else {
            output=input1[indexof(output)];
         }
      }`;
    const { streamCombine1, streamCombine2f, streamCombine2, streamCombine3f, streamCombine3, streamCombine4f, streamCombine4, streamCombine5f } = K;
    const { valueProduced, isFiniteKernel, NanToBoolRight, NanToRight, EstablishGuess, UpdateGuess, RelativeGather, kernelReadItem, combine } = K;
    type Box = { s: Stream }; // float (*stream)<>
    const out = new Out();
    const printf = (format: string, ...args: (number | string)[]) => out.printf(format, ...args);
    const streamPrint = (s: Stream) => out.streamPrint(s);
    let stderr = '';

    // ---- vout.br's host functions
    const debug_vout = 0;
    const debugStreamPrint = (stream: Stream, title: string) => {
      if (debug_vout) {
        printf('%s\n', title);
        streamPrint(stream);
        printf('\n\n');
      }
    };
    const MAX_VOUT_STREAMS = 31;
    const combineStreamsHelper = (streams: Stream[], num: number, output: Stream, modulus: number, offset: number, length: number, lengthmodmodulus: number): void => {
      switch (num) {
        case 1:
          ctx.run(streamCombine1!, { input0: streams[0]!, modulus, mod: modulus, offset, length, lengthmodmodulus, oldoutput: output, output });
          break;
        case 2:
          ctx.run(streamCombine2!, { input0: streams[0]!, input1: streams[1]!, modulus, mod: modulus, offset, length, lengthmodmodulus, oldoutput: output, output });
          break;
        case 3:
          ctx.run(streamCombine3!, { input0: streams[0]!, input1: streams[1]!, input2: streams[2]!, modulus, mod: modulus, offset, length, lengthmodmodulus, oldoutput: output, output });
          break;
        case 4:
        default:
          ctx.run(streamCombine4!, { input0: streams[0]!, input1: streams[1]!, input2: streams[2]!, input3: streams[3]!, modulus, mod: modulus, offset, length, lengthmodmodulus, oldoutput: output, output });
          if (num > 4) {
            combineStreamsHelper(streams.slice(4), num - 4, output, modulus, 4 + offset, length, lengthmodmodulus);
          }
      }
    };
    const combineStreams = (streams: Stream[], num: number, width: number, length: number, output: Box): void => {
      const lengthmodmodulus = length % num;
      let tmp = decl(ctx, `float tmp<${num * width},${length}>`);
      [tmp, output.s] = [output.s, tmp]; // streamSwap(tmp,*output);
      switch (num) {
        case 0:
          tmp.dispose();
          return;
        case 1:
          [output.s, streams[0]] = [streams[0]!, output.s]; // streamSwap(*output,streams[0]);
          break;
        case 2:
          ctx.run(streamCombine2f!, { input0: streams[0]!, input1: streams[1]!, modulus: num, mod: num, length, lengthmodmodulus, output: output.s });
          break;
        case 3:
          ctx.run(streamCombine3f!, { input0: streams[0]!, input1: streams[1]!, input2: streams[2]!, modulus: num, mod: num, length, lengthmodmodulus, output: output.s });
          break;
        case 4:
          ctx.run(streamCombine4f!, { input0: streams[0]!, input1: streams[1]!, input2: streams[2]!, input3: streams[3]!, modulus: num, mod: num, length, lengthmodmodulus, output: output.s });
          break;
        case 5:
        default:
          ctx.run(streamCombine5f!, { input0: streams[0]!, input1: streams[1]!, input2: streams[2]!, input3: streams[3]!, input4: streams[4]!, modulus: num, mod: num, length, lengthmodmodulus, output: output.s });
          if (num > MAX_VOUT_STREAMS) {
            stderr += cprintf('vout stream not reconstituted properly. %s%d streams', 'Too little precision for more than ', MAX_VOUT_STREAMS);
          }
          if (num > 5) {
            combineStreamsHelper(streams.slice(5), num - 5, output.s, num, 5 - 0.5, length, lengthmodmodulus);
          }
          break;
      }
      tmp.dispose(); // tmp goes out of scope
    };
    const cpuGetIndexAt = (inputindex: number[], shiftRight: number, maxvalue: number[], index: number[]): void => {
      index[0] = float32(inputindex[0]! + shiftRight);
      index[1] = float32(inputindex[1]! + Math.floor(index[0] / maxvalue[0]!));
      index[0] = float32(index[0] % maxvalue[0]!); // C's fmod: JavaScript's % (the sign of the dividend)
      if (index[0] < 0) index[0] = float32(index[0] + maxvalue[0]!); // only necessary if shiftRight<0
    };
    const finiteValueProduced = (input: Stream): number => {
      const output = decl(ctx, 'float output<1,1>');
      const finiteout = decl(ctx, 'float finiteout<1,1>');
      const ret = new Float32Array(1);
      ctx.run(valueProduced!, { input, output });
      ctx.run(isFiniteKernel!, { inp: output, outp: finiteout });
      streamWrite(finiteout, ret);
      [output, finiteout].forEach((s) => s.dispose());
      return Math.trunc(ret[0]!);
    };
    const toui = (x: number) => Math.trunc(x) >>> 0;
    const shiftValues = (list_stream: Stream, output_stream: Box, WIDTH: number, LENGTH: number, sign: number): number => {
      const tmp_stream = decl(ctx, `float tmp_stream<${WIDTH},${LENGTH}>`);
      const ret_stream = decl(ctx, `float ret_stream<${WIDTH},${LENGTH}>`);
      const guess_stream = decl(ctx, `float guess_stream<${WIDTH},${LENGTH}>`);
      let i: number;
      const maxvalue = [LENGTH, WIDTH]; // maxvalue.x=LENGTH;maxvalue.y=WIDTH;
      const maxshift = Float32Array.from([999]);
      // log((float)LENGTH*WIDTH)/log(2.0f): 5 and 6 for 32 and 34 records, in float as in double
      const logN = Math.ceil(Math.log(LENGTH * WIDTH) / Math.log(2.0)) >>> 0;
      ctx.run(NanToBoolRight!, { value: list_stream, output: ret_stream, sign, maxvalue });
      for (i = 1; i < logN; ++i) {
        if (i % 2) ctx.run(NanToRight!, { value: ret_stream, output: tmp_stream, twotoi: sign * (1 << i), maxvalue });
        else ctx.run(NanToRight!, { value: tmp_stream, output: ret_stream, twotoi: sign * (1 << i), maxvalue });
      }
      debugStreamPrint(logN % 2 === 0 ? tmp_stream : ret_stream, 'scattering...');
      {
        const item = decl(ctx, 'float item<1>');
        const index = [0, 0];
        if (sign === -1) {
          index[1] = WIDTH - 1;
          index[0] = LENGTH - 1;
        } else {
          index[1] = index[0] = 0;
        }
        ctx.run(kernelReadItem!, { items: logN % 2 === 0 ? tmp_stream : ret_stream, index, item });
        streamWrite(item, maxshift);
        item.dispose();
      }
      let LogNMinusK = logN - 2;
      i = logN - 1; // could make this k! rather than N
      ctx.run(EstablishGuess!, {
        scatterindex: logN % 2 === 0 ? tmp_stream : ret_stream,
        output: guess_stream,
        value: list_stream,
        twotologkminusi: 1 << LogNMinusK,
        maxvalue,
        halfk: 1 << i,
        sign,
      });
      for (i = 1; i < logN; ++i) {
        LogNMinusK = logN - 1 - i;
        if (i % 2) {
          ctx.run(UpdateGuess!, {
            scatterindex: logN % 2 === 0 ? tmp_stream : ret_stream, // scatter values
            output: logN % 2 === 0 ? ret_stream : tmp_stream, // new guess
            value: list_stream, // actual values
            twotologkminusi: 1 << LogNMinusK,
            maxvalue,
            lastguess: guess_stream, // old guess
            sign,
          });
        } else {
          ctx.run(UpdateGuess!, {
            scatterindex: logN % 2 === 0 ? tmp_stream : ret_stream, // scatter values
            output: guess_stream, // new guess
            value: list_stream, // actual values
            twotologkminusi: 1 << LogNMinusK,
            maxvalue,
            lastguess: logN % 2 === 0 ? ret_stream : tmp_stream, // old guess
            sign,
          });
        }
      }
      debugStreamPrint(logN % 2 === 0 ? ret_stream : guess_stream, 'Gather Value');
      {
        const size = (LENGTH * WIDTH - toui(maxshift[0]!)) >>> 0;
        const width = Math.floor(size / LENGTH) + (size % LENGTH ? 1 : 0);
        let proper_output_stream = decl(ctx, `float proper_output_stream<${width},${LENGTH}>`);
        ctx.run(RelativeGather!, { output: proper_output_stream, gatherindex: logN % 2 === 0 ? ret_stream : guess_stream, value: list_stream, sign: [sign, 31337.0], maxvalue });
        [output_stream.s, proper_output_stream] = [proper_output_stream, output_stream.s]; // streamSwap(*output_stream,proper_output_stream);
        debugStreamPrint(output_stream.s, 'Final Value');
        proper_output_stream.dispose();
      }
      [tmp_stream, ret_stream, guess_stream].forEach((s) => s.dispose());
      return maxshift[0]!;
    };
    const voutCombine = (
      outleft_stream: Stream, maxshiftleft: number, LEFTWIDTH: number,
      outright_stream: Stream, maxshiftright: number, RIGHTWIDTH: number,
      LENGTH: number, output: Box,
    ): number => {
      const maxleftvalue = [LENGTH, LEFTWIDTH];
      const maxrightvalue = [LENGTH, RIGHTWIDTH];
      const totalsize = (LEFTWIDTH * LENGTH + RIGHTWIDTH * LENGTH - toui(maxshiftleft) - toui(maxshiftright)) >>> 0;
      {
        const length = LENGTH;
        const width = Math.floor(totalsize / length) + (totalsize % length !== 0 ? 1 : 0);
        let output_stream = decl(ctx, `float output_stream<${width},${length}>`);
        const startsecond = [0, 0], endsecond = [0, 0];
        cpuGetIndexAt([maxleftvalue[0]!, maxleftvalue[1]! - 1], -maxshiftleft, maxleftvalue, startsecond);
        cpuGetIndexAt([maxrightvalue[0]!, maxrightvalue[1]! - 1], -maxshiftright, maxrightvalue, endsecond);
        ctx.run(combine!, { input1: outleft_stream, input2: outright_stream, output: output_stream, startsecond, endsecond, maxinput2value: maxrightvalue, inf: 31337.0 });
        [output.s, output_stream] = [output_stream, output.s]; // streamSwap (*output,output_stream);
        output_stream.dispose();
      }
      return totalsize;
    };
    const totalCombineVout = (list_stream: Stream, WIDTH: number, list2_stream: Stream, WIDTH2: number, LENGTH: number, output: Box): number => {
      const outleft_stream = { s: decl(ctx, `float outleft_stream<${WIDTH},${LENGTH}>`) };
      const outright_stream = { s: decl(ctx, `float outright_stream<${WIDTH2},${LENGTH}>`) };
      const maxshiftleft = shiftValues(list_stream, outleft_stream, WIDTH, LENGTH, -1);
      const maxshiftright = shiftValues(list2_stream, outright_stream, WIDTH2, LENGTH, -1);
      const total = voutCombine(outleft_stream.s, maxshiftleft, WIDTH, outright_stream.s, maxshiftright, WIDTH2, LENGTH, output);
      [outleft_stream.s, outright_stream.s].forEach((s) => s.dispose());
      return total;
    };

    // ---- test.br
    const myglobalnum = 16;
    const myrand = (seed: { v: number }): number => {
      const rand_max = 1509281;
      seed.v = ((seed.v + 26129327) >>> 0) % rand_max; // unsigned int: the sum wraps at 2^32
      if (seed.v < Math.floor(rand_max / 5) * 2) return 0.5;
      else if (seed.v < Math.floor(rand_max / 2)) return 1;
      else if (seed.v < Math.floor(rand_max / 4) * 3) return 1.0 / Math.floor(float32(float32(seed.v) / float32(rand_max))); // 1/0: +inf
      else if (seed.v < Math.floor(rand_max / 11) * 10) return 0.25;
      else return 4;
    };
    const combineStreamsTest = (streams: Stream[] | null): void => {
      const mylength = 3;
      let i = 0;
      const mywidth = 7;
      const mynum = myglobalnum;
      const output = { s: decl(ctx, 'float output<1,1>') };
      const [a, b, c, d, e, f, g, h] = 'abcdefgh'.split('').map((n) => decl(ctx, `float ${n}<${mywidth},${mylength}>`));
      const [a1, b1, c1, d1, e1, f1, g1, h1] = 'abcdefgh'.split('').map((n) => decl(ctx, `float ${n}1<${mywidth},${mylength}>`));
      const list = new Float32Array(mywidth * mylength * 8);
      const lust = new Float32Array(mywidth * mylength * 8);
      const n = mywidth * mylength; // streamRead reads the first mywidth*mylength floats
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i;
        lust[i] = -list[i]!;
      }
      streamRead(a!, list.subarray(0, n));
      streamRead(a1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 2; lust[i] = -list[i]!;
      }
      streamRead(b!, list.subarray(0, n));
      streamRead(b1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 3; lust[i] = -list[i]!;
      }
      streamRead(c!, list.subarray(0, n));
      streamRead(c1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 4; lust[i] = -list[i]!;
      }
      streamRead(d!, list.subarray(0, n));
      streamRead(d1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 5; lust[i] = -list[i]!;
      }
      streamRead(e!, list.subarray(0, n));
      streamRead(e1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 6; lust[i] = -list[i]!;
      }
      streamRead(f!, list.subarray(0, n));
      streamRead(f1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 7; lust[i] = -list[i]!;
      }
      streamRead(g!, list.subarray(0, n));
      streamRead(g1!, lust.subarray(0, n));
      for (i = 0; i < mylength * mywidth; ++i) {
        list[i] = i * 8; lust[i] = -list[i]!;
      }
      streamRead(h!, list.subarray(0, n));
      streamRead(h1!, lust.subarray(0, n));
      {
        streams = [a!, b!, c!, d!, e!, f!, g!, h!, a1!, b1!, c1!, d1!, e1!, f1!, g1!, h1!]; // STREAMALLOC(25), 16 memcpys
        combineStreams(streams, mynum, mywidth, mylength, output);
        streams = null; // brfree(streams);
      }
      streamPrint(output.s);
      printf('\n');
      [output.s, a!, b!, c!, d!, e!, f!, g!, h!, a1!, b1!, c1!, d1!, e1!, f1!, g1!, h1!].forEach((s) => s.dispose());
    };

    // main(), run without arguments as the gold was printed (argc is 1)
    const [WIDTH, WIDTH2, LENGTH] = [16, 17, 2];
    let i: number;
    const seed = { v: 0 };
    let maxshiftleft = 0, maxshiftright = 0;
    const list_stream = decl(ctx, `float list_stream <${WIDTH},${LENGTH}>`);
    const list2_stream = decl(ctx, `float list2_stream<${WIDTH2},${LENGTH}>`);
    const outleft_stream = { s: decl(ctx, `float outleft_stream<${WIDTH},${LENGTH}>`) };
    const outright_stream = { s: decl(ctx, `float outright_stream<${WIDTH2},${LENGTH}>`) };
    const output_stream = { s: decl(ctx, 'float output_stream <1,1>') };
    const list = new Float32Array(WIDTH * LENGTH + WIDTH2 * LENGTH);
    seed.v = (2147483647 * 2 + 1) >>> 0;
    for (i = 0; i < LENGTH * WIDTH; i++) {
      list[i] = myrand(seed);
    }
    streamRead(list_stream, list.subarray(0, LENGTH * WIDTH));
    printf('First Stream\n');
    streamPrint(list_stream);
    for (i = 0; i < LENGTH * WIDTH2; i++) {
      list[i] = i + myrand(seed);
      if (i % 5 === 0) list[i] = 1 / Math.floor(0.5);
    }
    streamRead(list2_stream, list.subarray(0, LENGTH * WIDTH2));
    if (debug_vout) printf('\nFINITE %g %g\n', finiteValueProduced(list_stream), finiteValueProduced(list2_stream));
    printf('\n\nSecond Stream\n');
    streamPrint(list2_stream);
    printf('\n\n');
    totalCombineVout(list_stream, WIDTH, list2_stream, WIDTH2, LENGTH, output_stream);
    printf('Cool\n');
    streamPrint(output_stream.s);
    printf('\n\n');
    maxshiftleft = shiftValues(list_stream, outleft_stream, WIDTH, LENGTH, -1);
    maxshiftright = shiftValues(list2_stream, outright_stream, WIDTH2, LENGTH, -1);
    voutCombine(outleft_stream.s, maxshiftleft, WIDTH, outright_stream.s, maxshiftright, WIDTH2, LENGTH, output_stream);
    printf('\nOutput\n');
    streamPrint(output_stream.s);
    printf('\n\n');
    combineStreamsTest(null);
    expect(stderr).to.equal('');
    expect(out.text).to.equal(GOLD.pack_vout);
    [list_stream, list2_stream, outleft_stream.s, outright_stream.s, output_stream.s].forEach((s) => s.dispose());
  });
});
