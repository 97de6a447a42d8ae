// The CPU references themselves, on hand-checked cases, so a GPU test never agrees with a broken reference.
import { expect } from 'chai';
import { reference } from '../../src/index';

describe('reference (CPU)', () => {
  it('reduces records componentwise', () => {
    expect(reference.reduceReference([1, 5, 3, 2, -1, 9], 2, 'sum')).to.deep.equal([3, 16]);
    expect(reference.reduceReference([1, 5, 3, 2, -1, 9], 2, 'min')).to.deep.equal([-1, 2]);
    expect(reference.reduceReference([1, 5, 3, 2, -1, 9], 3, 'max')).to.deep.equal([2, 5, 9]);
  });

  it('scans and counts nulls', () => {
    expect(reference.inclusiveScan([1, 2, 3])).to.deep.equal([1, 3, 6]);
    expect(reference.prefixNullCount([1, Infinity, 2, Infinity, Infinity])).to.deep.equal([0, 1, 1, 2, 3]);
    expect(Array.from(reference.startScanReference([Infinity, Infinity, 1, Infinity]))).to.deep.equal([1, 2, 1, 1]);
  });

  it('mirrors the printed Scan guard and the corrected one', () => {
    // all-null counts after StartScan: [1, 2, 2, 2, 2]
    const start = reference.startScanReference([Infinity, Infinity, Infinity, Infinity, Infinity]);
    expect(Array.from(reference.scanPassReference(start, 2, '>='))).to.deep.equal([1, 2, 3, 4, 4]);
    expect(Array.from(reference.scanPassReference(start, 2, '>'))).to.deep.equal([1, 2, 2, 4, 4]);
  });

  it('gathers clamped to the edge, as Brook kernels', () => {
    expect(Array.from(reference.relGatherReference([0, 1, 5, -9], [10, 20, 30, 40], 1))).to.deep.equal([10, 30, 40, 10]);
  });
});
