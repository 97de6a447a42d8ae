// The texture pool's policy as plain bookkeeping: fake textures, no GPU involved.
import { expect } from 'chai';
import { POOL_IDLE_BYTES, POOL_IDLE_TEXTURES, POOL_PER_SHAPE, typeInfo } from '../../src/index';
import { TexturePool, heightClass } from '../../src/core/pool';

describe('core/pool (no GPU)', () => {
  const float = typeInfo('float'); // 4 bytes a texel
  const setup = () => {
    const live = new Set<object>();
    let made = 0;
    const pool = new TexturePool(
      () => {
        made++;
        const t = {};
        live.add(t);
        return t as WebGLTexture;
      },
      (t) => live.delete(t as object),
    );
    return { pool, live, made: () => made };
  };

  it('keeps at most POOL_IDLE_TEXTURES when every release is a shape never seen again', () => {
    const { pool, live } = setup();
    for (let k = 1; k <= 3 * POOL_IDLE_TEXTURES; k++) pool.release(pool.acquire(k, 1, float), k, 1, float);
    expect(pool.count).to.equal(POOL_IDLE_TEXTURES);
    expect(live.size).to.equal(POOL_IDLE_TEXTURES);
    pool.trim();
    expect(live.size).to.equal(0);
  });

  it('keeps at most POOL_PER_SHAPE of one shape (or as many as were in use at once) and POOL_IDLE_BYTES in all while steps are small', () => {
    const { pool } = setup();
    const mine = Array.from({ length: POOL_PER_SHAPE + 2 }, () => ({ w: 8, h: 8 }));
    // textures of one shape given back one after another, more than POOL_PER_SHAPE of them: the cap holds
    const own = Array.from({ length: POOL_PER_SHAPE + 2 }, () => ({}) as WebGLTexture);
    own.forEach((t) => pool.release(t, 8, 8, float));
    expect(pool.count).to.equal(POOL_PER_SHAPE);
    pool.trim();
    // a step that holds POOL_PER_SHAPE + 2 of one shape at once gets them all back the next step
    const temps = mine.map(() => pool.acquire(8, 8, float));
    temps.forEach((t) => pool.release(t, 8, 8, float));
    expect(pool.count).to.equal(POOL_PER_SHAPE + 2);
    pool.trim();
    const side = 1024; // 4 MiB each, one at a time: the working set is one texture
    for (let k = 0; k < 2 * (POOL_IDLE_BYTES / (side * side * 4)); k++) pool.release(pool.acquire(side, side + k, float), side, side + k, float);
    expect(pool.bytes).to.be.at.most(POOL_IDLE_BYTES);
  });

  it("lets shapes that every call reuses outlive a flood of one-off shapes", () => {
    const { pool, made } = setup();
    const step = (call: number) => {
      // a pyramid whose levels every call asks for again, then a result of a new length
      const levels = [64, 16, 4, 1].map((w) => pool.acquire(w, w, float));
      const result = pool.acquire(1000 + call, 1, float);
      levels.forEach((t, i) => pool.release(t, [64, 16, 4, 1][i]!, [64, 16, 4, 1][i]!, float));
      pool.release(result, 1000 + call, 1, float);
    };
    step(0);
    step(1); // the levels are handed out again: reused shapes
    const before = made();
    for (let call = 2; call < 2 + 3 * POOL_IDLE_TEXTURES; call++) step(call);
    expect(made() - before, 'only the one-off results were made').to.equal(3 * POOL_IDLE_TEXTURES);
    expect(pool.count).to.be.at.most(POOL_IDLE_TEXTURES);
  });

  it('scales its caps to four working sets, and trim forgets the working set', () => {
    const { pool, made } = setup();
    const side = 2048; // 16 MiB each
    const n = Math.ceil(POOL_IDLE_BYTES / (side * side * 4)) + 4; // more than the cap at once
    const step = () => {
      const temps = Array.from({ length: n }, (_, i) => pool.acquire(side, side + i, float));
      temps.forEach((t, i) => pool.release(t, side, side + i, float));
    };
    step();
    expect(pool.count).to.equal(n);
    const before = made();
    step();
    expect(made(), 'the second step reuses every texture').to.equal(before);
    const workingSet = Array.from({ length: n }, (_, i) => side * (side + i) * 4).reduce((a, b) => a + b);
    expect(pool.byteLimit).to.equal(4 * workingSet);
    pool.trim();
    expect(pool.byteLimit).to.equal(POOL_IDLE_BYTES);
    expect(pool.countLimit).to.equal(POOL_IDLE_TEXTURES);
  });

  it("serves a new workload from the pool once it repeats, however full the last one left it", () => {
    const { pool, made } = setup();
    const mib4 = (h: number) => [1024, h, float] as const; // 1024 x 1024 floats: 4 MiB
    // the last workload: 8 textures at once (a 32 MiB working set, ~129 MiB kept), asked for 3 times
    for (let call = 0; call < 3; call++) {
      const temps = Array.from({ length: 8 }, (_, i) => pool.acquire(...mib4(1024 + i)));
      temps.forEach((t, i) => pool.release(t, ...mib4(1024 + i)));
    }
    // the new one: 24 textures, one at a time (~98 MiB), every call; with the old shapes that is over the limit
    const step = () => {
      const before = made();
      for (let i = 0; i < 24; i++) pool.release(pool.acquire(...mib4(1032 + i)), ...mib4(1032 + i));
      return made() - before;
    };
    expect(step(), 'the first call makes its textures').to.equal(24);
    expect(step(), 'the second call finds them all: the old shapes went first').to.equal(0);
    expect(step()).to.equal(0);
    expect(pool.bytes).to.be.at.most(pool.byteLimit);
  });

  it('grows its totals when textures it deleted are asked for again, up to sixteen working sets', () => {
    const { pool, made } = setup();
    const side = 1024; // 4 MiB each, one at a time: a 4 MiB working set, 64 MiB kept at first
    const cycle = (shapes: number) => {
      const before = made();
      for (let i = 0; i < shapes; i++) pool.release(pool.acquire(side, side + i, float), side, side + i, float);
      return made() - before;
    };
    expect(cycle(24), '~97 MiB of shapes').to.equal(24);
    const deleted = 24 - pool.count;
    expect(deleted, 'deleted to stay within 64 MiB').to.be.at.least(8);
    expect(cycle(24), 'made again').to.equal(deleted);
    expect(cycle(24), 'and the totals grew by them').to.equal(0);
    expect(pool.count).to.equal(24);
    // a cycle larger than the growth allows (4 x POOL_IDLE_BYTES here) stays within it
    for (let k = 0; k < 3; k++) cycle(100);
    expect(pool.byteLimit).to.equal(4 * POOL_IDLE_BYTES);
    expect(pool.bytes).to.be.at.most(4 * POOL_IDLE_BYTES);
    pool.trim();
    expect(pool.byteLimit).to.equal(POOL_IDLE_BYTES);
  });

  it("hands 1D temporaries of nearby lengths one texture of their height class, and takes swapped exact-size textures back at their real size", () => {
    const { pool, made } = setup();
    // a working set that shrinks a little every pass, as 'reduced' binning's survivors do
    for (let rows = 1024; rows > 256; rows -= 15) pool.release(pool.acquire(1024, rows, float, 0, 'class'), 1024, rows, float);
    expect(made(), 'one texture for each height class between 257 and 1024 rows').to.equal(new Set(Array.from({ length: 52 }, (_, i) => heightClass(1024 - 15 * i))).size);
    for (const h of [9, 100, 257, 513, 1000, 5000]) {
      expect(heightClass(h)).to.be.at.least(h).and.at.most(Math.ceil(1.25 * h));
    }
    expect(heightClass(1024)).to.equal(1024);
    // a ping-pong pass swapped a pooled texture (700 asked, 768 made) with a stream's own 700-row one
    pool.trim();
    const pooled = pool.acquire(64, 700, float, 0, 'class');
    const own = {} as WebGLTexture;
    pool.release(own, 64, 700, float); // the stream's texture comes back where the pooled one was
    expect(pool.acquire(64, 700, float, 0, 'class'), 'a 700-row texture is not handed out as a 768-row one').to.not.equal(own);
    expect(pool.acquire(64, 700, float), 'it is kept at its real size').to.equal(own);
    pool.release(pooled, 64, 700, float);
    expect(pool.bytes, 'the pooled texture is counted at its real size').to.equal(64 * 768 * 4);
  });

  it('hands out the idle texture of a shape it met first, whatever order they came back in, so a repeated sequence of requests gets the same textures in the same roles', () => {
    const { pool } = setup();
    // a frame: six temporaries of one shape held at once (a multi-target pass's targets among them)
    const frame = () => Array.from({ length: 6 }, () => pool.acquire(32, 32, float));
    const first = frame();
    // given back in a shuffled order, then asked for again: the same texture in each role
    for (const i of [3, 0, 5, 1, 4, 2]) pool.release(first[i]!, 32, 32, float);
    const second = frame();
    expect(second).to.deep.equal(first);
    // a shorter frame takes the ones met first; a stream's own texture given back goes after them
    for (const i of [5, 2, 0, 4, 1, 3]) pool.release(second[i]!, 32, 32, float);
    expect(Array.from({ length: 3 }, () => pool.acquire(32, 32, float))).to.deep.equal(first.slice(0, 3));
    const own = {} as WebGLTexture;
    pool.release(own, 32, 32, float);
    expect(Array.from({ length: 4 }, () => pool.acquire(32, 32, float))).to.deep.equal([...first.slice(3), own]);
  });
});
