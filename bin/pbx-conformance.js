#!/usr/bin/env node
// Entry point of `pbx-conformance`. In the repository (the TypeScript sources are present) it
// registers tsx and runs src/cli/main.ts, so no build step is needed while developing; when
// `npm run build` has left a dist/ built from the sources exactly as they are now
// (bin/source-stamp.js), it runs that instead, without tsx's module loading (issue 31 §1). In the
// installed package (no sources, only the compiled dist/) it runs dist/src/cli/main.js, and tsx is
// neither needed nor installed.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiledIsCurrent } from './source-stamp.js';

const sources = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(sources) && !compiledIsCurrent(fileURLToPath(new URL('..', import.meta.url)))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/src/cli/main.js');
}
