// `npx brookgl` checked in Node, as a person with BrookGPU code runs it, from this checkout's build
// (dist/cli/brookgl.mjs; `node scripts/build.mjs` makes it): the .br files of test/brook/br (BrookGPU
// kernels with host C++ around them, and one with mistakes), and every BrookGPU prog/tests kernel
// source vendored in test/brook/brookgpu-*.test.ts written out as a .br file with a main() after
// it. Each written module is imported and compared with what the library's own compiler
// (dist/brookgl.js, parseBrook) gives for the same Brook, and run on a CPU context
// (createContext({ backend: 'cpu' }), as the brook tag's kernels run there). Part of `npm test` (a few seconds);
// alone: node scripts/test-cli.mjs [--bin PATH] (scripts/test-package.mjs passes the packed
// package's bin). Ends with "N passed, N failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binAt = process.argv.indexOf('--bin');
const bin = binAt >= 0 ? path.resolve(process.argv[binAt + 1]) : path.join(root, 'dist/cli/brookgl.mjs');
if (!fs.existsSync(bin)) {
  console.error(`test-cli: ${bin} is missing: run node scripts/build.mjs first`);
  process.exit(1);
}
const { parseBrook, createContext, cpuKernelSource, reduceValue, structStream } = await import(pathToFileURL(path.join(root, 'dist/brookgl.js')).href);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'brookgl-cli-'));
const fixtures = path.join(root, 'test/brook/br');

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`  ✓ ${name}`);
  } catch (e) {
    failed++;
    console.log(`  ✗ ${name}\n${String(e?.stack ?? e).replace(/^/gm, '      ')}`);
  }
}

/** Runs the command line; what it printed and its exit status. */
function brookgl(args, cwd = tmp) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A module's kernels, imported. */
async function importModule(file) {
  return (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)).default;
}

/** The descriptions compared: the helpers' trailing blanks (blanked host code after the last kernel) aside. */
function comparable(spec) {
  return { ...spec, helpers: spec.helpers?.replace(/\s+$/, '') };
}

/** `text` with its host code blanked as the command line blanks it: every line from `from` on. */
function brookOf(text, hostFrom) {
  const lines = text.split('\n');
  return lines.map((l, i) => (i + 1 >= hostFrom ? l.replace(/[^\n]/g, ' ') : l)).join('\n');
}

console.log(`npx brookgl (${path.relative(root, bin) || bin})`);

await check('--help and --version answer; an unknown option and no file are usage errors (exit 2)', () => {
  const help = brookgl(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: npx brookgl \[options\] file\.br/);
  const version = brookgl(['--version']);
  assert.equal(version.status, 0);
  assert.equal(version.stdout.trim(), `brookgl ${JSON.parse(fs.readFileSync(path.join(path.dirname(bin), '../../package.json'), 'utf8')).version}`);
  const bad = brookgl(['--frobnicate', 'x.br']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^brookgl: unknown option '--frobnicate'/);
  assert.equal(brookgl([]).status, 2);
});

await check('the command bundles the compiler alone: no Brook runtime (its lowering) and no WebGL context in it', () => {
  const text = fs.readFileSync(bin, 'utf8');
  for (const word of ['lowerBrook', 'useBrookKinds', 'installLowering', 'webgl2']) assert.ok(!text.includes(word), `${path.basename(bin)} holds '${word}'`);
});

await check('a missing file: exit 1, named', () => {
  const r = brookgl(['nothere.br']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^brookgl: cannot read nothere\.br: /);
});

