// Every spec, bundled into dist/test/specs.js and run in the browser by scripts/test.mjs.
import './reference/reference.test';
import './core/codegen.test';
import './core/stream.test';
import './core/kernel.test';
import './core/brook.test';
import './core/reduce.test';
import './core/queries.test';
import './core/errors.test';
import './core/resources.test';
import './core/capacity.test';
import './idioms/scan.test';
import './idioms/sort.test';
import './idioms/filter.test';
import './idioms/flow.test';
import './apps/nbody.test';
import './apps/fluid.test';
import './readme.test';
