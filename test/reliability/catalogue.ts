// The public API as a table of calls with valid arguments and, per argument, the classes of bad
// value it must refuse. The exhaustive spec walks every (call, argument, class); the fuzz draws
// random ones (several bad arguments at once too). Sizes stay tiny: refusals run no passes.
import {
  BrookContext,
  Ccd,
  binPoints,
  buildObbTree,
  collide,
  createCcd,
  createCollider,
  parsePly,
  subdivide,
  createAgents,
  createDem,
  createFluid,
  KernelSpec,
  Stream,
  createContext,
  createNBody,
  filter,
  iter,
  liveCount,
  nbodyPreset,
  occlusionLoop,
  runBranch,
  scan,
  sortStream,
} from '../../src/index';

/** The classes of bad input of issue 15. */
export type BadClass =
  | 'missing'
  | 'null'
  | 'string'
  | 'object'
  | 'array'
  | 'boolean'
  | 'function'
  | 'NaN'
  | 'Infinity'
  | '-Infinity'
  | 'negative'
  | 'non-integer'
  | 'out-of-range'
  | 'foreign'
  | 'disposed'
  | 'wrong-stream';

/** Streams and contexts the bad values are made of (made once per spec). */
export interface Fixtures {
  ctx: BrookContext;
  other: BrookContext;
  dead: BrookContext;
  f16: Stream;
  i16: Stream;
  u16: Stream;
  f4x16: Stream;
  out16: Stream;
  foreign: Stream;
  disposed: Stream;
  /** A CCD pipeline over two triangles (for Ccd.step and Ccd.setPositions). */
  ccd: Ccd;
}

/** A tetrahedron (closed: Loop subdivision and OBB trees take it). */
export function tetrahedron(): { positions: Float32Array; indices: Int32Array } {
  return { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), indices: new Int32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]) };
}

/** An octahedron (every vertex of valence 4, as Listing 36-5's patches need). */
export function octahedron(): { positions: Float32Array; indices: Int32Array } {
  return {
    positions: new Float32Array([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1]),
    indices: new Int32Array([0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5]),
  };
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const PLY = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n';

/** Two triangles, one falling through the other (6 vertices). */
export function tinyCcdScene(): { x0: Float32Array; x1: Float32Array; tris: Int32Array } {
  const x0 = new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 0.2, 0.5, 0.2, 0.6, 0.5, 0.2, 0.2, 0.5, 0.6]);
  const x1 = x0.map((v, i) => (i >= 9 && i % 3 === 1 ? -0.5 : v));
  return { x0, x1, tris: new Int32Array([0, 1, 2, 3, 4, 5]) };
}

export function makeFixtures(ctx: BrookContext): Fixtures {
  const other = createContext();
  const dead = createContext();
  dead.dispose();
  const disposed = ctx.stream('float', 16);
  disposed.dispose();
  return {
    ctx,
    other,
    dead,
    f16: ctx.stream('float', 16, new Float32Array(16).fill(1)),
    i16: ctx.stream('int', 16, new Int32Array(16)),
    u16: ctx.stream('uint', 16, new Uint32Array(16)),
    f4x16: ctx.stream('float4', 16, new Float32Array(64)),
    out16: ctx.stream('float', 16),
    foreign: other.stream('float', 16, new Float32Array(16)),
    disposed,
    ccd: createCcd(ctx, tinyCcdScene()),
  };
}

export function disposeFixtures(f: Fixtures): void {
  [f.f16, f.i16, f.u16, f.f4x16, f.out16].forEach((s) => s.dispose());
  f.ccd.dispose();
  f.other.dispose();
}

const MISSING = Symbol('missing');

/** A bad value of class `c` (MISSING: leave the argument out). */
export function badValue(c: BadClass, f: Fixtures): unknown {
  switch (c) {
    case 'missing': return MISSING;
    case 'null': return null;
    case 'string': return 'x';
    case 'object': return { length: 2 };
    case 'array': return [1, 'two'];
    case 'boolean': return true;
    case 'function': return () => 1;
    case 'NaN': return NaN;
    case 'Infinity': return Infinity;
    case '-Infinity': return -Infinity;
    case 'negative': return -3;
    case 'non-integer': return 2.5;
    case 'out-of-range': return 2 ** 40;
    case 'foreign': return f.foreign;
    case 'disposed': return f.disposed;
    case 'wrong-stream': return f.u16;
  }
}