// The host code of each fixture, as the command line must list it (file:line:col), and its kernels.
const FIXTURES = {
  'reduce.br': {
    kernels: ['foo', 'matrix_mult'],
    skipped: ['5:1: note: host code skipped: #include <stdio.h>', "7:1: note: host code skipped: declaration 'extern void printf();'", "8:1: note: host code skipped: declaration 'extern void streamRead();'", '24:1: note: host code skipped: function step_value (lines 24-27)', '29:1: note: host code skipped: function main (lines 29-48)'],
    signatures: ['reduce void foo (float4 a<>, float4 c, float d[10][10], reduce float4 e<>)', 'reduce void matrix_mult (reduce float4 a<>, float4 b<>)'],
    runs: ['reduceValue(ctx, foo, { a, c, d })', 'reduceValue(ctx, matrix_mult, { b })'],
  },
  'pairs.br': {
    kernels: ['clear2', 'clearPair', 'scalePair'],
    skipped: ['4:1: note: host code skipped: #include <stdio.h>', '5:1: note: host code skipped: #include <stdlib.h>', "29:1: note: host code skipped: declaration 'static int failures = 0;'", '31:1: note: host code skipped: function report (lines 31-33)', '35:1: note: host code skipped: function main (lines 35-46)'],
    signatures: ['kernel void clear2(out float2 result<>)', 'kernel void clearPair(out Pair result<>)', 'kernel void scalePair(Pair p<>, out Pair result<>)'],
    runs: ['ctx.run(clear2, { result })', 'ctx.run(scalePair, { p, result })'],
  },
};

for (const [file, want] of Object.entries(FIXTURES)) {
  await check(`${file}: its host code listed at file:line:col, its kernels' signatures and GLSL printed, a module written that equals parseBrook's kernels`, async () => {
    fs.copyFileSync(path.join(fixtures, file), path.join(tmp, file));
    const r = brookgl([file]);
    assert.equal(r.status, 0, r.stderr);
    const notes = r.stderr.split('\n').filter((l) => l.includes(': note: '));
    assert.deepEqual(notes, want.skipped.map((s) => `${file}:${s}`));
    for (const s of want.signatures) assert.ok(r.stdout.includes(`${s}\n  run: `), `signature ${s} printed`);
    for (const s of want.runs) assert.ok(r.stdout.includes(`  run: ${s}`), `run line ${s} printed`);
    assert.equal((r.stdout.match(/\n {2}GLSL:\n/g) ?? []).length, want.kernels.length);
    assert.match(r.stderr, new RegExp(`${file}: ${want.kernels.length} kernels \\(${want.kernels.join(', ')}\\) written to ${file.replace('.br', '.js')}`));
    const kernels = await importModule(path.join(tmp, file.replace('.br', '.js')));
    assert.deepEqual(Object.keys(kernels), want.kernels);
    // the library's compiler over the same Brook: the file with every host line blanked
    const text = fs.readFileSync(path.join(fixtures, file), 'utf8');
    const host = new Set(want.skipped.flatMap((s) => {
      const m = /^(\d+):\d+: .*?(?:\(lines (\d+)-(\d+)\))?$/.exec(s);
      const [a, b] = m[2] ? [Number(m[2]), Number(m[3])] : [Number(m[1]), Number(m[1])];
      return Array.from({ length: b - a + 1 }, (_, k) => a + k);
    }));
    const brook = text.split('\n').map((l, i) => (host.has(i + 1) ? l.replace(/./g, ' ') : l)).join('\n');
    const expected = parseBrook(brook);
    for (const name of want.kernels) assert.deepEqual(comparable(kernels[name]), comparable(expected[name]), name);
  });
}

