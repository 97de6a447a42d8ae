/**
 * The kernels of the CCD pipeline outside lazy work stealing (./lws.ts): the refit, one static
 * traversal step, concatenation of front chunks and the elementary tests of candidates and
 * orphan sets. Their GLSL is in glsl/apps/ccd/.
 */
import BVTT from '../../../glsl/apps/ccd/bvtt.glsl';
import ELEMENTARY from '../../../glsl/apps/ccd/elementary.glsl';
import FEATURES from '../../../glsl/apps/ccd/features.glsl';
import GROUPS from '../../../glsl/apps/ccd/groups.glsl';
import REFIT from '../../../glsl/apps/ccd/refit.glsl';
import type { KernelSpec } from '../../core/kernelspec';

/** One level of the refit (glsl/apps/ccd/refit.glsl). */
export const CCD_REFIT: KernelSpec = {
  name: 'CcdRefit',
  inputs: { node: 'int4', loIn: 'float4', hiIn: 'float4' },
  gathers: { boxLo: 'float4', boxHi: 'float4', tris: 'int4', x0: 'float4', x1: 'float4' },
  uniforms: { level: 'int' },
  outputs: { lo: 'float4', hi: 'float4' },
  body: REFIT,
};

/** The BVTT gathers every traversal kernel declares. */
export const BVTT_GATHERS = { nodes: 'int4', nodeObject: 'int', boxLo: 'float4', boxHi: 'float4', tris: 'int4' } as const;

/** One traversal step of the static method: record k is slot k % 3 of work item k / 3. A work
 * item (-1, -1, 0, 0) is the filler past the count of a list sized before its count was read
 * (CCD_DEAD): it has no children. */
export const CCD_TRAVERSE: KernelSpec = {
  name: 'CcdTraverse',
  gathers: { work: 'int4', ...BVTT_GATHERS },
  uniforms: { selfTest: 'int' },
  outputs: { child: 'int4' },
  helpers: BVTT,
  body: [
    'int item = brook_index / 3, slot = brook_index - 3 * item;',
    'ivec4 w = work(item);',
    'if (w.x < 0) { child = ivec4(-1, -1, 0, 0); return; }',
    'ivec2 c[3]; int front;',
    'int n = bvttStep(w.x, w.y, c, front);',
    'if (n > 0) child = slot < n ? ivec4(c[slot], CCD_WORK, 0) : ivec4(-1, -1, 0, 0);',
    'else child = slot == 0 ? ivec4(w.xy, front, 0) : ivec4(-1, -1, 0, 0);',
  ].join('\n'),
};

/** The record a speculative list holds past its count (GLSL): no node, kind 0 (neither work nor front). */
export const CCD_DEAD = 'ivec4(-1, -1, 0, 0)';

/** Work item i's front record, if the step made one (slot 0 of its three), else kind 0. */
export const CCD_FRONT_SLOT: KernelSpec = {
  name: 'CcdFrontSlot',
  gathers: { child: 'int4' },
  outputs: { fr: 'int4' },
  body: 'ivec4 c = child(3 * brook_index);\nfr = c.z >= 2 ? c : ivec4(-1, -1, 0, 0);',
};

/** Record i: `a` then `b` (concatenating front chunks). */
export const CCD_CONCAT: KernelSpec = {
  name: 'CcdConcat',
  gathers: { a: 'int4', b: 'int4' },
  uniforms: { na: 'int' },
  outputs: { joined: 'int4' },
  body: 'joined = brook_index < na ? a(brook_index) : b(brook_index - na);',
};

/** Up to eight chunks one after another: chunk k starts at record starts[k] (starts lo, hi:
 * int4s; unused chunks start at the total, so none of their records is asked for). */
export const CCD_GATHER8: KernelSpec = {
  name: 'CcdGatherChunks',
  gathers: { c0: 'int4', c1: 'int4', c2: 'int4', c3: 'int4', c4: 'int4', c5: 'int4', c6: 'int4', c7: 'int4' },
  uniforms: { lo: 'int4', hi: 'int4' },
  outputs: { joined: 'int4' },
  body: [
    'int i = brook_index;',
    'int k = i >= hi.w ? 7 : i >= hi.z ? 6 : i >= hi.y ? 5 : i >= hi.x ? 4 : i >= lo.w ? 3 : i >= lo.z ? 2 : i >= lo.y ? 1 : 0;',
    'int at = i - (k < 4 ? lo[k] : hi[k - 4]);',
    'joined = k == 0 ? c0(at) : k == 1 ? c1(at) : k == 2 ? c2(at) : k == 3 ? c3(at) : k == 4 ? c4(at) : k == 5 ? c5(at) : k == 6 ? c6(at) : c7(at);',
  ].join('\n'),
};

/** Up to eight one-texel pyramid roots side by side (record i: root r_i), so that a group of
 * counts comes back in one read instead of one read each. */
export const CCD_ROOTS8: KernelSpec = {
  name: 'CcdRoots',
  gathers: { r0: 'uint4', r1: 'uint4', r2: 'uint4', r3: 'uint4', r4: 'uint4', r5: 'uint4', r6: 'uint4', r7: 'uint4' },
  outputs: { c: 'uint4' },
  body: 'int i = brook_index;\nc = i == 0 ? r0(0) : i == 1 ? r1(0) : i == 2 ? r2(0) : i == 3 ? r3(0) : i == 4 ? r4(0) : i == 5 ? r5(0) : i == 6 ? r6(0) : r7(0);',
};

