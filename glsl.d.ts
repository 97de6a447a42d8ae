// GLSL files under glsl/ are imported as text by the esbuild build (loader: text).
declare module '*.glsl' {
  const source: string;
  export default source;
}

// Kernels in Brook syntax (the papers' listings), imported as text.
declare module '*.brook' {
  const source: string;
  export default source;
}
