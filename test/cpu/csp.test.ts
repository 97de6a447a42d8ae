// The CPU backend under a Content-Security-Policy: it compiles kernels with `new Function`, which
// a page whose script-src lacks 'unsafe-eval' forbids (an EvalError). The library is loaded into
// an iframe whose meta CSP allows scripts only from this server (and inline ones), and a CPU
// context's kernel must fail with a BrookError that names the policy and what to do, while the
// same page without the policy runs it, and a GPU context runs it under the policy.
import { expect } from 'chai';
import type { BrookContext } from '../../src/index';

type Lib = typeof import('../../src/index');

/** An iframe that loaded dist/brookgl.iife.js under `csp` (a meta Content-Security-Policy), or none. */
function frame(csp: string | null): Promise<{ lib: Lib; frame: HTMLIFrameElement }> {
  return new Promise((resolve, reject) => {
    const f = document.createElement('iframe');
    const policy = csp === null ? '' : `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
    f.srcdoc = `<!doctype html><meta charset="utf-8">${policy}<script src="${location.origin}/dist/brookgl.iife.js"></script>`;
    f.onload = () => {
      const lib = (f.contentWindow as unknown as { brookgl?: Lib }).brookgl;
      if (lib) resolve({ lib, frame: f });
      else reject(new Error(`dist/brookgl.iife.js did not load in the iframe (policy ${String(csp)})`));
    };
    document.body.appendChild(f);
  });
}

describe('cpu/csp: a page whose Content-Security-Policy forbids unsafe-eval', () => {
  const POLICY = `default-src 'none'; script-src ${location.origin} 'unsafe-inline'`;

  const attempt = (lib: Lib, ctx: { stream: BrookContext['stream']; run: BrookContext['run'] }) => {
    const { inc } = lib.brook`kernel void inc(float a<>, out float o<>) { o = a + 1.0; }`;
    const a = ctx.stream('float', 4, new Float32Array([1, 2, 3, 4]));
    const o = ctx.stream('float', 4);
    try {
      ctx.run(inc!, { a, o });
      return { out: Array.from(o.readSync()), error: null as Error | null };
    } catch (e) {
      return { out: null, error: e as Error };
    } finally {
      a.dispose();
      o.dispose();
    }
  };

  it('a CPU context\'s kernel is a BrookError naming the policy and what to do; without the policy it runs', async () => {
    const locked = await frame(POLICY);
    const open = await frame(null);
    try {
      const cpu = locked.lib.createContext({ backend: 'cpu' });
      const r = attempt(locked.lib, cpu);
      expect(r.out, 'the run under the policy').to.equal(null);
      expect(r.error?.name).to.equal('BrookError');
      expect(r.error?.message).to.match(/kernel inc: the CPU backend compiles kernels to JavaScript with new Function, and this page's Content-Security-Policy forbids it/);
      expect(r.error?.message).to.match(/Allow 'unsafe-eval' in the page's script-src, or run the kernel on a GPU context \(createContext\(\)\)/);
      // compiling ahead (ctx.kernel) says the same
      const { inc } = locked.lib.brook`kernel void inc(float a<>, out float o<>) { o = a + 1.0; }`;
      expect(() => cpu.kernel(inc!)).to.throw(/Content-Security-Policy forbids it/);
      cpu.dispose();
      // the same library without the policy: the kernel runs
      const free = open.lib.createContext({ backend: 'cpu' });
      expect(attempt(open.lib, free)).to.deep.equal({ out: [2, 3, 4, 5], error: null });
      free.dispose();
      // the GPU backend needs no eval: it runs under the policy
      const gpu = locked.lib.createContext();
      expect(attempt(locked.lib, gpu)).to.deep.equal({ out: [2, 3, 4, 5], error: null });
      gpu.dispose();
    } finally {
      locked.frame.remove();
      open.frame.remove();
    }
  });
});
