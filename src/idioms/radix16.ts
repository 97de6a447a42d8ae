/**
 * The LSD radix sort with 4-bit digits (sortStream's method 'radix', the default on a GPU): 8 digit
 * passes instead of the 2-bit form's 16, each placing every record with one gather whose
 * texel fetches are counted, not searched.
 *
 * Per digit (bits shift..shift+3 of the records' sortable keys):
 * 1. `RadixDigits`: one texel per group of four records holding their four digits, a byte each
 *    (0xff past the end): n/4 fragments, 4 fetches each.
 * 2. `Radix16Count` / `RadixLevel`: a 4-way pyramid of counts stored digit by digit: level l
 *    holds, for every digit d and node j, a uvec4 of the counts of d in node j's four children
 *    (at index d * len + j). Level 1's children are the digit groups of step 1; each level up
 *    reads four texels of the level below. The top level has one node per digit.
 * 3. `RadixTotals`: the 16 digits' exclusive prefix over the whole stream (four uvec4 texels).
 * 4. `RadixPlace`: output record k finds its digit d from the prefixes (4 fetches), descends
 *    the pyramid by d's counts with one fetch per level (the four children's counts of d are one
 *    texel), reads its group's digits (1 fetch) and gathers the record (1 fetch).
 *
 * At 2^20 records a digit pass fetches about 21 M texels (placement 15 a record, the count
 * pyramid 5.4 M); the 2-bit form fetched about 27 M a digit (a level cost up to four dependent
 * fetches, 2.5 on average) for twice as many digits: 2.6x fewer fetches in all, and 8 x 12 + 1
 * passes instead of 16 x 11 + 1 at 2^20.
 */
import { BrookContext, BrookError, ElementType, KernelSpec, Stream } from '../core/index';

/** Bits of the sort key each pass of the 16-way radix sort orders by. */
export const RADIX16_BITS = 4;

const digits: KernelSpec = {
  name: 'RadixDigits',
  gathers: { src: 'uint2' },
  uniforms: { shift: 'int', n: 'int' },
  outputs: { dig: 'uint' },
  body: [
    '// the 4-bit digits of records 4i..4i+3, a byte each; 0xff past the end',
    'int first = brook_index * 4;',
    'uint packed = 0u;',
    'for (int c = 0; c < 4; c++) {',
    '  int m = first + c;',
    '  uint d = m < n ? (src(m).x >> uint(shift)) & 15u : 255u;',
    '  packed |= d << uint(8 * c);',
    '}',
    'dig = packed;',
  ].join('\n'),
};

const count1: KernelSpec = {
  name: 'Radix16Count', // the 2-bit sort's count pass (sort.ts) is Radix4Count
  gathers: { dig: 'uint' },
  uniforms: { len: 'int', groups: 'int' },
  outputs: { counts: 'uint4' },
  body: [
    '// node j of level 1, digit d: how many records of each of its four digit groups have d',
    'int d = brook_index / len;',
    'int j = brook_index - d * len;',
    'uint want = uint(d);',
    'for (int c = 0; c < 4; c++) {',
    '  int g = j * 4 + c;',
    '  uint packed = g < groups ? dig(g) : 0xffffffffu;',
    '  uint k = 0u;',
    '  for (int b = 0; b < 4; b++) k += ((packed >> uint(8 * b)) & 255u) == want ? 1u : 0u;',
    '  counts[c] = k;',
    '}',
  ].join('\n'),
};

const level: KernelSpec = {
  name: 'RadixLevel',
  gathers: { below: 'uint4' },
  uniforms: { len: 'int', lenBelow: 'int' },
  outputs: { counts: 'uint4' },
  body: [
    '// node j of this level, digit d: the totals of d in its four children (nodes of the level below)',
    'int d = brook_index / len;',
    'int j = brook_index - d * len;',
    'for (int c = 0; c < 4; c++) {',
    '  int child = j * 4 + c;',
    '  uvec4 v = child < lenBelow ? below(d * lenBelow + child) : uvec4(0u);',
    '  counts[c] = v.x + v.y + v.z + v.w;',
    '}',
  ].join('\n'),
};

const totals: KernelSpec = {
  name: 'RadixTotals',
  gathers: { top: 'uint4' },
  outputs: { prefix: 'uint4' },
  body: [
    '// exclusive prefix of the 16 digit totals: digits 4i..4i+3 in record i',
    'uint run = 0u;',
    'for (int d = 0; d < 16; d++) {',
    '  if (d == brook_index * 4) prefix.x = run;',
    '  if (d == brook_index * 4 + 1) prefix.y = run;',
    '  if (d == brook_index * 4 + 2) prefix.z = run;',
    '  if (d == brook_index * 4 + 3) prefix.w = run;',
    '  uvec4 v = top(d);',
    '  run += v.x + v.y + v.z + v.w;',
    '}',
  ].join('\n'),
};

