/**
 * CPU runs of the classic Brook programs of test/brook/programs.test.ts, in float32 and in the
 * GPU's order of operations, so their printed output can be compared exactly.
 */
const f = Math.fround;

/** Hillis–Steele prefix sum (the Brook scan: log2 n passes of result = x[i] + x[i - offset]). */
export function brookPrefixSumReference(xs: ArrayLike<number>): Float32Array {
  let cur = Float32Array.from(xs);
  for (let offset = 1; offset < cur.length; offset *= 2) {
    const next = new Float32Array(cur.length);
    for (let i = 0; i < cur.length; i++) next[i] = i >= offset ? f(cur[i]! + cur[i - offset]!) : cur[i]!;
    cur = next;
  }
  return cur;
}

/** Bitonic sort network on a power-of-two length, pass by pass as the Brook kernel runs it. */
export function brookBitonicReference(xs: ArrayLike<number>): Float32Array {
  let cur = Float32Array.from(xs);
  const n = cur.length;
  for (let sortWidth = 2; sortWidth <= n; sortWidth *= 2) {
    for (let stage = sortWidth / 2; stage >= 1; stage /= 2) {
      const next = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const lower = i % (2 * stage) < stage;
        const partner = lower ? i + stage : i - stage;
        const ascending = Math.floor(i / sortWidth) % 2 === 0;
        const a = cur[i]!;
        const b = cur[partner]!;
        next[i] = lower === ascending ? Math.min(a, b) : Math.max(a, b);
      }
      cur = next;
    }
  }
  return cur;
}

/** C = A x B (n x n, row-major), each C[i][j] summed over k in order, in float32. */
export function brookMatmulReference(a: ArrayLike<number>, b: ArrayLike<number>, n: number): Float32Array {
  const c = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = f(a[i * n]! * b[j]!);
      for (let k = 1; k < n; k++) s = f(s + f(a[i * n + k]! * b[k * n + j]!));
      c[i * n + j] = s;
    }
  }
  return c;
}

/** Mandelbrot escape counts over a [h, w] grid from (x0, y0) to (x1, y1), as the kernel iterates. */
export function brookMandelbrotReference(h: number, w: number, from: [number, number], to: [number, number], maxIter: number): Float32Array {
  const out = new Float32Array(h * w);
  const sx = f((to[0] - from[0]) / w);
  const sy = f((to[1] - from[1]) / h);
  for (let r = 0; r < h; r++) {
    for (let col = 0; col < w; col++) {
      const cx = f(from[0] + f(sx * col));
      const cy = f(from[1] + f(sy * r));
      let zx = 0;
      let zy = 0;
      let n = 0;
      while (n < maxIter && f(f(zx * zx) + f(zy * zy)) < 4) {
        const nx = f(f(f(zx * zx) - f(zy * zy)) + cx);
        zy = f(f(f(2 * zx) * zy) + cy);
        zx = nx;
        n++;
      }
      out[r * w + col] = n;
    }
  }
  return out;
}

/** Particles (pos.xyz, vel.xyz interleaved) after `steps` steps of the struct-stream kernel. */
export function brookParticlesReference(data: ArrayLike<number>, dt: number, g: [number, number, number], steps: number): Float32Array {
  const p = Float32Array.from(data);
  const n = p.length / 6;
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < n; i++) {
      const o = i * 6;
      for (let k = 0; k < 3; k++) p[o + 3 + k] = f(p[o + 3 + k]! + f(g[k]! * dt));
      for (let k = 0; k < 3; k++) p[o + k] = f(p[o + k]! + f(p[o + 3 + k]! * dt));
      if (p[o + 1]! < 0) {
        p[o + 1] = -p[o + 1]!;
        p[o + 4] = -p[o + 4]!;
      }
    }
  }
  return p;
}
