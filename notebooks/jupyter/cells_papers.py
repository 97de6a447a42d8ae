"""The paper notebooks' cells (make_notebooks.py writes them). Listings as printed come from the
paper pages' printed.js (demos/papers/*/printed.js); Brook files from glsl/."""
import json
from pathlib import Path

import nbformat as nbf

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell
ROOT = Path(__file__).resolve().parents[2]


def printed(page, key):
    s = (ROOT / "demos/papers" / page / "printed.js").read_text()
    return json.loads(s[s.index("{"):s.rindex("}") + 1])[key]


def listing(page, key, lang=""):
    return f"```{lang}\n{printed(page, key)}\n```"


SETUP = code("""import numpy as np
import brookgl
ROOT = '../..'   # the repository (the notebook runs in notebooks/jupyter)""")

# ---------------------------------------------------------------------------------------------
HORN = [
    md(f"""# Horn, "Stream Reduction Operations for GPGPU Applications" (GPU Gems 2, ch. 36)

Filtering a stream — dropping its null records and packing the rest together — is what a 2005
fragment program could not do directly: it writes its own pixel and cannot scatter. Horn's
answer is a **running sum** of the null records (a scan of ⌈log₂ n⌉ passes), then a **gather
search**: each output record searches, in log passes, for the input record that lands on it.
The same filter then drives **collision detection** (an OBB-tree traversed breadth-first, the
filter between levels) and **adaptive subdivision** (triangles that need splitting filtered out
each round).

The chapter's StartScan and Scan, as printed (section 36.1.1):

{listing('horn-36', 'StartScan (section 36.1.1)', 'c')}

{listing('horn-36', 'Scan (section 36.1.1)', 'c')}

brookgl runs them from `glsl/idioms/horn-36-1.brook`: the listings as printed but for one
character (Scan's guard is `here >= twotoi`; the printed `here > twotoi` drops a record)."""),
    SETUP,
    md("## StartScan: each record counts itself and its left neighbour when null"),
    code("""source = open(f'{ROOT}/glsl/idioms/horn-36-1.brook').read()
n = 4096
rng = np.random.default_rng(7)
values = rng.random((n, 4), dtype=np.float32)
values[rng.random(n) < 0.3, 0] = np.inf          # 30 % null records (+inf in x)
start = brookgl.Run(source, kernel='StartScan', outputs={'count': n},
                    value=values, here=brookgl.iter(0, n), left_1=brookgl.iter(-1, n - 1))
start"""),
    code("""count = await start.result_async('count')
print('renderer:', start.renderer)
print('StartScan counts:', count[:12])
brookgl.image(count.reshape(64, 64), 'StartScan count (0, 1 or 2)', lo=0, hi=2)"""),
    md("""## Exercise 1: the running sum

Scan adds the count `2^i` records to the left: after StartScan (which added the neighbour at
distance 1), passes with `twotoi` = 2, 4, 8, … (while below n) leave in each record the number of
null records up to and including it — `np.cumsum` of the null flags. Run Scan that many times
from Python: one widget, `rerun(...)` with the new `input`, `twotoi` and the iterator
`left_2toi = brookgl.iter(-twotoi, n - twotoi)` for each pass, `await scan.result_async('count')`
after each. The cell holds one answer; the check cell compares it with numpy."""),
    code("""running = count
scan = brookgl.Run(source, kernel='Scan', outputs={'count': n}, input=running,
                   here=brookgl.iter(0, n), left_2toi=brookgl.iter(-2, n - 2), twotoi=2.0)
display(scan)
twotoi, passes = 2, 0
while twotoi < n:
    if passes:
        scan.rerun(input=running, left_2toi=brookgl.iter(-twotoi, n - twotoi), twotoi=float(twotoi))
    running = await scan.result_async('count')
    twotoi, passes = twotoi * 2, passes + 1
print(f'{passes} Scan passes after StartScan; nulls in all {n} records:', int(running[-1]))"""),
    md("""## Every pass of the whole filter, drawn

`Embed('filter')`: scan, search and gather passes, each intermediate stream drawn, checked
against the CPU reference in the page. Switch the method to compare the multipass and looping
searches with the bitonic sort and the histogram pyramid."""),
    code("demo = brookgl.Embed('filter', n=4096, density=0.5, method='scan-multipass')\ndemo"),
    code("""state = await demo.state_async(lambda s: 'matches' in s)
brookgl.table(['method', 'records', 'kept', 'same indices as the CPU reference'],
              [[state['method'], state['n'], state['count'], state['matches']]])"""),
    md("""## Table 36-1: the book's numbers beside ours

The book's table (GeForce 6800 Ultra and Radeon X800; it labels the unit ms, but µs per record
is meant), then brookgl's recordings of the same comparison: SwiftShader (a CPU) and an NVIDIA
H100 through WebGL2. `npm run bench -- filter` measures your own machine."""),
    code("""sizes = ['64k', '128k', '256k', '512k', '1024k', '2048k', '4096k']
book = {
    '6800 Ultra scan/search (looping search)': [0.138, 0.131, 0.158, 0.151, 0.143, 0.167, 0.161],
    '6800 Ultra bitonic sort': [1.029, 0.991, 1.219, 1.19, 1.455, 1.593, 1.74],
    'X800 scan/search': [0.428, 0.267, 0.288, 0.355, 0.182, 0.169, 0.168],
    'X800 bitonic sort': [0.762, 0.912, 0.968, 1.051, 1.175, 1.269, 1.383],
}
brookgl.table(['Table 36-1 (book), µs per record', *sizes], [[k, *v] for k, v in book.items()])"""),
    code("brookgl.bench_table(f'{ROOT}/bench-results/filter.json', 'Table 36-1')"),
    code("brookgl.bench_table(f'{ROOT}/bench-results/filter-h100.json', 'Table 36-1')"),
    md(f"""## Collision detection on the dragon (Listings 36-3 and 36-4)

{listing('horn-36', 'Listing 36-4: collision pseudocode', 'c')}

brookgl traverses the two OBB trees breadth-first: each level's box pairs are tested in one
pass and the overlapping ones filtered into the next level's list. Here the dragon (2,730
triangles, `data/models/dragon.ply`) against a copy turned 90° about z; the page compares the GPU's
triangle pairs with brute force and the per-level counts with the CPU traversal."""),
    code("""positions, indices = brookgl.read_ply(f'{ROOT}/data/models/dragon.ply')
collision = brookgl.App('collide', positions=positions, indices=indices, options={'degrees': 90, 'offset': [0, 0, 0]})
collision"""),
    code("""hit = await collision.state_async()
pairs = collision.result('pairs')
print(f"{hit['triangles']} triangles each: {hit['pairs']} colliding pairs, brute force {hit['brute_force_pairs']},",
      'same pairs:', hit['same_as_brute_force'], '· same per-level counts as the CPU:', hit['same_levels_as_cpu'])
brookgl.table(['level', 'box pairs tested', 'overlapping', 'leaf pairs', 'split'],
              [[i, l['tested'], l['overlapping'], l['leafPairs'], l['split']] for i, l in enumerate(hit['levels'])],
              'Box pairs per level of the traversal')"""),
    md(f"""## Adaptive subdivision (Listing 36-5)

{listing('horn-36', 'Listing 36-5: data structures for subdivision', 'c')}

Each round splits the triangles whose edges are still too long (Loop's scheme, evaluated on
patches) and filters out the ones that are done. `data/models/supercube.ply`, ε = 0.3, two
rounds; the GPU's triangles against the CPU's patch algorithm."""),
    code("""cube_positions, cube_indices = brookgl.read_ply(f'{ROOT}/data/models/supercube.ply')
sub = brookgl.App('subdivide', positions=cube_positions, indices=cube_indices, options={'epsilon': 0.3, 'max_depth': 2})
sub"""),
    code("""done = await sub.state_async()
print(f"{done['triangles_in']} → {done['triangles_out']} triangles (CPU: {done['cpu_triangles_out']}), same rounds as the CPU:", done['same_as_cpu'])
brookgl.table(list(done['rounds'][0].keys()), [list(r.values()) for r in done['rounds']], 'Rounds')"""),
    md("## Check against numpy"),
    code("""null = np.isinf(values[:, 0]).astype(np.float32)
ok_start = np.array_equal(count, null + np.concatenate([[0], null[:-1]]))
ok_scan = np.array_equal(running, np.cumsum(null))                       # exercise 1
ok_filter = state['matches'] is True
# every pair the GPU reports: the two triangles' boxes overlap (B turned 90° about z)
rot = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], np.float64)
ta = positions[indices].astype(np.float64)                               # (m, 3, 3)
tb = ta @ rot.T
a, b = ta[pairs[:, 0]], tb[pairs[:, 1]]
ok_boxes = bool(np.all((a.min(1) <= b.max(1) + 1e-6) & (b.min(1) <= a.max(1) + 1e-6)))
ok_collide = hit['same_as_brute_force'] and hit['same_levels_as_cpu'] and len(pairs) == hit['brute_force_pairs'] > 0 and ok_boxes
gpu_tris, cpu_tris = sub.result('positions'), sub.result('cpu_positions')
key = lambda t: t[np.lexsort(t.reshape(len(t), -1).T[::-1])]
ok_sub = gpu_tris.shape == cpu_tris.shape and np.allclose(key(gpu_tris), key(cpu_tris), atol=1e-5)
print('StartScan:', ok_start, '· Scan (exercise 1) = np.cumsum:', ok_scan, '· filter embed:', ok_filter)
print('collision pairs (boxes overlap in numpy, = brute force):', ok_collide, '· subdivision = CPU patches:', ok_sub)
print('brookgl check:', 'ok' if ok_start and ok_scan and ok_filter and ok_collide and ok_sub else 'FAILED')"""),
    md("""## More exercises

2. The chapter claims bitonic sort costs about 0.5·log₂ n times the scan/search. Read the
   "Bitonic / scan-search" table (`brookgl.bench_table(f'{ROOT}/bench-results/filter-h100.json', 'Bitonic')`)
   and say why the measured ratio is far smaller on a modern GPU.
3. Float counts are exact only up to 2^24. Which method does brookgl use past that, and why does
   the histogram pyramid not have the limit? (`FLOAT_EXACT_LIMIT` in src/idioms/filter.ts.)
4. Turn the copy of the dragon by 30° instead of 90° (`options={'degrees': 30}`): how do the
   per-level counts change, and does the check still pass? (The numpy box test uses the rotation:
   change `rot` too.)"""),
]

