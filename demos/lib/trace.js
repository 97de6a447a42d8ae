// The pass-by-pass trace as an HTML table: the library's view module (src/view/tracetable.ts).
export { traceTable } from '../../dist/brookgl.js';
