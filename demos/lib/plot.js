// A small SVG line plot: the library's view module (src/view/plot.ts), shared with the notebooks.
export { linePlot } from '../../dist/brookgl.js';
