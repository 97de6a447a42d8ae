/** CPU reductions over records of `components` numbers (sequential order). */
export type ReferenceOp = 'sum' | 'min' | 'max' | ((a: number[], b: number[]) => number[]);

export function reduceReference(data: ArrayLike<number>, components: number, op: ReferenceOp): number[] {
  const n = data.length / components;
  let acc = Array.from({ length: components }, (_, k) => data[k]!);
  for (let i = 1; i < n; i++) {
    const b = Array.from({ length: components }, (_, k) => data[i * components + k]!);
    acc =
      op === 'sum' ? acc.map((a, k) => a + b[k]!)
      : op === 'min' ? acc.map((a, k) => Math.min(a, b[k]!))
      : op === 'max' ? acc.map((a, k) => Math.max(a, b[k]!))
      : op(acc, b);
  }
  return acc;
}

/** Inclusive prefix sum (running sum) of `data`. */
export function inclusiveScan(data: ArrayLike<number>): number[] {
  const out: number[] = [];
  let s = 0;
  for (let i = 0; i < data.length; i++) out.push((s += data[i]!));
  return out;
}

/**
 * Running sums of records of `components` numbers, componentwise, in float64 (exact for the
 * integers a test uses; for floats the exact sum the GPU's float32 sums are bounded against).
 * `exclusive`: the sum strictly to the left (zero first).
 */
export function scanReference(data: ArrayLike<number>, components: number, exclusive = false): Float64Array {
  const out = new Float64Array(data.length);
  const acc = new Float64Array(components);
  for (let i = 0; i < data.length; i += components) {
    for (let k = 0; k < components; k++) {
      if (exclusive) {
        out[i + k] = acc[k]!;
        acc[k]! += data[i + k]!;
      } else {
        out[i + k] = acc[k]! += data[i + k]!;
      }
    }
  }
  return out;
}
