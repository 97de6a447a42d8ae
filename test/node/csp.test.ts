// Node's counterpart of a Content-Security-Policy without 'unsafe-eval': a Node started with
// --disallow-code-generation-from-strings refuses new Function, with which the CPU backend
// compiles kernels. The library (src/index.ts, bundled by scripts/test-node.mjs) runs in such a Node: a kernel is the
// BrookError that names the policy and what to do; the same script in a plain Node runs it.
import { expect } from 'chai';

// (Node's own modules, in the CommonJS bundle scripts/test-node.mjs makes; the project's types have no Node)
declare const require: (id: string) => unknown;
declare const process: { execPath: string };
const { spawnSync } = require('node:child_process') as {
  spawnSync(cmd: string, args: string[], o: object): { status: number | null; stdout: string; stderr: string };
};

const script = `
{
const { createContext, brook } = module.exports;
const ctx = createContext({ backend: 'cpu' });
const { inc } = brook\`kernel void inc(float a<>, out float o<>) { o = a + 1.0; }\`;
const a = ctx.stream('float', 4, new Float32Array([1, 2, 3, 4])), o = ctx.stream('float', 4);
let r;
try { ctx.run(inc, { a, o }); r = { out: Array.from(o.readSync()) }; } catch (e) { r = { name: e.name, message: e.message }; }
process.stdout.write(JSON.stringify(r));
}
`;

describe('cpu/csp in Node: --disallow-code-generation-from-strings', () => {
  it('a CPU kernel is a BrookError naming the policy and what to do; without the flag it runs', function () {
    this.timeout(120_000);
    // the library bundled alone by scripts/test-node.mjs
    const lib = (globalThis as { __brookNodeLib?: string }).__brookNodeLib;
    expect(lib, 'scripts/test-node.mjs bundles the library for this spec').to.be.a('string');
    const run = (flags: string[]) => {
      const p = spawnSync(process.execPath, [...flags, '-e', `const module = { exports: require(${JSON.stringify(lib)}) };${script}`], { encoding: 'utf8', timeout: 60_000 });
      expect(p.status, p.stderr).to.equal(0);
      return JSON.parse(p.stdout) as { out?: number[]; name?: string; message?: string };
    };
    const locked = run(['--disallow-code-generation-from-strings']);
    expect(locked.name).to.equal('BrookError');
    expect(locked.message).to.match(/kernel inc: the CPU backend compiles kernels to JavaScript with new Function, and this page's Content-Security-Policy forbids it .*--disallow-code-generation-from-strings/);
    expect(locked.message).to.match(/run the kernel on a GPU context \(createContext\(\)\)/);
    expect(run([])).to.deep.equal({ out: [2, 3, 4, 5] });
  });
});