# ---------------------------------------------------------------------------------------------
NYLAND = [
    md(f"""# Nyland, Harris & Prins, "Fast N-Body Simulation with CUDA" (GPU Gems 3, ch. 31)

Every body attracts every other: N² interactions per step, 20 flops each as the chapter counts
them. Listing 31-1 as printed (its flop annotations kept):

{listing('nyland-31', '31-1', 'c')}

In WebGL2 the "thread" is a fragment: one fragment per body loops over all the others, gathering
their positions from a texture. Below, the same interaction as a Brook kernel."""),
    SETUP,
    md("## Accelerations of 512 bodies"),
    code("""n = 512
rng = np.random.default_rng(3)
bodies = np.concatenate([rng.normal(size=(n, 3)), rng.uniform(0.5, 1.5, size=(n, 1))], axis=1).astype(np.float32)
eps2 = 0.01
ACCEL = '''
kernel void accel(float4 pos[], float n, float eps2, out float4 acc<>) {
  float4 bi = pos(brook_index);
  float3 a = float3(0, 0, 0);
  for (int j = 0; j < int(n); j++) {
    float4 bj = pos(j);
    float3 r = bj.xyz - bi.xyz;                                      // 3 flops
    float distSqr = dot(r, r) + eps2;                                 // 6 flops
    float invDistCube = 1.0 / sqrt(distSqr * distSqr * distSqr);      // 4 flops
    a += r * (bj.w * invDistCube);                                    // 1 + 6 flops
  }
  acc = float4(a, 0);
}'''
accel = brookgl.Run(ACCEL, outputs={'acc': n}, pos=bodies, n=float(n), eps2=eps2)
accel"""),
    code("""acc = (await accel.result_async('acc'))[:, :3]
print('renderer:', accel.renderer)
print('|a| of the first bodies:', np.round(np.linalg.norm(acc, axis=1)[:5], 1))
brookgl.image(np.linalg.norm(acc, axis=1).reshape(16, 32), '|acceleration| per body')"""),
    md("""## Live: two colliding disks

brookgl's N-body system (tiles of p bodies, unrolling u, q fragments per body, b bodies per
fragment, leapfrog steps); drag to orbit. Its state reports interactions per second."""),
    code("sim = brookgl.Embed('nbody', n=1024)\nsim"),
    code("""live = await sim.state_async(lambda s: s.get('steps', 0) >= 3 and s.get('interactionsPerSecond'))
print('the demo is stepping:', live['steps'] >= 3)"""),
    md("""## The paper's numbers beside ours

"The GeForce 8800 GTX calculates more than 10 billion interactions per second with N = 16,384,
performing 38 integration time steps per second" — over 200 GFLOP/s at 20 flops each. brookgl's
recordings (SwiftShader, then an H100 through WebGL2), and this page's live demo:"""),
    code("""FLOPS = 20
brookgl.table(['', 'N', 'G interactions/s', 'GFLOP/s (20 per interaction)'], [
    ['paper: GeForce 8800 GTX (CUDA)', 16384, 10.0, 200.0],
    ['this notebook, live embed (wall clock, drawing included)', live.get('n', 1024),
     live['interactionsPerSecond'] / 1e9, live['interactionsPerSecond'] * FLOPS / 1e9],
], 'Interactions per second')"""),
    code("brookgl.bench_table(f'{ROOT}/bench-results/nbody.json', 'Figure 31-6')"),
    code("brookgl.bench_table(f'{ROOT}/bench-results/nbody-h100.json', 'Best point')"),
    md("""## Exercise 1: the potential

Write a kernel for each body's potential φᵢ = −Σⱼ mⱼ / √(|rᵢⱼ|² + ε²) (over all j, itself
included, as the acceleration sum does), run it on the same bodies, and compare with numpy in
the check cell. The cell holds one answer."""),
    code("""potential = brookgl.Run('''
kernel void potential(float4 pos[], float n, float eps2, out float phi<>) {
  float4 bi = pos(brook_index);
  float sum = 0.0;
  for (int j = 0; j < int(n); j++) {
    float4 bj = pos(j);
    float3 r = bj.xyz - bi.xyz;
    sum -= bj.w / sqrt(dot(r, r) + eps2);
  }
  phi = sum;
}''', outputs={'phi': n}, pos=bodies, n=float(n), eps2=eps2)
potential"""),
    md("## Check against numpy"),
    code("""phi = await potential.result_async('phi')
r = bodies[None, :, :3].astype(np.float64) - bodies[:, None, :3]      # r[i, j] = bj - bi
d2 = (r ** 2).sum(-1) + eps2
want = (r * (bodies[None, :, 3] / np.sqrt(d2 ** 3))[..., None]).sum(1)
err = np.abs(acc - want).max() / np.abs(want).max()
ok_acc = err < 1e-4                                                   # float32 sums in another order
want_phi = -(bodies[None, :, 3] / np.sqrt(d2)).sum(1)
ok_phi = np.allclose(phi, want_phi, rtol=1e-4)                        # exercise 1
ok_sim = sim.status == 'ready' and live['steps'] >= 3
print('acceleration within 1e-4 of numpy (relative to the largest):', ok_acc, '· potential (exercise 1):', ok_phi, '· embed stepping:', ok_sim)
print('brookgl check:', 'ok' if ok_acc and ok_phi and ok_sim else 'FAILED')"""),
    md("""## More exercises

2. Count the flops of the kernel above and compare with the chapter's 20. Why does the chapter
   count `1/sqrt` as one flop?
3. From the H100 recording, what fraction of the GPU's FP32 peak does WebGL2 reach, and why is it
   so small? (docs/benchmarks.md: graphics-capable SMs.)
4. Listing 31-2 tiles the j loop through shared memory. A fragment has none: what plays the
   tile's part in WebGL2 (the texture cache), and what does the `p` column of Figure 31-7's table
   measure here?"""),
]

