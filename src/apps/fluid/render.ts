/**
 * Draws a fluid into the canvas straight from its textures: dye as a colour ramp, obstacles
 * grey, optionally the masked (landlocked) cells tinted, with no readback.
 */
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import type { Stream } from '../../core/stream';
import { linkProgram } from '../draw';

const VERTEX = `#version 300 es
out vec2 uv;
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  uv = corner;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler2D;
uniform sampler2D dye;
uniform sampler2D obstacles;
uniform sampler2D offsets;
uniform bool showMask;
in vec2 uv;
out vec4 color;
void main() {
  ivec2 size = textureSize(dye, 0);
  ivec2 c = clamp(ivec2(uv * vec2(size)), ivec2(0), size - 1);
  float d = clamp(texelFetch(dye, c, 0).x, 0.0, 1.5);
  vec3 ramp = vec3(d * 0.9, d * d * 0.7, 0.15 + 0.6 * d);
  if (texelFetch(obstacles, c, 0).x > 0.5) {
    vec4 o = texelFetch(offsets, c, 0);
    bool landlocked = o.x == 0.0 && o.y == 0.0;
    ramp = showMask && landlocked ? vec3(0.55, 0.25, 0.25) : vec3(0.55);
  }
  color = vec4(ramp, 1.0);
}`;

export interface FieldRenderer {
  /** Fills the canvas with the grid (dye, obstacles; landlocked cells tinted when showMask). */
  draw(dye: Stream, obstacles: Stream, offsets: Stream, showMask?: boolean): void;
  dispose(): void;
}

export function createFieldRenderer(ctx: BrookContext): FieldRenderer {
  const gl = ctx.gl;
  const program = linkProgram(gl, VERTEX, FRAGMENT, 'field renderer');
  const loc = (name: string) => gl.getUniformLocation(program, name);
  const u = { dye: loc('dye'), obstacles: loc('obstacles'), offsets: loc('offsets'), showMask: loc('showMask') };
  const vao = gl.createVertexArray();
  let disposed = false;
  return {
    draw(dye, obstacles, offsets, showMask = false) {
      ctx.guard();
      if (disposed) throw new BrookError('field renderer: used after dispose');
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
      gl.useProgram(program);
      [dye, obstacles, offsets].forEach((s, k) => {
        gl.activeTexture(gl.TEXTURE0 + k);
        gl.bindTexture(gl.TEXTURE_2D, s.texture);
      });
      gl.uniform1i(u.dye, 0);
      gl.uniform1i(u.obstacles, 1);
      gl.uniform1i(u.offsets, 2);
      gl.uniform1i(u.showMask, showMask ? 1 : 0);
      gl.bindVertexArray(vao);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.bindVertexArray(null);
      gl.activeTexture(gl.TEXTURE0);
    },
    dispose() {
      if (disposed || ctx.isLost) return;
      disposed = true;
      gl.deleteProgram(program);
      gl.deleteVertexArray(vao);
    },
  };
}
