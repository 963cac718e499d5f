#!/usr/bin/env node
// Registers tsx so the TypeScript sources run without a build step, then hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
