import { expect } from 'chai';
import { linePlot, logTicks, linearTicks, measuredTicks, seriesColor, seriesStyles, tickLabel, wrapText, xValueLabel, PLOT_COLORS } from '../../src/index';

/** Renders SVG text into the page, runs `fn` on the element, removes it. */
function inPage(svgText: string, fn: (svg: SVGSVGElement) => void) {
  const div = document.createElement('div');
  document.body.append(div);
  try {
    div.innerHTML = svgText;
    fn(div.querySelector('svg')!);
  } finally {
    div.remove();
  }
}

const decades = (ts: number[]) => ts.filter((t) => Math.abs(t - Math.round(t)) < 1e-9).map(Math.round);

describe('plots', () => {
  it('colour a series by its name alone; series of one plot that share a colour differ in dashes and markers', () => {
    const a = ['naive', 'predicated', 'reduced', 'delayed', 'stencil', 'stencil-predicated', 'one-draw routing'];
    const b = ['reduced', 'predicated'];
    const colorsOf = (names: string[]) => Object.fromEntries(names.map((k, i) => [k, seriesStyles(names.map((name) => ({ name })))[i].color]));
    const ca = colorsOf(a);
    expect(colorsOf(b)).to.deep.equal({ reduced: ca.reduced, predicated: ca.predicated });
    expect(colorsOf([...a].reverse())).to.deep.equal(ca);
    for (const k of a) expect(ca[k]).to.equal(seriesColor(k)).and.be.oneOf(PLOT_COLORS);
    // within one plot no two series look the same: a shared colour gets another dash pattern
    const many = Array.from({ length: 2 * PLOT_COLORS.length }, (_, i) => ({ name: `method ${i}` }));
    const looks = seriesStyles(many).map((st) => `${st.color} ${st.dash} ${st.square}`);
    expect(new Set(looks).size).to.equal(many.length);
    // the drawn lines carry them; a series' key overrides its name, `dashed` draws dashes
    const svg = linePlot({
      title: 't', xLabel: 'x', yLabel: 'y',
      series: [{ name: 'bitonic', points: [[1, 1], [2, 2]] }, { name: 'the paper: bitonic', key: 'bitonic', dashed: true, points: [[1, 2], [2, 3]] }],
    });
    inPage(svg, (el) => {
      const lines = [...el.querySelectorAll('polyline')];
      expect(lines.map((p) => p.getAttribute('stroke'))).to.deep.equal([seriesColor('bitonic'), seriesColor('bitonic')]);
      expect(lines[0].getAttribute('stroke-dasharray')).to.equal(null);
      expect(lines[1].getAttribute('stroke-dasharray')).to.be.a('string');
    });
  });

  it('label log axes at every decade, and between decades when fewer than two are in range', () => {
    expect(decades(logTicks(3, 6))).to.deep.equal([3, 4, 5, 6]);
    expect(logTicks(Math.log10(4096), Math.log10(2 ** 21))).to.deep.equal([4, 5, 6]);
    // one decade in range: 2 and 5 between (200, 500, 1000, 2000, 5000)
    const one = logTicks(2.1, 3.9).map((t) => Math.round(10 ** t));
    expect(one).to.deep.equal([200, 500, 1000, 2000, 5000]);
    // no decade in range: still at least two labels inside it
    const none = logTicks(Math.log10(3.5), Math.log10(8.5)).map((t) => Math.round(10 ** t));
    expect(none).to.deep.equal([4, 5, 6, 7, 8]);
    expect(linearTicks(0, 1)).to.deep.equal([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect([tickLabel(1e5), tickLabel(1000), tickLabel(0.001), tickLabel(0.25)]).to.deep.equal(['1e5', '1000', '1e-3', '0.25']);
    // a plot of 4096 ... 2^21 points on log axes: every decade is written on the y axis
    const pts: [number, number][] = [4096, 65536, 2 ** 21].map((n) => [n, n / 1000]);
    inPage(linePlot({ title: 't', xLabel: 'x', yLabel: 'y', logX: true, logY: true, series: [{ name: 's', points: pts }] }), (el) => {
      const labels = [...el.querySelectorAll('text.tick')].map((t) => t.textContent);
      for (const want of ['10', '100', '1000']) expect(labels).to.include(want);
    });
    // too many measured x to name one by one: round ticks, every decade
    const many: [number, number][] = Array.from({ length: 40 }, (_, i) => [1000 * 1.2 ** i, i + 1]);
    inPage(linePlot({ title: 't', xLabel: 'x', yLabel: 'y', logX: true, series: [{ name: 's', points: many }] }), (el) => {
      const labels = [...el.querySelectorAll('text.tick')].map((t) => t.textContent);
      for (const want of ['10000', '1e5', '1e6']) expect(labels).to.include(want);
    });
  });

  it('name every measured x on the x axis where the labels fit, the last one too', () => {
    // the x axis's labels are centred under their ticks (the y axis's end at it)
    const xTicks = (svg: SVGElement) =>
      [...svg.querySelectorAll('text.tick[text-anchor="middle"]')].map((t) => [t.textContent, Number(t.getAttribute('x'))] as [string, number]);
    // Horn's light setting: two sizes, 64k and 128k (round ticks gave 70000 ... 1e5 and stopped before 128k)
    const two = linePlot({ title: 't', xLabel: 'n', yLabel: 'ms', logX: true, logY: true, series: [{ name: 'scan', points: [[65536, 3], [131072, 5]] }, { name: 'sort', points: [[65536, 4], [131072, 9]] }] });
    inPage(two, (svg) => {
      const ticks = xTicks(svg);
      expect(ticks.map(([l]) => l)).to.deep.equal(['64k', '128k']);
      // each label stands under its point
      const xs = [...svg.querySelectorAll('circle')].map((c) => Number(c.getAttribute('cx')));
      for (const [, x] of ticks) expect(xs.some((p) => Math.abs(p - x) < 0.5)).to.equal(true);
    });
    // sizes that are not multiples of 1024, and a linear axis
    inPage(linePlot({ title: 't', xLabel: 'n', yLabel: 'y', series: [{ name: 's', points: [[1, 1], [1000, 2], [2500, 3], [4096, 4]] }] }), (svg) => {
      expect(xTicks(svg).map(([l]) => l)).to.deep.equal(['1', '1000', '2500', '4k']);
    });
    expect(['1M', '3M', '1.5e6', '0.125', '12345'].join()).to.equal([2 ** 20, 3 * 2 ** 20, 1.5e6, 0.125, 12345].map((v) => xValueLabel(v)).join());
    // crowded labels fall back to round ticks
    expect(measuredTicks([1000, 1001, 1002], (x) => x - 1000)).to.equal(null);
  });

  it('keep the title and the legend inside the picture: they wrap, and the picture grows to hold them', () => {
    expect(wrapText('one two three four', 9)).to.deep.equal(['one two', 'three', 'four']);
    expect(wrapText('abcdefghij', 4)).to.deep.equal(['abcd', 'efgh', 'ij']);
    const title = 'Figures 5 and 6 of Oat, Barczak and Shopf (2009), 128³ grid: milliseconds to bin n uniform points against n, every method';
    const names = Array.from({ length: 12 }, (_, i) => `method number ${i} with a long explanation of what it does (${i})`);
    const svgText = linePlot({ title, xLabel: 'x', yLabel: 'y', series: names.map((name, i) => ({ name, points: [[1, i + 1], [2, i + 2]] })) });
    inPage(svgText, (svg) => {
      const w = Number(svg.getAttribute('width'));
      const h = Number(svg.getAttribute('height'));
      expect(h).to.be.above(400);
      // screen boxes (the rotated y label's own box is in its rotated frame); the svg is drawn at 1:1
      const frame = svg.getBoundingClientRect();
      expect([frame.width, frame.height]).to.deep.equal([w, h]);
      for (const t of svg.querySelectorAll('text')) {
        const b = t.getBoundingClientRect();
        expect(b.left - frame.left, `"${t.textContent}" starts inside`).to.be.at.least(0);
        expect(b.top - frame.top, `"${t.textContent}" starts inside`).to.be.at.least(0);
        expect(b.right - frame.left, `"${t.textContent}" ends inside the ${w} px width`).to.be.at.most(w);
        expect(b.bottom - frame.top, `"${t.textContent}" ends inside the ${h} px height`).to.be.at.most(h);
      }
      const legend = [...svg.querySelectorAll('text.legend')].map((t) => (t as SVGTextElement).getBBox());
      expect(legend.length).to.equal(names.length);
      for (let i = 1; i < legend.length; i++) expect(legend[i].y, `legend entry ${i} below entry ${i - 1}`).to.be.at.least(legend[i - 1].y + legend[i - 1].height);
      expect([...svg.querySelectorAll('text.legend title')].map((t) => t.textContent)).to.deep.equal(names);
    });
  });
});