await check("the written modules' kernels run on a CPU context (createContext({ backend: 'cpu' })) and give the records the brook tag's kernels of the same Brook give", async () => {
  const cpu = createContext({ backend: 'cpu' });
  try {
    const pairs = await importModule(path.join(tmp, 'pairs.js'));
    const reduce = await importModule(path.join(tmp, 'reduce.js'));
    // the source the module carries is the file's Brook with its host lines left empty (line for line the file's, checked
    // below); the library's compiler over it gives the kernels the brook tag gives for the file's Brook
    const [pairsTag, reduceTag] = [parseBrook(pairs.clear2.origin.source), parseBrook(reduce.foo.origin.source)];
    const text = fs.readFileSync(path.join(fixtures, 'pairs.br'), 'utf8').split('\n');
    const carried = pairs.clear2.origin.source.split('\n');
    assert.equal(carried.length, text.length);
    carried.forEach((l, i) => assert.ok(l === '' || l === text[i], `pairs.js line ${i + 1}`));
    const n = 1000;
    const data = Float32Array.from({ length: 2 * n }, (_, i) => Math.fround(Math.cos(i) * 100));
    const Pair = pairsTag.scalePair.structs.Pair;
    const p = structStream(cpu, Pair, n, data);
    const [a, b] = [structStream(cpu, Pair, n), structStream(cpu, Pair, n)];
    cpu.run(pairs.scalePair, { p, result: a });
    cpu.run(pairsTag.scalePair, { p, result: b });
    const [got, want] = [await a.read(), await b.read()];
    assert.ok(want.some((x) => x !== 0));
    assert.deepEqual(got, want);
    for (let i = 0; i < n; i++) assert.equal(got[2 * i], Math.fround(Math.fround(data[2 * i] * 2) * 2.5), `scalePair record ${i}`);
    const m = cpu.stream('float4', 64, Float32Array.from({ length: 256 }, (_, i) => ((i * 5) % 9) - 4));
    const d = cpu.stream('float', [10, 10], Float32Array.from({ length: 100 }, (_, i) => i % 13));
    assert.deepEqual(await reduceValue(cpu, reduce.foo, { a: m, c: [3, 1, 2, 5], d }), await reduceValue(cpu, reduceTag.foo, { a: m, c: [3, 1, 2, 5], d }));
    assert.deepEqual(await reduceValue(cpu, reduce.matrix_mult, { b: m }), await reduceValue(cpu, reduceTag.matrix_mult, { b: m }));
  } finally {
    cpu.dispose();
  }
});

