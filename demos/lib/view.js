// Streams as images: records mapped to pixels, components to gray (1), RG (2) or RGB (3, 4),
// each channel normalised to its own min..max.
export function drawStream(canvas, data, shape, components) {
  const [h, w] = shape.length === 2 ? shape : squareish(shape[0]);
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext('2d');
  const img = g.createImageData(w, h);
  const n = data.length / components;
  const lo = [], hi = [];
  for (let k = 0; k < Math.min(components, 3); k++) {
    lo[k] = Infinity; hi[k] = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = data[i * components + k];
      if (Number.isFinite(v)) { lo[k] = Math.min(lo[k], v); hi[k] = Math.max(hi[k], v); }
    }
  }
  for (let i = 0; i < w * h; i++) {
    const px = i * 4;
    if (i >= n) { img.data[px + 3] = 0; continue; }
    for (let c = 0; c < 3; c++) {
      const k = components === 1 ? 0 : Math.min(c, components - 1);
      const v = data[i * components + k];
      const t = components === 2 && c === 2 ? 0 : hi[k] > lo[k] ? (v - lo[k]) / (hi[k] - lo[k]) : 0.5;
      img.data[px + c] = Number.isFinite(v) ? Math.round(255 * t) : 255;
    }
    img.data[px + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  return { lo, hi };
}

function squareish(n) {
  const w = Math.ceil(Math.sqrt(n));
  return [Math.ceil(n / w), w];
}
