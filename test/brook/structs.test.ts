// Conformance: streams of structs (typedef struct ... Name;), flattened into one texture per
// field, with struct inputs, gathers and outputs, and interleaved host write/read.
import { expect } from 'chai';
import { BrookContext, BrookError, brook, brookStructs, iter, structStream } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, onCpu, randomFloats } from '../helpers';

// Listing 36-3 of Horn, GPU Gems 2 ch. 36, as printed (with the traverser struct of section 36.2).
const LISTING_36_3 = `
typedef struct Tri_t {
  float3 A, B, C;
} Tri;

typedef struct bbox_t {
  float4 Rotationx; // The x axis of the bounding box coordinate system
                    // Rotationx.w -1 for left-handed coordinate system
 float3 Rotationy; // The y axis of the bounding box coordinate system
 // float3 Rotationz; // since Rotationx and Rotationy are orthogonal
                      // use cross(Rotationx,Rotationy)*Rotationx.w;
 float3 Translation;  // the bottom corner of the bounding box
 float4 Radius; // The dimensions of the bounding box
                // Radius.w holds bool whether this node is a leaf
 float2 Children;
 // if leaf, Children.xy is an index to the Triangle in the model
 // if node, Children.xy is an index to left child,
 //          Children.xy+float2(1,0) is right child
} BBox;

typedef struct traverser_t {
  float4 index; // index.xy is index into the first model
               // index.zw is index into the second model
 float3 Translation;
 float3 Rotationx;
 float3 Rotationy;
 float3 Rotationz;
} Traverser;
`;

// Listing 36-5, as printed.
const LISTING_36_5 = `
typedef struct STri_t{
   float4 A; // A.w indicates whether edge AB may stop subdivision
  float4 B; // B.w also indicates if BC may stop subdivision
  float4 C; // C.w tells if AC is small enough to stop subdividing
} STri;

// Stores the neighbors of a given triangle.
// The extra w component holds:
// a) whether respective edge may stop subdividing of triangle.
//    This could be altered to any per-edge qualifier.
// b) or for the intermediate triangle split, the recomputed
//    averaged neighbor list when a triangle is split
typedef struct Neighbor_t {
 float4 AB;  // AB.w = avg(AB,B).x
 float4 BBC; // BBC.w = avg(AB,B).y
 float4 ABB; // ABB.w = avg(AB,B).z
 float4 BC;  // BC.w = avg(BC,C).x
 float4 ACC; // ACC.w = avg(BC,C).y
 float4 BCC; // BCC.w = avg(BC,C).z
 float4 AC;  // AC.w = avg(AC,A).x
 float4 AAB; // AAB.w = avg(AC,A).y
 float4 AAC; // AAC.w = avg(AC,A).z
} Neighbor;
`;

