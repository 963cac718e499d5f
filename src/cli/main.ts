/** Entry point of `pbx-conformance` (bin/pbx-conformance.js and the npm scripts). */
import { run } from './run.ts';

process.exitCode = await run(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
