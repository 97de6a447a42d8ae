// The pass-by-pass trace as an HTML table: the library's view module (src/view/trace-table.ts).
export { traceTable } from '../../dist/brookgl.js';
