import { expect } from 'chai';
import { BrookContext, buildObbTree, collide, createCollider, reference, type ObbTree } from '../../src/index';
import { expectBrookError, expectBrookRejection, expectNoGLError, newContext } from '../helpers';
import { loadModel, poseZ } from './models';

const key = (pairs: ArrayLike<number>) => {
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push(`${pairs[i]},${pairs[i + 1]}`);
  return out;
};
const flat = (pairs: Array<[number, number]>) => pairs.flat();

describe('apps/collide (Horn, section 36.2: OBB-tree collision)', () => {
  let ctx: BrookContext;
  let cube: ObbTree;
  let small: ObbTree;
  before(async () => {
    ctx = newContext();
    const m = await loadModel('cube');
    cube = buildObbTree(m.positions, m.indices);
    small = buildObbTree(m.positions.map((x) => x / 4), m.indices);
  });
  after(() => ctx.dispose());

  it('builds RAPID-style trees: one leaf per triangle, children in pairs, every vertex inside its boxes', async () => {
    const m = await loadModel('dragon');
    const tree = buildObbTree(m.positions, m.indices);
    expect(tree.nodeCount).to.equal(2 * 2730);
    let leaves = 0;
    const outside: string[] = [];
    const seen = new Set<number>();
    // walk down with absolute frames: every triangle corner lies inside every box above it
    const walk = (node: number, frame: { R: number[][]; c: number[] }, tris: number[][]) => {
      const [x, y, z] = reference.boxAxes(tree, node);
      const t = Array.from(tree.translation.slice(node * 3, node * 3 + 3));
      const axes = [x, y, z].map((a) => [0, 1, 2].map((i) => frame.R[0]![i]! * a[0] + frame.R[1]![i]! * a[1] + frame.R[2]![i]! * a[2]));
      const c = [0, 1, 2].map((i) => frame.c[i]! + frame.R[0]![i]! * t[0]! + frame.R[1]![i]! * t[1]! + frame.R[2]![i]! * t[2]!);
      const leaf = tree.radius[node * 4 + 3] !== 0;
      const mine: number[][] = [];
      const collect = (n: number) => {
        if (tree.radius[n * 4 + 3] !== 0) mine.push([tree.children[n * 2]!]);
        else [0, 1].forEach((k) => collect(tree.children[n * 2]! + k));
      };
      collect(node);
      for (const [tri] of mine) {
        for (const arr of [tree.triA, tree.triB, tree.triC]) {
          const p = [0, 1, 2].map((i) => arr[tri! * 3 + i]! - c[i]!);
          for (let a = 0; a < 3; a++) {
            const s = Math.abs(p[0]! * axes[a]![0]! + p[1]! * axes[a]![1]! + p[2]! * axes[a]![2]!);
            if (s > tree.radius[node * 4 + a]! * (1 + 1e-6)) outside.push(`node ${node} axis ${a}: ${s}`);
          }
        }
      }
      if (leaf) {
        leaves++;
        seen.add(tree.children[node * 2]!);
        return;
      }
      const left = tree.children[node * 2]!;
      expect(left % 2, 'left children at even records').to.equal(0);
      expect(tree.radius[node * 4]!).to.be.at.least(tree.radius[node * 4 + 1]!);
      walk(left, { R: axes, c }, tris);
      walk(left + 1, { R: axes, c }, tris);
    };
    walk(0, { R: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], c: [0, 0, 0] }, []);
    expect(outside, 'corners outside their boxes').to.deep.equal([]);
    expect(leaves).to.equal(2730);
    expect(seen.size).to.equal(2730);
  });

  const cases: Array<[string, () => ObbTree, number[], boolean]> = [
    ['touching (face to face, edges along the seam)', () => cube, poseZ(0, [16, 0, 0]), true],
    ['interpenetrating', () => cube, poseZ(30, [5, 3, 1]), true],
    ['separated', () => cube, poseZ(0, [17, 0, 0]), false],
    ['identical', () => cube, poseZ(0), true],
    ['one inside the other', () => small, poseZ(20, [1, -1, 0.5]), false],
  ];
  for (const [name, other, pose, hit] of cases) {
    it(`${name}: the GPU's pairs and per-level counts equal the CPU breadth-first traversal's and brute force`, async () => {
      const before = ctx.stats();
      const B = other();
      const got = await collide(ctx, cube, poseZ(0), B, pose);
      const rel = reference.relativePose(poseZ(0), pose);
      const bfs = reference.collideBreadthFirst(cube, B, rel);
      const brute = reference.collideBruteForce(cube, B, rel);
      const rec = reference.collideRecursive(cube, B, rel);
      expect(got.levels).to.deep.equal(bfs.levels);
      expect(key(got.pairs), 'GPU pairs in traversal order').to.deep.equal(key(flat(bfs.pairs)));
      expect(key(got.pairs).sort(), 'GPU pairs = brute force').to.deep.equal(key(flat(brute)).sort());
      expect(key(flat(rec)).sort(), 'Listing 36-4 recursion = brute force').to.deep.equal(key(flat(brute)).sort());
      expect(got.count > 0, 'collides').to.equal(hit);
      expect(got.triangleTests).to.equal(bfs.triangleTests);
      if (name.startsWith('one inside')) expect(got.levels.length, 'boxes overlap all the way down').to.be.greaterThan(2);
      expectNoGLError(ctx);
      const live = (st: ReturnType<typeof ctx.stats>) => st.textures - st.pooledTextures;
      expect(live(ctx.stats()), 'live textures').to.equal(live(before));
    });
  }

  it('the dragon against itself rotated 90° about z (BrookGPU\'s demo): equal to the CPU traversal and to brute force', async function () {
    this.timeout(120_000);
    const m = await loadModel('dragon');
    const tree = buildObbTree(m.positions, m.indices);
    const pose = poseZ(90);
    const collider = createCollider(ctx, tree, tree);
    const got = await collider.collide(poseZ(0), pose);
    collider.dispose();
    const rel = reference.relativePose(poseZ(0), pose);
    const bfs = reference.collideBreadthFirst(tree, tree, rel);
    expect(got.levels).to.deep.equal(bfs.levels);
    expect(key(got.pairs)).to.deep.equal(key(flat(bfs.pairs)));
    const brute = reference.collideBruteForce(tree, tree, rel, { cull: true });
    expect(key(got.pairs).sort()).to.deep.equal(key(flat(brute)).sort());
    expect(got.count).to.be.greaterThan(0);
    const tested = got.levels.reduce((s, l) => s + l.tested, 0);
    (window as unknown as { __brookReport?: (e: { type: string; text: string }) => void }).__brookReport?.({ type: 'info', text:
      `      dragon vs dragon rotated 90° about z: ${got.levels.length} levels, ${tested} box pairs tested, ` +
        `${got.triangleTests} triangle pairs tested, ${got.count} colliding; per level (tested/split/leaf): ` +
        got.levels.map((l) => `${l.tested}/${l.split}/${l.leafPairs}`).join(' '),
    });
    expectNoGLError(ctx);
  });

  it('the tolerance bounds every reported pair: the dragon against itself turned 0.01° (near-coplanar neighbours)', async function () {
    this.timeout(120_000);
    const m = await loadModel('dragon');
    const tree = buildObbTree(m.positions, m.indices);
    const pose = poseZ(0.01);
    const got = await collide(ctx, tree, poseZ(0), tree, pose);
    const rel = reference.relativePose(poseZ(0), pose);
    const bfs = reference.collideBreadthFirst(tree, tree, rel);
    expect(key(got.pairs), 'GPU equals the CPU traversal').to.deep.equal(key(flat(bfs.pairs)));
    // double-precision distance between triangle a of A and triangle b of B (moved by the pose)
    const corner = (t: ObbTree, i: number, k: number): number[] => Array.from([t.triA, t.triB, t.triC][k]!.slice(i * 3, i * 3 + 3));
    const move = (p: number[]) => [0, 1, 2].map((r) => rel.rows[r]![0] * p[0]! + rel.rows[r]![1] * p[1]! + rel.rows[r]![2] * p[2]! + rel.t[r]!);
    const still = (pts: number[][]) => [...pts, ...pts].flat();
    const distance = (a: number, b: number) => {
      const V = [0, 1, 2].map((k) => corner(tree, a, k)), U = [0, 1, 2].map((k) => move(corner(tree, b, k)));
      let d = Infinity;
      for (const [P, Q] of [[V, U], [U, V]] as const) {
        for (const p of P) d = Math.min(d, reference.ccdDistanceAt('vf', still([p, ...Q]), 0));
        // an edge of P crossing Q's plane: the crossing point against Q
        const n = [0, 1, 2].map((c) => { const e = Q[1]!.map((x, i) => x - Q[0]![i]!), g = Q[2]!.map((x, i) => x - Q[0]![i]!); return e[(c + 1) % 3]! * g[(c + 2) % 3]! - e[(c + 2) % 3]! * g[(c + 1) % 3]!; });
        const side = (x: number[]) => n.reduce((s, nc, c) => s + nc * (x[c]! - Q[0]![c]!), 0);
        for (let i = 0; i < 3; i++) {
          const e0 = P[i]!, e1 = P[(i + 1) % 3]!, s0 = side(e0), s1 = side(e1);
          if (s0 * s1 <= 0 && s0 !== s1) d = Math.min(d, reference.ccdDistanceAt('vf', still([e0.map((x, c) => x + (e1[c]! - x) * (s0 / (s0 - s1))), ...Q]), 0));
        }
      }
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) d = Math.min(d, reference.ccdDistanceAt('ee', still([V[i]!, V[(i + 1) % 3]!, U[j]!, U[(j + 1) % 3]!]), 0));
      return { d, size: reference.triangleSize(V[0] as reference.Vec3, V[1] as reference.Vec3, V[2] as reference.Vec3, U[0] as reference.Vec3, U[1] as reference.Vec3, U[2] as reference.Vec3) };
    };
    let worst = 0;
    for (const [a, b] of bfs.pairs) {
      const { d, size } = distance(a, b);
      worst = Math.max(worst, d / size);
      // the bound: TRI_TOLERANCE of the pair's size, and the float32 rounding of the distance (2^-20 of it)
      expect(d, `pair ${a} ${b}`).to.be.at.most(reference.TRI_TOLERANCE * size + 2 ** -20 * size);
    }
    // the pairs Möller's tolerant test alone calls touching: some are farther apart than the bound
    const leaves = bfs.leaves!;
    let farMoller = 0, farthest = 0;
    for (const [a, b] of leaves) {
      const V = [0, 1, 2].map((k) => corner(tree, a, k)) as reference.Vec3[], U = [0, 1, 2].map((k) => move(corner(tree, b, k))) as reference.Vec3[];
      if (!reference.mollerContact(V[0]!, V[1]!, V[2]!, U[0]!, U[1]!, U[2]!)) continue;
      const { d, size } = distance(a, b);
      if (d > reference.TRI_TOLERANCE * size + 2 ** -20 * size) (farMoller++, (farthest = Math.max(farthest, d)));
    }
    expect(farMoller, 'pairs the tolerant test alone reported beyond the bound').to.be.greaterThan(0);
    (window as unknown as { __brookReport?: (e: { type: string; text: string }) => void }).__brookReport?.({ type: 'info', text:
      `      dragon vs dragon turned 0.01°: ${got.count} pairs reported, the farthest ${(worst * 1e5).toFixed(2)}e-5 of its size apart; ` +
        `${farMoller} more that Möller's tolerant test alone reported, up to ${farthest.toExponential(2)} apart, dropped by the distance check`,
    });
  });

  it('refuses bad arguments with a BrookError', async () => {
    expectBrookError(() => buildObbTree([0, 0], [0, 0, 0]), /positions must hold x, y, z/);
    expectBrookError(() => buildObbTree([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 3]), /indices\[2\] = 3 is not a vertex index/);
    expectBrookError(() => buildObbTree([0, 0, NaN, 1, 0, 0, 0, 1, 0], [0, 1, 2]), /positions\[2\] = NaN is not finite/);
    await expectBrookRejection(collide(ctx, cube, [1, 2, 3], cube, poseZ(0)), /poseA must be a rigid 4x4 matrix/);
    // x and y swapped: a reflection (det -1) is not a rigid motion; nor is a scale or a projective row
    const mirror = [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    await expectBrookRejection(collide(ctx, cube, poseZ(0), cube, mirror), /poseB is not a rigid motion: a reflection \(det R = -1\.000\); max \|R\^T R - I\| = 0\.00/);
    const scaled = Array.from(poseZ(0), (x, i) => (i === 0 ? x * 1.01 : x));
    await expectBrookRejection(collide(ctx, cube, scaled, cube, poseZ(0)), /poseA is not a rigid motion: not orthonormal \(det R = 1\.010\); max \|R\^T R - I\| = 0\.0201/);
    const projective = Array.from(poseZ(0), (x, i) => (i === 3 ? 0.5 : x));
    await expectBrookRejection(collide(ctx, cube, projective, cube, poseZ(0)), /poseA is not a rigid motion: not affine; .* bottom row off \(0, 0, 0, 1\) by 0\.500/);
    // a float32 rotation is rigid within the tolerance
    const f32 = Float32Array.from(poseZ(37, [1, 2, 3]));
    expect((await collide(ctx, cube, f32, cube, poseZ(0))).count).to.be.greaterThan(0);
    expectBrookError(() => createCollider(ctx, {} as ObbTree, cube), /expected an OBB tree/);
  });
});
