import type { Sandbox } from '../certify/sandbox.ts';
import { HarnessError } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';

/**
 * Probes the sandbox once for the certification (src/certify/sandbox.ts). Not sealed: with
 * `--require-sealed` a harness error (exit 2) before any run, else a warning on stderr (unless
 * `--quiet`); the report says it either way (issue 28 §4).
 */
export async function sealedOrNot(io: CliIo, required: boolean, quiet: boolean): Promise<Sandbox> {
  const { probeSandbox, absentProtections } = await import('../certify/sandbox.ts');
  const sandbox = await probeSandbox(io.env);
  if (sandbox.report.sealed) return sandbox;
  const absent = absentProtections(sandbox.report).join(', ');
  if (required)
    throw new HarnessError(
      `--require-sealed: the plug-in cannot run sealed: ${sandbox.report.reason} (absent: ${absent})`,
    );
  if (!quiet) io.stderr.write(`certify-plugin: not sealed: ${sandbox.report.reason} (absent: ${absent})\n`);
  return sandbox;
}
