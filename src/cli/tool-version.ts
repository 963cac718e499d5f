import { readFileSync } from 'node:fs';

/** The version of this tool, from package.json (reported in every compatibility report). */
export const TOOL_VERSION: string = (() => {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version =
    typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>)['version'] : undefined;
  return typeof version === 'string' ? version : '0.0.0';
})();
