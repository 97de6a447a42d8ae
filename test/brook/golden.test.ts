// Golden GLSL: what the Brook front end generates for a representative set of kernels
// (test/brook/golden/kernels.ts) is kept as files beside it, so a change in generation shows as a
// reviewed diff. After a deliberate change: node scripts/brook-golden.mjs, then review git diff.
import { expect } from 'chai';
import { GOLDEN_KERNELS, goldenText } from './golden/kernels';
import SAXPY from './golden/saxpy.glsl';
import STARTSCAN from './golden/startscan.glsl';
import CGCOMPARE from './golden/cgcompare.glsl';
import CASTS from './golden/casts.glsl';
import CALLS from './golden/calls.glsl';
import STRUCTS from './golden/structs.glsl';
import REDUCE from './golden/reduce.glsl';
import VOUT from './golden/vout.glsl';
import LOOPS from './golden/loops.glsl';
import MACROS from './golden/macros.glsl';

const FILES: Record<string, string> = { saxpy: SAXPY, startscan: STARTSCAN, cgcompare: CGCOMPARE, casts: CASTS, calls: CALLS, structs: STRUCTS, reduce: REDUCE, vout: VOUT, loops: LOOPS, macros: MACROS };

describe('brook/golden: generated GLSL of representative kernels matches test/brook/golden/*.glsl', () => {
  it('has a file for every kernel source and no file without one', () => {
    expect(Object.keys(FILES).sort()).to.deep.equal(Object.keys(GOLDEN_KERNELS).sort());
  });
  for (const name of Object.keys(GOLDEN_KERNELS)) {
    it(`${name}.glsl (regenerate with node scripts/brook-golden.mjs and review the diff)`, () => {
      expect(goldenText(name)).to.equal(FILES[name]);
    });
  }
});
