/**
 * Draws a position stream as point sprites straight from its texture (vertex texture fetch, no
 * readback): vertex k reads record k. For the N-body demo and anything else with xyz records.
 */
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import type { Stream } from '../../core/stream';
import { checkInteger, checkOptions, checkStream, checkVector } from '../../core/validate';

const VERTEX = `#version 300 es
precision highp float;
precision highp sampler2D;
uniform sampler2D positions;
uniform int logWidth;
uniform mat4 viewProjection;
uniform float pointSize;
uniform sampler2D velocities;
uniform bool bySpeed;
uniform float maxSpeed;
out float depth;
out float speed;
void main() {
  int k = gl_VertexID;
  vec4 p = texelFetch(positions, ivec2(k & ((1 << logWidth) - 1), k >> logWidth), 0);
  gl_Position = viewProjection * vec4(p.xyz, 1.0);
  depth = gl_Position.w;
  speed = bySpeed ? clamp(length(texelFetch(velocities, ivec2(k & ((1 << logWidth) - 1), k >> logWidth), 0).xyz) / maxSpeed, 0.0, 1.0) : -1.0;
  gl_PointSize = max(1.0, pointSize / gl_Position.w);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
uniform vec4 color;
in float depth;
in float speed;
out vec4 fragColor;
void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float fall = max(0.0, 1.0 - dot(d, d));
  // by speed: blue (at rest) through green to red (maxSpeed)
  vec3 rgb = speed < 0.0 ? color.rgb : vec3(smoothstep(0.4, 1.0, speed), 1.0 - abs(speed - 0.5) * 2.0, 1.0 - smoothstep(0.0, 0.6, speed));
  fragColor = vec4(rgb * fall * color.a, 1.0);
}`;

export interface PointRenderer {
  /** Draws the first `count` records of `positions` into the canvas (additive blending). */
  draw(
    positions: Stream,
    count: number,
    viewProjection: Float32Array,
    options?: { pointSize?: number; color?: [number, number, number, number]; clear?: boolean; blend?: boolean; velocities?: Stream; maxSpeed?: number },
  ): void;
  dispose(): void;
}

export function createPointRenderer(ctx: BrookContext): PointRenderer {
  const gl = ctx.gl;
  const program = ctx.rawProgram(VERTEX, FRAGMENT, 'point renderer').info.program; // owned by the context
  const loc = (name: string) => gl.getUniformLocation(program, name);
  const u = {
    positions: loc('positions'),
    logWidth: loc('logWidth'),
    viewProjection: loc('viewProjection'),
    pointSize: loc('pointSize'),
    color: loc('color'),
    velocities: loc('velocities'),
    bySpeed: loc('bySpeed'),
    maxSpeed: loc('maxSpeed'),
  };
  const vao = ctx.resources.vertexArray();
  let disposed = false;
  return {
    draw(positions, count, viewProjection, options = {}) {
      ctx.guard();
      if (disposed) throw new BrookError('point renderer: used after dispose');
      checkStream(ctx, positions, 'point renderer: positions', ['float3', 'float4']);
      checkInteger(count, 'point renderer: count', 0, positions.length);
      checkVector(viewProjection, 16, 'point renderer: viewProjection');
      options = checkOptions(options, 'point renderer: options');
      if (options.velocities !== undefined) checkStream(ctx, options.velocities, 'point renderer: options.velocities');
      const { width } = positions.layout;
      if (positions.type !== 'float4' && positions.type !== 'float3') throw new BrookError(`point renderer: positions must be float3 or float4, got ${positions.describe()}`);
      if ((width & (width - 1)) !== 0) throw new BrookError('point renderer: positions must be a 1D stream');
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
      if (options.clear ?? true) {
        gl.clearColor(0, 0, 0, 1);
        gl.clear(gl.COLOR_BUFFER_BIT);
      }
      gl.useProgram(program);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, positions.texture);
      gl.uniform1i(u.positions, 0);
      gl.uniform1i(u.logWidth, Math.log2(width));
      gl.uniformMatrix4fv(u.viewProjection, false, viewProjection);
      gl.uniform1f(u.pointSize, options.pointSize ?? 8);
      gl.uniform4fv(u.color, options.color ?? [1.0, 0.75, 0.45, 0.6]);
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, options.velocities ? options.velocities.texture : null);
      gl.uniform1i(u.velocities, 1);
      gl.uniform1i(u.bySpeed, options.velocities ? 1 : 0);
      gl.uniform1f(u.maxSpeed, options.maxSpeed ?? 1);
      gl.activeTexture(gl.TEXTURE0);
      const blend = options.blend ?? true;
      if (blend) {
        gl.enable(gl.BLEND);
        gl.blendFunc(gl.ONE, gl.ONE);
      }
      gl.bindVertexArray(vao);
      gl.drawArrays(gl.POINTS, 0, Math.min(count, positions.length));
      gl.bindVertexArray(null);
      if (blend) gl.disable(gl.BLEND);
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, null);
      gl.activeTexture(gl.TEXTURE0);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (ctx.resources.owns(vao)) ctx.resources.release(vao);
    },
  };
}
