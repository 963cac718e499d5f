import { EXIT_HARNESS_ERROR } from './exit-codes.ts';

/**
 * A problem of the harness or its configuration (missing target file, bad baseline, a feature
 * that does not parse, a busy port). It is reported as one line, never becomes a verdict and
 * always exits 2: exit 1 is reserved for conformance failures, which are returned, never thrown.
 */
export class HarnessError extends Error {
  readonly exitCode = EXIT_HARNESS_ERROR;

  constructor(message: string) {
    super(message);
    this.name = 'HarnessError';
  }
}

/** The one-line text of any thrown value, with its causes (Cucumber wraps errors), without stack trace. */
export function oneLineMessage(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return (
    parts
      .join(': ')
      .replace(/\s*\n\s*/g, ' ')
      .trim() || 'unknown error'
  );
}
