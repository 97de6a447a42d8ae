"""Writes the worked notebooks (one per paper) in this folder: python3 make_notebooks.py.
They are kept as source without outputs; run them in Jupyter after `npm run build` and
`pip install ./python` (see the repository README, "In a notebook")."""
import nbformat as nbf

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell
SETUP = code("import numpy as np\nimport brookgl\nbrookgl.load()   # once per notebook: the library, inlined, into this page")


def save(name, cells):
    nb = nbf.v4.new_notebook()
    nb.cells = cells
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, "language_info": {"name": "python"}}
    nbf.write(nb, name)


save("horn-filter.ipynb", [
    md("""# Horn, "Stream Reduction Operations for GPGPU Applications" (GPU Gems 2, ch. 36)

Filtering a stream — keeping the records that pass a test and packing them together — is the
operation a 2005 GPU could not do directly: a fragment program writes its own pixel and cannot
scatter. Horn's answer is a **running sum** of the null records (a scan of ⌈log₂ n⌉ passes), then
a **gather search**: each output record searches, in log passes, for the input record that
should land on it.

The listing (Example 36-1 in the chapter), in Brook:

```
kernel void GatherSearch(float scatterValues[], out float outGuess<>, float4 value[],
                         float twotoi, float lastguess<>, iter float here<>) {
  float guess = scatterValues[here + lastguess];
  float4 finalValue = value[here + lastguess];
  if (guess > lastguess)
    outGuess = lastguess + twotoi; // too low
  else if (guess == lastguess && !isinf(finalValue.x))
    outGuess = lastguess;          // correct
  else
    outGuess = lastguess - twotoi; // too high
}
```

The scan starts with `StartScan`: each record counts whether it and its left neighbour are null
(+∞ in `x`)."""),
    SETUP,
    md("## The run: StartScan on records with nulls"),
    code("""n = 2048
values = np.random.default_rng(7).random((n, 4), dtype=np.float32)
values[np.random.default_rng(8).random(n) < 0.3, 0] = np.inf      # 30 % null records
start = brookgl.html_run('''
kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
  count = isinf(value[here].x) ? 1 : 0;
  if (here >= 1)
    count += isinf(value[left_1].x) ? 1 : 0;
}''', outputs={'count': n}, value=values, here=brookgl.iter(0, n), left_1=brookgl.iter(-1, n - 1))
start"""),
    md("""## Every pass as a picture

The whole filter (scan passes, search passes, the gather), each intermediate stream drawn, the
trace of every pass, and the result checked against the CPU reference. Switch the method to
compare Horn's multipass and looping searches with the bitonic sort and the histogram pyramid."""),
    code("demo = brookgl.html_embed('filter', n=4096, density=0.5, method='scan-multipass')\ndemo"),
    md("""## Measured, beside the paper's Table 36-1

The book's rows (GeForce 6800 Ultra, Radeon X800) are in the same table as ours: microseconds
per record. First the recording on SwiftShader (a CPU), then on an NVIDIA H100 through WebGL2.
(`npm run bench -- filter` measures your own machine.)"""),
    code("brookgl.bench_table('../../bench-results/filter.json', 'Table 36-1')"),
    code("brookgl.bench_table('../../bench-results/filter-h100.json', 'Table 36-1')"),
    md("## Check against numpy (run once the outputs above have appeared)"),
    code("""inf = np.isinf(values[:, 0]).astype(np.float32)
want = inf + np.concatenate([[0], inf[:-1]])
ok_start = np.array_equal(start.result('count'), want)
ok_demo = demo.state.get('matches') is True
print('StartScan equal to numpy:', ok_start, '· filter embed matches the CPU reference:', ok_demo)
print('brookgl check:', 'ok' if ok_start and ok_demo else 'FAILED')"""),
    md("""## Exercises

1. Write `Scan` (the second pass of the running sum: `count + count[here - 2^i]`) as a Brook
   kernel and run it ⌈log₂ n⌉ times from Python with `html_run`; compare with `np.cumsum`.
2. The chapter claims bitonic sort costs about 0.5·log₂ n times the scan/search. Use the
   "Bitonic / scan-search" table (`brookgl.bench_table('../../bench-results/filter-h100.json', 'Bitonic')`)
   and explain why the measured ratio is far smaller on a modern GPU.
3. Float counts are exact only up to 2^24. Which method does brookgl use past that, and why
   does the histogram pyramid not have the limit? (Hint: `FLOAT_EXACT_LIMIT` in src/idioms/filter.ts.)"""),
])