/** The placement kernel for a pyramid of `levels` levels above the digit groups (lv1 .. lv{levels}). */
export function radix16Place(levels: number): KernelSpec {
  const gathers: Record<string, ElementType> = { src: 'uint2', dig: 'uint', prefix: 'uint4' };
  for (let l = 1; l <= levels; l++) gathers[`lv${l}`] = 'uint4';
  const uniforms: Record<string, 'int'> = {};
  for (let l = 1; l <= levels; l++) uniforms[`len${l}`] = 'int';
  const lines = [
    'uint k = uint(brook_index);',
    '// the digit: the last whose prefix is at most k (an empty digit shares the next one\'s prefix)',
    'int d = 0;',
    'for (int q = 0; q < 4; q++) {',
    '  uvec4 p = prefix(q);',
    '  if (p.x <= k) d = 4 * q;',
    '  if (p.y <= k) d = 4 * q + 1;',
    '  if (p.z <= k) d = 4 * q + 2;',
    '  if (p.w <= k) d = 4 * q + 3;',
    '}',
    'uvec4 pq = prefix(d / 4);',
    'k -= pq[d - 4 * (d / 4)];',
    'int j = 0;',
  ];
  for (let l = levels; l >= 1; l--) {
    lines.push(
      `{ // level ${l}: the counts of d in node j's four children, one texel`,
      `  uvec4 c = lv${l}(d * len${l} + j);`,
      '  int child = 3;',
      '  if (k < c.x) child = 0;',
      '  else { k -= c.x; if (k < c.y) child = 1;',
      '  else { k -= c.y; if (k < c.z) child = 2; else k -= c.z; } }',
      '  j = j * 4 + child;',
      '}',
    );
  }
  lines.push(
    '// the k-th record of digit d among the four of group j',
    'uint packed = dig(j);',
    'int m = 3;',
    'for (int c = 0; c < 3; c++) {',
    '  if (((packed >> uint(8 * c)) & 255u) == uint(d)) { if (k == 0u) { m = c; break; } k -= 1u; }',
    '}',
    'placed = src(j * 4 + m);',
  );
  return { name: `RadixPlace<${levels}>`, gathers, uniforms, outputs: { placed: 'uint2' }, body: lines.join('\n') };
}

/** Node counts of the count pyramid's levels for n records: level 1 has ceil(n / 16) nodes, each level above a quarter, up to one. */
export function radix16Levels(n: number): number[] {
  const lens = [Math.ceil(Math.ceil(n / 4) / 4)];
  while (lens[lens.length - 1]! > 1) lens.push(Math.ceil(lens[lens.length - 1]! / 4));
  return lens;
}

/** Passes a 16-way radix sort of n records runs: init, then per digit the digits, the count levels, the totals and the placement. */
export function radix16Passes(n: number): number {
  return 1 + (32 / RADIX16_BITS) * (3 + radix16Levels(n).length);
}

/**
 * Sorts `rec` (uint2 records: sortable key, original index; n records) by their keys with 4-bit
 * digits and returns the sorted records in a new scratch stream (`rec` is disposed). Stable.
 */
export function radix16Sort(ctx: BrookContext, rec: Stream): Stream {
  const n = rec.length;
  const lens = radix16Levels(n);
  if (lens.length + 3 > ctx.caps.maxTextureImageUnits) {
    rec.dispose();
    throw new BrookError(`a 16-way radix sort of ${n} keys reads ${lens.length + 3} textures in one pass, more than this device's ${ctx.caps.maxTextureImageUnits} texture units: use method 'bitonic'`);
  }
  const groups = Math.ceil(n / 4);
  const place = radix16Place(lens.length);
  return digitPasses(ctx, rec, RADIX16_BITS, (src, shift, scratch) => {
    const dig = scratch('uint', groups);
    ctx.runInternal(digits, { src, shift, n, dig });
    const lv: Stream[] = [scratch('uint4', 16 * lens[0]!)];
    ctx.runInternal(count1, { dig, len: lens[0]!, groups, counts: lv[0]! });
    for (let l = 1; l < lens.length; l++) {
      lv.push(scratch('uint4', 16 * lens[l]!));
      ctx.runInternal(level, { below: lv[l - 1]!, len: lens[l]!, lenBelow: lens[l - 1]!, counts: lv[l]! });
    }
    const prefix = scratch('uint4', 4);
    ctx.runInternal(totals, { top: lv[lv.length - 1]!, prefix });
    const placed = scratch('uint2', n);
    const args: Record<string, Stream | number> = { src, dig, prefix, placed };
    lv.forEach((s, l) => {
      args[`lv${l + 1}`] = s;
      args[`len${l + 1}`] = lens[l]!;
    });
    ctx.runInternal(place, args);
    return placed;
  });
}

/**
 * The loop of an LSD radix sort, shared by both radix sorts: for shift = 0, bits, 2·bits, ...
 * below 32, `pass` places `src` (uint2 records) by that digit and returns the placed records, one
 * of the streams it made with `scratch` or pushed to `temps`; the others are disposed after the
 * digit, and so is the digit's `src` (`rec` first). On failure everything is disposed, `rec`
 * included. Returns the last digit's records (the caller disposes them).
 */
export function digitPasses(
  ctx: BrookContext,
  rec: Stream,
  bits: number,
  pass: (src: Stream, shift: number, scratch: (type: ElementType, len: number) => Stream, temps: Stream[]) => Stream,
): Stream {
  let src = rec;
  try {
    for (let shift = 0; shift < 32; shift += bits) {
      const temps: Stream[] = [];
      const scratch = (type: ElementType, len: number) => {
        const s = ctx.scratch(type, len);
        temps.push(s);
        return s;
      };
      try {
        const out = pass(src, shift, scratch, temps);
        const kept = temps.indexOf(out);
        if (kept >= 0) temps.splice(kept, 1);
        src.dispose();
        src = out;
      } finally {
        temps.forEach((t) => t.dispose());
      }
    }
    return src;
  } catch (e) {
    src.dispose();
    throw e;
  }
}
