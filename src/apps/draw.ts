/** Shared plumbing of the display renderers (drawing streams into the canvas, not kernels). */
import { BrookError } from '../core/errors';

/** Compiles and links a vertex and fragment shader, throwing a BrookError that names `what`. */
export function linkProgram(gl: WebGL2RenderingContext, vertex: string, fragment: string, what: string): WebGLProgram {
  const compile = (type: number, source: string) => {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
      const log = gl.getShaderInfoLog(s);
      gl.deleteShader(s);
      throw new BrookError(`${what}: ${log}`);
    }
    return s;
  };
  const vs = compile(gl.VERTEX_SHADER, vertex);
  const fs = compile(gl.FRAGMENT_SHADER, fragment);
  const program = gl.createProgram()!;
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    const log = gl.getProgramInfoLog(program);
    gl.deleteProgram(program);
    throw new BrookError(`${what}: ${log}`);
  }
  return program;
}
