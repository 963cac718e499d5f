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
