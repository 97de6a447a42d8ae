// Streams as images: the library's view module (src/view/image.ts), shared with the notebooks.
export { drawStream, streamPixels, streamFigure, describeRange, HIGHLIGHT } from '../../dist/brookgl.js';
