/**
 * Draws a fluid into the canvas straight from its textures (glsl/view/field.frag.glsl): dye as
 * a colour ramp, obstacles grey, optionally the masked (landlocked) cells tinted, with no
 * readback. One pass through the pass runner, traced as a 'draw'.
 */
import FIELD_FRAG from '../../glsl/view/field.frag.glsl';
import type { BrookContext } from '../core/context';
import { BrookError } from '../core/errors';
import { runPass, type ShaderStage } from '../core/pass';
import type { Stream } from '../core/stream';
import { checkStream } from '../core/validate';

const FIELD: ShaderStage = { glsl: FIELD_FRAG };

export interface FieldRenderer {
  /** Fills the canvas with the grid (dye, obstacles; landlocked cells tinted when showMask). */
  draw(dye: Stream, obstacles: Stream, offsets: Stream, showMask?: boolean): void;
  dispose(): void;
}

/** A renderer for `createFluid`'s fields; it owns no GL object (programs belong to the context). */
export function createFieldRenderer(ctx: BrookContext): FieldRenderer {
  let disposed = false;
  return {
    draw(dye, obstacles, offsets, showMask = false) {
      ctx.guard();
      if (disposed) throw new BrookError('field renderer: used after dispose');
      checkStream(ctx, dye, 'field renderer: dye', ['float']);
      checkStream(ctx, obstacles, 'field renderer: obstacles', ['float']);
      checkStream(ctx, offsets, 'field renderer: offsets', ['float4']);
      runPass(ctx, {
        name: 'FieldRenderer',
        kind: 'draw',
        fragment: FIELD,
        targets: 'canvas',
        uniforms: { dye: dye.texture, obstacles: obstacles.texture, offsets: offsets.texture, showMask },
        reads: new Map([['dye', dye], ['obstacles', obstacles], ['offsets', offsets]]),
      });
    },
    dispose() {
      disposed = true;
    },
  };
}
