// The specs that run in Node on the CPU backend (scripts/test-node.mjs bundles this for Node and
// runs it with mocha, no browser): BrookGPU 0.5's prog/tests against their gold files, on
// createContext({ backend: 'cpu' }) through test/helpers.ts's newContext; the Brook fuzz, whose
// mutants each compile to JavaScript (ctx.kernel) or throw a BrookError; and every spec file of
// test/brook/ but both.test (the GPU run's tally of both backends), whose GL-only checks run on a
// GPU context only (test/helpers.ts onCpu, gpuOnly) and whose GPU-only features skip, each with
// its reason (./gpuonly).
import './gpuonly';
import '../brook/brookgpu-tests.test';
// pack_vout: BrookGPU's vout packing library (vout.br) in Brook, against its gold file
import '../brook/brookgpu-pack-vout.test';
// the front end's fuzz on the CPU backend: every mutant compiles to JavaScript or throws a BrookError
import '../brook/fuzz.test';
// filter, scan, sort and reduce through src/reference; the GPU-only parts as BrookErrors
import '../cpu/idioms.test';
// z masks, regions, write masks, write queries and occlusion queries against plain loops (a CPU context on both sides here)
import '../cpu/masks.test';
// vout kernels (voutRun and plain runs) against plain loops
import '../cpu/vout.test';
// matrices against src/reference's brookMatrixReference
import '../cpu/matrix.test';
// the gathers' accessors written per shape (whole indices with no floor), against plain loops
import '../cpu/gathers.test';
// the CPU backend where code generation from strings is refused (Node's counterpart of a CSP without 'unsafe-eval')
import './csp.test';
// BrookGPU 0.5's language features (scatterReduce under a write mask too) and write queries; their GL-only checks skip, with the reason
import '../brook/brookgpu-features.test';
import '../brook/writequery.test';
// the other spec files of test/brook/ (chars: BrookGPU CPU's 8-bit wrap on a CPU context; cli: npx brookgl's written module,
// imported from a data: URL, run on the CPU backend against the brook tag's kernels; gatheredge: its hand-written GLSL kernel skips;
// brook_index: skips)
import '../brook/brookgpu-compile-only.test';
import '../brook/brookgpu-gles.test';
import '../brook/calls.test';
import '../brook/cg.test';
import '../brook/chars.test';
import '../brook/cli.test';
import '../brook/comments.test';
import '../brook/compile.test';
import '../brook/dimensions.test';
import '../brook/domain.test';
import '../brook/frontend.test';
import '../brook/gatheredge.test';
import '../brook/gatherop.test';
import '../brook/golden.test';
import '../brook/iterators.test';
import '../brook/loops.test';
import '../brook/programs.test';
import '../brook/promote.test';
import '../brook/reduce.test';
import '../brook/return.test';
import '../brook/shapes.test';
import '../brook/structs.test';
import '../brook/vout.test';
// scatterReduce, streamGatherOp, streamScatterOp against src/reference (in the page also against the GPU)
import '../cpu/scatterops.test';
// 8-bit records through scatterReduce, streamGatherOp, streamScatterOp against plain byte loops; a CPU context's stats() shape
import '../cpu/charops.test';
import '../cpu/stats.test';
