// README's quick start, run as written: fetch README.md, take its first js block, point its
// import at the built library, and run it. A README that drifts from the API fails here.
import { expect } from 'chai';

describe('README quick start', () => {
  it('runs as written and prints what it says', async () => {
    const readme = await (await fetch('/README.md')).text();
    const block = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme);
    expect(block, 'a ```js block under "## Quick start"').to.not.equal(null);
    const logged: unknown[][] = [];
    const code = block![1]!
      .replace("from './dist/brookgl.js'", `from '${location.origin}/dist/brookgl.js'`)
      .replace(/console\.log\(/g, 'window.__quickStartLog(');
    (window as unknown as { __quickStartLog: (...a: unknown[]) => void }).__quickStartLog = (...a) => logged.push(a);
    const url = URL.createObjectURL(new Blob([code + '\nexport { values, total };\n'], { type: 'text/javascript' }));
    const mod = await import(/* @vite-ignore */ url);
    URL.revokeObjectURL(url);
    const n = 1 << 20;
    // the comment in the README says: 1, 2097151
    expect(logged[1]).to.deep.equal([1, 2097151]);
    expect(mod.values.length).to.equal(n);
    // sum of 2i + 1 for i < n is n^2: float32 tree sum, within the stated relative tolerance
    expect(Math.abs(mod.total - n * n) / (n * n)).to.be.below(1e-5);
  });
});

describe('script-tag build (dist/brookgl.iife.js)', () => {
  it('defines the global brookgl, which runs a kernel', async () => {
    await new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = '/dist/brookgl.iife.js';
      s.onload = () => resolve();
      s.onerror = () => reject(new Error('could not load dist/brookgl.iife.js'));
      document.head.append(s);
    });
    const g = (window as unknown as { brookgl: typeof import('../src/index') }).brookgl;
    const ctx = g.createContext();
    const { twice } = g.brook`kernel void twice(float a<>, out float b<>) { b = 2 * a; }`;
    const a = ctx.stream('float', 3, [1, 2, 3]);
    const b = ctx.stream('float', 3);
    ctx.run(twice!, { a, b });
    expect(Array.from(b.readSync())).to.deep.equal([2, 4, 6]);
    ctx.dispose();
  });
});
