/**
 * Element types of streams and how each one lives in a texture.
 *
 * float streams use 32-bit float textures (EXT_color_buffer_float makes them renderable);
 * int and uint streams use 32-bit integer textures, so indices and counts stay exact far
 * beyond 2^24, where a float stops counting by ones. float3/int3/uint3 are stored in RGBA
 * textures because three-channel 32-bit formats are not color-renderable in WebGL2.
 *
 * char..char4 are BrookGPU's 8-bit normalized streams (its `fixed` types and the later `char`
 * types of the GLES port: an unsigned byte per component read in kernels as a float in [0, 1],
 * b / 255): R8 / RG8 / RGBA8 textures (char3 in RGBA8), sampled as float, written by kernels as
 * floats that GL clamps to [0, 1] and rounds to the nearest of the 256 steps; host code writes
 * and reads their bytes as a Uint8Array (0..255). Their GLSL kind is 'float'; `host` says
 * which typed array holds them.
 */
import { BrookError } from './errors';

export type ScalarKind = 'float' | 'int' | 'uint';
/** What typed array holds a stream's scalars on the host: its kind's, or bytes for char streams. */
export type HostKind = ScalarKind | 'char';
export type ElementType =
  | 'float' | 'float2' | 'float3' | 'float4'
  | 'int' | 'int2' | 'int3' | 'int4'
  | 'uint' | 'uint2' | 'uint3' | 'uint4'
  | 'char' | 'char2' | 'char3' | 'char4';

export const ELEMENT_TYPES: readonly ElementType[] = [
  'float', 'float2', 'float3', 'float4',
  'int', 'int2', 'int3', 'int4',
  'uint', 'uint2', 'uint3', 'uint4',
  'char', 'char2', 'char3', 'char4',
];

export type TypedArrayOf<K extends ScalarKind> = K extends 'float'
  ? Float32Array
  : K extends 'int'
    ? Int32Array
    : Uint32Array;
export type StreamData = Float32Array | Int32Array | Uint32Array | Uint8Array;

/** One field of a struct: its name and element type (float..float4). */
export interface StructField {
  name: string;
  type: ElementType;
}

/** A struct type from Brook source (`typedef struct ... Name;`). */
export interface StructType {
  /** The typedef's name, e.g. 'Tri'. */
  name: string;
  /** Fields in declaration order. */
  fields: readonly StructField[];
  /** Floats per record when interleaved (the sum of the fields' components). */
  components: number;
}

export interface TypeInfo {
  type: ElementType;
  /** The GLSL kind of a record in kernels (char streams are 'float'). */
  kind: ScalarKind;
  /** The host's kind: the typed array that write() takes and read() returns ('char': Uint8Array). */
  host: HostKind;
  /** Components per record (1-4). */
  components: number;
  /** Channels of the texture that stores it (3 is stored as 4). */
  channels: number;
  /** GLSL type of a record, e.g. vec3, ivec2, uint. */
  glsl: string;
  /** GLSL 4-vector type of the texture and of the fragment output (vec4, ivec4, uvec4). */
  glsl4: string;
  /** GLSL sampler type (sampler2D, isampler2D, usampler2D). */
  sampler: string;
  /** WebGL internal format, format and type for texImage2D and texSubImage2D. */
  internalFormat: number;
  format: number;
  glType: number;
  /** Format and type for readPixels (RGBA always works for these color buffers). */
  readFormat: number;
  /** Swizzle taking the record out of a 4-vector, e.g. ".xyz" ("" for 4 components). */
  swizzle: string;
  /** Bytes per texel. */
  texelBytes: number;
}

