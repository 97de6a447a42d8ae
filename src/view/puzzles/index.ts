/** The puzzle book: its puzzles (book.ts) and the checker (check.ts). */
export { PUZZLES } from './book';
export type { Puzzle, PuzzleCase, PuzzleData, PuzzleOutput } from './book';
export { puzzlePixels, WRONG_RECORD_RGB } from './draw';
export { checkPuzzle, puzzle, puzzleCase, puzzleReport, errorLine } from './check';
export type { CheckOptions, PuzzleCaseResult, PuzzleRecord, PuzzleResult } from './check';
