import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./dsse_ed25519.py', import.meta.url));

/**
 * A Python that imports `cryptography`: `python3` first, then Debian's own interpreter (a pyenv
 * `python3` ahead in PATH does not see the packages apt installed). `null` when neither does.
 */
export const PYTHON_WITH_CRYPTOGRAPHY: string | null =
  ['python3', '/usr/bin/python3'].find(
    (python) =>
      spawnSync(python, ['-c', 'import cryptography.hazmat.primitives.asymmetric.ed25519'], {
        timeout: 20_000,
      }).status === 0,
  ) ?? null;

/**
 * Why the interoperability tests skip: the reason, or false when they can run. Where CI installed
 * the package (`PBX_REQUIRE_PYTHON_CRYPTOGRAPHY=1`, .ci/run) they never skip: they fail instead.
 */
export const NO_PYTHON_CRYPTOGRAPHY: string | false =
  PYTHON_WITH_CRYPTOGRAPHY === null && process.env['PBX_REQUIRE_PYTHON_CRYPTOGRAPHY'] !== '1'
    ? "no python3 with the 'cryptography' package (Debian: apt-get install python3-cryptography)"
    : false;

/** Runs test/interop/dsse_ed25519.py (`verify ENVELOPE PUB` or `sign PAYLOAD KEY`); its JSON answer. */
export function dssePython(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON_WITH_CRYPTOGRAPHY ?? 'python3',
      [SCRIPT, ...args],
      { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`dsse_ed25519.py failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}
