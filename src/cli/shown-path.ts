import { relative } from 'node:path';

/** A path as a command prints it: relative to the working folder when inside it, else as given. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || rel === '' ? path : rel;
}
