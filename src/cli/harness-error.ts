/**
 * A problem of the harness or its configuration (missing target file, bad baseline, a feature
 * that does not parse, a busy port). It is reported as one line and never becomes a verdict.
 */
export class HarnessError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'HarnessError';
    this.exitCode = exitCode;
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
