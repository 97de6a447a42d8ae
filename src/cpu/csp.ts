/**
 * The CPU backend compiles each kernel to JavaScript with `new Function`. A page whose
 * Content-Security-Policy has a `script-src` (or `default-src`) without 'unsafe-eval' forbids
 * that (the browser throws an EvalError), as does Node's `--disallow-code-generation-from-strings`.
 * The error is put in brookgl's words here: what refused, and what to do.
 */
import { BrookError } from '../core/errors';

/** `e` from `new Function` as a BrookError naming the kernel: the policy's refusal, or the generator's bug. */
export function compileError(e: unknown, kernel: string): BrookError {
  const said = e instanceof Error ? e.message : String(e);
  if (e instanceof EvalError || (e instanceof Error && e.name === 'EvalError')) {
    return new BrookError(
      `kernel ${kernel}: the CPU backend compiles kernels to JavaScript with new Function, and this page's Content-Security-Policy forbids it ` +
        `(a script-src or default-src without 'unsafe-eval'; in Node, --disallow-code-generation-from-strings). ` +
        `Allow 'unsafe-eval' in the page's script-src, or run the kernel on a GPU context (createContext()). The engine said: ${said}`,
    );
  }
  return new BrookError(`kernel ${kernel}: the CPU backend's JavaScript did not compile (${said}); this is a bug in brookgl's JavaScript generator (src/brook/js.ts)`);
}
