// A small software mesh painter for the collision and subdivision pages: triangles projected
// orthographically on a 2D canvas, sorted back to front, flat-shaded (both sides lit). The
// brookgl context computes; this only draws, so it needs no GL of its own.

/** Mouse-drag orbit: yaw and pitch in radians, redraw() called on change. */
export function orbit(canvas, redraw, view = { yaw: 0.6, pitch: 0.35 }) {
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, yaw: view.yaw, pitch: view.pitch };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    view.yaw = drag.yaw + (e.clientX - drag.x) * 0.01;
    view.pitch = Math.max(-1.5, Math.min(1.5, drag.pitch + (e.clientY - drag.y) * 0.01));
    redraw();
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  return view;
}

/**
 * Draws triangle soups. `layers`: [{ positions (9 floats a triangle), color(t) → [r, g, b] in
 * 0..1, matrix? (column-major rigid 4x4 applied first) }]. The view fits `radius` around `center`.
 */
export function drawMesh(canvas, layers, { yaw, pitch, center = [0, 0, 0], radius = 1 }) {
  const g = canvas.getContext('2d');
  const W = canvas.width;
  const H = canvas.height;
  g.fillStyle = '#111';
  g.fillRect(0, 0, W, H);
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch);
  const scale = (0.45 * Math.min(W, H)) / radius;
  const project = (x, y, z) => {
    x -= center[0]; y -= center[1]; z -= center[2];
    const x1 = cy * x + sy * z;
    const z1 = -sy * x + cy * z;
    const y2 = cp * y - sp * z1;
    const z2 = sp * y + cp * z1;
    return [W / 2 + x1 * scale, H / 2 - y2 * scale, z2];
  };
  const tris = [];
  for (const layer of layers) {
    const p = layer.positions;
    const m = layer.matrix;
    const n = p.length / 9;
    for (let t = 0; t < n; t++) {
      const v = [];
      for (let k = 0; k < 3; k++) {
        let x = p[t * 9 + k * 3], y = p[t * 9 + k * 3 + 1], z = p[t * 9 + k * 3 + 2];
        if (m) [x, y, z] = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
        v.push(project(x, y, z));
      }
      const ux = v[1][0] - v[0][0], uy = v[1][1] - v[0][1], uz = v[1][2] - v[0][2];
      const wx = v[2][0] - v[0][0], wy = v[2][1] - v[0][1], wz = v[2][2] - v[0][2];
      const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
      const len = Math.hypot(nx, ny, nz) || 1;
      const light = 0.35 + 0.65 * Math.abs(nz / len);
      tris.push({ v, depth: v[0][2] + v[1][2] + v[2][2], c: layer.color(t), light });
    }
  }
  tris.sort((a, b) => a.depth - b.depth);
  for (const { v, c, light } of tris) {
    const rgb = c.map((x) => Math.round(255 * Math.min(1, x * light)));
    g.fillStyle = `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
    g.strokeStyle = g.fillStyle;
    g.beginPath();
    g.moveTo(v[0][0], v[0][1]);
    g.lineTo(v[1][0], v[1][1]);
    g.lineTo(v[2][0], v[2][1]);
    g.closePath();
    g.fill();
    g.stroke();
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