# ---------------------------------------------------------------------------------------------
HARRIS = [
    md(f"""# Harris & Buck, "GPU Flow-Control Idioms" (GPU Gems 2, ch. 34)

Branching in a 2005 fragment program was expensive, so the chapter moves decisions out of the
shader: **static branch resolution**, **precomputation**, **z-cull** (a depth mask so the GPU
never shades skipped fragments) and **occlusion queries** to stop a loop. Listing 34-1 marks the
fluid's landlocked cells (all four neighbours are obstacles), as printed:

{listing('harris-buck-34', 'Listing 34-1: Cg code to set z-depth values for z-culling in subsequent passes', 'c')}

brookgl builds its z mask with such a kernel; here the same test writes a flag per cell."""),
    SETUP,
    md("## Which cells are landlocked"),
    code("""h, w = 48, 64
yy, xx = np.mgrid[0:h, 0:w]
obstacles = (((xx - 36) ** 2 + (yy - 24) ** 2) < 14 ** 2).astype(np.float32)   # a disc
obstacles[5:40, 12:15] = 1                                                        # a wall
landlocked = brookgl.Run('''
kernel void landlocked(float obstacles[], out float flag<>) {
  float4 bounds = float4(obstacles(brook_pos - ivec2(1, 0)), obstacles(brook_pos + ivec2(1, 0)),
                         obstacles(brook_pos - ivec2(0, 1)), obstacles(brook_pos + ivec2(0, 1)));
  flag = dot(bounds, float4(1, 1, 1, 1)) >= 4.0 ? 1.0 : 0.0;
}''', outputs={'flag': (h, w)}, obstacles=obstacles)
landlocked"""),
    code("""flag = await landlocked.result_async('flag')
print('renderer:', landlocked.renderer)
print('landlocked cells:', int(flag.sum()), 'of', int(obstacles.sum()), 'obstacle cells')
brookgl.image(obstacles + flag, 'obstacles (1) and landlocked cells (2)', lo=0, hi=2)"""),
    md("""## The passes of a fluid step

The demo fluid with obstacles: switch z-cull, static branches and precomputed offsets on and off,
tick "show mask" to see the landlocked cells, and open the trace of one step."""),
    code("fluid = brookgl.Embed('fluid', size=64)\nfluid"),
    code("""flow = await fluid.state_async(lambda s: s.get('steps', 0) >= 3)
brookgl.table(['grid', 'passes per step', 'steps so far'], [[flow['size'], flow['passesPerStep'], flow['steps']]], varies=['steps so far'])"""),
    md("""## The paper's figures beside ours

Figures 34-1 and 34-2 plot, on a GeForce 6800 (pixel shader 3.0), the cost of a branch against
the fraction of fragments taking the expensive side: predication pays for both sides always;
branching pays little when the condition is coherent and much when it is random; z-cull pays for
its mask and then skips whole tiles. The chapter gives the plots, not a table; brookgl's
recordings of the same comparison (SwiftShader, then an H100):"""),
    code("brookgl.bench_table(f'{ROOT}/bench-results/branch.json', 'Random condition')"),
    code("brookgl.bench_table(f'{ROOT}/bench-results/branch-h100.json', 'Random condition')"),
    md("""## Exercise 1: three neighbours

Change the kernel to mark cells with *three or more* obstacle neighbours, run it, and compare the
count with numpy (check cell). Which cells of the disc's rim appear? The cell holds one answer."""),
    code("""three = brookgl.Run('''
kernel void three(float obstacles[], out float flag<>) {
  float4 bounds = float4(obstacles(brook_pos - ivec2(1, 0)), obstacles(brook_pos + ivec2(1, 0)),
                         obstacles(brook_pos - ivec2(0, 1)), obstacles(brook_pos + ivec2(0, 1)));
  flag = dot(bounds, float4(1, 1, 1, 1)) >= 3.0 ? 1.0 : 0.0;
}''', outputs={'flag': (h, w)}, obstacles=obstacles)
three"""),
    md("## Check against numpy"),
    code("""flag3 = await three.result_async('flag')
p = np.pad(obstacles, 1)                                   # gathers outside the grid read zero
neighbours = p[1:-1, :-2] + p[1:-1, 2:] + p[:-2, 1:-1] + p[2:, 1:-1]
ok_flags = np.array_equal(flag, (neighbours >= 4).astype(np.float32))
ok_three = np.array_equal(flag3, (neighbours >= 3).astype(np.float32))       # exercise 1
ok_fluid = fluid.status == 'ready' and flow['steps'] >= 3
print('landlocked = numpy:', ok_flags, '· three or more (exercise 1):', ok_three, int(flag3.sum()), 'cells · fluid stepping:', ok_fluid)
print('brookgl check:', 'ok' if ok_flags and ok_three and ok_fluid else 'FAILED')"""),
    md("""## More exercises

2. From the tables, at which fraction of expensive fragments does z-cull start to pay on each
   renderer? Why can SwiftShader not profit from it the way a GPU does?
3. The chapter's occlusion-query loop stops when no fragment is drawn. Why does brookgl's
   `occlusionLoop` keep several iterations in flight, and what does that cost?"""),
]

