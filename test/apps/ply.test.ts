import { expect } from 'chai';
import { parsePly, weldVertices } from '../../src/index';
import { expectBrookError } from '../helpers';
import { loadModel } from './models';

/** A binary PLY: a header, then records written by `body` into a DataView. */
function binaryPly(little: boolean): ArrayBuffer {
  const header = [
    'ply',
    `format binary_${little ? 'little' : 'big'}_endian 1.0`,
    'comment made in a test',
    'element vertex 4',
    'property double x',
    'property float y',
    'property uchar red',
    'property short z',
    'element face 1',
    'property uchar flags',
    'property list uchar uint vertex_indices',
    'element extra 1',
    'property list ushort int stuff',
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);
  const vertexBytes = 8 + 4 + 1 + 2;
  const size = head.length + 4 * vertexBytes + (1 + 1 + 4 * 4) + (2 + 2 * 4);
  const buf = new ArrayBuffer(size);
  new Uint8Array(buf).set(head);
  const v = new DataView(buf);
  let at = head.length;
  const verts = [[0.5, 1.25, 3], [-2, 0, 7], [1e10, -1.5, -4], [3, 3, 3]];
  for (const [x, y, z] of verts) {
    v.setFloat64(at, x!, little); at += 8;
    v.setFloat32(at, y!, little); at += 4;
    v.setUint8(at, 200); at += 1;
    v.setInt16(at, z!, little); at += 2;
  }
  v.setUint8(at, 9); at += 1;
  v.setUint8(at, 4); at += 1;
  for (const i of [0, 1, 2, 3]) { v.setUint32(at, i, little); at += 4; }
  v.setUint16(at, 2, little); at += 2;
  v.setInt32(at, -1, little); at += 4;
  v.setInt32(at, -2, little); at += 4;
  expect(at).to.equal(size);
  return buf;
}

describe('geometry/ply (PLY reader)', () => {
  it('reads the ASCII models, including records wrapped across lines (dragon.ply)', async () => {
    const cube = await loadModel('cube');
    expect(cube.format).to.equal('ascii');
    expect([cube.vertexCount, cube.faceCount, cube.indices.length / 3]).to.deep.equal([8, 12, 12]);
    expect(Array.from(cube.positions.slice(0, 6))).to.deep.equal([-8, -8, 8, -8, 8, 8]);
    expect(Array.from(cube.indices.slice(0, 6))).to.deep.equal([0, 3, 2, 0, 2, 1]);
    const dragon = await loadModel('dragon');
    expect([dragon.vertexCount, dragon.faceCount, dragon.indices.length / 3]).to.deep.equal([1257, 2730, 2730]);
    expect(dragon.positions[3]).to.equal(Math.fround(-0.085233));
    // the last face as printed at the end of the file: 3 499 1099 578
    expect(Array.from(dragon.indices.slice(-3))).to.deep.equal([499, 1099, 578]);
  });

  for (const little of [true, false]) {
    it(`reads binary ${little ? 'little' : 'big'}-endian files with any scalar types, skipping other properties and elements`, () => {
      const m = parsePly(binaryPly(little));
      expect(m.format).to.equal(little ? 'binary_little_endian' : 'binary_big_endian');
      expect(Array.from(m.positions)).to.deep.equal([0.5, 1.25, 3, -2, 0, 7, Math.fround(1e10), -1.5, -4, 3, 3, 3]);
      // a quad becomes a fan of two triangles
      expect(Array.from(m.indices)).to.deep.equal([0, 1, 2, 0, 2, 3]);
      expect(m.faceCount).to.equal(1);
      expect(m.comments).to.deep.equal(['made in a test']);
    });
  }

  it('welds duplicate vertices as BrookGPU\'s subdivision loader does', async () => {
    const supercube = await loadModel('supercube');
    expect(supercube.vertexCount).to.equal(144);
    const welded = weldVertices(supercube);
    expect(welded.positions.length / 3).to.equal(26);
    expect(welded.indices.length).to.equal(supercube.indices.length);
    for (let t = 0; t < welded.indices.length; t++) {
      const a = welded.indices[t]!;
      const b = supercube.indices[t]!;
      expect(Array.from(welded.positions.slice(a * 3, a * 3 + 3))).to.deep.equal(Array.from(supercube.positions.slice(b * 3, b * 3 + 3)));
    }
  });

  it('names what is wrong in a bad file', () => {
    expectBrookError(() => parsePly('hello'), /not a PLY file/);
    expectBrookError(() => parsePly('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n'), /end_header/);
    expectBrookError(() => parsePly('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2\n'), /vertex 0 of 1: the file ends early/);
    expectBrookError(
      () => parsePly('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n1 2 3\n3 0 0 5\n'),
      /face 0 of 1: vertex index 5 is outside 0..0/,
    );
    expectBrookError(() => parsePly('ply\nformat binary_middle_endian 1.0\nend_header\n'), /format must be ascii/);
    expectBrookError(() => parsePly('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n'), /needs scalar properties x, y and z/);
    expectBrookError(() => parsePly(42 as unknown as string), /data must be an ArrayBuffer/);
  });
});
