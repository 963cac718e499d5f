#!/usr/bin/env node
// Entry point of `pbx-conformance`. In the repository (the TypeScript sources are present) it
// registers tsx and runs src/cli/main.ts, so no build step is needed while developing. In the
// installed package (no sources, only the compiled dist/) it runs dist/src/cli/main.js, and tsx is
// neither needed nor installed.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/src/cli/main.js');
}
