// Tables as HTML (pages) and as aligned text (the headless driver prints the same rows):
// the library's view module (src/view/table.ts), shared with the notebooks.
export { htmlTable, textTable, formatNumber as format } from '../../dist/brookgl.js';