// GL enums, named (WebGL2RenderingContext values).
const GL = {
  FLOAT: 0x1406, INT: 0x1404, UNSIGNED_INT: 0x1405,
  RED: 0x1903, RG: 0x8227, RGBA: 0x1908,
  RED_INTEGER: 0x8d94, RG_INTEGER: 0x8228, RGBA_INTEGER: 0x8d99, UNSIGNED_BYTE: 0x1401, R8: 0x8229, RG8: 0x822b, RGBA8: 0x8058,
  R32F: 0x822e, RG32F: 0x8230, RGBA32F: 0x8814,
  R32I: 0x8235, RG32I: 0x823b, RGBA32I: 0x8d82,
  R32UI: 0x8236, RG32UI: 0x823c, RGBA32UI: 0x8d70,
} as const;

const FORMATS: Record<HostKind, { internal: number[]; format: number[]; type: number; read: number }> = {
  char: { internal: [GL.R8, GL.RG8, GL.RGBA8], format: [GL.RED, GL.RG, GL.RGBA], type: GL.UNSIGNED_BYTE, read: GL.RGBA },
  float: { internal: [GL.R32F, GL.RG32F, GL.RGBA32F], format: [GL.RED, GL.RG, GL.RGBA], type: GL.FLOAT, read: GL.RGBA },
  int: { internal: [GL.R32I, GL.RG32I, GL.RGBA32I], format: [GL.RED_INTEGER, GL.RG_INTEGER, GL.RGBA_INTEGER], type: GL.INT, read: GL.RGBA_INTEGER },
  uint: { internal: [GL.R32UI, GL.RG32UI, GL.RGBA32UI], format: [GL.RED_INTEGER, GL.RG_INTEGER, GL.RGBA_INTEGER], type: GL.UNSIGNED_INT, read: GL.RGBA_INTEGER },
};

const SCALAR_GLSL: Record<ScalarKind, { scalar: string; vector: string; sampler: string }> = {
  float: { scalar: 'float', vector: 'vec', sampler: 'sampler2D' },
  int: { scalar: 'int', vector: 'ivec', sampler: 'isampler2D' },
  uint: { scalar: 'uint', vector: 'uvec', sampler: 'usampler2D' },
};

const cache = new Map<string, TypeInfo>();

/** Facts about an element type; throws a BrookError naming the valid types for anything else. */
export function typeInfo(type: string): TypeInfo {
  const hit = cache.get(type);
  if (hit) return hit;
  const m = /^(float|int|uint|char)([234]?)$/.exec(type);
  if (!m) {
    throw new BrookError(`unknown element type '${type}': use one of ${ELEMENT_TYPES.join(', ')}`);
  }
  const host = m[1] as HostKind;
  const kind: ScalarKind = host === 'char' ? 'float' : host;
  const components = m[2] ? Number(m[2]) : 1;
  const channels = components === 3 ? 4 : components;
  const slot = channels === 1 ? 0 : channels === 2 ? 1 : 2;
  const g = SCALAR_GLSL[kind];
  const f = FORMATS[host];
  const info: TypeInfo = {
    type: type as ElementType,
    kind,
    host,
    components,
    channels,
    glsl: components === 1 ? g.scalar : `${g.vector}${components}`,
    glsl4: `${g.vector}4`,
    sampler: g.sampler,
    internalFormat: f.internal[slot]!,
    format: f.format[slot]!,
    glType: f.type,
    readFormat: f.read,
    swizzle: ['.x', '.xy', '.xyz', ''][components - 1]!,
    texelBytes: channels * (host === 'char' ? 1 : 4),
  };
  cache.set(type, info);
  return info;
}

/** A new typed array of the right host kind for `count` scalars. */
export function allocate(kind: HostKind, count: number): StreamData {
  return kind === 'float' ? new Float32Array(count) : kind === 'int' ? new Int32Array(count) : kind === 'char' ? new Uint8Array(count) : new Uint32Array(count);
}

export function arrayKind(data: unknown): HostKind | undefined {
  if (data instanceof Float32Array) return 'float';
  if (data instanceof Int32Array) return 'int';
  if (data instanceof Uint32Array) return 'uint';
  if (data instanceof Uint8Array) return 'char';
  return undefined;
}
