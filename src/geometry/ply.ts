/**
 * A PLY reader (Turk's polygon file format): ASCII, binary little-endian and binary big-endian,
 * the three formats of PLY 1.0. It reads the vertex positions (`x`, `y`, `z` of
 * `element vertex`, any scalar type) and the faces (`vertex_indices` or `vertex_index` list of
 * `element face`), fan-triangulating polygons; every other element and property is skipped.
 *
 * ```ts
 * const mesh = parsePly(await (await fetch('data/models/dragon.ply')).arrayBuffer());
 * mesh.positions; // Float32Array, xyz per vertex
 * mesh.indices;   // Uint32Array, three per triangle
 * ```
 *
 * ASCII bodies are read token by token, not line by line (BrookGPU's dragon.ply wraps its
 * records across lines). `weldVertices` merges vertices with identical coordinates, as
 * BrookGPU's subdivision loader does (supercube.ply stores every face's corners separately).
 */
import { BrookError } from '../core/errors';

/** A triangle mesh: xyz per vertex, three vertex indices per triangle. */
export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** What `parsePly` returns: the mesh plus what the header said. */
export interface PlyMesh extends TriangleMesh {
  format: 'ascii' | 'binary_little_endian' | 'binary_big_endian';
  vertexCount: number;
  /** Faces as stored (a quad counts once; it becomes two triangles in `indices`). */
  faceCount: number;
  comments: string[];
}

type Scalar = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';
const SCALARS: Record<string, Scalar> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8',
  short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32',
  float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};
const SIZES: Record<Scalar, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };

interface Property {
  name: string;
  type: Scalar;
  /** For list properties, the count's type. */
  countType?: Scalar;
}
interface Element {
  name: string;
  count: number;
  properties: Property[];
}

/**
 * Parses a PLY file. `data` is the file's bytes (ArrayBuffer or a view) or, for ASCII files,
 * its text. Throws a BrookError naming the header line or record that could not be read.
 */
export function parsePly(data: ArrayBuffer | ArrayBufferView | string): PlyMesh {
  const bytes =
    typeof data === 'string'
      ? new TextEncoder().encode(data)
      : data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : null;
  if (!bytes) throw new BrookError('parsePly(data): data must be an ArrayBuffer, a typed array or the text of an ASCII PLY file');
  const { elements, format, comments, bodyStart } = readHeader(bytes);
  const vertex = elements.find((e) => e.name === 'vertex');
  const face = elements.find((e) => e.name === 'face');
  if (!vertex) throw new BrookError("parsePly: the header declares no 'element vertex'");
  const axes = ['x', 'y', 'z'].map((a) => vertex.properties.findIndex((p) => p.name === a && !p.countType));
  if (axes.some((i) => i < 0)) throw new BrookError("parsePly: 'element vertex' needs scalar properties x, y and z");
  const listAt = face ? face.properties.findIndex((p) => (p.name === 'vertex_indices' || p.name === 'vertex_index') && p.countType) : -1;
  if (face && listAt < 0) throw new BrookError("parsePly: 'element face' needs a list property vertex_indices (or vertex_index)");

  const positions = new Float32Array(vertex.count * 3);
  const tris: number[] = [];
  const reader = format === 'ascii' ? asciiReader(bytes, bodyStart) : binaryReader(bytes, bodyStart, format === 'binary_little_endian');
  for (const element of elements) {
    for (let r = 0; r < element.count; r++) {
      const where = () => `parsePly: ${element.name} ${r} of ${element.count}`;
      if (element === vertex) {
        for (let p = 0; p < element.properties.length; p++) {
          const prop = element.properties[p]!;
          if (prop.countType) {
            reader.list(prop, where);
            continue;
          }
          const v = reader.scalar(prop.type, where);
          const axis = axes.indexOf(p);
          if (axis >= 0) positions[r * 3 + axis] = v;
        }
      } else if (element === face) {
        for (let p = 0; p < element.properties.length; p++) {
          const prop = element.properties[p]!;
          if (!prop.countType) {
            reader.scalar(prop.type, where);
            continue;
          }
          const list = reader.list(prop, where);
          if (p !== listAt) continue;
          if (list.length < 3) throw new BrookError(`${where()}: a face needs at least 3 vertices, has ${list.length}`);
          for (const i of list) {
            if (!Number.isInteger(i) || i < 0 || i >= vertex.count) {
              throw new BrookError(`${where()}: vertex index ${i} is outside 0..${vertex.count - 1}`);
            }
          }
          for (let k = 1; k + 1 < list.length; k++) tris.push(list[0]!, list[k]!, list[k + 1]!);
        }
      } else {
        for (const prop of element.properties) {
          if (prop.countType) reader.list(prop, where);
          else reader.scalar(prop.type, where);
        }
      }
    }
  }
  return { positions, indices: Uint32Array.from(tris), format, vertexCount: vertex.count, faceCount: face?.count ?? 0, comments };
}

