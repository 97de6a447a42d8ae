import { expect } from 'chai';
import { BrookContext, reference, subdivide, weldVertices, type TriangleMesh } from '../../src/index';
import { expectBrookRejection, expectNoGLError, newContext } from '../helpers';
import { loadModel } from './models';

/** GPU vertex positions against the references: float32 rounding of a few operations per
 * round, relative to the model's size. */
const SUBDIVIDE_TOLERANCE = 1e-5;
const CLOSED_MODELS = ['cube', 'iso', 'pyramid', 'supercube'];

function size(p: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s = Math.max(s, Math.abs(p[i]!));
  return s;
}

/** Directed edges matched bit for bit: every edge u→v of a triangle has exactly one v→u. */
function openEdges(pos: Float32Array): string[] {
  const key = (t: number, k: number) => `${pos[t * 9 + k * 3]},${pos[t * 9 + k * 3 + 1]},${pos[t * 9 + k * 3 + 2]}`;
  const count = new Map<string, number>();
  const n = pos.length / 9;
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const e = `${key(t, k)}>${key(t, (k + 1) % 3)}`;
      count.set(e, (count.get(e) ?? 0) + 1);
    }
  }
  const bad: string[] = [];
  for (const [e, c] of count) {
    const [a, b] = e.split('>');
    if (c !== 1 || count.get(`${b}>${a}`) !== 1) bad.push(`${e} ×${c}, reverse ×${count.get(`${b}>${a}`) ?? 0}`);
  }
  return bad;
}

/** A flat closed "pillow": a hexagon fan on top and one below, sharing the rim (z = 0). */
function flatPillow(): TriangleMesh {
  const pos = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 6; i++) pos.push(Math.cos((i * Math.PI) / 3), Math.sin((i * Math.PI) / 3), 0);
  const idx: number[] = [];
  for (let i = 0; i < 6; i++) {
    const a = 2 + i;
    const b = 2 + ((i + 1) % 6);
    idx.push(0, a, b, 1, b, a);
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

describe('apps/subdivide (Horn, section 36.3: adaptive Loop subdivision)', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const name of CLOSED_MODELS) {
    it(`${name}: plain Loop subdivision, depth 1 and 2, equals the CPU Loop subdivision (4^k·F triangles)`, async function () {
      this.timeout(120_000);
      const mesh = weldVertices(await loadModel(name));
      const F = mesh.indices.length / 3;
      for (const depth of [1, 2]) {
        const got = await subdivide(ctx, mesh, { adaptive: false, maxDepth: depth });
        const ref = reference.loopSubdivide(mesh, depth);
        expect(got.count).to.equal(F * 4 ** depth);
        expect(ref.indices.length / 3).to.equal(got.count);
        const tol = SUBDIVIDE_TOLERANCE * size(ref.positions);
        let worst = 0;
        for (let t = 0; t < got.count; t++) {
          for (let c = 0; c < 3; c++) {
            const v = ref.indices[t * 3 + c]!;
            for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(got.positions[t * 9 + c * 3 + i]! - ref.positions[v * 3 + i]!));
          }
        }
        expect(worst, `largest difference at depth ${depth}`).to.be.at.most(tol);
        expect(openEdges(got.positions), 'watertight').to.deep.equal([]);
        expect(got.rounds.map((r) => r.split)).to.deep.equal(Array.from({ length: depth }, (_, i) => F * 4 ** i));
      }
      expectNoGLError(ctx);
    });
  }

  for (const [name, epsilon] of [['supercube', 0.1], ['cube', 0.3], ['pyramid', 0.3]] as const) {
    it(`${name}, adaptive (epsilon ${epsilon}): watertight with slivers, shared vertices bit-identical, rounds as the CPU's`, async function () {
      this.timeout(120_000);
      const before = ctx.stats();
      const mesh = weldVertices(await loadModel(name));
      const got = await subdivide(ctx, mesh, { epsilon, maxDepth: 3, adaptive: true });
      const cpu = reference.subdividePatches(reference.buildPatches(mesh), { epsilon, maxDepth: 3, adaptive: true });
      expect(got.rounds).to.deep.equal(cpu.rounds);
      expect(got.rounds.some((r) => r.finished > 0) && got.rounds.some((r) => r.slivers > 0), 'some triangles finish early, with slivers').to.equal(true);
      // every edge is shared by exactly two triangles (slivers included), matched by the bits of
      // its end points: so every vertex is bit-identical in all the triangles that share it
      expect(openEdges(got.positions)).to.deep.equal([]);
      expect(got.count).to.equal(cpu.count);
      expect(Array.from(got.tags)).to.deep.equal(Array.from(cpu.tags));
      const tol = SUBDIVIDE_TOLERANCE * size(cpu.positions);
      let worst = 0;
      for (let i = 0; i < cpu.positions.length; i++) worst = Math.max(worst, Math.abs(got.positions[i]! - cpu.positions[i]!));
      expect(worst).to.be.at.most(tol);
      const live = (st: ReturnType<typeof ctx.stats>) => st.textures - st.pooledTextures;
      expect(live(ctx.stats()), 'live textures').to.equal(live(before));
      expectNoGLError(ctx);
    });
  }

  it('leaves a flat mesh alone with a large epsilon', async () => {
    const mesh = flatPillow();
    const got = await subdivide(ctx, mesh, { epsilon: 1e6, maxDepth: 3 });
    expect(got.count).to.equal(12);
    expect(got.rounds).to.deep.equal([{ round: 0, triangles: 12, finished: 12, split: 0, slivers: 0 }]);
    const expected: number[] = [];
    for (let t = 0; t < 12; t++) for (let c = 0; c < 3; c++) for (let i = 0; i < 3; i++) expected.push(mesh.positions[mesh.indices[t * 3 + c]! * 3 + i]!);
    expect(Array.from(got.positions)).to.deep.equal(expected);
  });

  it('refuses valence above 6 (Listing 36-5 holds six neighbours), open meshes and bad options with a BrookError', async () => {
    // a bipyramid over a heptagon: both apexes have valence 7
    const pos = [0, 0, 1, 0, 0, -1];
    for (let i = 0; i < 7; i++) pos.push(Math.cos((2 * Math.PI * i) / 7), Math.sin((2 * Math.PI * i) / 7), 0);
    const idx: number[] = [];
    for (let i = 0; i < 7; i++) idx.push(0, 2 + i, 2 + ((i + 1) % 7), 1, 2 + ((i + 1) % 7), 2 + i);
    await expectBrookRejection(subdivide(ctx, { positions: pos, indices: idx }), /valence 7.*supported: valence 4 to 6/);
    const cube = await loadModel('cube');
    await expectBrookRejection(subdivide(ctx, { positions: cube.positions, indices: cube.indices.slice(3) }), /not closed/);
    await expectBrookRejection(subdivide(ctx, cube, { maxDepth: -1 }), /maxDepth must be an integer/);
    await expectBrookRejection(subdivide(ctx, cube, { epsilon: NaN }), /epsilon must be a finite number/);
  });
});
