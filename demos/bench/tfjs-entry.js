// Entry of dist/vendor/tfjs.js (scripts/build.mjs): TensorFlow.js core with its webgl backend,
// for the `peers` benchmark suite only. brookgl itself never imports it.
export * from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-webgl';
