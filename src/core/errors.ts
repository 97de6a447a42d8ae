/**
 * BrookError: the one failure channel of brookgl. Every public operation validates its
 * arguments before any GL call and throws a BrookError whose message says what was wrong and
 * what to do. Messages start with "(brookgl)" so they stand out in a console full of others.
 */
export class BrookError extends Error {
  override name = 'BrookError';
  constructor(message: string) {
    super(`(brookgl) ${message}`);
  }
}

/** Throws a BrookError with `message` unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new BrookError(typeof message === 'string' ? message : message());
}

/** Framebuffer status codes in words (checkFramebufferStatus returns bare enums). */
export function framebufferStatusName(status: number): string {
  const names: Record<number, string> = {
    0x8cd5: 'FRAMEBUFFER_COMPLETE',
    0x8cd6: 'FRAMEBUFFER_INCOMPLETE_ATTACHMENT',
    0x8cd7: 'FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT',
    0x8cd9: 'FRAMEBUFFER_INCOMPLETE_DIMENSIONS',
    0x8cdd: 'FRAMEBUFFER_UNSUPPORTED',
    0x8d56: 'FRAMEBUFFER_INCOMPLETE_MULTISAMPLE',
  };
  return names[status] ?? `unknown status 0x${status.toString(16)}`;
}

/** Numbers `lines` from `first`, marking the line numbered `marked` with '>'. */
export function numberLines(lines: string[], first: number, marked?: number): string {
  const width = String(first + lines.length - 1).length;
  return lines
    .map((line, i) => {
      const n = first + i;
      return `${n === marked ? '>' : ' '}${String(n).padStart(width)}| ${line}`;
    })
    .join('\n');
}
