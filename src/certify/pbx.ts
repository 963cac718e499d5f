/**
 * What certification uses of the PBX simulator, through its front door: start a simulator, its
 * state and control types, the named scenarios and scenario files.
 */
import { loadScenarioFile, type PbxState } from '../../simulators/pbx/index.ts';

export {
  type AgentExtensions,
  listScenarios,
  type PbxControl,
  type PbxHandle,
  type PbxState,
  start,
} from '../../simulators/pbx/index.ts';

/** The complete state a scenario file describes (schemas/pbx-scenario.schema.json), as of now. */
export function scenarioFileState(path: string): PbxState {
  return loadScenarioFile(path, Date.now());
}
