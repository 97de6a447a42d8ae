// BrookGPU's kernels and gold files quoted here are under its licence: test/brook/BROOKGPU-LICENSE.txt.
// BrookGPU 0.5's prog/tests programs that have no gold file (benchmarks, compiler stress tests and
// programs driven by their own C++ harness): each program's kernels, verbatim, compiled through the
// `brook` tag (no output to compare with). The split_testing drivers declare their kernels
// (prototypes) and the kernel files define them: both are given in one source here, as brookgl
// compiles one source at a time. tessellate's filter kernel declares an unbounded vout
// (vout [] float4 output<>), which BrookGPU ran pass after pass until no record was pushed
// (voutRun doubles its slots until no more records are kept; brook/vout runs one).
import { expect } from 'chai';
import { brook, parseBrook } from '../../src/index';

/** The kernels a source compiled to: every one named, each with a GLSL body. */
function expectKernels(kernels: Record<string, { body: string }>, names: string[]): void {
  expect(Object.keys(kernels)).to.deep.equal(names);
  for (const name of names) expect(kernels[name]!.body.trim(), name).to.not.equal('');
}

describe('brook/BrookGPU 0.5 prog/tests without gold files: their kernels compile through the brook tag', () => {
  it('big (big/big.br: a 4D gather at a brace-initialised float4 index)', () => {
    const kernels = brook`
      kernel void copy( float a[][][][], out float b<> ) {
              float4 index = {(indexof b).x,0,0,0};
      	b = a[index];
      }`;
    expectKernels(kernels, ['copy']);
  });

  it('fractal (fractal/fractal.br: a Mandelbrot step called 40 times from a kernel, unrolled)', () => {
    const kernels = brook`
      kernel void mandelbrotIterate(
      	float4 x<>, float4 y<>,
      	float4 cx<>, float4 cy<>,
      	out float4 outX<>, out float4 outY<> )
      {
      	outX = x*x - y*y + cx;
      	outY = 2*x*y + cy;
      }
      kernel void mandelbrot( float4 cx<>, float4 cy<>, out float4 outInside<> )
      {
      	float4 x = cx;
      	float4 y = cy;

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 0
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 1
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 2
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 3
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 4
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 5
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 6
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 7
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 8
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 9

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 10
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 11
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 12
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 13
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 14
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 15
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 16
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 17
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 18
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 19

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 20
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 21
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 22
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 23
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 24
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 25
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 26
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 27
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 28
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 29

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 30
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 31
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 32
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 33
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 34
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 35
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 36
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 37
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 38
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 39

      	outInside = (x*x + y*y) < 4;

      }`;
    expectKernels(kernels, ['mandelbrotIterate', 'mandelbrot']);
  });

  it('gflops (gflops/gflops.br: multiply-adds over float..float4, a benchmark)', () => {
    const kernels = brook`
      kernel void gflop( float a<>, out float c<> ) {
        c = a;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
      }
      kernel void gflop2( float2 a<>, out float2 c<> ) {
        c = a;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
      }
      kernel void gflop3( float3 a<>, out float3 c<> ) {
        c = a;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
      }
      kernel void gflop4( float4 a<>, out float4 c<> ) {
        c = a;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
        c += a*c;
      }`;
    expectKernels(kernels, ['gflop', 'gflop2', 'gflop3', 'gflop4']);
  });

  it('streamcopy (streamcopy/streamcopy.br: a float4 copy, a benchmark)', () => {
    const kernels = brook`
      kernel void copyKernel(float4 src<>, out float4 dst<>) {
        dst = src;
      }`;
    expectKernels(kernels, ['copyKernel']);
  });

  it('streamcopyGLES (streamcopyGLES/streamcopy.br: the copy benchmark on float streams)', () => {
    const kernels = brook`
      kernel void copyKernel(float src<>, out float dst<>) {
        dst = src;
      }`;
    expectKernels(kernels, ['copyKernel']);
  });

  it('realloc (realloc/reallocstream.br: a constant written to a stream, driven by a C++ harness)', () => {
    const kernels = brook`
      kernel void setit( float a, out float b<> ) {
       b = a;
      }`;
    expectKernels(kernels, ['setit']);
  });

  it('split_testing/particle_cloth (split_testing/particle_cloth.br: a cloth step: float3 gathers, kernels calling kernels, two outputs)', () => {
    const kernels = brook`
      kernel void getNeighborForce(
      	float3 inPosition<>,
      	float3 inVelocity<>,
      	float3 inPositions[][],
      	float3 inVelocities[][],
      	float2 inIndex<>,
      	float2 inOffset<>,
      	float2 inMaxIndex<>,
      	float inSpringConstant,
      	float inDampingConstant,
      	float inRestLength,
      	out float3 outForce<> )
      {
      	float2 otherIndex = inIndex + inOffset;
      	float2 minIndex;
      	float2 inRange2;
      	float inRange;
      	float3 otherPosition;
      	float3 otherVelocity;
      	float3 relativePosition;
      	float3 relativeVelocity;
      	float length;
      	float3 springAxis;
      	float perturbation;
      	float velocityInSpring;
      	float strength;
      	float3 zero;
      	zero = float3(0,0,0);

      	minIndex = float2(0,0);

      	inRange2 = (otherIndex >= minIndex) && (otherIndex < inMaxIndex);
      	inRange = inRange2.x && inRange2.y;

      	otherPosition = inPositions[ otherIndex ];
      	otherVelocity = inVelocities[ otherIndex ];

      	relativePosition = inPosition - otherPosition;
      	relativeVelocity = inVelocity - otherVelocity;

      	length = sqrt( dot( relativePosition, relativePosition ) );

      	springAxis = relativePosition / length;
      	perturbation = length - inRestLength;

      	velocityInSpring = dot( springAxis, relativeVelocity );

      	strength = inSpringConstant*perturbation + inDampingConstant*velocityInSpring;
      	outForce = inRange ? ( strength * springAxis ) : zero;
      }
      kernel void integrateParticles(
      	float3 inPosition<>,
      	float3 inVelocity<>,
      	float inIsStatic<>,
      	float inDeltaTime,
      	float3 inForce,
      	float3 inGravity,
      	out float3 outPosition<>,
      	out float3 outVelocity<> )
      {
      	float3 zero;
      	float3 acceleration;

      	float3 impulse;

      	zero = 0;
      	acceleration = inIsStatic ? zero : ( inForce + inGravity );
      	impulse = inDeltaTime*acceleration;

      	outPosition = inPosition + inDeltaTime*(inVelocity + 0.5*impulse);
      	outVelocity = inVelocity + impulse;
      }
      kernel void advanceParticles(
      	iter float2 inIndex<>,
      	float3 inPosition<>,
      	float3 inVelocity<>,
      	float inIsStatic<>,
      	float3 inPositions[][],
      	float3 inVelocities[][],
      	float inDeltaTime,
      	float3 inGravity,
      	out float3 outPosition<>,
      	out float3 outVelocity<> )
      {
      	float3 forceSum;
      	float3 force;

      	forceSum = float3(0,0,0);

      	// sum neighbor forces

      	// direct neighbors
      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(-1,0), float2( 1024, 1024 ),
      		0.1, 0.2, 1.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(0,1), float2( 1024, 1024 ),
      		0.1, 0.2, 1.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(1,0), float2( 1024, 1024 ),
      		0.1, 0.2, 1.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(0,-1), float2( 1024, 1024 ),
      		0.1, 0.2, 1.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	// 2-away neighbors
      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(-2,0), float2( 1024, 1024 ),
      		0.01, 0.02, 2.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(0,2), float2( 1024, 1024 ),
      		0.01, 0.02, 2.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(2,0), float2( 1024, 1024 ),
      		0.01, 0.02, 2.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	getNeighborForce( inPosition, inVelocity,
      		inPositions, inVelocities,
      		inIndex, float2(0,-2), float2( 1024, 1024 ),
      		0.01, 0.02, 2.0 / 1024.0,
      		force );
      	forceSum = forceSum + force;

      	// integrate
      	integrateParticles( inPosition, inVelocity, inIsStatic, inDeltaTime, forceSum, inGravity, outPosition, outVelocity );
      }`;
    expectKernels(kernels, ['getNeighborForce', 'integrateParticles', 'advanceParticles']);
  });

  it('toy/toomuchcode (toy/toomuchcode.br: a long expression with a 10x10 gather and a return)', () => {
    const kernels = brook`
      kernel void foo (float a<>, float b<>, float4 c,
      		 float d[10][10], out float e<>) {
        float t;
        float4 f;
        t = a+b*c.x+c.y*c.z+a*c.x+c.y*dot(c.yy,a.xx);
        t*=c.x+d[c];
        t*=c.y+d[c+1];
        t*=c.z+d[c+2];
        t*=c.w+d[c+3];
        t*=c.y+c.x;
        t*=a+b;
        t*=d[c]+a;
        t/=a*b+c;
        f=t*t*(t+b);
        f.zyxw=f/b+a;
        f+= f*cos(t+a);
        f*=sin(a+t+b)+3;
        e=dot(f,f);
        return;//just to foul up DX and NV30
      }`;
    expectKernels(kernels, ['foo']);
  });

  it('split_testing/fractal (split_testing/fractal_test.br declaring mandelbrot, fractal.br defining it: a loop to split)', () => {
    const kernels = brook`
      kernel void mandelbrot( float4 cx<>, float4 cy<>, out float4 outInside<> );
      kernel void mandelbrotIterate(
      	float4 x<>, float4 y<>,
      	float4 cx<>, float4 cy<>,
      	out float4 outX<>, out float4 outY<> )
      {
      	float4 tx = x*x - y*y + cx;
      	float4 ty = 2*x*y + cy;
      	outX = tx;
      	outY = ty;
      }
      kernel void mandelbrot( float4 cx<>, float4 cy<>, out float4 outInside<> )
      {
      	float4 x = cx;
      	float4 y = cy;

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 0
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 1
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 2
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 3
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 4
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 5
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 6
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 7
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 8
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 9

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 10
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 11
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 12
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 13
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 14
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 15
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 16
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 17
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 18
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 19

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 20
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 21
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 22
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 23
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 24
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 25
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 26
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 27
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 28
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 29

      	mandelbrotIterate( x, y, cx, cy, x, y ); // 30
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 31
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 32
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 33
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 34
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 35
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 36
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 37
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 38
      	mandelbrotIterate( x, y, cx, cy, x, y ); // 39

      	outInside = (x*x + y*y) < 4;

      }`;
    expectKernels(kernels, ['mandelbrotIterate', 'mandelbrot']);
  });

  it('split_testing/matmult (split_testing/matmult_test.br declaring matmult8, matmult.br defining it: 16 outputs)', () => {
    const kernels = brook`
      kernel void matmult8(
      	float4 ax0<>, float4 ax1<>, float4 ax2<>, float4 ax3<>,
      	float4 ay0<>, float4 ay1<>, float4 ay2<>, float4 ay3<>,
      	float4 az0<>, float4 az1<>, float4 az2<>, float4 az3<>,
      	float4 aw0<>, float4 aw1<>, float4 aw2<>, float4 aw3<>,

      	float4 bx0<>, float4 bx1<>, float4 bx2<>, float4 bx3<>,
      	float4 by0<>, float4 by1<>, float4 by2<>, float4 by3<>,
      	float4 bz0<>, float4 bz1<>, float4 bz2<>, float4 bz3<>,
      	float4 bw0<>, float4 bw1<>, float4 bw2<>, float4 bw3<>,

      	out float4 cx0<>, out float4 cx1<>, out float4 cx2<>, out float4 cx3<>,
      	out float4 cy0<>, out float4 cy1<>, out float4 cy2<>, out float4 cy3<>,
      	out float4 cz0<>, out float4 cz1<>, out float4 cz2<>, out float4 cz3<>,
      	out float4 cw0<>, out float4 cw1<>, out float4 cw2<>, out float4 cw3<>
      	);
      kernel void matmult4_pretransposed(
      	float4 a0,
      	float4 a1,
      	float4 a2,
      	float4 a3,
      	float4 b0,
      	float4 b1,
      	float4 b2,
      	float4 b3,
      	out float4 c0<>,
      	out float4 c1<>,
      	out float4 c2<>,
      	out float4 c3<>
      	)
      {
      	c0 = float4( dot( a0, b0 ), dot( a0, b1 ), dot( a0, b2 ), dot( a0, b3 ) );
      	c1 = float4( dot( a1, b0 ), dot( a1, b1 ), dot( a1, b2 ), dot( a1, b3 ) );
      	c2 = float4( dot( a2, b0 ), dot( a2, b1 ), dot( a2, b2 ), dot( a2, b3 ) );
      	c3 = float4( dot( a3, b0 ), dot( a3, b1 ), dot( a3, b2 ), dot( a3, b3 ) );
      }
      kernel void transpose4( float4 x0, float4 x1, float4 x2, float4 x3,
      	out float4 y0<>, out float4 y1<>, out float4 y2<>, out float4 y3<> )
      {
      	y0 = float4( x0.x, x1.x, x2.x, x3.x );
      	y1 = float4( x0.y, x1.y, x2.y, x3.y );
      	y2 = float4( x0.z, x1.z, x2.z, x3.z );
      	y3 = float4( x0.w, x1.w, x2.w, x3.w );
      }
      kernel void matmult8(
      	float4 ax0<>, float4 ax1<>, float4 ax2<>, float4 ax3<>,
      	float4 ay0<>, float4 ay1<>, float4 ay2<>, float4 ay3<>,
      	float4 az0<>, float4 az1<>, float4 az2<>, float4 az3<>,
      	float4 aw0<>, float4 aw1<>, float4 aw2<>, float4 aw3<>,

      	float4 bx0<>, float4 bx1<>, float4 bx2<>, float4 bx3<>,
      	float4 by0<>, float4 by1<>, float4 by2<>, float4 by3<>,
      	float4 bz0<>, float4 bz1<>, float4 bz2<>, float4 bz3<>,
      	float4 bw0<>, float4 bw1<>, float4 bw2<>, float4 bw3<>,

      	out float4 cx0<>, out float4 cx1<>, out float4 cx2<>, out float4 cx3<>,
      	out float4 cy0<>, out float4 cy1<>, out float4 cy2<>, out float4 cy3<>,
      	out float4 cz0<>, out float4 cz1<>, out float4 cz2<>, out float4 cz3<>,
      	out float4 cw0<>, out float4 cw1<>, out float4 cw2<>, out float4 cw3<>
      	)
      {
      	float4 tx0, tx1, tx2, tx3,
      		ty0, ty1, ty2, ty3,
      		tz0, tz1, tz2, tz3,
      		tw0, tw1, tw2, tw3;

      	/*
      	float4 dx0, dx1, dx2, dx3,
      		dy0, dy1, dy2, dy3,
      		dz0, dz1, dz2, dz3,
      		dw0, dw1, dw2, dw3;*/

      	float4 e0, e1, e2, e3;

      	transpose4( bx0, bx1, bx2, bx3, tx0, tx1, tx2, tx3 );
      	transpose4( by0, by1, by2, by3, ty0, ty1, ty2, ty3 );
      	transpose4( bz0, bz1, bz2, bz3, tz0, tz1, tz2, tz3 );
      	transpose4( bw0, bw1, bw2, bw3, tw0, tw1, tw2, tw3 );

      	// dx
      	matmult4_pretransposed( ax0, ax1, ax2, ax3, tx0, tx1, tx2, tx3, e0, e1, e2, e3 );
      	cx0 = e0; cx1 = e1; cx2 = e2; cx3 = e3;
      	matmult4_pretransposed( ay0, ay1, ay2, ay3, tz0, tz1, tz2, tz3, e0, e1, e2, e3 );
      	cx0 = cx0 + e0; cx1 = cx1 + e1; cx2 = cx2 + e2; cx3 = cx3 + e3;

      	// dy
      	matmult4_pretransposed( ax0, ax1, ax2, ax3, ty0, ty1, ty2, ty3, e0, e1, e2, e3 );
      	cy0 = e0; cy1 = e1; cy2 = e2; cy3 = e3;
      	matmult4_pretransposed( ay0, ay1, ay2, ay3, tw0, tw1, tw2, tw3, e0, e1, e2, e3 );
      	cy0 = cy0 + e0; cy1 = cy1 + e1; cy2 = cy2 + e2; cy3 = cy3 + e3;

      	// dz ...
      	matmult4_pretransposed( az0, az1, az2, az3, tx0, tx1, tx2, tx3, e0, e1, e2, e3 );
      	cz0 = e0; cz1 = e1; cz2 = e2; cz3 = e3;
      	matmult4_pretransposed( aw0, aw1, aw2, aw3, tz0, tz1, tz2, tz3, e0, e1, e2, e3 );
      	cz0 = cz0 + e0; cz1 = cz1 + e1; cz2 = cz2 + e2; cz3 = cz3 + e3;

      	// dw ...
      	matmult4_pretransposed( az0, az1, az2, az3, ty0, ty1, ty2, ty3, e0, e1, e2, e3 );
      	cw0 = e0; cw1 = e1; cw2 = e2; cw3 = e3;
      	matmult4_pretransposed( aw0, aw1, aw2, aw3, tw0, tw1, tw2, tw3, e0, e1, e2, e3 );
      	cw0 = cw0 + e0; cw1 = cw1 + e1; cw2 = cw2 + e2; cw3 = cw3 + e3;
      /*
      	cx0 = dx0; cx1 = dx1; cx2 = dx2; cx3 = dx3;
      	cy0 = dy0; cy1 = dy1; cy2 = dy2; cy3 = dy3;
      	cz0 = dz0; cz1 = dz1; cz2 = dz2; cz3 = dz3;
      	cw0 = dw0; cw1 = dw1; cw2 = dw2; cw3 = dw3;*/
      }`;
    expectKernels(kernels, ['matmult4_pretransposed', 'transpose4', 'matmult8']);
  });

  it('tessellate (tessellate.br: curves, tessellation by vout[4], a filter by an unbounded vout [])', () => {
    const TESSELLATE = String.raw`
      kernel void curve (float2 inp<>, out float height<>) {
        float2 input={512.0,512.0};
        input+=inp;
        height = input.x*input.x+input.y*input.y*input.y*input.y*input.x;
      }
      kernel void curve2 (float4 input<>, out float2 height<>) {
        float h1,h2;
        curve(input.xy,h1);curve(input.zw,h2);
        height.x=h1;height.y=h2;
      }
      kernel void evaluateError(float input<>, float actual <>, out float error<>) {
        error=abs((input-actual)/(actual+1));
      }
      kernel
      void shouldTessellate (float4 input <>, float toler, out float output<>) {
         float2 height;
         curve2 (input,height);
         {
            float3 bottomleft= {input.z,input.w,height.y};
            float3 topright = {input.x,input.y,height.x};
            float3 center = .5*topright+.5*bottomleft;//lerp (topright,
                            //      bottomleft,
                            //      float3(.5,.5,.5));
            float fheight,error;
            curve(center.xy,fheight);
            evaluateError(center.z,fheight,error);
            output= error>=toler;
            //printf(center.z,fheight,error,toler);
         }
      }
      kernel void shouldTessellateCheat(float4 input<>, float numerator,float denom, out float output<>) {
         float tmp = fmod((indexof output).x,denom);
         float infrez =isinf(input).x?0.0:1.0;
         if (tmp+.25>denom) tmp=0;

         output=(tmp+.25<numerator)?infrez:0.0;

      }
      kernel void TessellateCheat4(float4 inputA<>, float4 inputB<>, float4 inputC<>, float4 inputD<>,
                                  float toler,
                                  out float4 outputA<>, out float4 outputB<>, out float4 outputC<>, out float4 outputD<>) {
         float4 output;
         float shouldDivide;
         float4 input = inputA+inputB+inputC+inputD;
         float2 topleft = input.xy;
         float2 topright = input.zw;
         float2 center = .5*topleft+.5*topright;//lerp (topleft,topright,float2(.5,.5));
         shouldTessellate (input, toler, shouldDivide);
         if (shouldDivide) {
            output.xy = input.xy;
            output.zw = center;
         }else {
            output=input;
         }
         outputA=output;
         if (shouldDivide) {
           output.zw = center;
            output.xy = input.zw;
            outputB=output;
            output.xy = input.xw;
            outputC=output;
            output.xy = input.zy;
            outputD=output;
         }
      }
      kernel void TessellateCheat(float4 input<>,
                                  float toler,
                                  out float4 output<>) {
         float shouldDivide;
         float2 topleft = input.xy;
         float2 topright = input.zw;
         float2 center = .5*topleft+.5*topright;//lerp (topleft,topright,float2(.5,.5));
         shouldTessellate (input, toler, shouldDivide);
         if (shouldDivide) {
            output.xy = input.xy;
            output.zw = center;
         }else {
            output=input;
         }
         output=output;
         if (shouldDivide) {
           output.zw = center;
            output.xy = input.zw;
            output=output;
            output.xy = input.xw;
            output=output;
            output.xy = input.zy;
            output=output;
         }
      }
      kernel void Tessellate(float4 input<>, float shouldDivide<>, vout[4] float4 output<>) {
         float2 topleft = input.xy;
         float2 topright = input.zw;
         float2 center = .5*topleft+.5*topright;//lerp (topleft,topright,float2(.5,.5));
         if (shouldDivide) {
            output.xy = input.xy;
            output.zw = center;
         }else {
            output=input;
         }
         push(output);
         if (shouldDivide) {
           output.zw = center;
            output.xy = input.zw;
            push(output);
            output.xy = input.xw;
            push(output);
            output.xy = input.zy;
            push(output);
         }
      }
      kernel void filter(float4 a<>,vout [] float4 output<>) {
        if (round(fmod((indexof a).x,2.0f))==1.0f) {
          output=2.0f;
          push(output);
        }else {
          output=1.0f;
          push(output);
        }
        push(output);
      }`;
    expectKernels(parseBrook(TESSELLATE), ['curve', 'curve2', 'evaluateError', 'shouldTessellate', 'shouldTessellateCheat', 'TessellateCheat4', 'TessellateCheat', 'Tessellate', 'filter']);
    expect(parseBrook(TESSELLATE).filter!.brook!.vout!.most, 'vout []: no bound').to.equal(0);
  });
});
