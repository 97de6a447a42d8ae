/**
 * An orbit camera (gl-matrix): drag to turn around the target, wheel to move in and out.
 * `viewProjection(aspect)` gives the matrix the point renderer takes.
 */
import { mat4, vec3 } from 'gl-matrix';

export class OrbitCamera {
  azimuth = 0.6;
  elevation = 0.5;
  distance: number;
  readonly target = vec3.fromValues(0, 0, 0);
  fovY = Math.PI / 4;
  private readonly view = mat4.create();
  private readonly projection = mat4.create();
  private readonly result = mat4.create();

  constructor(distance = 10) {
    this.distance = distance;
  }

  /** Turns by pixel deltas of a drag (0.01 rad per pixel), elevation kept off the poles. */
  rotate(dx: number, dy: number): void {
    this.azimuth -= dx * 0.01;
    this.elevation = Math.max(-1.55, Math.min(1.55, this.elevation + dy * 0.01));
  }

  /** Moves in (negative) or out (positive) by a factor per wheel notch. */
  zoom(notches: number): void {
    this.distance = Math.max(0.1, this.distance * Math.pow(1.1, notches));
  }

  viewProjection(aspect: number): Float32Array {
    const ce = Math.cos(this.elevation);
    const eye = vec3.fromValues(
      this.target[0] + this.distance * ce * Math.sin(this.azimuth),
      this.target[1] + this.distance * Math.sin(this.elevation),
      this.target[2] + this.distance * ce * Math.cos(this.azimuth),
    );
    mat4.lookAt(this.view, eye, this.target, [0, 1, 0]);
    mat4.perspective(this.projection, this.fovY, aspect, this.distance / 100, this.distance * 100);
    return mat4.multiply(this.result, this.projection, this.view) as Float32Array;
  }

  /** Wires mouse drag and wheel on `element`. Returns a function that unwires them. */
  attach(element: HTMLElement): () => void {
    let last: [number, number] | null = null;
    const down = (e: PointerEvent) => {
      last = [e.clientX, e.clientY];
      element.setPointerCapture(e.pointerId);
    };
    const move = (e: PointerEvent) => {
      if (!last) return;
      this.rotate(e.clientX - last[0], e.clientY - last[1]);
      last = [e.clientX, e.clientY];
    };
    const up = () => (last = null);
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      this.zoom(Math.sign(e.deltaY));
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    element.addEventListener('wheel', wheel, { passive: false });
    return () => {
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('wheel', wheel);
    };
  }
}