/** The 15 feature tests of candidate (front) pair k in one fragment: its two triangles' six
 * vertices gathered once (17 gathers a candidate, not 15 x 13), then ccdTest for each of the 15
 * slots of ccdPairFeature. `hit` is (triangle a, triangle b, mask, 0) with bit s of the mask set
 * when slot s may touch, or (-1, -1, -1, -1) when none may, or for a CCD_DEAD record (the caller
 * expands the mask into feature records on the CPU: ccdPairFeature's order). */
export const CCD_PAIR_TESTS: KernelSpec = {
  name: 'CcdPairTests',
  inputs: { cand: 'int4' },
  gathers: { nodes: 'int4', tris: 'int4', x0: 'float4', x1: 'float4' },
  uniforms: { inputUlp: 'float' },
  outputs: { hit: 'int4' },
  helpers: `${ELEMENTARY}\n${FEATURES}`,
  body: [
    'if (cand.x < 0) { hit = ivec4(-1); return; } // CCD_DEAD: past the count of a list sized before it was read',
    'int ta = nodes(cand.x).z, tb = nodes(cand.y).z;',
    'int mask = ccdPairMask(tris(ta), tris(tb));',
    'hit = mask != 0 ? ivec4(ta, tb, mask, 0) : ivec4(-1);',
  ].join('\n'),
};

/** The 15 feature tests of candidate (front) pair k / 15, slot k % 15, with each test's
 * conservative time of impact in 2^-16 of the step (65536: none): `hit` is the feature record
 * (ccdPairFeature) where it may touch, else (-1, -1, -1, -1). */
export const CCD_PAIR_TESTS_TOI: KernelSpec = {
  name: 'CcdPairTestsToi',
  gathers: { cand: 'int4', nodes: 'int4', tris: 'int4', x0: 'float4', x1: 'float4' },
  uniforms: { inputUlp: 'float' },
  outputs: { hit: 'int4', tick: 'int' },
  helpers: `${ELEMENTARY}\n${FEATURES}`,
  body: [
    'int item = brook_index / 15, slot = brook_index - 15 * item;',
    'ivec4 c = cand(item);',
    'int tk;',
    'hit = ccdTestFeature(ccdPairFeature(nodes(c.x).z, nodes(c.y).z, slot), tk);',
    'tick = tk;',
  ].join('\n'),
};

/** The test of one orphan-set record. */
export const CCD_ORPHAN_TESTS: KernelSpec = {
  name: 'CcdOrphanTests',
  inputs: { rec: 'int4' },
  gathers: { tris: 'int4', x0: 'float4', x1: 'float4' },
  uniforms: { inputUlp: 'float' },
  outputs: { hit: 'int4' },
  helpers: `${ELEMENTARY}\n${FEATURES}`,
  body: 'int tk;\nhit = ccdTestFeature(rec, tk);',
};

/** The tests of the orphan-set records first + 8k .. first + 8k + 7 (those below `end`) in one
 * fragment (ccdGroupMask: the cheap filters over all eight first, then the branch and bound for
 * what they keep, so a warp's fragments run their remaining tests together): `hit` is (first
 * record, mask, 0, 0) with bit j set when record first + 8k + j may touch, or (-1, -1, -1, -1). */
export const CCD_ORPHAN_GROUPS: KernelSpec = {
  name: 'CcdOrphanGroups',
  gathers: { rec: 'int4', tris: 'int4', x0: 'float4', x1: 'float4' },
  uniforms: { inputUlp: 'float', first: 'int', end: 'int' },
  outputs: { hit: 'int4' },
  helpers: `${ELEMENTARY}\n${FEATURES}\n${GROUPS}`,
  body: 'int f = first + CCD_GROUP * brook_index;\nint m = ccdGroupMask(f, end);\nhit = m != 0 ? ivec4(f, m, 0, 0) : ivec4(-1);',
};

/** CCD_ORPHAN_TESTS with the conservative time of impact (ticks, as CCD_PAIR_TESTS_TOI). */
export const CCD_ORPHAN_TESTS_TOI: KernelSpec = {
  ...CCD_ORPHAN_TESTS,
  name: 'CcdOrphanTestsToi',
  outputs: { hit: 'int4', tick: 'int' },
  body: 'int tk;\nhit = ccdTestFeature(rec, tk);\ntick = tk;',
};

/** The tick of each kept hit (by its index in the hits, from the filter). */
export const CCD_TICK_OF: KernelSpec = {
  name: 'CcdTickOf',
  inputs: { idx: 'uint' },
  gathers: { tick: 'int' },
  outputs: { t: 'int' },
  body: 't = tick(int(idx));',
};

/** Candidate k's verdict: (triangle a, triangle b, 1 when any of its 15 features may touch, the
 * earliest tick among those). */
export const CCD_CANDIDATE_VERDICTS: KernelSpec = {
  name: 'CcdCandidateVerdicts',
  inputs: { cand: 'int4' },
  gathers: { nodes: 'int4', hit: 'int4', tick: 'int' },
  outputs: { v: 'int4' },
  body: [
    'int found = 0, first = 65536;',
    'for (int s = 0; s < 15; s++) {',
    '  if (hit(15 * brook_index + s).x >= 0) { found = 1; first = min(first, tick(15 * brook_index + s)); }',
    '}',
    'v = ivec4(nodes(cand.x).z, nodes(cand.y).z, found, first);',
  ].join('\n'),
};