function readHeader(bytes: Uint8Array): { elements: Element[]; format: PlyMesh['format']; comments: string[]; bodyStart: number } {
  // The header is ASCII and ends with the line 'end_header'.
  const limit = Math.min(bytes.length, 1 << 16);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, limit));
  const endMatch = /end_header[ \t]*\r?\n/.exec(head) ?? /end_header[ \t]*$/.exec(head);
  if (!head.startsWith('ply')) throw new BrookError("parsePly: not a PLY file (it must start with the line 'ply')");
  if (!endMatch) throw new BrookError("parsePly: no 'end_header' line in the first 64 KiB");
  const lines = head.slice(0, endMatch.index).split(/\r?\n/);
  const elements: Element[] = [];
  const comments: string[] = [];
  let format: PlyMesh['format'] | null = null;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const words = line.split(/\s+/);
    const where = `parsePly, header line ${i + 1} '${line}'`;
    if (i === 0 || line === '') return;
    if (words[0] === 'comment' || words[0] === 'obj_info') {
      comments.push(line.slice(words[0].length).trim());
    } else if (words[0] === 'format') {
      if (words[1] !== 'ascii' && words[1] !== 'binary_little_endian' && words[1] !== 'binary_big_endian') {
        throw new BrookError(`${where}: format must be ascii, binary_little_endian or binary_big_endian`);
      }
      format = words[1];
    } else if (words[0] === 'element') {
      const count = Number(words[2]);
      if (words.length !== 3 || !Number.isInteger(count) || count < 0) throw new BrookError(`${where}: expected 'element NAME COUNT'`);
      elements.push({ name: words[1]!, count, properties: [] });
    } else if (words[0] === 'property') {
      const element = elements[elements.length - 1];
      if (!element) throw new BrookError(`${where}: a property before any element`);
      if (words[1] === 'list') {
        const countType = SCALARS[words[2]!];
        const type = SCALARS[words[3]!];
        if (!countType || !type || words.length !== 5) throw new BrookError(`${where}: expected 'property list COUNT_TYPE TYPE NAME' with PLY scalar types`);
        element.properties.push({ name: words[4]!, type, countType });
      } else {
        const type = SCALARS[words[1]!];
        if (!type || words.length !== 3) throw new BrookError(`${where}: expected 'property TYPE NAME' with a PLY scalar type`);
        element.properties.push({ name: words[2]!, type });
      }
    } else {
      throw new BrookError(`${where}: unknown header keyword '${words[0]}'`);
    }
  });
  if (!format) throw new BrookError("parsePly: the header has no 'format' line");
  return { elements, format, comments, bodyStart: endMatch.index + endMatch[0].length };
}

interface BodyReader {
  scalar(type: Scalar, where: () => string): number;
  list(prop: Property, where: () => string): number[];
}

function asciiReader(bytes: Uint8Array, start: number): BodyReader {
  const text = new TextDecoder('latin1').decode(bytes.subarray(start));
  const re = /\S+/g;
  const next = (where: () => string): number => {
    const m = re.exec(text);
    if (!m) throw new BrookError(`${where()}: the file ends early`);
    const v = Number(m[0]);
    if (Number.isNaN(v) && m[0] !== 'nan' && m[0] !== 'NaN') throw new BrookError(`${where()}: '${m[0]}' is not a number`);
    return v;
  };
  return {
    scalar: (_type, where) => next(where),
    list(prop, where) {
      const n = next(where);
      if (!Number.isInteger(n) || n < 0) throw new BrookError(`${where()}: list length '${n}' is not a count`);
      const out: number[] = [];
      for (let k = 0; k < n; k++) out.push(next(where));
      return out;
    },
  };
}

function binaryReader(bytes: Uint8Array, start: number, little: boolean): BodyReader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = start;
  const scalar = (type: Scalar, where: () => string): number => {
    const size = SIZES[type];
    if (at + size > bytes.length) throw new BrookError(`${where()}: the file ends early (byte ${at} of ${bytes.length})`);
    let v: number;
    switch (type) {
      case 'int8': v = view.getInt8(at); break;
      case 'uint8': v = view.getUint8(at); break;
      case 'int16': v = view.getInt16(at, little); break;
      case 'uint16': v = view.getUint16(at, little); break;
      case 'int32': v = view.getInt32(at, little); break;
      case 'uint32': v = view.getUint32(at, little); break;
      case 'float32': v = view.getFloat32(at, little); break;
      default: v = view.getFloat64(at, little);
    }
    at += size;
    return v;
  };
  return {
    scalar,
    list(prop, where) {
      const n = scalar(prop.countType!, where);
      const out: number[] = [];
      for (let k = 0; k < n; k++) out.push(scalar(prop.type, where));
      return out;
    },
  };
}

/**
 * Merges vertices with bit-identical coordinates (the first occurrence keeps its place) and
 * renumbers the triangles; triangles that become degenerate are kept as they are.
 */
export function weldVertices(mesh: TriangleMesh): TriangleMesh {
  const seen = new Map<string, number>();
  const remap = new Uint32Array(mesh.positions.length / 3);
  const kept: number[] = [];
  for (let v = 0; v < remap.length; v++) {
    const p = mesh.positions;
    const key = `${p[v * 3]},${p[v * 3 + 1]},${p[v * 3 + 2]}`;
    let id = seen.get(key);
    if (id === undefined) {
      id = kept.length / 3;
      seen.set(key, id);
      kept.push(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
    }
    remap[v] = id;
  }
  return { positions: Float32Array.from(kept), indices: mesh.indices.map((i) => remap[i]!) };
}
