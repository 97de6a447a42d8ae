import { expect } from 'chai';
import {
  BrookContext,
  brook,
  colormap,
  drawStream,
  htmlTable,
  imageShape,
  linePlot,
  streamFigure,
  streamPixels,
  textTable,
  traceTable,
  traceText,
} from '../../src/index';
import { expectNoGLError, newContext } from '../helpers';

describe('view', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('draws a kernel result as an image whose pixels and range match the CPU mapping', async () => {
    const [h, w] = [5, 7];
    const { ramp } = brook`kernel void ramp(out float v<>) { v = indexof(v).x * 3.0 - indexof(v).y * 2.0 + 0.25; }`; // indexof: (column, row)
    const out = ctx.stream('float', [h, w]);
    ctx.run(ramp!, { v: out });
    const data = await out.read();
    const expected = Array.from({ length: h * w }, (_, i) => (i % w) * 3 - Math.floor(i / w) * 2 + 0.25);
    expect(Array.from(data)).to.deep.equal(expected);
    const lo = Math.min(...expected);
    const hi = Math.max(...expected);
    const canvas = document.createElement('canvas');
    const drawn = drawStream(canvas, data, out.shape, 1, { colormap: 'viridis' });
    expect([canvas.width, canvas.height]).to.deep.equal([w, h]);
    expect(drawn.ranges).to.deep.equal([{ label: 'value', lo, hi }]);
    const got = canvas.getContext('2d')!.getImageData(0, 0, w, h).data;
    for (let i = 0; i < h * w; i++) {
      const c = colormap('viridis', (expected[i]! - lo) / (hi - lo));
      expect([got[i * 4], got[i * 4 + 1], got[i * 4 + 2], got[i * 4 + 3]], `pixel ${i}`).to.deep.equal([...c, 255]);
    }
    out.dispose();
    expectNoGLError(ctx);
  });

  it('maps vector components to RGB each over its own range, non-finite to magenta, padding transparent', () => {
    // 1D stream of 7 float2 records -> a 3 x 3 image with 2 transparent pixels
    const data = new Float32Array([0, 10, 1, 20, 2, 30, Infinity, 40, 4, 50, 5, 60, 6, 70]);
    const px = streamPixels(data, [7], 2);
    expect(imageShape([7])).to.deep.equal([3, 3]);
    expect(px.ranges).to.deep.equal([{ label: 'x', lo: 0, hi: 6 }, { label: 'y', lo: 10, hi: 70 }]);
    expect(px.nonFinite).to.equal(1);
    expect(Array.from(px.rgba.slice(4, 8))).to.deep.equal([Math.round(255 / 6), Math.round(255 / 6), 0, 255]);
    expect(Array.from(px.rgba.slice(12, 16))).to.deep.equal([255, 0, 255, 255]);
    expect(px.rgba[7 * 4 + 3]).to.equal(0);
    const len = streamPixels(new Float32Array([3, 4, 0, 0]), [2], 2, { show: 'length' });
    expect(len.ranges).to.deep.equal([{ label: 'length', lo: 0, hi: 5 }]);
    const signed = streamPixels(new Float32Array([-1, 3]), [2], 1, { colormap: 'diverging' });
    expect(signed.ranges[0]).to.deep.include({ lo: -3, hi: 3 });
  });

  it('makes a captioned figure from a stream, with its range', async () => {
    const s = ctx.stream('float4', 10, Float32Array.from({ length: 40 }, (_, i) => i));
    const fig = await streamFigure(s, { title: 'ramp' });
    const caption = fig.querySelector('figcaption')!;
    expect(caption.textContent).to.contain('float4 × 10').and.contain('x 0 … 36').and.contain('z 2 … 38');
    s.dispose();
  });

  it('shows a real trace as one table row per pass', async () => {
    const { twice } = brook`kernel void twice(float a<>, out float b<>) { b = 2.0 * a; }`;
    const a = ctx.stream('float', 100, new Float32Array(100).fill(1));
    const b = ctx.stream('float', 100);
    ctx.trace.start();
    ctx.run(twice!, { a, b });
    ctx.run(twice!, { a: b, b: a });
    const passes = await ctx.trace.stop();
    const div = document.createElement('div');
    div.innerHTML = traceTable(passes);
    expect(div.querySelectorAll('tbody tr').length).to.equal(passes.length).and.equal(2);
    expect(div.querySelector('tbody td:nth-child(2)')!.textContent).to.equal('twice');
    expect(traceText(passes).split('\n').length).to.equal(3 + passes.length);
    a.dispose();
    b.dispose();
  });

  it('tables escape their text; plots draw every finite point', () => {
    const html = htmlTable({ title: '<b>', columns: ['n', 'ms'], rows: [[1024, 0.12345], [2048, null]] });
    const div = document.createElement('div');
    div.innerHTML = html;
    expect(div.querySelector('h3')!.textContent).to.equal('<b>');
    expect(Array.from(div.querySelectorAll('td')).map((td) => td.textContent)).to.deep.equal(['1024', '0.123', '2048', '-']);
    expect(textTable({ title: 't', columns: ['a'], rows: [[1.5]] })).to.equal('t\n   a\n----\n1.50');
    div.innerHTML = linePlot({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [[1, 1], [2, NaN], [3, 9]] }], logX: true });
    expect(div.querySelectorAll('circle').length).to.equal(2);
  });

  it('plots keep their legend inside the picture, long series names included', () => {
    const names = ['radix', 'predicated stencil routing, 32³ grid (ms per build)', 'pyramid filter with indices and the scatter reduction on 2^20 records'];
    const div = document.createElement('div');
    document.body.append(div);
    try {
      div.innerHTML = linePlot({ title: 't', xLabel: 'x', yLabel: 'y', series: names.map((name, i) => ({ name, points: [[1, i + 1], [2, i + 2]] })) });
      const svg = div.querySelector('svg')!;
      const legend = Array.from(svg.querySelectorAll('text')).filter((t) => t.querySelector('title'));
      expect(legend.map((t) => t.querySelector('title')!.textContent)).to.deep.equal(names);
      for (const t of legend) {
        const box = t.getBBox();
        expect(box.x + box.width, `legend "${t.textContent}" ends inside the ${svg.getAttribute('width')} px picture`).to.be.at.most(Number(svg.getAttribute('width')));
      }
    } finally {
      div.remove();
    }
  });
});