# ---------------------------------------------------------------------------------------------
OAT = [
    md("""# Oat, Barczak & Shopf, "Efficient Spatial Binning on the GPU" (AMD, 2009)

To find a particle's neighbours, put the particles into bins (grid cells) first. A bin holds
several ids, but a fragment writes one value per texel per pass, so the paper **peels**: each
pass writes, into every bin, the smallest id greater than the one written before (a dual-depth
test), until no bin receives a new id — predicated by occlusion queries, the working set reduced
between passes (a "delayed" start). The paper's application is a DEM particle simulation (plus
agents and a bucket sort).

The first step of any binning is each point's bin: its cell in the grid."""),
    SETUP,
    md("## Each point's bin"),
    code("""n, cells = 4096, 16
points = np.concatenate([np.random.default_rng(5).random((n, 3)), np.ones((n, 1))], axis=1).astype(np.float32)
binof = brookgl.Run('''
kernel void binOf(float4 p<>, float cells, out float bin<>) {
  float3 c = floor(p.xyz * cells);
  bin = c.x + cells * (c.y + cells * c.z);
}''', outputs={'bin': n}, p=points, cells=float(cells))
binof"""),
    code("""bins = await binof.result_async('bin')
load = np.bincount(bins.astype(int), minlength=cells ** 3)
print('renderer:', binof.renderer)
print('points per bin: mean', load.mean(), '· most loaded', load.max(), '· empty bins', int((load == 0).sum()))
brookgl.image(load.reshape(cells * cells, cells)[:64], 'bin loads (first 4 z slices)')"""),
    md("""## Live: DEM particles binned every step

Every step bins the particles (depth-peeled, delayed reduction) and sums spring and damping
forces over the 27 neighbouring bins. Hold "push" to press them down; the trace lists the
binning passes."""),
    code("dem = brookgl.Embed('dem', n=2048)\ndem"),
    code("""particles = await dem.state_async(lambda s: s.get('steps', 0) >= 3)
print('the DEM is stepping:', particles['steps'] >= 3)"""),
    md("""## The paper's figures beside ours

The paper measured on an ATI Radeon HD 4870: Figure 5 compares its optimizations (predication,
stream reduction, delayed reduction) binning uniform points into 32³, 64³ and 128³ grids, and
Figure 6 binning against stencil routing. It gives the plots, not a table. brookgl's recordings
of the same comparisons (SwiftShader, then the DEM step on an H100):"""),
    code("brookgl.bench_table(f'{ROOT}/bench-results/binning.json', '32³ grid')"),
    code("brookgl.bench_table(f'{ROOT}/bench-results/binning-h100.json', 'DEM step')"),
    md("""## Exercise 1: integer bins and the capacity

Write the bin kernel with an integer output (`out int bin<>`, the cell index as `int`), run it,
and from its bins find, with `np.bincount`, the capacity a bin structure needs (the most loaded
bin). The check cell compares the bins with numpy. The cell holds one answer."""),
    code("""binint = brookgl.Run('''
kernel void binInt(float4 p<>, float cells, out int bin<>) {
  int3 c = int3(floor(p.xyz * cells));
  int m = int(cells);
  bin = c.x + m * (c.y + m * c.z);
}''', outputs={'bin': n}, p=points, cells=float(cells))
binint"""),
    md("## Check against numpy"),
    code("""ibins = await binint.result_async('bin')
c = np.floor(points[:, :3] * np.float32(cells))
want = c[:, 0] + cells * (c[:, 1] + cells * c[:, 2])
ok_bins = np.array_equal(bins, want.astype(np.float32))
ok_int = ibins.dtype == np.int32 and np.array_equal(ibins, want.astype(np.int32))      # exercise 1
capacity = np.bincount(ibins).max()
ok_dem = dem.status == 'ready' and particles['steps'] >= 3
print('bins = numpy:', ok_bins, '· integer bins (exercise 1):', ok_int, '· capacity needed:', capacity, '· DEM stepping:', ok_dem)
print('brookgl check:', 'ok' if ok_bins and ok_int and ok_dem else 'FAILED')"""),
    md("""## More exercises

2. The paper's bins are read back in ascending id order. Why does the dual-depth test give that
   order for free?
3. Points in [0, 1)³ with `cells = 16`: which points would land in bin 4096 if a coordinate were
   exactly 1.0, and how does brookgl's `binPoints` guard against it?
4. How many peeling passes does binning with the capacity above draw, and how many would stencil
   routing need?"""),
]