await check('--shader prints whole fragment shaders; --check writes nothing; -q prints no listing', () => {
  fs.copyFileSync(path.join(fixtures, 'pairs.br'), path.join(tmp, 'shader.br'));
  const r = brookgl(['--shader', '--check', 'shader.br']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal((r.stdout.match(/^ {4}#version 300 es$/gm) ?? []).length, 3);
  assert.ok(/void main\(\)/.test(r.stdout));
  assert.ok(!fs.existsSync(path.join(tmp, 'shader.js')), '--check wrote a module');
  const q = brookgl(['-q', '-o', 'quiet-out.js', 'shader.br']);
  assert.equal(q.status, 0, q.stderr);
  assert.equal(q.stdout, '');
  assert.ok(fs.existsSync(path.join(tmp, 'quiet-out.js')));
});

await check('errors.br: every error at its exact file:line:col, the host code listed among them, exit 1, no module written', () => {
  fs.copyFileSync(path.join(fixtures, 'errors.br'), path.join(tmp, 'errors.br'));
  const r = brookgl(['errors.br']);
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.deepEqual(lines.map((l) => /^errors\.br:\d+:\d+: (error|note)/.exec(l)?.[0] ?? l), [
    'errors.br:2:1: note',
    'errors.br:6:5: error',
    'errors.br:9:1: error',
    'errors.br:17:1: note',
    'errors.br: 2 errors; no module written',
  ].map((l) => l));
  assert.match(lines[1], /'a' is an input stream, which a kernel cannot write/);
  assert.match(lines[2], /kernel noOutput .*needs at least one 'out' stream parameter/);
  assert.ok(!fs.existsSync(path.join(tmp, 'errors.js')), 'a module was written for a file with errors');
});

await check('host C++ that looks like Brook is still listed: braces inside strings, a global array initialiser, prototypes', () => {
  const text = [
    '#include <stdio.h>', // 1
    'float table[4] = { 1, 2, 3, 4 };', // 2
    'void banner() { printf("}{ not a block\\n"); }', // 3
    'kernel void k(float a<>, out float b<>) { b = a + 1; }', // 4
    'kernel void k(float a<>, out float b<>);', // 5: a prototype of k, Brook
    'int main(void) {', // 6
    '  printf("{");', // 7
    '  return 0;', // 8
    '}', // 9
  ].join('\n');
  fs.writeFileSync(path.join(tmp, 'tricky.br'), text);
  const r = brookgl(['-q', 'tricky.br']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stderr.trim().split('\n'), [
    'tricky.br:1:1: note: host code skipped: #include <stdio.h>',
    "tricky.br:2:1: note: host code skipped: declaration 'float table[4] = { 1, 2, 3, 4 };'",
    'tricky.br:3:1: note: host code skipped: function banner',
    'tricky.br:6:1: note: host code skipped: function main (lines 6-9)',
    'tricky.br: 1 kernel (k) written to tricky.js',
  ]);
});

// Every BrookGPU prog/tests kernel source the specs vendor (brook`...` templates without ${}),
// written out as a .br file with host code after it, through the command line at once.
await check('every vendored BrookGPU prog/tests kernel source (test/brook/brookgpu-*.test.ts) compiles through npx brookgl to the kernels parseBrook gives, and the CPU backend runs the same JavaScript for them', async () => {
  const dir = path.join(tmp, 'prog');
  fs.mkdirSync(dir);
  const sources = [];
  let rejected = 0;
  for (const f of fs.readdirSync(path.join(root, 'test/brook')).filter((f) => /^brookgpu-.*\.test\.ts$/.test(f)).sort()) {
    const text = fs.readFileSync(path.join(root, 'test/brook', f), 'utf8');
    for (const m of text.matchAll(/[=(]\s*brook`([\s\S]*?)`/g)) {
      if (m[1].includes('${')) continue;
      const source = String.raw({ raw: [m[1]] });
      try {
        parseBrook(source);
      } catch {
        rejected++; // a source a spec expects the compiler to refuse
        continue;
      }
      sources.push({ from: f, text: source });
    }
  }
  assert.ok(sources.length >= 60, `found only ${sources.length} sources`);
  const files = sources.map((s, k) => {
    const name = `prog${String(k).padStart(3, '0')}.br`;
    const lines = s.text.split('\n').length;
    fs.writeFileSync(path.join(dir, name), `${s.text}\n#include <stdio.h>\nint main() {\n  printf("{%d}\\n", 1);\n  return 0;\n}\n`);
    return { name, hostFrom: lines + 1, ...s };
  });
  const r = brookgl(['-q', ...files.map((f) => f.name)], dir);
  assert.equal(r.status, 0, r.stderr.split('\n').filter((l) => /error/.test(l)).join('\n'));
  let kernels = 0;
  for (const f of files) {
    const notes = r.stderr.split('\n').filter((l) => l.startsWith(`${f.name}:`) && l.includes(': note: '));
    assert.deepEqual(notes, [`${f.name}:${f.hostFrom}:1: note: host code skipped: #include <stdio.h>`, `${f.name}:${f.hostFrom + 1}:1: note: host code skipped: function main (lines ${f.hostFrom + 1}-${f.hostFrom + 4})`], f.name);
    const written = await importModule(path.join(dir, f.name.replace('.br', '.js')));
    const expected = parseBrook(brookOf(fs.readFileSync(path.join(dir, f.name), 'utf8'), f.hostFrom));
    assert.deepEqual(Object.keys(written), Object.keys(expected), `${f.name} (from ${f.from})`);
    for (const name of Object.keys(expected)) {
      assert.deepEqual(comparable(written[name]), comparable(expected[name]), `${f.name} (from ${f.from}): ${name}`);
      // the CPU backend compiles the module's kernel again from the Brook it carries: the JavaScript it runs is the tag kernel's
      assert.equal(cpuKernelSource(written[name]), cpuKernelSource(expected[name]), `${f.name} (from ${f.from}): ${name}, the CPU backend's JavaScript`);
    }
    kernels += Object.keys(expected).length;
  }
  console.log(`      ${files.length} sources, ${kernels} kernels (${rejected} source(s) the specs expect refused, left out)`);
});

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
