import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

/**
 * Reads features/coverage-goals.yaml: `prefixes: [MON, XMLRPC]` lists the interface prefixes whose
 * testable clauses must all be proved by scenarios. A missing file means no goals.
 */
export async function loadCoverageGoals(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const data: unknown = parse(text);
  if (data == null) return [];
  const prefixes =
    typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)['prefixes']
      : undefined;
  if (prefixes == null) return [];
  if (!Array.isArray(prefixes) || !prefixes.every((p): p is string => typeof p === 'string')) {
    throw new Error(`${path}: \`prefixes\` must be a list of interface prefixes`);
  }
  return prefixes;
}
