/**
 * CPU mirrors of Horn's section 36.1 kernels (GPU Gems 2: StartScan and Scan of 36.1.1, printed
 * without a listing number; GatherSearch and RelGather of Listing 36-1), record by record in
 * float32, with Brook's gather rules (a float index is floored; outside the stream it reads the
 * nearest record, clamped to the edge as BrookGPU's gathers and brookgl's `brook` kernels do).
 * They answer "what should the GPU have written for the listing as printed", so tests compare
 * the GPU pass against them exactly; `prefixNullCount` is what a correct running count is.
 */
const f32 = Math.fround;

function at(values: ArrayLike<number>, index: number): number {
  return values[Math.min(Math.max(Math.floor(index), 0), values.length - 1)]!;
}

const isInf = (x: number) => x === Infinity || x === -Infinity;

/** StartScan: count = null(here) + null(here - 1), from the x components of `value`. */
export function startScanReference(valueX: ArrayLike<number>): Float32Array {
  const n = valueX.length;
  const count = new Float32Array(n);
  for (let here = 0; here < n; here++) {
    let c = isInf(at(valueX, here)) ? 1 : 0;
    if (here >= 1) c += isInf(at(valueX, here - 1)) ? 1 : 0;
    count[here] = c;
  }
  return count;
}

/**
 * One Scan pass with offset `twotoi`. As printed the guard is `here > twotoi`, which skips the
 * record exactly `twotoi` to the left of record `twotoi`; `inclusive: true` uses `>=`.
 */
export function scanPassReference(input: ArrayLike<number>, twotoi: number, guard: '>' | '>=' = '>'): Float32Array {
  const n = input.length;
  const count = new Float32Array(n);
  for (let here = 0; here < n; here++) {
    let c = input[here]!;
    if (guard === '>' ? here > twotoi : here >= twotoi) c = f32(c + at(input, here - twotoi));
    count[here] = c;
  }
  return count;
}

/** Exact running count of null (infinite) records at or left of each record. */
export function prefixNullCount(valueX: ArrayLike<number>): number[] {
  const out: number[] = [];
  let c = 0;
  for (let i = 0; i < valueX.length; i++) out.push((c += isInf(valueX[i]!) ? 1 : 0));
  return out;
}

/** One GatherSearch pass (Listing 36-1): the next guess for each output record. */
export function gatherSearchPassReference(
  scatterValues: ArrayLike<number>,
  valueX: ArrayLike<number>,
  lastguess: ArrayLike<number>,
  twotoi: number,
): Float32Array {
  const n = lastguess.length;
  const out = new Float32Array(n);
  for (let here = 0; here < n; here++) {
    const g = lastguess[here]!;
    const guess = at(scatterValues, f32(here + g));
    const finalX = at(valueX, f32(here + g));
    if (guess > g) out[here] = f32(g + twotoi);
    else if (guess === g && !isInf(finalX)) out[here] = g;
    else out[here] = f32(g - twotoi);
  }
  return out;
}

/** RelGather: outp = value[here + gatherindex], for records of `components` numbers. */
export function relGatherReference(gatherindex: ArrayLike<number>, value: ArrayLike<number>, components: number): Float32Array {
  const n = gatherindex.length;
  const records = value.length / components;
  const out = new Float32Array(n * components);
  for (let here = 0; here < n; here++) {
    const i = Math.min(Math.max(Math.floor(f32(here + gatherindex[here]!)), 0), records - 1);
    for (let k = 0; k < components; k++) out[here * components + k] = value[i * components + k]!;
  }
  return out;
}
