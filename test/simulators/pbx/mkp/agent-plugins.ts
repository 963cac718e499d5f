import { join } from 'node:path';
import { PACKAGE_SOURCE_DIR } from '../../../../simulators/pbx/mkp/monitoring-package.ts';
import { RUNNER_SCRIPT, type TextRun } from '../../../../src/certify/mkp/run-agent-plugins.ts';
import { run } from './system-tools.ts';

/** The monitoring package's plug-ins folder (the `cmk_addons_plugins` part). */
export const PLUGINS_PART = join(PACKAGE_SOURCE_DIR, 'cmk_addons_plugins');

/**
 * Parse, discovery and check of every plug-in of the package on `text`, through the product's
 * runner and its cmk.agent_based.v2 stand-in (python/); any exception of a plug-in throws.
 */
export function runPackageOn(text: string, pluginsDir = PLUGINS_PART): TextRun {
  const request = { pluginsDir, now: 1_700_000_000, texts: [{ label: 'text', text }], probes: {} };
  const outcome = JSON.parse(
    run('python3', ['-I', '-B', RUNNER_SCRIPT], JSON.stringify(request)).toString('utf8'),
  ) as {
    load: { errors: unknown[]; problems: string[] };
    runs: TextRun[];
  };
  if (outcome.load.errors.length + outcome.load.problems.length > 0)
    throw new Error(`the package does not load: ${JSON.stringify(outcome.load)}`);
  const [result] = outcome.runs;
  if (!result) throw new Error('the runner gave no run');
  if (result.errors.length > 0) throw new Error(`a plug-in raised: ${JSON.stringify(result.errors[0])}`);
  return result;
}
