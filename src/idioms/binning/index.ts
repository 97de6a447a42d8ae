/**
 * Depth-peeled spatial binning (Oat, Barczak & Shopf, "Efficient Spatial Binning on the GPU",
 * AMD 2009) on WebGL2, and the paper's comparators and applications, one module each:
 *
 * ```ts
 * const grid = { cells: [64, 64, 64], origin: [0, 0, 0], cellSize: 1 / 64 };
 * const bins = await binPoints(ctx, positions, grid, { capacity: 8, method: 'delayed' });
 * bins.loads;            // float stream [H, W]: items per bin (the bin counter)
 * bins.pack();           // float stream [capacity * H, W]: slot i of bin (x, y) at row i*H + y, key = id / 2^24 (1.0 empty)
 *                        // (in columns of bins.slotRows slots where capacity * H > MAX_TEXTURE_SIZE)
 * ```
 *
 * - bins.ts: the structure, its layout, and the GLSL queries for kernels (BIN_QUERY_GLSL);
 * - build.ts: binItems / binPoints (methods, reuse with `into`, overflow and rebuild);
 * - peel.ts: depth peeling ('naive', 'predicated', 'reduced', 'delayed');
 * - routing.ts: stencil routing ('stencil', 'stencil-predicated', and one-draw stencilRoute);
 * - bucketsort.ts: bucket sort by binning (section 4.3).
 * Every pass goes through the pass runner (ctx.trace shows them: clear, peel, copy, route, ...);
 * the shaders are in glsl/idioms/binning/.
 */
export { Bins, BINNING_METHODS, ROUTING_METHODS, BIN_UNIFORMS, BIN_QUERY_GLSL, binLayout, binUniforms } from './bins';
export type { BinGrid, BinMapping, BinningMethod, BinningStats, SliceStorage } from './bins';
export { binItems, binPoints } from './build';
export type { BinningOptions } from './build';
export { bucketSort } from './bucketsort';
export { stencilRoute } from './routing';
export type { Routed } from './routing';
