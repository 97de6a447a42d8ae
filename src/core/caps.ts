/**
 * What the device can do, read once when a context is made (`ctx.caps`): the renderer string
 * every benchmark reports, the limits that bound streams, kernels and binning, and the optional
 * extensions the techniques check for.
 */

export interface Capabilities {
  /** The renderer string (unmasked where the browser allows), e.g. "ANGLE (NVIDIA, Vulkan ...)". */
  renderer: string;
  vendor: string;
  version: string;
  maxTextureSize: number;
  maxDrawBuffers: number;
  maxTextureImageUnits: number;
  /** Layers of a 2D texture array (binning's slices). */
  maxArrayTextureLayers: number;
  /** The largest point size (stencil routing's k x k points). */
  maxPointSize: number;
  /** The most records a 1D stream can hold: maxTextureSize squared. */
  maxRecords: number;
  extensions: string[];
  /** EXT_float_blend: blending into float32 targets. */
  floatBlend: boolean;
  /** EXT_disjoint_timer_query_webgl2: GPU time per pass. */
  timerQuery: boolean;
  /** OES_texture_float_linear: linear filtering of float textures. */
  floatLinear: boolean;
  /** True when the renderer is a CPU implementation (SwiftShader, llvmpipe, ...). */
  software: boolean;
}

const RENDERER_INFO = 'WEBGL_debug_renderer_info';
const UNMASKED_VENDOR = 0x9245;
const UNMASKED_RENDERER = 0x9246;

/** Reads `gl`'s capabilities, enabling the optional extensions it reports. */
export function readCapabilities(gl: WebGL2RenderingContext): Capabilities {
  const extensions = gl.getSupportedExtensions() ?? [];
  let renderer = String(gl.getParameter(gl.RENDERER));
  let vendor = String(gl.getParameter(gl.VENDOR));
  if (extensions.includes(RENDERER_INFO) && gl.getExtension(RENDERER_INFO)) {
    renderer = String(gl.getParameter(UNMASKED_RENDERER));
    vendor = String(gl.getParameter(UNMASKED_VENDOR));
  }
  const has = (name: string) => extensions.includes(name) && gl.getExtension(name) !== null;
  const maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  return {
    renderer,
    vendor,
    version: String(gl.getParameter(gl.VERSION)),
    maxTextureSize,
    maxDrawBuffers: gl.getParameter(gl.MAX_DRAW_BUFFERS) as number,
    maxTextureImageUnits: gl.getParameter(gl.MAX_TEXTURE_IMAGE_UNITS) as number,
    maxArrayTextureLayers: gl.getParameter(gl.MAX_ARRAY_TEXTURE_LAYERS) as number,
    maxPointSize: (gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE) as Float32Array)[1]!,
    maxRecords: maxTextureSize * maxTextureSize,
    extensions,
    floatBlend: has('EXT_float_blend'),
    timerQuery: has('EXT_disjoint_timer_query_webgl2'),
    floatLinear: has('OES_texture_float_linear'),
    software: /swiftshader|llvmpipe|software|softpipe|microsoft basic/i.test(renderer),
  };
}
