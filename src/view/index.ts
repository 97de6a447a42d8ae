/**
 * What shows a stream or a pass to a person: streams as images, traces and measurements as
 * tables, series as plots — one implementation for the demo pages and the notebooks.
 * Nothing here touches the DOM until called.
 */
export * from './colormap';
export * from './image';
export * from './table';
export * from './tracetable';
export * from './plot';
export * from './embed';
export { createPointRenderer } from './points';
export type { PointRenderer } from './points';
export { createFieldRenderer } from './field';
export type { FieldRenderer } from './field';
export * from './puzzles/index';
