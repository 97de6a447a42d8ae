// Entry of dist/vendor/three.js (scripts/build.mjs): three.js, for the `mixed` benchmark suite
// only (a scene rendering every frame beside brookgl). brookgl itself never imports it.
export * from 'three';
