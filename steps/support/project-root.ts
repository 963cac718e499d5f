import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two levels above steps/support/), for schemas/ and features/. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function projectPath(...segments: string[]): string {
  return resolve(PROJECT_ROOT, ...segments);
}
