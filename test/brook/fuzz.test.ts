// Fuzzing the Brook front end: seeded mutants of real Brook sources (truncations, swapped
// tokens, unknown types, unbalanced braces, huge identifiers, empty text, ...). Each one either
// parses and compiles, or throws a BrookError; none throws anything else or hangs.
import { expect } from 'chai';
import { BrookContext, MAX_NESTING, parseBrook, translateBody } from '../../src/index';
import { newContext, rng } from '../helpers';

const SEEDS = [
  `kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
  count = isinf(value[here].x) ? 1 : 0;
  if (here >= 1)
    count += isinf(value[left_1].x) ? 1 : 0;
}`,
  `float twice(float x) { return 2 * x; }
// a helper above, a comment here { (
kernel void k(float input[], float a<>, out float output<>, int shift) {
  int j = 3 + shift;
  float2 p = float2(1, 2);
  output = lerp(a, twice(input[j]), 0.5) + frac(p.y) + input[1][2] + saturate(a);
}`,
  `kernel void sums(float a<>, out float3 o<>) {
  float s = 0;
  for (int i = 0; i < int(a); i++) s += i;
  float t = 0; int j = 0;
  while (j < 5) { t += a; j++; }
  /* do-while */ float u = 1;
  do { u *= 2; } while (u < a);
  o = float3(s, t, u);
}`,
  `typedef struct pair_t { float a; float3 b; } Pair;
float at(float v[], float i) { return v[i]; }
kernel void swap(Pair p<>, Pair g[], float w[], out Pair q<>) {
  q.a = p.b.x + at(w, p.a); q.b = float3(p.a, g[p.a].b.yz);
}
reduce void sum(float a<>, float lo, reduce float r<>) { r = max(r + a, lo); }
kernel void dup(float a<>, vout[2] float o<>) { o = a; push(o); if (a || !a) { o = indexof(a).x; push(o); } }`,
  `kernel void copy2(iter float2 i<>, out float2 output<>) { output = i; return; }
kernel void early(float a<>, out float b<>, out float2 c<>) {
  b = a; if (a < 0) return; c = float2(a, 1);
}`,
];

const TYPES = ['float', 'float2', 'float4', 'int', 'uint3', 'half', 'double', 'Pair', 'char', 'bool', 'unsigned', 'float5', 'vec3'];
const TOKENS = ['{', '}', '(', ')', '[', ']', '<', '>', ';', ',', 'kernel', 'reduce', 'void', 'out', 'iter', 'return', 'while', 'for', '/*', '//', '*/', '"', '#', '\\', '@', '\u0000', '\u{1F600}'];

function tokens(s: string): string[] {
  return s.match(/\s+|[A-Za-z_]\w*|\d+(?:\.\d*)?|\/\*|\*\/|\/\/|[\s\S]/g) ?? [];
}

/** The i-th mutant: a deterministic function of the seed source and the generator. */
function mutate(src: string, r: () => number, i: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const t = tokens(src);
  const at = () => Math.floor(r() * t.length);
  switch (i % 10) {
    case 0:
      return src.slice(0, Math.floor(r() * src.length)); // truncation
    case 1: {
      const a = at();
      const b = at();
      [t[a], t[b]] = [t[b]!, t[a]!]; // swapped tokens
      return t.join('');
    }
    case 2: {
      const ids = t.flatMap((x, k) => (/^(float\d?|int|uint\d?)$/.test(x) ? [k] : []));
      if (ids.length) t[pick(ids)] = pick(TYPES); // unknown (or other) types
      return t.join('');
    }
    case 3: {
      const braces = t.flatMap((x, k) => (/^[{}()]$/.test(x) ? [k] : []));
      if (braces.length) t.splice(pick(braces), 1); // unbalanced braces
      return t.join('');
    }
    case 4: {
      const ids = t.flatMap((x, k) => (/^[A-Za-z_]\w*$/.test(x) ? [k] : []));
      if (ids.length) t[pick(ids)] = 'x'.repeat(1 + Math.floor(r() * 20000)); // huge identifiers
      return t.join('');
    }
    case 5:
      return pick(['', ' ', '\n\n', 'kernel', 'kernel void', 'kernel void k(', '}', '/*', '//', 'kernel void k() {}']);
    case 6: {
      const k = at();
      t.splice(k, 0, pick(TOKENS)); // an inserted token
      return t.join('');
    }
    case 7: {
      const a = at();
      t.splice(a, 1 + Math.floor(r() * 5)); // deleted tokens
      return t.join('');
    }
    case 8: {
      const a = at();
      const b = Math.min(t.length, a + 1 + Math.floor(r() * 30));
      t.splice(b, 0, ...t.slice(a, b)); // a duplicated stretch
      return t.join('');
    }
    default: {
      let s = src; // several mutations at once
      for (let j = 0; j < 3; j++) s = mutate(s, r, Math.floor(r() * 9));
      return s;
    }
  }
}

