import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scenarioCostKey } from './progress.ts';

/**
 * The expected cost of each scenario for verify's estimate of the time left (issue 29, item 14):
 * its duration in the last report in the reports folder (`compatibility.json` of the run before,
 * any target). A scenario that ran for several clauses counts once; a missing, unreadable or
 * foreign file gives no costs, and then no estimate is shown.
 */
export async function expectedCosts(reportsDir: string): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  let report: unknown;
  try {
    report = JSON.parse(await readFile(join(reportsDir, 'compatibility.json'), 'utf8'));
  } catch {
    return costs;
  }
  const interfaces = (report as { interfaces?: unknown }).interfaces;
  if (!Array.isArray(interfaces)) return costs;
  for (const face of interfaces) {
    for (const clause of (face as { clauses?: unknown[] }).clauses ?? []) {
      for (const scenario of (clause as { scenarios?: unknown[] }).scenarios ?? []) {
        const { uri, name, durationMs } = scenario as { uri?: unknown; name?: unknown; durationMs?: unknown };
        if (typeof uri === 'string' && typeof name === 'string' && typeof durationMs === 'number')
          costs.set(scenarioCostKey(uri, name), durationMs);
      }
    }
  }
  return costs;
}