describe('brook/structs', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('reads Listings 36-3 and 36-5 as printed', () => {
    const a = brookStructs`${LISTING_36_3}`;
    expect(Object.keys(a)).to.deep.equal(['Tri', 'BBox', 'Traverser']);
    expect(a.Tri!.fields.map((f) => `${f.type} ${f.name}`)).to.deep.equal(['float3 A', 'float3 B', 'float3 C']);
    expect(a.BBox!.fields.map((f) => f.name)).to.deep.equal(['Rotationx', 'Rotationy', 'Translation', 'Radius', 'Children']);
    expect(a.BBox!.components).to.equal(16);
    expect(a.Traverser!.components).to.equal(16);
    const b = brookStructs`${LISTING_36_5}`;
    expect(b.STri!.components).to.equal(12);
    expect(b.Neighbor!.fields).to.have.length(9);
    expect(b.Neighbor!.components).to.equal(36);
  });

  it('runs a kernel on Tri streams: struct input and output, interleaved write and read', async () => {
    const { translate } = brook`${LISTING_36_3}
      kernel void translate(Tri t<>, float3 d, out Tri moved<>) {
        moved.A = t.A + d;
        moved.B = t.B + d;
        moved.C = t.C - d;
      }`;
    expect(translate!.structs!.Tri!.components).to.equal(9);
    const n = 37;
    const data = randomFloats(n * 9, 5);
    const t = structStream(ctx, translate!.structs!.Tri!, n, data);
    const moved = structStream(ctx, translate!.structs!.Tri!, n);
    if (!onCpu(ctx)) expect(ctx.stats().textures).to.be.at.least(6); // a texture a field on a GPU (a CPU context has none)
    ctx.run(translate!, { t, d: [1, 2, 3], moved });
    const expected = data.map((x, i) => Math.fround(i % 9 < 6 ? x + [1, 2, 3][i % 3]! : x - [1, 2, 3][i % 3]!));
    expectArrayEqual(await moved.read(), expected, 'moved');
    expectArrayEqual(t.readSync(), data, 'write then read is the identity');
    [t, moved].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('gathers BBox records by a float2 index (Children.xy) and returns early', () => {
    const { children } = brook`${LISTING_36_3}
      kernel void children(float2 at<>, BBox boxes[][], out BBox child<>, out float leaf<>) {
        BBox b = boxes[at];
        leaf = b.Radius.w;
        if (b.Radius.w > 0.5) return;       // a leaf: its child stays zero
        child = boxes[b.Children];
        child.Translation = child.Translation + b.Translation;
      }`;
    const BBox = children!.structs!.BBox!;
    const [h, w] = [4, 8];
    const boxes = new Float32Array(h * w * 16);
    for (let i = 0; i < h * w; i++) {
      for (let k = 0; k < 16; k++) boxes[i * 16 + k] = i * 100 + k;
      boxes[i * 16 + 13] = i % 3 === 0 ? 1 : 0; // Radius.w: leaf
      boxes[i * 16 + 14] = (i * 5) % w; // Children.x (column)
      boxes[i * 16 + 15] = (i * 3) % h; // Children.y (row)
    }
    const at = Float32Array.from({ length: 20 * 2 }, (_, j) => (j % 2 === 0 ? (j * 7) % w : (j * 3) % h));
    const g = structStream(ctx, BBox, [h, w], boxes);
    const atS = ctx.stream('float2', 20, at);
    const child = structStream(ctx, BBox, 20);
    const leaf = ctx.stream('float', 20);
    ctx.run(children!, { at: atS, boxes: g, child, leaf });
    const expChild = new Float32Array(20 * 16);
    const expLeaf = new Float32Array(20);
    for (let r = 0; r < 20; r++) {
      const b = at[2 * r + 1]! * w + at[2 * r]!;
      expLeaf[r] = boxes[b * 16 + 13]!;
      if (expLeaf[r]! > 0.5) continue;
      const c = boxes[b * 16 + 15]! * w + boxes[b * 16 + 14]!;
      for (let k = 0; k < 16; k++) expChild[r * 16 + k] = boxes[c * 16 + k]!;
      for (let k = 7; k < 10; k++) expChild[r * 16 + k] = Math.fround(boxes[c * 16 + k]! + boxes[b * 16 + k]!);
    }
    expectArrayEqual(leaf.readSync(), expLeaf, 'leaf');
    expectArrayEqual(child.readSync(), expChild, 'child');
    [g, atS, child, leaf].forEach((s) => s.dispose());
  });

  it('reads a Neighbor stream (9 fields) and writes one in as many passes as the draw buffers need', async () => {
    const { avg, shift } = brook`${LISTING_36_5}
      kernel void avg(Neighbor nb<>, out float4 mean<>) {
        mean = (nb.AB + nb.BBC + nb.ABB + nb.BC + nb.ACC + nb.BCC + nb.AC + nb.AAB + nb.AAC) / 9;
      }
      kernel void shift(Neighbor nb<>, out Neighbor o<>) {
        o = nb;
        o.AAC.w = 7;
      }`;
    const Neighbor = avg!.structs!.Neighbor!;
    const n = 10;
    const data = Float32Array.from({ length: n * 36 }, (_, i) => (i % 36) * 0.5 + Math.floor(i / 36));
    const nb = structStream(ctx, Neighbor, n, data);
    const mean = ctx.stream('float4', n);
    ctx.run(avg!, { nb, mean });
    const expected = new Float32Array(n * 4);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < 4; c++) {
        let s = 0;
        for (let f = 0; f < 9; f++) s = Math.fround(s + data[r * 36 + f * 4 + c]!);
        expected[r * 4 + c] = Math.fround(s / 9);
      }
    }
    const got = mean.readSync();
    for (let i = 0; i < expected.length; i++) expect(Math.abs(got[i]! - expected[i]!)).to.be.at.most(1e-5 * Math.abs(expected[i]!) + 1e-6);
    // nine outputs: more than SwiftShader's 8 draw buffers, so the run takes several passes
    const o = structStream(ctx, Neighbor, n);
    if (onCpu(ctx)) ctx.run(shift!, { nb, o }); // a CPU run is one loop over the records: no passes, no trace
    else {
      ctx.trace.start();
      ctx.run(shift!, { nb, o });
      const passes = (await ctx.trace.stop()).filter((p) => p.kernel.startsWith('shift'));
      expect(passes).to.have.length(Math.ceil(9 / ctx.caps.maxDrawBuffers));
    }
    const back = o.readSync();
    const exp = data.map((x, i) => (i % 36 === 35 ? 7 : x));
    expectArrayEqual(back, exp, 'Neighbor output');
    [nb, mean, o].forEach((s) => s.dispose());
  });

  it('takes a struct constant (Traverser state) as fields by name or as numbers in order', () => {
    const { offset } = brook`${LISTING_36_3}
      kernel void offset(float3 p<>, Traverser state, out float3 q<>) {
        q = p + state.Translation + state.index.xyz * state.Rotationz.x;
      }`;
    const p = ctx.stream('float3', 5, Float32Array.from({ length: 15 }, (_, i) => i));
    const q = ctx.stream('float3', 5);
    const byName = { index: [1, 2, 3, 4], Translation: [10, 20, 30], Rotationx: [0, 0, 0], Rotationy: [0, 0, 0], Rotationz: [2, 0, 0] };
    ctx.run(offset!, { p, state: byName, q });
    const expected = Array.from({ length: 15 }, (_, i) => i + [10, 20, 30][i % 3]! + 2 * [1, 2, 3][i % 3]!);
    expectArrayEqual(q.readSync(), expected, 'by name');
    ctx.run(offset!, { p, state: [1, 2, 3, 4, 10, 20, 30, 0, 0, 0, 0, 0, 0, 2, 0, 0], q });
    expectArrayEqual(q.readSync(), expected, 'as numbers');
    expectBrookError(() => ctx.run(offset!, { p, state: [1, 2], q }), /Traverser is 16 numbers, got 2/);
    expectBrookError(() => ctx.run(offset!, { p, state: { ...byName, extra: 1 }, q }), /no field 'extra'/);
    [p, q].forEach((s) => s.dispose());
  });

  it('refuses wrong struct arguments and bad declarations with BrookErrors', () => {
    const { k } = brook`
      typedef struct { float a; float2 b; } P;
      typedef struct { float a; float3 b; } Q;
      kernel void k(P p<>, out P q<>) { q = p; }`;
    const Q = k!.structs!.Q!;
    const P = k!.structs!.P!;
    const p = structStream(ctx, P, 4, new Float32Array(12));
    const q = structStream(ctx, Q, 4);
    const plain = ctx.stream('float', 4);
    const before = ctx.stats().textures;
    expectBrookError(() => ctx.run(k!, { p, q }), /argument 'q': expected a P stream, got a Q stream/);
    expectBrookError(() => ctx.run(k!, { p: plain, q: p }), /argument 'p': expected a P stream/);
    expectBrookError(() => ctx.run(k!, { q: p }), /argument 'p' is missing/);
    expectBrookError(() => p.write(new Float32Array(11)), /needs 12/);
    expectBrookError(() => structStream(ctx, P, 4, [1, 2]), /needs 12/);
    expect(ctx.stats().textures).to.equal(before);
    expectBrookError(() => brookStructs`typedef struct { int a; } I;`, /must be float/);
    expectBrookError(() => brookStructs`typedef struct { float a; float a; } D;`, /declared twice/);
    expectBrookError(() => brookStructs`typedef struct { float a; }`, /name and ';'/);
    expectBrookError(() => brook`typedef struct { float a; } P; kernel void z(iter P i<>, out float o<>) { o = 1; }`, /struct parameter 'i'/);
    [p, q, plain].forEach((s) => s.dispose());
  });
});
