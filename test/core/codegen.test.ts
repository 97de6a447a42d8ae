// GLSL generation and the Brook translator as plain strings: no GPU involved.
import { expect } from 'chai';
import { generateKernelSource, layoutFor, translateBody, typeInfo } from '../../src/index';

describe('core/codegen (no GPU)', () => {
  it('generates declarations for every role and marks where the body starts', () => {
    const { source, bodyStart } = generateKernelSource({
      name: 'k',
      inputs: { a: 'float3' },
      gathers: { g: 'uint2' },
      iters: { here: 'float' },
      uniforms: { twotoi: 'float', output: 'int' },
      outputs: { o: 'float2', p: 'int' },
      body: 'o = a.xy;\np = output;',
    });
    expect(source.split('\n')[bodyStart - 1]).to.equal('o = a.xy;');
    expect(source).to.contain('uniform highp usampler2D brook_g_g;');
    expect(source).to.contain('uvec2 g(int brook_a)');
    expect(source).to.contain('uniform int output_;');
    expect(source).to.contain('layout(location = 1) out ivec4 brook_out_1;');
    expect(source).to.contain('brook_out_0 = vec4(o, 0.0, 0.0);');
    expect(source).to.contain('here = brook_i_here_start + brook_i_here_step * float(brook_index);');
  });

  it('depends only on the description, so one program serves every size', () => {
    const spec = { name: 'k', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a;' } as const;
    expect(generateKernelSource(spec).source).to.equal(generateKernelSource({ ...spec }).source);
  });

  it('specialises the shader for its arguments instead of branching on uniforms', () => {
    // A software rasteriser computes both sides of a uniform branch on every fragment: the
    // output's rank and domain, input mappings and gather domains are compile-time choices.
    const spec = { name: 'k', inputs: { a: 'float' }, gathers: { g: 'float' }, outputs: { b: 'float' }, body: 'b = a + g(brook_index);' } as const;
    const plain = generateKernelSource(spec).source;
    const main = (src: string) => src.slice(src.indexOf('void main()'));
    expect(main(plain)).to.not.contain('brook_unflatten');
    expect(main(plain)).to.contain('brook_coord = ivec4(brook_index, 0, 0, 0);');
    expect(plain).to.contain('texelFetch(brook_s_a, brook_texel_here, 0)');
    expect(plain).to.contain('float g(int brook_a) { return brook_inside(brook_a, brook_g_g_dims) ? texelFetch(brook_g_g, ivec2((brook_a) & (brook_g_g_dims.y - 1), (brook_a) >> brook_g_g_dims.z)');
    const two = generateKernelSource(spec, undefined, { rank: 2, view: false, inputs: [{ mode: 1, pow2: false }], gathers: [{ view: false, pow2: false }] }).source;
    expect(main(two)).to.contain('brook_coord = ivec4(brook_texel_here, 0, 0);');
    expect(two).to.contain('texelFetch(brook_s_a, brook_texel_div(brook_index, brook_s_a_dims), 0)');
    expect(two).to.contain('float g(int brook_a) { return brook_inside(brook_a, brook_g_g_dims) ? texelFetch(brook_g_g, brook_texel_div(brook_a, brook_g_g_dims), 0)');
    const domain = generateKernelSource(spec, undefined, { rank: 3, view: true, inputs: [{ mode: 7, pow2: true }], gathers: [{ view: true, pow2: true }] }).source;
    expect(main(domain)).to.contain('brook_coord = brook_unflatten(brook_index, brook_full) - brook_origin;');
    expect(domain).to.contain('float g(int brook_a) { return brook_a >= 0 ? brook_g_g_at4(brook_unflatten(brook_a, brook_g_g_shape)) : float(0); }');
    for (const src of [plain, two, domain]) expect(src).to.not.match(/brook_2d|brook_rank|brook_domain|_mode\b/);
  });

  it('translates Brook literals only where Cg would convert them (translateBody: free names are floats)', () => {
    const t = (s: string, ints: string[] = []) => translateBody(s, new Set(['v']), new Set(ints));
    expect(t('c = x ? 1 : 0;')).to.equal('c = bool(x) ? 1.0 : 0.0;');
    expect(t('for (int i = 0; i < 4; i++) c += v[i];')).to.equal('for (int i = 0; i < 4; i++) { c += v(i); }');
    expect(t('float4 m = x; c = m[2] * 3;')).to.equal('vec4 m = vec4(x); c = m[2] * 3.0;');
    expect(t('c = v[here + 1];')).to.equal('c = v(here + 1.0);');
    expect(t('c = k + 1;', ['k'])).to.equal('c = float(k + 1);');
    expect(t('c = 1.5f + 2e3 + 0x10;')).to.equal('c = 1.5 + 2e3 + 16.0;');
    expect(t('float4 input = v[v[i]][j];')).to.equal('vec4 input_ = vec4(v(v(i), j));');
  });

  it('computes element type facts and layouts', () => {
    expect(typeInfo('float3')).to.include({ components: 3, channels: 4, glsl: 'vec3', sampler: 'sampler2D' });
    expect(typeInfo('uint')).to.include({ components: 1, glsl: 'uint', sampler: 'usampler2D', glsl4: 'uvec4' });
    expect(layoutFor(8192 * 8192, 8192)).to.include({ width: 8192, height: 8192 });
    expect(layoutFor(5, 8192)).to.include({ width: 4, height: 2 });
    expect(layoutFor([3, 5], 8192)).to.include({ width: 5, height: 3, dims: 2 });
  });
});
