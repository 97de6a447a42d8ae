/**
 * The puzzle book's CPU answers, for reading beside the book (`reference.puzzle*`): they live with
 * the book in src/view/puzzles/answers.ts, since its checker runs them (a view imports nothing
 * from src/reference: scripts/imports.mjs).
 */
export * from '../view/puzzles/answers';
