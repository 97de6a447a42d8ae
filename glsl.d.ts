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

// BrookGPU source files (.br: Brook and host C++), imported as text by the specs of `npx brookgl`.
declare module '*.br' {
  const source: string;
  export default source;
}
