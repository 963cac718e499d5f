/** Exit codes of every command: 0 passed, 1 conformance failure, 2 usage or harness error. */
export const EXIT_PASSED = 0;
export const EXIT_CONFORMANCE_FAILURE = 1;
export const EXIT_HARNESS_ERROR = 2;

/** The exit-code paragraph of `--help` and the README. */
export const EXIT_CODES_HELP = `Exit codes (every command):
  0  passed (verify: nothing unexpected failed or passed; other commands: ran and stopped cleanly)
  1  conformance failure (verify: a clause failed that the baseline does not list, a listed one
     passed, or a coverage gate was missed)
  2  usage or harness error: bad option or input file, unreachable target, rejected credentials,
     unwritable reports folder, a port in use; no verdict was given`;

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