export interface Argument {
  /** Path in the argument list: [index] or [index, key] for an options object's field. */
  at: [number] | [number, string];
  /** The message must name the argument so. */
  names: RegExp;
  refuses: BadClass[];
}

export interface Call {
  name: string;
  /** Valid arguments (fresh objects each time). */
  args: (f: Fixtures) => unknown[];
  call: (f: Fixtures, args: unknown[]) => unknown;
  arguments: Argument[];
}

const NOT_A_STREAM: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'boolean', 'function', 'NaN', 'Infinity', 'negative', 'foreign', 'disposed'];
const NOT_A_CONTEXT: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'];
const NOT_AN_OBJECT: BadClass[] = ['null', 'string', 'boolean', 'NaN', 'negative', 'array'];
const NOT_A_STRING: BadClass[] = ['missing', 'null', 'object', 'array', 'boolean', 'function', 'NaN', 'Infinity', 'negative'];
const NOT_A_FUNCTION: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'];
const NOT_A_COUNT: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity', '-Infinity', 'negative', 'non-integer'];
const NOT_AN_INT: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'NaN', 'Infinity', '-Infinity', 'non-integer', 'out-of-range'];
const NOT_A_NUMBER: BadClass[] = ['missing', 'null', 'string', 'object', 'array', 'NaN', 'Infinity', '-Infinity'];
const NOT_DATA: BadClass[] = ['null', 'string', 'object', 'array', 'boolean', 'function', 'NaN', 'negative'];

const copy: KernelSpec = { name: 'FuzzCopy', inputs: { a: 'float' }, uniforms: { n: 'int', s: 'float' }, iters: { t: 'float' }, outputs: { b: 'float' }, body: 'b = a + float(n) * s + t;' };
const branch = { name: 'FuzzBranch', inputs: { x: 'float' as const }, outputs: { y: 'float' as const }, cond: 'x > 0.0', then: 'y = 1.0;', else: 'y = 2.0;' };