# ---------------------------------------------------------------------------------------------
DASILVA = [
    md(f"""# da Silva, Esperança & Marroquim, "Lazy Work Stealing for Continuous Hierarchy Traversal on Deformable Bodies" (GRAPP 2014)

Continuous collision detection between deforming triangle meshes: a bounding volume hierarchy
refit every frame, the bounding volume test tree (BVTT) traversed from last frame's front, and
the candidate triangle pairs tested for vertex-face and edge-edge contacts during the frame's
motion. The paper balances the traversal among CUDA blocks by **lazy work stealing**: each block
owns a stack and a deque, pops in three levels (stack, own deque, steal), steals greedily from all
deques at once and transfers the stolen nodes lazily. Algorithm 2 as printed:

{listing('dasilva-2014', '2')}

In brookgl every block is B × T fragments of a pass, stacks and deques are textures, and each
iteration of Algorithm 1 is five passes and a termination pass ended by an occlusion query; in
its evalCollision pass each fragment traverses on its own, up to K = 32 BVTT nodes depth first on
a local stack, before it hands what is left back to its block (src/apps/ccd/lws.ts)."""),
    SETUP,
    md("""## One frame, static balancing against lazy work stealing

A BART-like scene of 256 triangles (frame 40), traversed from the root by both policies; the
colliding features of each compared with the double-precision CPU traversal."""),
    code("""ccd = brookgl.App('ccd', options={'triangles': 256, 'frame': 40, 'blocks': 8, 'threads': 4, 'stack': 40})
ccd"""),
    code("""frame = await ccd.state_async()
print('renderer:', ccd.renderer)
print(f"{frame['triangles']} triangles; colliding features: static {len(frame['pairs_static'])}, "
      f"lazy work stealing {len(frame['pairs_lws'])}, CPU {len(frame['pairs_cpu'])}; all the same: {frame['same_pairs']}")
cols = ['balance', 'ms', 'iterations', 'passes', 'front', 'pairs', 'moved', 'stolen', 'steals']
brookgl.table(cols, [[r[c] for c in cols] for r in frame['rows']], 'This frame (wall ms on this renderer)')"""),
    md("""## The paper's Tables 1 to 6 beside ours

GeForce GTS 450 (4 SMs, 192 cores) and GT 520 (1 SM, 48 cores), CUDA, ms per frame (refit, front
update, traversal, balancing, triangle tests); Table 3 the front size; Tables 4-6 gProximity's
static balancing. Then brookgl's recording of the same scenes' stages on SwiftShader and an H100.

The H100 record (`ccd-h100.json`, 2026-11-28, after issue 38: each fragment steps BVTT nodes on its own local stack, six passes an LWS iteration) gives static / LWS 32×1024 ms per frame of 18.4 / 21.2 on BART4096 (ratio 1.15; the paper's GTS 450: 1.08), 19.5 / 24.7 on the Funnel (1.27; 1.07) and 65.3 / 71.3 on Cloth/Ball (1.09; 1.13). Over eight H100 runs of this build in one day, LWS / static was 0.91–1.15 on BART4096, 0.92–1.28 on the funnel and 0.80–1.15 on the cloth: the paper's conclusion that the two perform alike holds here on all three scenes, though one run's ratio moves by about 20 % and on the funnel LWS pays a few more CPU round trips for the same GPU time. A Cloth/Ball frame takes 398 LWS passes, 4,334 before issue 38 (docs/benchmarks.md)."""),
    code("""paper = {
    'BART64': (64, 2.6, 1.6, 0.61, 0.807, 1.6, 3.1, 0.51),
    'BART256': (256, 3.4, 3.5, 1.03, 9.159, 3.1, 3.6, 1.16),
    'BART1024': (1024, 8.4, 19.7, 2.34, 127.394, 14.7, 7.5, 1.96),
    'BART4096': (4096, 51.3, 169.9, 3.31, 2156.26, 173.4, 47.6, 3.64),
    'Funnel': (18500, 17.4, 48.2, 2.77, 493.391, 49.0, 16.3, 3.0),
    'Cloth/Ball': (92000, 77.3, 225.7, 2.92, 2482.04, 238.3, 68.6, 3.47),
}
brookgl.table(['model', 'tris', 'T1 LWS GTS 450 ms', 'LWS GT 520 ms', 'T2 speedup', 'T3 front (K)',
               'T4 gProximity GT 520 ms', 'T5 gProximity GTS 450 ms', 'T6 speedup'],
              [[k, *v] for k, v in paper.items()], 'The paper (CUDA)')"""),
    code("brookgl.bench_table(f'{ROOT}/bench-results/ccd.json', 'Table 1 (wall clock)')"),
    code("brookgl.bench_table(f'{ROOT}/bench-results/ccd-h100.json', 'Table 1 (wall clock)')"),
    md("""## Exercise 1: refit the leaves

The first stage of every frame refits the hierarchy: a leaf's box must hold its triangle over the
whole frame, at the start (`x0`) and the end (`x1`). Write a kernel that, for each triangle
(`int3 tri<>`, its three vertex indices), gathers its six positions and writes the box's
corners `lo` and `hi`; compare with numpy. The scene's arrays come back from the app; the cell
holds one answer."""),
    code("""x0, x1, tris = ccd.result('x0'), ccd.result('x1'), ccd.result('tris')
refit = brookgl.Run('''
kernel void refit(int3 tri<>, float3 x0[], float3 x1[], out float3 lo<>, out float3 hi<>) {
  float3 a = x0[tri.x], b = x0[tri.y], c = x0[tri.z];
  float3 d = x1[tri.x], e = x1[tri.y], f = x1[tri.z];
  lo = min(min(min(a, b), min(c, d)), min(e, f));
  hi = max(max(max(a, b), max(c, d)), max(e, f));
}''', outputs={'lo': len(tris), 'hi': len(tris)}, tri=tris, x0=x0, x1=x1)
refit"""),
    md("## Check against numpy"),
    code("""lo, hi = await refit.result_async('lo'), refit.result('hi')
both = np.concatenate([x0[tris], x1[tris]], axis=1)            # (triangles, 6, 3)
ok_refit = np.array_equal(lo, both.min(1)) and np.array_equal(hi, both.max(1))   # exercise 1
ok_pairs = frame['same_pairs'] and len(frame['pairs_cpu']) > 0
lws = next(r for r in frame['rows'] if r['balance'] == 'lws')
ok_stealing = lws['moved'] > 0 and lws['stolen'] > 0
print('same colliding features (static, lazy work stealing, CPU):', ok_pairs, '· nodes stolen:', ok_stealing, '· refit (exercise 1):', ok_refit)
print('brookgl check:', 'ok' if ok_pairs and ok_stealing and ok_refit else 'FAILED')"""),
    md("""## More exercises

2. Run the app with `blocks=1` and then `blocks=8` (same `threads`): how do the iterations change,
   and why can lockstep passes never show the paper's speedup from stealing (Table 2)?
3. Table 3's front grows with the scene much faster than its triangles. From the recording, which
   stage takes most of a frame's GPU time here, and does that agree with the paper's remark that
   "most of the time for BVH management is spent with the front update"?"""),
]

PAPERS = {
    "horn-36.ipynb": HORN,
    "nyland-31.ipynb": NYLAND,
    "harris-buck-34.ipynb": HARRIS,
    "oat-2009.ipynb": OAT,
    "dasilva-2014.ipynb": DASILVA,
}
