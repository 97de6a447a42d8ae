/**
 * Filtering on the host: the records of a plain array for which a predicate holds, in order,
 * with their indices. What the filter idiom (filter.ts) computes on the GPU, for library code
 * that checks a GPU filter where it runs (the filter embed shows whether the two agree);
 * `reference.filterReference` is this function, for tests and reading.
 */

/** Keeps the records (of `components` numbers) for which `keep(record, index)` holds, in order. */
export function filterOnHost(
  data: ArrayLike<number>,
  components: number,
  keep: (record: number[], index: number) => boolean,
): { values: number[]; indices: number[] } {
  const values: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i < data.length / components; i++) {
    const record = Array.from({ length: components }, (_, k) => data[i * components + k]!);
    if (keep(record, i)) {
      values.push(...record);
      indices.push(i);
    }
  }
  return { values, indices };
}
