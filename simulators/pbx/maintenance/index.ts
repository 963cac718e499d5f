export { createSelfSignedTls, type SelfSignedTls } from '../../shared/http/self-signed-tls.ts';
export type { AcceptedCommand } from './accepted-command.ts';
export { bearerToken } from './bearer-token.ts';
export {
  CommandExecutor,
  type CommandExecutorOptions,
  CommandHandoverError,
  EXECUTOR_LOG,
  LOG_SOURCE,
} from './command-executor.ts';
export {
  COMMAND_NAMES,
  type CommandName,
  isCommandName,
  isSystemAction,
  type MaintenanceActionName,
  SYSTEM_ACTIONS,
} from './command-names.ts';
export {
  type BodyKind,
  COMMAND_PARAMETERS,
  type CommandParameters,
  commandParameters,
  PARAMETER_NAMES,
  parseCommandBody,
} from './command-parameters.ts';
export { COMPLETION_EVENT_NAME, type CompletionEvent } from './completion-event.ts';
export { createMaintenance, type MaintenanceFace } from './create-maintenance.ts';
export type { DiscardReason } from './discard-reason.ts';
export { localDateTimeToEpoch, parseExecuteAt } from './execute-at.ts';
export {
  createMaintenanceApi,
  type HeadDecision,
  MAINTENANCE_BASE_PATH,
  MAX_BODY_BYTES,
  type MaintenanceApi,
  type MaintenanceRequest,
  type MaintenanceRequestHead,
  SYSTEM_FUNCTIONS_PATH,
} from './maintenance-api.ts';
export { maintenanceEffects } from './maintenance-effects.ts';
export { createMaintenanceHandler, type MaintenanceHandlerOptions } from './maintenance-handler.ts';
export { MAINTENANCE_CONTROL_OPERATIONS, MAX_IDLE_WAIT_MS } from './maintenance-operations.ts';
export { ERROR_MESSAGES, type MaintenanceResponse } from './maintenance-responses.ts';
export { compareVersions, hasMaintenanceApi, LAST_VERSION_WITHOUT_API } from './module-version-gate.ts';
export { COMMAND_MODES, LOG_SCOPES } from './parameter-rules.ts';
export { DEFAULT_RESTART_DURATION_MS } from './pbx-restart.ts';
export {
  type CreatedToken,
  type TokenErrorCode,
  type TokenInfo,
  TokenStore,
  TokenStoreError,
} from './token-store.ts';
