import { expect } from 'chai';
import { BrookContext, SPARE_DEPTH, SPARE_RESULT_BYTES } from '../../src/index';
import { expectArrayEqual, newContext } from '../helpers';

describe('core/read: the spare result array of large reads', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const turn = () => new Promise((r) => setTimeout(r, 0));

  for (const [type, n, kind] of [['float', SPARE_RESULT_BYTES / 4 + 3, Float32Array], ['uint', SPARE_RESULT_BYTES / 4, Uint32Array], ['float4', 3 * SPARE_RESULT_BYTES / 16, Float32Array], ['float', 2 ** 21, Float32Array]] as const) {
    it(`${type} x ${n}: each read returns an array of its own (never the one returned before), with the stream's values, the spare taken or not`, async () => {
      const c = type === 'float4' ? 4 : 1;
      const data = (k: number) => {
        const a = new kind(n * c);
        for (let i = 0; i < a.length; i++) a[i] = (i * 7 + k * 13) % 1000;
        return a;
      };
      const s = ctx.stream(type, n, data(0));
      const got: Array<Float32Array | Uint32Array> = [];
      for (let k = 0; k < 4; k++) {
        s.write(data(k));
        got.push((await s.read()) as Float32Array | Uint32Array);
        if (k % 2 === 0) await turn(); // (k = 1 and 3 may find the spare prepared; 2 reads back to back)
      }
      for (let k = 0; k < got.length; k++) {
        expect(got[k]).to.be.instanceOf(kind);
        for (let j = 0; j < k; j++) expect(got[k]!.buffer, `read ${k} shares read ${j}'s memory`).to.not.equal(got[j]!.buffer);
        expectArrayEqual(got[k]!, data(k), `read ${k}`);
      }
      got[0]!.fill(0); // what a caller does with its array is its own business
      expectArrayEqual(got[1]!, data(1), 'read 1 after read 0 was overwritten');
      s.dispose();
    });
  }

  it('a read after the spare had time to come fills it: distinct memory, right values, and dispose ends it', async () => {
    const c = newContext();
    const n = SPARE_RESULT_BYTES / 4;
    const s = c.stream('float', n, Float32Array.from({ length: n }, (_, i) => i));
    const a = await s.read();
    await new Promise((r) => setTimeout(r, 200));
    s.write(Float32Array.from({ length: n }, (_, i) => -i));
    const b = await s.read();
    expect(b.buffer).to.not.equal(a.buffer);
    expect([a[5], b[5], a[n - 1], b[n - 1]]).to.deep.equal([5, -5, n - 1, -(n - 1)]);
    c.dispose();
    expect(a[7]).to.equal(7); // (the caller's arrays outlive the context)
  });

  it('ctx.stats() counts the spares and their bytes: none for small reads, those of the last large read\'s size, none after dispose', async () => {
    const c = newContext();
    const spares = () => ({ n: c.stats().readSpares, bytes: c.stats().readSpareBytes });
    expect(spares()).to.deep.equal({ n: 0, bytes: 0 });
    const small = c.stream('float', SPARE_RESULT_BYTES / 4 - 1);
    await small.read();
    expect(spares(), 'a read under SPARE_RESULT_BYTES keeps none').to.deep.equal({ n: 0, bytes: 0 });
    const n = SPARE_RESULT_BYTES / 4;
    const big = c.stream('float', n, Float32Array.from({ length: n }, (_, i) => i));
    await big.read();
    // this page starts the spare worker: SPARE_DEPTH arrays of the read's size, asked for at the read
    expect(spares(), 'after a 1 MiB read').to.deep.equal({ n: SPARE_DEPTH, bytes: SPARE_DEPTH * SPARE_RESULT_BYTES });
    await new Promise((r) => setTimeout(r, 200)); // they come: the count is the same, held now
    expect(spares()).to.deep.equal({ n: SPARE_DEPTH, bytes: SPARE_DEPTH * SPARE_RESULT_BYTES });
    const b = await big.read(); // takes one, asks for one
    expect(b[n - 1]).to.equal(n - 1);
    expect(spares()).to.deep.equal({ n: SPARE_DEPTH, bytes: SPARE_DEPTH * SPARE_RESULT_BYTES });
    const bigger = c.stream('float', 2 * n);
    await bigger.read(); // another size: those of the old one dropped, as many of the new
    expect(spares(), 'after a 2 MiB read').to.deep.equal({ n: SPARE_DEPTH, bytes: SPARE_DEPTH * 2 * SPARE_RESULT_BYTES });
    await new Promise((r) => setTimeout(r, 200)); // the old size's late arrivals are dropped, not counted
    expect(spares()).to.deep.equal({ n: SPARE_DEPTH, bytes: SPARE_DEPTH * 2 * SPARE_RESULT_BYTES });
    const before = c.stats();
    await small.read();
    expect(c.stats(), 'a small read leaves them').to.deep.equal(before);
    c.dispose();
    expect(spares(), 'dispose drops them').to.deep.equal({ n: 0, bytes: 0 });
  });

  it('into: the caller\'s array, no spare involved', async () => {
    const n = SPARE_RESULT_BYTES / 4;
    const s = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => i % 4096));
    const into = new Float32Array(n);
    expect(await s.read({ into })).to.equal(into);
    expect(into[4097]).to.equal(1);
    s.dispose();
  });
});
