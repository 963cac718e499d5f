/**
 * What certification uses of the PBX simulator, in one place: start a simulator, its state and
 * control types, the named scenarios and scenario files, and the XML-RPC credentials value.
 */
import { loadScenarioFile } from '../../simulators/pbx/state/scenarios.ts';
import type { PbxState } from '../../simulators/pbx/state/types.ts';

export type { PbxControl } from '../../simulators/pbx/control/control-api.ts';
export { type PbxHandle, start } from '../../simulators/pbx/index.ts';
export { listScenarios } from '../../simulators/pbx/state/scenarios.ts';
export type { AgentExtensions, PbxState } from '../../simulators/pbx/state/types.ts';
export { xmlrpcAuthValue } from '../../simulators/pbx/xmlrpc/auth.ts';

/** The complete state a scenario file describes (schemas/pbx-scenario.schema.json), as of now. */
export function scenarioFileState(path: string): PbxState {
  return loadScenarioFile(path, Date.now());
}
