/** `npm run test:catalog`: the traceability check between features and the clause catalog. */
import { runCatalogCheck } from './run-catalog-check.ts';

process.exitCode = await runCatalogCheck({ stdout: process.stdout, stderr: process.stderr });