save("flow-control.ipynb", [
    md("""# Harris & Buck, "GPU Flow-Control Idioms" (GPU Gems 2, ch. 34)

Branching in a fragment program was expensive in 2005, so the chapter moves decisions out of
the shader: **static branch resolution** (one quad for the interior, lines for the border),
**precomputation** (offsets computed once per obstacle change), **z-cull** (a depth mask so the
GPU never shades skipped fragments), and **occlusion queries** to stop a loop.

Listing 34-1 marks the fluid's landlocked cells (all four neighbours are obstacles), in Cg:

```
half obstacles(half2 coords : WPOS, uniform samplerRECT obstacleGrid) : COLOR {
  half4 bounds;
  bounds.x = texRECT(obstacleGrid, coords - half2(1, 0)).x;
  bounds.y = texRECT(obstacleGrid, coords + half2(1, 0)).x;
  bounds.z = texRECT(obstacleGrid, coords - half2(0, 1)).x;
  bounds.w = texRECT(obstacleGrid, coords + half2(0, 1)).x;
  bounds.x = dot(bounds, (1).xxxx);
  if (bounds.x < 4) discard;   // discard cells that are not landlocked
  return 0;
}
```

brookgl builds its z mask with exactly such a kernel (`ctx.buildMask`); here the same test
writes a flag per cell so we can look at it."""),
    SETUP,
    md("## The run: which cells are landlocked"),
    code("""h, w = 48, 64
yy, xx = np.mgrid[0:h, 0:w]
obstacles = (((xx - 36) ** 2 + (yy - 24) ** 2) < 14 ** 2).astype(np.float32)   # a disc
obstacles[5:40, 12:15] = 1                                                        # a wall
landlocked = brookgl.html_run('''
kernel void landlocked(float obstacles[], out float flag<>) {
  float4 bounds = float4(obstacles(brook_pos - ivec2(1, 0)), obstacles(brook_pos + ivec2(1, 0)),
                         obstacles(brook_pos - ivec2(0, 1)), obstacles(brook_pos + ivec2(0, 1)));
  flag = dot(bounds, float4(1, 1, 1, 1)) >= 4.0 ? 1.0 : 0.0;
}''', outputs={'flag': (h, w)}, obstacles=obstacles)
landlocked"""),
    md("""## The passes of a fluid step

The demo fluid with obstacles; switch z-cull, static branches and precomputed offsets on and off,
tick "show mask" to see the landlocked cells, and open the trace of one step."""),
    code("fluid = brookgl.html_embed('fluid', size=64)\nfluid"),
    md("""## Measured, beside the paper's Figures 34-1 and 34-2

The chapter's figures plot time against the fraction of fragments taking the expensive side,
for predication, branching and z-cull. Ours (SwiftShader, then an H100):"""),
    code("brookgl.bench_table('../../bench-results/branch.json', 'Random condition')"),
    code("brookgl.bench_table('../../bench-results/branch-h100.json')"),
    md("## Check against numpy"),
    code("""p = np.pad(obstacles, 1)        # gathers outside the stream read zero
want = ((p[1:-1, :-2] + p[1:-1, 2:] + p[:-2, 1:-1] + p[2:, 1:-1]) >= 4).astype(np.float32)
ok_flags = np.array_equal(landlocked.result('flag'), want)
ok_fluid = fluid.status == 'ready' and fluid.state.get('steps', 0) >= 1
print('landlocked cells:', int(want.sum()), '· equal to numpy:', ok_flags, '· fluid embed stepping:', ok_fluid)
print('brookgl check:', 'ok' if ok_flags and ok_fluid else 'FAILED')"""),
    md("""## Exercises

1. Predication computes both sides; z-cull skips fragments but costs a mask build. From the
   tables, at which fraction p does z-cull start to pay on each renderer?
2. Change the kernel to mark cells with *three or more* obstacle neighbours and compare the
   count with numpy. Which cells of the disc's rim appear?
3. The chapter's occlusion-query loop stops when no fragment is drawn. Why does brookgl's
   `occlusionLoop` keep several iterations in flight, and what does that cost?"""),
])

