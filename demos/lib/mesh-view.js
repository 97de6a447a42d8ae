// The mesh view of the collision and subdivision pages: triangle soups drawn with WebGL2 on the
// page's own canvas (a context apart from brookgl's, which computes), lit by a directional light
// with per-face normals, both sides shaded, an optional wireframe over the faces, and an orbit
// camera (brookgl's OrbitCamera, gl-matrix): drag to turn, wheel to zoom.
import { OrbitCamera } from '../../dist/brookgl.js';

const VERTEX = `#version 300 es
in vec3 position;
in vec3 normal;
in vec3 color;
in vec3 bary;
uniform mat4 viewProjection;
uniform mat4 model;
out vec3 vWorld;
out vec3 vNormal;
out vec3 vColor;
out vec3 vBary;
void main() {
  vec4 w = model * vec4(position, 1.0);
  vWorld = w.xyz;
  vNormal = mat3(model) * normal; // rigid poses only: no inverse transpose needed
  vColor = color;
  vBary = bary;
  gl_Position = viewProjection * w;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 vWorld;
in vec3 vNormal;
in vec3 vColor;
in vec3 vBary;
uniform vec3 eye;
uniform vec3 light;   // direction towards the light, world space
uniform float wire;   // 1: draw the triangle edges
out vec4 outColor;
void main() {
  vec3 v = normalize(eye - vWorld);
  vec3 n = normalize(vNormal);
  if (dot(n, v) < 0.0) n = -n; // both sides lit: windings differ between models
  float diffuse = max(dot(n, light), 0.0);
  float specular = pow(max(dot(reflect(-light, n), v), 0.0), 32.0);
  vec3 c = vColor * (0.22 + 0.78 * diffuse) + 0.18 * specular;
  if (wire > 0.5) {
    float d = min(min(vBary.x, vBary.y), vBary.z);
    float edge = 1.0 - smoothstep(0.0, 1.5 * fwidth(d), d);
    c = mix(c, vec3(0.06), 0.85 * edge);
  }
  outColor = vec4(c, 1.0);
}`;

const BACKGROUND = [0.07, 0.075, 0.09];

function compile(gl, type, source) {
  const s = gl.createShader(type);
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`mesh view: ${gl.getShaderInfoLog(s)}`);
  return s;
}

/**
 * A lit view of triangle soups. `canvas`: the page's canvas; `redraw()` is called when the
 * camera moves (drag, wheel). `draw(layers, { center, radius })` draws; a layer is { positions
 * (9 floats a triangle), color(t) → [r, g, b] in 0..1, matrix? (rigid column-major 4x4) }.
 */
