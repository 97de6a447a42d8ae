// Conformance: comments are ignored by the Brook parser, whatever they hold.
import { expect } from 'chai';
import { BrookContext, brook, stripComments } from '../../src/index';
import { expectArrayEqual, expectBrookError, newContext, randomFloats } from '../helpers';

describe('brook/comments', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('blanks comments but keeps every offset and line', () => {
    const src = 'a // x { (\n/* kernel\n } */ b';
    const clean = stripComments(src);
    expect(clean.length).to.equal(src.length);
    expect(clean.split('\n').length).to.equal(3);
    expect(clean.replace(/\s+/g, ' ').trim()).to.equal('a b');
    expect(stripComments('x /* never closed {')).to.match(/^x\s+$/);
  });

  it('ignores {, (, the word kernel and whole commented-out kernels in // and /* */', () => {
    const kernels = brook`
      // Version 1 (slower): kernel void scale(float a<>, out float b<>) { b = a * 2; }
      /* kernel void scale(float a<>, out float b<>) {
           b = a + a;   // an older try, with an unbalanced { here
         } */
      kernel void scale(float a<>, /* the factor ( */ float k, out float b<>) // out float c<>
      {
        // { not a block
        b = a * k; /* ) */
        /* kernel void other(out float z<>) { */
      }`;
    expect(Object.keys(kernels)).to.deep.equal(['scale']);
    expect(kernels.scale!.uniforms).to.deep.equal({ k: 'float' });
    expect(kernels.scale!.outputs).to.deep.equal({ b: 'float' });
    const xs = randomFloats(20, 3);
    const a = ctx.stream('float', 20, xs);
    const b = ctx.stream('float', 20);
    ctx.run(kernels.scale!, { a, k: 3, b });
    expectArrayEqual(b.readSync(), xs.map((x) => Math.fround(x * 3)), 'scale');
    [a, b].forEach((s) => s.dispose());
  });

  it('still names the right line when the code after a comment is wrong', () => {
    expectBrookError(
      () =>
        ctx.kernel(
          brook`/* a comment
                  over two lines { */
          kernel void bad(float a<>, out float b<>) {
            // fine
            b = undefinedThing;
          }`.bad!,
        ),
      /line 5:[\s\S]*>\s*5\|/,
    );
  });
});