save("nbody.ipynb", [
    md("""# Nyland, Harris & Prins, "Fast N-Body Simulation with CUDA" (GPU Gems 3, ch. 31)

Every body attracts every other: N² interactions per step, each 20 flops as the chapter counts
them (Listing 31-1, `bodyBodyInteraction`):

```
float3 r = bj.xyz - bi.xyz;                       // 3 flops
float distSqr = dot(r, r) + EPS2;                 // 6 flops
float invDistCube = 1.0f / sqrtf(distSqr * distSqr * distSqr);   // 4 flops
float s = bj.w * invDistCube;                     // 1 flop
ai += r * s;                                      // 6 flops
```

In WebGL2 the "thread" is a fragment: one fragment per body (or per b bodies) loops over all
the others, gathering their positions from a texture. Below, the same sum as a Brook kernel."""),
    SETUP,
    md("## The run: accelerations of 512 bodies"),
    code("""n = 512
rng = np.random.default_rng(3)
bodies = np.concatenate([rng.normal(size=(n, 3)), rng.uniform(0.5, 1.5, size=(n, 1))], axis=1).astype(np.float32)
eps2 = 0.01
accel = brookgl.html_run('''
kernel void accel(float4 pos[], float n, float eps2, out float4 acc<>) {
  float4 bi = pos(brook_index);
  float3 a = float3(0, 0, 0);
  for (int j = 0; j < int(n); j++) {
    float4 bj = pos(j);
    float3 r = bj.xyz - bi.xyz;
    float distSqr = dot(r, r) + eps2;
    float invDistCube = 1.0 / sqrt(distSqr * distSqr * distSqr);
    a += r * (bj.w * invDistCube);
  }
  acc = float4(a, 0);
}''', outputs={'acc': n}, pos=bodies, n=float(n), eps2=eps2)
accel"""),
    md("""## Live: two colliding disks

brookgl's N-body system (tiles of p bodies, unrolling u, q fragments per body, b bodies per
fragment, leapfrog steps); drag to orbit. The trace shows the passes of one step."""),
    code("sim = brookgl.html_embed('nbody', n=1024)\nsim"),
    md("""## Measured, beside Figure 31-6

The chapter reports more than 10 billion interactions per second (over 200 GFLOP/s at 20 flops
each) on a GeForce 8800 GTX at N = 16,384. Ours, in WebGL2:"""),
    code("brookgl.bench_table('../../bench-results/nbody.json', 'Figure 31-6')"),
    code("brookgl.bench_table('../../bench-results/nbody-h100.json', 'Best point')"),
    md("## Check against numpy"),
    code("""r = bodies[None, :, :3] - bodies[:, None, :3]                       # r[i, j] = bj - bi
d2 = (r ** 2).sum(-1) + eps2
want = (r * (bodies[None, :, 3] / np.sqrt(d2 ** 3))[..., None]).sum(1)
got = accel.result('acc')[:, :3]
err = np.abs(got - want).max() / np.abs(want).max()
ok_acc = err < 1e-4                                                 # float32 sums in another order
ok_sim = sim.status == 'ready' and sim.state.get('steps', 0) >= 1
print(f'largest error relative to the largest acceleration: {err:.2e}', '· N-body embed stepping:', ok_sim)
print('brookgl check:', 'ok' if ok_acc and ok_sim else 'FAILED')"""),
    md("""## Exercises

1. Count the flops of the kernel above and compare with the chapter's 20. Why does the chapter
   count `1/sqrt` as one flop?
2. From the H100 recording, what fraction of the GPU's FP32 peak does WebGL2 reach, and why is
   it so small? (See the README's note on graphics-capable SMs.)
3. Rewrite the kernel so each fragment computes two bodies (b = 2). Which array reads are
   shared, and how many gathers per interaction remain?"""),
])

save("binning.ipynb", [
    md("""# Oat, Barczak & Shopf, "Efficient Spatial Binning on the GPU" (AMD, 2009)

To find a particle's neighbours, put the particles into bins (grid cells) first. A bin holds
several ids, but a fragment can write only one value per texel per pass, so the paper **peels**:
each pass writes, into every bin, the smallest id greater than the one written before (a
dual-depth test), until no bin receives a new id — predicated by occlusion queries, with the
working set reduced between passes.

The first step of any binning is the bin of each point: its cell in the grid."""),
    SETUP,
    md("## The run: each point's bin"),
    code("""n, cells = 4096, 16
points = np.concatenate([np.random.default_rng(5).random((n, 3)), np.ones((n, 1))], axis=1).astype(np.float32)
binof = brookgl.html_run('''
kernel void binOf(float4 p<>, float cells, out float bin<>) {
  float3 c = floor(p.xyz * cells);
  bin = c.x + cells * (c.y + cells * c.z);
}''', outputs={'bin': n}, p=points, cells=float(cells))
binof"""),
    md("""## Live: DEM particles binned every step

Every step bins the particles (depth-peeled, delayed reduction) and sums forces over the 27
neighbouring bins. Hold "push" to press them down; the trace lists the binning passes."""),
    code("dem = brookgl.html_embed('dem', n=2048)\ndem"),
    md("""## Measured, beside Figures 5 and 6

The paper measured on an ATI Radeon HD 4870: Figure 5 compares its optimizations (predication,
stream reduction, delayed reduction) on 32³, 64³ and 128³ grids, Figure 6 compares binning with
stencil routing. Ours, the same comparisons (SwiftShader, then the DEM step on an H100):"""),
    code("brookgl.bench_table('../../bench-results/binning.json', '64³ grid')"),
    code("brookgl.bench_table('../../bench-results/binning-h100.json', 'DEM step')"),
    md("## Check against numpy"),
    code("""c = np.floor(points[:, :3] * np.float32(cells))
want = c[:, 0] + cells * (c[:, 1] + cells * c[:, 2])
ok_bins = np.array_equal(binof.result('bin'), want.astype(np.float32))
ok_dem = dem.status == 'ready' and dem.state.get('steps', 0) >= 1
print('bins equal to numpy:', ok_bins, '· most loaded bin:', np.bincount(want.astype(int)).max(), '· DEM embed stepping:', ok_dem)
print('brookgl check:', 'ok' if ok_bins and ok_dem else 'FAILED')"""),
    md("""## Exercises

1. With `np.bincount` on the bins above, find the capacity a bin structure needs. How many
   peeling passes does the paper's method draw for it, and how many does stencil routing?
2. The paper's bins are read back in ascending id order. Why does the dual-depth test give that
   order for free?
3. Points in [0, 1)³ with `cells = 16`: which points would land in bin 4096 if a coordinate
   were exactly 1.0, and how does brookgl's `binPoints` guard against it?"""),
])