export const FUZZ_SOURCES = 1200;

describe('brook/fuzz: mutated sources parse and compile, or throw BrookErrors', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('every seed compiles as written', () => {
    for (const src of SEEDS) for (const spec of Object.values(parseBrook(src))) ctx.kernel(spec);
  });

  it(`${FUZZ_SOURCES} seeded mutants: no other error type, no hang, the context survives`, function () {
    this.timeout(240000);
    const r = rng(20261123);
    const tally = { parsed: 0, compiled: 0, brookErrors: 0 };
    const started = performance.now();
    for (let i = 0; i < FUZZ_SOURCES; i++) {
      const src = mutate(SEEDS[i % SEEDS.length]!, r, Math.floor(i / SEEDS.length));
      try {
        const kernels = parseBrook(src);
        tally.parsed++;
        for (const spec of Object.values(kernels)) ctx.kernel(spec);
        tally.compiled++;
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'BrookError') {
          expect.fail(`mutant ${i} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n--- source ---\n${src.slice(0, 2000)}`);
        }
        tally.brookErrors++;
      }
    }
    expect(ctx.isLost).to.equal(false);
    expect(tally.parsed + tally.brookErrors).to.be.at.least(FUZZ_SOURCES);
    expect(tally.compiled).to.be.greaterThan(0);
    expect(tally.brookErrors).to.be.greaterThan(0);
    (globalThis as unknown as { __brookReport?: (e: unknown) => void }).__brookReport?.({
      type: 'info',
      text: `    fuzz: ${FUZZ_SOURCES} mutants, ${tally.compiled} compiled, ${tally.brookErrors} BrookErrors, ${(performance.now() - started).toFixed(0)} ms`,
    });
  });
});

// Pathological sources: nesting past what a recursive parser survives, identifiers of 100k
// characters, long sources. Front end only (no GL): each gives kernels or a BrookError, and a
// nesting error names the line where the limit is passed.
const WRAPS: Record<string, (n: number) => string> = {
  parentheses: (n) => `b = ${'('.repeat(n)}a${')'.repeat(n)};`,
  calls: (n) => `b = ${'abs('.repeat(n)}a${')'.repeat(n)};`,
  helpers: (n) => `b = ${'twice('.repeat(n)}a${')'.repeat(n)};`,
  gathers: (n) => `b = ${'g['.repeat(n)}0${']'.repeat(n)};`,
  braces: (n) => `${'{ '.repeat(n)}b = a;${' }'.repeat(n)}`,
  ifs: (n) => `b = 0.0; ${'if (a > 0.0) { '.repeat(n)}b = a;${' }'.repeat(n)}`,
  ternaries: (n) => `b = ${'a > 0.0 ? a : '.repeat(n)}a;`,
  assignments: (n) => `float c; b = ${'c = '.repeat(n)}a;`,
  unary: (n) => `b = ${'- '.repeat(n * 40)}a;`, // signs: '--' would be decrements, which an input cannot take
  mixed: (n) => `int i = 1; b = ${'(i + '.repeat(n)}a${')'.repeat(n)};`,
};

function deepKernel(what: string, n: number): string {
  return `float twice(float x) { return 2.0 * x; }\n\nkernel void k(float a<>, float g[], out float b<>) {\n  ${WRAPS[what]!(n)}\n}`;
}

function frontEnd(src: string): 'compiled' | Error {
  try {
    parseBrook(src);
    return 'compiled';
  } catch (e) {
    if (!(e instanceof Error) || e.name !== 'BrookError') expect.fail(`threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n--- source ---\n${src.slice(0, 400)}`);
    return e;
  }
}

