/**
 * Draws a position stream as point sprites straight from its texture (vertex texture fetch,
 * no readback; glsl/view/points.*.glsl): vertex k reads record k. For the N-body, DEM and agent
 * demos and anything else with xyz records. One pass through the pass runner ('draw').
 */
import POINTS_VERT from '../../glsl/view/points.vert.glsl';
import POINTS_FRAG from '../../glsl/view/points.frag.glsl';
import type { BrookContext } from '../core/context';
import { BrookError } from '../core/errors';
import { runPass, type ShaderStage } from '../core/pass';
import type { Stream } from '../core/stream';
import { checkInteger, checkOptions, checkStream, checkVector } from '../core/validate';

const VERTEX: ShaderStage = { glsl: POINTS_VERT, gathers: { positions: 'float4', velocities: 'float4' } };
const FRAGMENT: ShaderStage = { glsl: POINTS_FRAG };

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

/** A point renderer; it owns no GL object (the program and vertex array belong to the context). */
export function createPointRenderer(ctx: BrookContext): PointRenderer {
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
      const velocities = options.velocities ?? null;
      runPass(ctx, {
        name: 'PointRenderer',
        kind: 'draw',
        vertex: VERTEX,
        fragment: FRAGMENT,
        primitive: 'points',
        count: Math.min(count, positions.length),
        targets: 'canvas',
        clear: options.clear ?? true ? { color: [0, 0, 0, 1] } : undefined,
        blend: options.blend ?? true ? 'add' : undefined,
        gathers: { positions, velocities: velocities ?? positions },
        uniforms: {
          viewProjection,
          pointSize: options.pointSize ?? 8,
          color: options.color ?? [1.0, 0.75, 0.45, 0.6],
          bySpeed: velocities !== null,
          maxSpeed: options.maxSpeed ?? 1,
        },
      });
    },
    dispose() {
      disposed = true;
    },
  };
}
