/**
 * CPU versions of the Brook language features of test/brook (outputs read after they are
 * written, write queries, Cg's int-to-float promotion, 8-bit char streams), in float32 and in
 * the kernels' order of operations.
 */
const f = Math.fround;

/**
 * The kernel `o = a; o += 1; o /= 2; o *= o;` of test/brook/calls (an output read after the
 * kernel wrote it, as BrookGPU's own tests do): per record, ((a + 1) / 2)² in float32.
 */
export function brookReadAfterWriteReference(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(a, (x) => {
    const h = f(f(x + 1) / 2);
    return f(h * h);
  });
}