describe('brook/fuzz: deep nesting, huge identifiers and long sources give kernels or BrookErrors', () => {
  it(`nesting up to MAX_NESTING (${MAX_NESTING}) compiles; deeper (to 10,000) is a BrookError naming the line`, () => {
    for (const what of Object.keys(WRAPS)) {
      const shallow = frontEnd(deepKernel(what, MAX_NESTING - 10));
      expect(shallow, `${what} at ${MAX_NESTING - 10}`).to.equal('compiled');
      for (const n of [MAX_NESTING + 1, 1000, 10000]) {
        const r = frontEnd(deepKernel(what, n));
        if (what === 'unary') {
          expect(r, `a run of ${n * 40} prefix operators`).to.equal('compiled'); // no nesting: a loop
          continue;
        }
        expect(r, `${what} at ${n}`).to.be.instanceOf(Error);
        expect((r as Error).message, `${what} at ${n}`).to.match(/line 4: nested more than 256 levels deep/);
      }
    }
    // the line is where the limit is passed, not where the kernel starts
    const late = `kernel void k(float a<>, out float b<>) {\n  b = a;\n\n  b = ${'('.repeat(300)}a${')'.repeat(300)};\n}`;
    expect((frontEnd(late) as Error).message).to.match(/^\(brookgl\) brook, line 4:/);
    // translateBody on its own checks too
    expect(() => translateBody(`x = ${'('.repeat(5000)}1${')'.repeat(5000)};`, new Set(), new Set())).to.throw(/translateBody, line 1: nested more than/);
  });

  it('identifiers of 100,000 characters in every position', () => {
    const X = 'x'.repeat(100000);
    const Y = 'Y'.repeat(100000);
    const sources = [
      `kernel void ${X}(float a<>, out float b<>) { b = a; }`,
      `kernel void k(float ${X}<>, out float b<>) { b = ${X}; }`,
      `kernel void k(float ${X}<>, out float b<>) { ${X} = 1.0; b = 0.0; }`, // writes an input: a BrookError
      `kernel void k(float a<>, out float ${X}<>) { ${X} = a; }`,
      `kernel void k(float a<>, vout[2] float ${X}<>) { ${X} = a; push(${X}); }`,
      `kernel void k(float a<>, out float b<>) { float ${X} = a; b = ${X} + ${X}; }`,
      `kernel void k(float ${X}[], out float b<>) { b = ${X}[0]; }`,
      `float ${X}(float v) { return v; }\nkernel void k(float a<>, out float b<>) { b = ${X}(a); }`,
      `typedef struct ${Y} { float ${X}; } ${Y};\nkernel void k(${Y} a<>, out float b<>) { b = a.${X}; }`,
      `reduce void ${X}(float a<>, reduce float ${Y}<>) { ${Y} += a; }`,
      `kernel void k(float a<>, out float b<>) { b = a.${X}; }`,
      `kernel void k(float a<>, out float b<>) { b = a; } ${X}`,
    ];
    const got = sources.map(frontEnd);
    expect(got[0]).to.equal('compiled');
    expect(got[1]).to.equal('compiled');
    expect((got[2] as Error).message).to.match(/line 1: 'x+' is an input stream/);
    expect(got[4]).to.equal('compiled');
  });

  it('long sources: 300 kernels, 3,000 statements, a 200,000-character comment, seeded mixtures', () => {
    const many = Array.from({ length: 300 }, (_, i) => `kernel void k${i}(float a<>, out float b<>) {\n  b = a + ${i}.0;\n}`).join('\n');
    const kernels = parseBrook(many);
    expect(Object.keys(kernels)).to.have.length(300);
    expect(kernels.k299!.origin!.bodyLine).to.equal(299 * 3 + 1);
    const statements = `kernel void k(float a<>, out float b<>) {\n  float s = 0.0;\n${'  s = s + a * 2.0;\n'.repeat(3000)}  b = s;\n}`;
    expect(frontEnd(statements)).to.equal('compiled');
    expect(frontEnd(`/*${' {(['.repeat(50000)}*/\nkernel void k(float a<>, out float b<>) { b = a; }`)).to.equal('compiled');
    const r = rng(27);
    const pieces = [...Object.keys(WRAPS).map((w) => (n: number) => WRAPS[w]!(n)), (n: number) => `float ${'z'.repeat(n * 100)} = a;`];
    let errors = 0;
    for (let i = 0; i < 60; i++) {
      const body = Array.from({ length: 1 + Math.floor(r() * 6) }, () => pieces[Math.floor(r() * pieces.length)]!(Math.floor(r() * 600))).join('\n  ');
      const got = frontEnd(`float twice(float x) { return 2.0 * x; }\nkernel void k(float a<>, float g[], out float b<>) {\n  ${body}\n}`);
      if (got !== 'compiled') errors++;
    }
    expect(errors).to.be.greaterThan(0);
    expect(errors).to.be.lessThan(60);
  });
});
