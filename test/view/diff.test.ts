// The diff view (issue 37): compareBackends' `indices` lists every record where the GPU and the
// CPU backend differ, and streamPixels' `highlight` draws exactly those records HIGHLIGHT (the
// rest grey, non-finite magenta), as the playground and the notebook widget show them.
import { expect } from 'chai';
import { BrookContext, HIGHLIGHT, brook, compareBackends, streamPixels } from '../../src/index';
import { newContext } from '../helpers';

const isHighlight = (rgba: ArrayLike<number>, i: number) => rgba[i * 4] === HIGHLIGHT[0] && rgba[i * 4 + 1] === HIGHLIGHT[1] && rgba[i * 4 + 2] === HIGHLIGHT[2];

describe('view/diff: records that differ between the backends, highlighted', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('highlight draws the marked records orange and every other one grey (magenta kept), counting distinct marks', () => {
    const data = [0, 1, 2, 3, Infinity, 5];
    const p = streamPixels(data, [6], 1, { highlight: [1, 3, 3, 99] });
    expect(p.highlighted).to.equal(2); // 3 twice counts once; 99 is past the stream
    for (let i = 0; i < 6; i++) {
      const [r, g, b] = [p.rgba[i * 4]!, p.rgba[i * 4 + 1]!, p.rgba[i * 4 + 2]!];
      if (i === 1 || i === 3) expect(isHighlight(p.rgba, i), `record ${i}`).to.equal(true);
      else if (i === 4) expect([r, g, b], 'non-finite').to.deep.equal([255, 0, 255]);
      else expect(r === g && g === b, `record ${i} is grey: ${[r, g, b]}`).to.equal(true);
    }
    expect(streamPixels(data, [6], 1).highlighted).to.equal(0);
    expect(() => streamPixels(data, [6], 1, { highlight: [1.5] })).to.throw(/highlight must hold record indices/);
  });

  it("compareBackends' indices are every differing record, and the highlight shows exactly them (8-bit sums: saturate against wrap)", () => {
    const { add8 } = brook`kernel void add8(uchar a<>, uchar b<>, out uchar c<>) { c = a + b; }`;
    const [h, w] = [12, 17];
    const av = Uint8Array.from({ length: h * w }, (_, i) => (i * 37) % 256);
    const bv = Uint8Array.from({ length: h * w }, (_, i) => (i * 91 + 13) % 256);
    const a = ctx.stream('char', [h, w], av), b = ctx.stream('char', [h, w], bv), c = ctx.stream('char', [h, w]);
    const cmp = compareBackends(ctx, add8!, { a, b, c }, { indices: true });
    const over = Array.from(av).flatMap((x, i) => (x + bv[i]! > 255 ? [i] : []));
    expect(over.length).to.be.greaterThan(10);
    expect(Array.from(cmp.outputs.c!.indices!)).to.deep.equal(over);
    expect(cmp.outputs.c!.differing).to.equal(over.length);
    const p = streamPixels(c.readSync(), c.shape, 1, { highlight: cmp.outputs.c!.indices! });
    expect(p.highlighted).to.equal(over.length);
    const lit = Array.from({ length: h * w }, (_, i) => i).filter((i) => isHighlight(p.rgba, i));
    expect(lit).to.deep.equal(over);
    expect(compareBackends(ctx, add8!, { a, b, c }).outputs.c!.indices, 'without the option').to.equal(undefined);
    [a, b, c].forEach((s) => s.dispose());
  });
});
