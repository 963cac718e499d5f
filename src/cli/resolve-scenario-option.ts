import { extname, resolve } from 'node:path';
import type { PbxState } from '../../simulators/pbx/index.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';

/**
 * `--scenario NAME|FILE`: a value with a path separator or a `.json` extension is a scenario file
 * (schemas/pbx-scenario.schema.json, resolved against `cwd`) and is loaded here; anything else is
 * the name of a shipped scenario, resolved by `start()`. An unusable file is a harness error.
 */
export async function resolveScenarioOption(
  value: string | undefined,
  cwd: string,
): Promise<string | PbxState | undefined> {
  if (value === undefined) return undefined;
  if (!/[\\/]/.test(value) && extname(value) !== '.json') return value;
  // Loaded on demand, like the simulator itself: `verify` never needs it.
  const { loadScenarioFile } = await import('../../simulators/pbx/index.ts');
  try {
    return loadScenarioFile(resolve(cwd, value), Date.now());
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
}
