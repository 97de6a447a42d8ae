/**
 * Draws a fluid into the canvas straight from its textures: dye as a colour ramp, obstacles
 * grey, optionally the masked (landlocked) cells tinted, with no readback.
 */
import * as twgl from 'twgl.js';
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import type { Stream } from '../../core/stream';
import { checkStream } from '../../core/validate';

const FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler2D;
uniform sampler2D dye;
uniform sampler2D obstacles;
uniform sampler2D offsets;
uniform bool showMask;
uniform vec2 viewSize;
out vec4 color;
void main() {
  ivec2 size = textureSize(dye, 0);
  ivec2 c = clamp(ivec2(gl_FragCoord.xy / viewSize * vec2(size)), ivec2(0), size - 1);
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
  // the pass vertex shader's full-screen triangle; the program is owned by the context
  const { info } = ctx.rawProgram(null, FRAGMENT, 'field renderer');
  let disposed = false;
  return {
    draw(dye, obstacles, offsets, showMask = false) {
      ctx.guard();
      if (disposed) throw new BrookError('field renderer: used after dispose');
      checkStream(ctx, dye, 'field renderer: dye', ['float']);
      checkStream(ctx, obstacles, 'field renderer: obstacles', ['float']);
      checkStream(ctx, offsets, 'field renderer: offsets', ['float4']);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
      gl.useProgram(info.program);
      twgl.setUniforms(info, {
        dye: dye.texture,
        obstacles: obstacles.texture,
        offsets: offsets.texture,
        showMask,
        viewSize: [gl.drawingBufferWidth, gl.drawingBufferHeight],
      });
      gl.bindVertexArray(ctx.passVertexArray);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.bindVertexArray(null);
    },
    dispose() {
      disposed = true; // the program and the vertex array belong to the context
    },
  };
}