export const CALLS: Call[] = [
  {
    name: 'ctx.stream',
    args: () => ['float', 4, [1, 2, 3, 4]],
    call: (f, a) => f.ctx.stream(a[0] as never, a[1] as never, a[2] as never),
    arguments: [
      { at: [0], names: /element type/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [1], names: /stream (length|shape|of)/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity', '-Infinity', 'negative', 'non-integer', 'out-of-range'] },
      { at: [2], names: /write\(data\)|write\(\) got/, refuses: NOT_DATA },
    ],
  },
  {
    name: 'stream.write',
    args: () => [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]],
    call: (f, a) => void f.f16.write(a[0] as never),
    arguments: [{ at: [0], names: /write\(data\)|write\(\) got/, refuses: ['missing', ...NOT_DATA] }],
  },
  {
    name: 'stream.read',
    args: () => [{ method: 'pack' }],
    call: (f, a) => f.f16.read(a[0] as never),
    arguments: [
      { at: [0], names: /read\(\)/, refuses: NOT_AN_OBJECT },
      { at: [0, 'method'], names: /read\(\): method/, refuses: ['string', 'object', 'NaN', 'boolean'] },
    ],
  },
  {
    name: 'ctx.run',
    args: (f) => [copy, { a: f.f16, n: 2, s: 0.5, t: iter(0, 16), b: f.out16 }],
    call: (f, a) => f.ctx.run(a[0] as never, a[1] as never),
    arguments: [
      { at: [0], names: /kernel/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [1], names: /arguments as an object/, refuses: ['missing', 'null', 'string', 'NaN', 'boolean'] },
      { at: [1, 'a'], names: /argument 'a'/, refuses: [...NOT_A_STREAM, 'wrong-stream'] },
      { at: [1, 'n'], names: /argument 'n'/, refuses: NOT_AN_INT },
      { at: [1, 's'], names: /argument 's'/, refuses: ['missing', 'null', 'string', 'object', 'array'] },
      { at: [1, 't'], names: /argument 't'/, refuses: ['missing', 'null', 'string', 'object', 'array', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'iter',
    args: () => [0, 16],
    call: (_, a) => iter(a[0] as never, a[1] as never),
    arguments: [
      { at: [0], names: /iter\(start, end\): start/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity', '-Infinity'] },
      { at: [1], names: /iter\(start, end\): end/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity', '-Infinity'] },
    ],
  },
  {
    name: 'ctx.reduce',
    args: (f) => [f.f16, 'sum'],
    call: (f, a) => f.ctx.reduce(a[0] as never, a[1] as never),
    arguments: [
      { at: [0], names: /reduce: stream/, refuses: NOT_A_STREAM },
      { at: [1], names: /reduction/, refuses: ['missing', 'null', 'string', 'array', 'boolean', 'NaN'] },
    ],
  },
  {
    name: 'ctx.zmask',
    args: (f) => [f.f16],
    call: (f, a) => f.ctx.zmask(a[0] as never),
    arguments: [{ at: [0], names: /zmask: like/, refuses: NOT_A_STREAM }],
  },
  {
    name: 'scan',
    args: (f) => [f.ctx, f.f16, { exclusive: true }],
    call: (_, a) => scan(a[0] as never, a[1] as never, a[2] as never),
    arguments: [
      { at: [0], names: /scan: the first argument must be a brookgl context|disposed/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /scan: stream/, refuses: NOT_A_STREAM },
      { at: [2], names: /scan: options/, refuses: NOT_AN_OBJECT },
      { at: [2, 'exclusive'], names: /options.exclusive/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'sortStream',
    args: (f) => [f.ctx, f.f16, { payload: f.i16 }],
    call: (_, a) => sortStream(a[0] as never, a[1] as never, a[2] as never),
    arguments: [
      { at: [0], names: /sortStream: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /sortStream: keys/, refuses: [...NOT_A_STREAM, 'wrong-stream'] },
      { at: [2], names: /sortStream: options/, refuses: NOT_AN_OBJECT },
      { at: [2, 'payload'], names: /sortStream: options.payload/, refuses: ['null', 'string', 'object', 'array', 'boolean', 'NaN', 'foreign', 'disposed'] },
    ],
  },
  {
    name: 'filter',
    args: (f) => [f.ctx, f.f16, { keep: 'x > 0.0', method: 'pyramid', indices: false }],
    call: (_, a) => filter(a[0] as never, a[1] as never, a[2] as never),
    arguments: [
      { at: [0], names: /filter: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /filter: stream/, refuses: NOT_A_STREAM },
      { at: [2], names: /filter: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [2, 'keep'], names: /options.keep|exactly one of/, refuses: NOT_A_STRING },
      { at: [2, 'method'], names: /options.method/, refuses: ['string', 'object', 'NaN', 'boolean'] },
      { at: [2, 'indices'], names: /options.indices/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'liveCount',
    args: (f) => [f.ctx, f.f16, 'x > 0.0'],
    call: (_, a) => liveCount(a[0] as never, a[1] as never, a[2] as never),
    arguments: [
      { at: [0], names: /liveCount: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /liveCount: stream/, refuses: NOT_A_STREAM },
      { at: [2], names: /liveCount: keep/, refuses: NOT_A_STRING },
    ],
  },
  {
    name: 'runBranch',
    args: (f) => [f.ctx, { ...branch }, { x: f.f16, y: f.out16 }, { method: 'predicate' }],
    call: (_, a) => runBranch(a[0] as never, a[1] as never, a[2] as never, a[3] as never),
    arguments: [
      { at: [0], names: /runBranch: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /runBranch: branch/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'cond'], names: /cond/, refuses: NOT_A_STRING },
      { at: [1, 'then'], names: /then/, refuses: ['missing', 'null', 'object', 'NaN', 'boolean'] },
      { at: [2, 'x'], names: /argument 'x'/, refuses: [...NOT_A_STREAM, 'wrong-stream'] },
      { at: [3, 'method'], names: /method/, refuses: ['string', 'object', 'NaN', 'boolean'] },
    ],
  },
  {
    name: 'occlusionLoop',
    args: () => [undefined, { iterate: () => {}, terminate: () => {}, maxIterations: 4, inFlight: 1 }],
    call: (f, a) => occlusionLoop((a[0] ?? f.ctx) as never, a[1] as never),
    arguments: [
      { at: [1], names: /occlusionLoop: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'iterate'], names: /options.iterate/, refuses: NOT_A_FUNCTION },
      { at: [1, 'terminate'], names: /options.terminate/, refuses: NOT_A_FUNCTION },
      { at: [1, 'maxIterations'], names: /options.maxIterations/, refuses: NOT_A_COUNT },
      { at: [1, 'inFlight'], names: /options.inFlight/, refuses: ['string', 'object', 'NaN', 'Infinity', 'negative', 'non-integer'] },
    ],
  },
  {
    name: 'queries',
    args: () => [() => {}],
    call: (f, a) => f.ctx.queries.occlusion(a[0] as never),
    arguments: [{ at: [0], names: /queries.occlusion: draw/, refuses: NOT_A_FUNCTION }],
  },
  {
    name: 'createNBody',
    args: (f) => [f.ctx, { ...nbodyPreset('plummer', 4, 3), softening: 0.1, method: { p: 4, u: 2 } }],
    call: (_, a) => createNBody(a[0] as never, a[1] as never).dispose(),
    arguments: [
      { at: [0], names: /createNBody: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /createNBody: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'positions'], names: /options.positions/, refuses: ['missing', ...NOT_DATA] },
      { at: [1, 'softening'], names: /options.softening/, refuses: [...NOT_A_NUMBER, 'negative', 'boolean'] },
      { at: [1, 'velocities'], names: /options.velocities/, refuses: NOT_DATA },
      { at: [1, 'method'], names: /method|variant/, refuses: ['null', 'string', 'array', 'boolean', 'NaN', 'negative', 'object'] },
    ],
  },
  {
    name: 'binPoints',
    args: (f) => [f.ctx, f.f4x16, { cells: [2, 2, 2], origin: [0, 0, 0], cellSize: 0.5 }, { capacity: 2, method: 'naive' }],
    call: async (_, a) => disposeResult(await binPoints(a[0] as never, a[1] as never, a[2] as never, a[3] as never)),
    arguments: [
      { at: [0], names: /binPoints: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /binPoints: positions/, refuses: [...NOT_A_STREAM, 'wrong-stream'] },
      { at: [2], names: /binPoints: grid/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [2, 'cells'], names: /grid.cells/, refuses: ['missing', 'null', 'string', 'object', 'array', 'NaN', 'negative'] },
      { at: [2, 'origin'], names: /grid.origin/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity'] },
      { at: [2, 'cellSize'], names: /grid.cellSize/, refuses: [...NOT_A_NUMBER, 'negative', 'boolean'] },
      { at: [3], names: /binning: options/, refuses: NOT_AN_OBJECT },
      { at: [3, 'capacity'], names: /options.capacity/, refuses: ['null', 'string', 'object', 'NaN', 'Infinity', 'negative', 'non-integer'] },
      { at: [3, 'method'], names: /options.method/, refuses: ['string', 'object', 'NaN', 'boolean'] },
      { at: [3, 'into'], names: /options.into/, refuses: ['null', 'string', 'object', 'NaN', 'boolean'] },
    ],
  },
  {
    name: 'createDem',
    args: (f) => [f.ctx, { count: 8, diameter: 0.25, spring: 100 }],
    call: (_, a) => createDem(a[0] as never, a[1] as never).dispose(),
    arguments: [
      { at: [0], names: /createDem: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /createDem: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'count'], names: /options.count/, refuses: [...NOT_A_COUNT, 'out-of-range'] },
      { at: [1, 'diameter'], names: /options.diameter|diameter must be/, refuses: [...NOT_A_NUMBER, 'negative', 'boolean'] },
      { at: [1, 'spring'], names: /options.spring/, refuses: ['null', 'string', 'object', 'NaN', 'Infinity', 'negative'] },
    ],
  },
  {
    name: 'createAgents',
    args: (f) => [f.ctx, { count: 8 }],
    call: (_, a) => createAgents(a[0] as never, a[1] as never).dispose(),
    arguments: [
      { at: [0], names: /createAgents: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /createAgents: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'count'], names: /options.count/, refuses: [...NOT_A_COUNT, 'out-of-range'] },
      { at: [1, 'speed'], names: /options.speed/, refuses: ['null', 'string', 'object', 'NaN', 'Infinity', 'negative'] },
    ],
  },
  {
    name: 'createFluid',
    args: (f) => [f.ctx, { size: 8, jacobi: 2 }],
    call: (_, a) => createFluid(a[0] as never, a[1] as never).dispose(),
    arguments: [
      { at: [0], names: /createFluid: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /createFluid: options/, refuses: ['missing', ...NOT_AN_OBJECT] },
      { at: [1, 'size'], names: /options.size/, refuses: [...NOT_A_COUNT, 'out-of-range'] },
      { at: [1, 'jacobi'], names: /options.jacobi/, refuses: ['null', 'string', 'object', 'NaN', 'Infinity', 'negative', 'non-integer', 'out-of-range'] },
    ],
  },
  {
    name: 'createCcd',
    args: (f) => [f.ctx, tinyCcdScene(), { rebuildGrowth: 2, lws: { blocks: 2, threads: 8 } }],
    call: (_, a) => createCcd(a[0] as never, a[1] as never, a[2] as never).dispose(),
    arguments: [
      { at: [0], names: /createCcd: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /createCcd: scene/, refuses: ['missing', 'null', 'string', 'object', 'boolean', 'NaN', 'negative', 'array'] },
      { at: [1, 'x0'], names: /scene.x0/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'function'] },
      { at: [1, 'x1'], names: /scene.x1/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [1, 'tris'], names: /scene.tris/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [1, 'objects'], names: /scene.objects/, refuses: ['null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [1, 'self'], names: /scene.self/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
      { at: [2], names: /createCcd: options/, refuses: NOT_AN_OBJECT },
      { at: [2, 'rebuildGrowth'], names: /options.rebuildGrowth/, refuses: ['null', 'string', 'object', 'array', 'boolean', 'NaN', 'Infinity', '-Infinity', 'negative'] },
      { at: [2, 'lws'], names: /options.lws/, refuses: NOT_AN_OBJECT },
    ],
  },
  {
    name: 'Ccd.step',
    args: () => [{ balance: 'lws', fromRoot: true, profile: false, lws: { blocks: 2, threads: 8 } }],
    call: (f, a) => f.ccd.step(a[0] as never),
    arguments: [
      { at: [0], names: /Ccd.step: options/, refuses: NOT_AN_OBJECT },
      { at: [0, 'balance'], names: /options.balance/, refuses: ['null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
      { at: [0, 'fromRoot'], names: /options.fromRoot/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
      { at: [0, 'profile'], names: /options.profile/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
      { at: [0, 'lws'], names: /options.lws/, refuses: NOT_AN_OBJECT },
    ],
  },
  {
    name: 'Ccd.setPositions',
    args: () => [tinyCcdScene().x0, tinyCcdScene().x1],
    call: (f, a) => f.ccd.setPositions(a[0] as never, a[1] as never),
    arguments: [
      { at: [0], names: /setPositions: x0/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'function'] },
      { at: [1], names: /setPositions: x1/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'function'] },
    ],
  },
  {
    name: 'parsePly',
    args: () => [PLY],
    call: (_, a) => parsePly(a[0] as never),
    arguments: [{ at: [0], names: /parsePly/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'function', 'NaN', 'negative'] }],
  },
  {
    name: 'buildObbTree',
    args: () => [tetrahedron().positions, tetrahedron().indices],
    call: (_, a) => buildObbTree(a[0] as never, a[1] as never),
    arguments: [
      { at: [0], names: /buildObbTree.*positions/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
      { at: [1], names: /buildObbTree.*indices/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'createCollider',
    args: (f) => {
      const t = tetrahedron();
      const tree = buildObbTree(t.positions, t.indices);
      return [f.ctx, tree, tree];
    },
    call: (_, a) => createCollider(a[0] as never, a[1] as never, a[2] as never).dispose(),
    arguments: [
      { at: [0], names: /createCollider: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /treeA/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
      { at: [2], names: /treeB/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'collide',
    args: (f) => {
      const t = tetrahedron();
      const tree = buildObbTree(t.positions, t.indices);
      return [f.ctx, tree, [...IDENTITY], tree, [...IDENTITY]];
    },
    call: async (_, a) => disposeResult(await collide(a[0] as never, a[1] as never, a[2] as never, a[3] as never, a[4] as never)),
    arguments: [
      { at: [0], names: /collide: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /treeA/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN'] },
      { at: [2], names: /poseA/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
      { at: [4], names: /poseB/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'subdivide',
    args: (f) => [f.ctx, octahedron(), { epsilon: 0.05, maxDepth: 0, adaptive: true }], // no rounds: refusals are the point, and compiling the rounds' kernels takes seconds
    call: async (_, a) => disposeResult(await subdivide(a[0] as never, a[1] as never, a[2] as never)),
    arguments: [
      { at: [0], names: /subdivide: the first argument/, refuses: NOT_A_CONTEXT },
      { at: [1], names: /subdivide\(ctx, mesh\): mesh/, refuses: ['missing', 'null', 'string', 'object', 'array', 'boolean', 'NaN', 'negative'] },
      { at: [1, 'positions'], names: /mesh must be/, refuses: ['missing', 'null', 'object', 'array', 'NaN'] },
      { at: [1, 'indices'], names: /mesh must be|indices\[/, refuses: ['missing', 'null', 'string', 'object', 'array', 'NaN'] },
      { at: [2], names: /subdivide: options/, refuses: NOT_AN_OBJECT },
      { at: [2, 'epsilon'], names: /epsilon/, refuses: ['string', 'object', 'array', 'NaN', 'Infinity', '-Infinity', 'negative'] },
      { at: [2, 'maxDepth'], names: /maxDepth/, refuses: ['string', 'object', 'array', 'boolean', 'NaN', 'Infinity', 'negative', 'non-integer'] },
      { at: [2, 'adaptive'], names: /options.adaptive/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
    ],
  },
  {
    name: 'createContext',
    args: () => [{ debug: false }],
    call: (_, a) => createContext(a[0] as never).dispose(),
    arguments: [
      { at: [0], names: /createContext: options/, refuses: NOT_AN_OBJECT },
      { at: [0, 'canvas'], names: /options.canvas/, refuses: ['null', 'string', 'object', 'array', 'boolean', 'NaN', 'function'] },
      { at: [0, 'debug'], names: /options.debug/, refuses: ['null', 'string', 'object', 'NaN', 'negative'] },
    ],
  },
];

/** The arguments of `call` with argument `arg` replaced by a value of class `c` (in place). */
export function substitute(args: unknown[], arg: Argument, value: unknown): void {
  const [i, key] = arg.at;
  if (key === undefined) {
    if (value === MISSING) args[i] = undefined;
    else args[i] = value;
    return;
  }
  const holder = args[i];
  if (holder === null || typeof holder !== 'object') return; // the holder itself was replaced
  const copy: Record<string, unknown> = { ...(holder as Record<string, unknown>) };
  if (value === MISSING) delete copy[key];
  else copy[key] = value;
  args[i] = copy;
}

/** Disposes what a successful call returned (streams, masks, results holding streams). */
export function disposeResult(r: unknown): void {
  if (!r || typeof r !== 'object') return;
  const d = (r as { dispose?: unknown }).dispose;
  if (typeof d === 'function') {
    (d as () => void).call(r);
    return;
  }
  for (const v of Object.values(r as Record<string, unknown>)) if (v && typeof (v as { dispose?: unknown }).dispose === 'function') (v as { dispose: () => void }).dispose();
}
