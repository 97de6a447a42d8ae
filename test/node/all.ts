// The specs that run in Node on the CPU backend (scripts/test-node.mjs bundles this for Node and
// runs it with mocha, no browser): BrookGPU 0.5's prog/tests against their gold files, on
// createContext({ backend: 'cpu' }) through test/helpers.ts's newContext.
import './gpuonly';
import '../brook/brookgpu-tests.test';
