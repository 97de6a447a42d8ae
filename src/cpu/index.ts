/**
 * The CPU backend (BrookGPU's `BRT_RUNTIME=cpu`): the public index's `createContext` is this
 * module's, which gives a CpuContext for `{ backend: 'cpu' }` and core's WebGL2 context
 * otherwise. See context.ts.
 */
import { BrookContext, ContextOptions, createContext as createGpuContext, installCpuBackend } from '../core/context';
import { CpuContext, CpuContextOptions } from './context';

export { CpuContext, CPU_RENDERER, isCpuContext } from './context';
export type { CpuContextOptions } from './context';
export { CpuStream } from './stream';
export type { CpuData } from './stream';
export { kernelSource as cpuKernelSource } from './kernel';

/**
 * Creates a brookgl context: by default on WebGL2 (a BrookContext; it throws a BrookError
 * where there is no WebGL2, e.g. in Node); with `{ backend: 'cpu' }` a CpuContext, which runs
 * Brook kernels as JavaScript in Node or a page (docs/node.md).
 * @example const ctx = createContext({ backend: 'cpu' }); // ctx.caps.renderer: "brookgl CPU (JavaScript)"
 */
export function createContext(options: CpuContextOptions): CpuContext;
export function createContext(options?: ContextOptions): BrookContext;
export function createContext(options?: ContextOptions | CpuContextOptions): BrookContext | CpuContext {
  installCpuBackend(() => new CpuContext());
  return createGpuContext(options as ContextOptions);
}
export { compareBackends, ulpDistance, COMPARE_ULPS } from './compare';
export type { CompareOptions, Comparison, OutputComparison, RecordDifference } from './compare';
