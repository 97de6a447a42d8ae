// Streams as images: the library's view module (src/view/image.ts), shared with the notebooks.
export { drawStream, streamPixels, streamFigure, describeRange } from '../../dist/brookgl.js';
