// GLSL files under glsl/ are imported as text by the esbuild build (loader: text).
declare module '*.glsl' {
  const source: string;
  export default source;
}