export class MeshView {
  constructor(canvas, redraw) {
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error('mesh view: this browser gives no WebGL2 context for the view canvas');
    this.gl = gl;
    this.canvas = canvas;
    this.wireframe = false;
    this.camera = new OrbitCamera(3);
    this.camera.elevation = 0.35;
    this.fitted = null;
    const p = gl.createProgram();
    gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`mesh view: ${gl.getProgramInfoLog(p)}`);
    this.program = p;
    this.attrib = Object.fromEntries(['position', 'normal', 'color', 'bary'].map((n) => [n, gl.getAttribLocation(p, n)]));
    this.uniform = Object.fromEntries(['viewProjection', 'model', 'eye', 'light', 'wire'].map((n) => [n, gl.getUniformLocation(p, n)]));
    /** GPU buffers of each soup drawn last time, by its positions array. */
    this.meshes = new Map();
    this.last = null;
    this.camera.attach(canvas);
    let queued = false;
    const again = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        redraw();
      });
    };
    canvas.addEventListener('pointermove', (e) => e.buttons && again());
    canvas.addEventListener('wheel', again);
  }

  /** Buffers (positions, face normals, barycentrics, colours) of a soup, made on first use. */
  mesh(positions) {
    let m = this.meshes.get(positions);
    if (m) return m;
    const gl = this.gl;
    const n = positions.length / 9;
    const normals = new Float32Array(n * 9);
    const bary = new Float32Array(n * 9);
    for (let t = 0; t < n; t++) {
      const o = t * 9;
      const u = [0, 1, 2].map((k) => positions[o + 3 + k] - positions[o + k]);
      const w = [0, 1, 2].map((k) => positions[o + 6 + k] - positions[o + k]);
      const c = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
      const len = Math.hypot(...c) || 1;
      for (let v = 0; v < 3; v++) {
        normals.set(c.map((x) => x / len), o + v * 3);
        bary[o + v * 4] = 1; // (1,0,0), (0,1,0), (0,0,1)
      }
    }
    const buffer = (data, usage = gl.STATIC_DRAW) => {
      const b = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, data, usage);
      return b;
    };
    m = { count: n * 3, position: buffer(positions), normal: buffer(normals), bary: buffer(bary), color: buffer(new Float32Array(n * 9), gl.DYNAMIC_DRAW), colors: new Float32Array(n * 9) };
    this.meshes.set(positions, m);
    return m;
  }

  draw(layers, { center = [0, 0, 0], radius = 1 } = {}) {
    const gl = this.gl;
    const cam = this.camera;
    const key = `${center.join()},${radius}`;
    if (this.fitted !== key) {
      // a new model: aim at it and fit its bounding sphere in the view
      this.fitted = key;
      cam.target.set(center);
      cam.distance = radius / Math.sin(cam.fovY / 2);
    }
    this.last = { layers, center, radius };
    const { canvas } = this;
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(...BACKGROUND, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.useProgram(this.program);
    gl.uniformMatrix4fv(this.uniform.viewProjection, false, cam.viewProjection(canvas.width / canvas.height));
    const ce = Math.cos(cam.elevation);
    const toEye = [ce * Math.sin(cam.azimuth), Math.sin(cam.elevation), ce * Math.cos(cam.azimuth)];
    gl.uniform3fv(this.uniform.eye, toEye.map((d, k) => cam.target[k] + cam.distance * d));
    // the light: over the viewer's left shoulder, turning with the camera
    const right = [Math.cos(cam.azimuth), 0, -Math.sin(cam.azimuth)];
    const l = toEye.map((d, k) => d + 0.7 * [0, 1, 0][k] - 0.5 * right[k]);
    const len = Math.hypot(...l);
    gl.uniform3fv(this.uniform.light, l.map((x) => x / len));
    gl.uniform1f(this.uniform.wire, this.wireframe ? 1 : 0);
    const used = new Set();
    for (const layer of layers) {
      const m = this.mesh(layer.positions);
      used.add(layer.positions);
      for (let t = 0; t < m.count / 3; t++) {
        const c = layer.color(t);
        for (let v = 0; v < 3; v++) m.colors.set(c, t * 9 + v * 3);
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, m.color);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, m.colors);
      for (const name of ['position', 'normal', 'color', 'bary']) {
        gl.bindBuffer(gl.ARRAY_BUFFER, m[name]);
        gl.enableVertexAttribArray(this.attrib[name]);
        gl.vertexAttribPointer(this.attrib[name], 3, gl.FLOAT, false, 0, 0);
      }
      gl.uniformMatrix4fv(this.uniform.model, false, layer.matrix ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
      gl.drawArrays(gl.TRIANGLES, 0, m.count);
    }
    for (const [positions, m] of this.meshes) {
      if (used.has(positions)) continue;
      for (const b of [m.position, m.normal, m.bary, m.color]) gl.deleteBuffer(b);
      this.meshes.delete(positions);
    }
  }

  /**
   * What the test run checks: `shades`, the number of colours that each cover at least 50 pixels
   * (the background left out): a lit mesh has many, a flat unlit one a few; and `sum`, a checksum
   * of the picture, to see a change.
   */
  stats() {
    const gl = this.gl;
    const { width, height } = this.canvas;
    const px = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const bg = BACKGROUND.map((c) => Math.round(c * 255));
    const counts = new Map();
    let sum = 0;
    for (let i = 0; i < px.length; i += 4) {
      sum = (sum * 31 + px[i] * 65536 + px[i + 1] * 256 + px[i + 2]) % 2147483647;
      if (Math.abs(px[i] - bg[0]) <= 1 && Math.abs(px[i + 1] - bg[1]) <= 1 && Math.abs(px[i + 2] - bg[2]) <= 1) continue;
      const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return { shades: [...counts.values()].filter((c) => c >= 50).length, sum };
  }
}

/** The triangles of an indexed mesh as a soup (9 floats a triangle). */
export function soup(positions, indices) {
  const out = new Float32Array(indices.length * 3);
  for (let i = 0; i < indices.length; i++) out.set(positions.subarray(indices[i] * 3, indices[i] * 3 + 3), i * 3);
  return out;
}

/** Bounding sphere (centre of the box, half its diagonal) of xyz data. */
export function bounds(p) {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[i + k]); hi[k] = Math.max(hi[k], p[i + k]); }
  return { center: lo.map((l, k) => (l + hi[k]) / 2), radius: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2 };
}
