/** Entry point of `pbx-conformance` (bin/pbx-conformance.js and the npm scripts). */
import { run } from './run.ts';

// A reader that went away (`pbx-conformance verify --help | head -1`) closes the pipe: what is
// left to say is dropped and the command goes on (a simulator keeps serving), with no trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** How long a finished command may take to let go of its last handles before the process exits anyway. */
const EXIT_GRACE_MS = 5_000;

const exitCode = await run(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exitCode = exitCode;

// Every command has finished its work here (long-running ones return after their signal). A
// handle left open (a socket a target never closed, a stray timer) must not hang a CI job: say
// which resources are still open, then exit with the command's own code. The timer is unref'd,
// so a clean process exits at once without it.
setTimeout(() => {
  const open = process.getActiveResourcesInfo().filter((resource) => resource !== 'Timeout');
  process.stderr.write(`pbx-conformance: exiting with handles still open (${open.join(', ') || 'timers'})\n`);
  process.exit(exitCode);
}, EXIT_GRACE_MS).unref();
