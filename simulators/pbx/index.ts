export type { RawMount } from '../shared/http/control-server.ts';
export type { WebRoute } from '../shared/http/web-route.ts';
export type { FieldActivityOptions, FieldActivityStatus } from './activity/field-activity.ts';
export type { ChangeNotice, ServedFace, ServedFaces } from './control/console-operations.ts';
// The front door: everything outside simulators/pbx/ imports the PBX from this file only
// (test/architecture/import-graph.test.ts). Named exports, grouped by face.
export type { EndpointStatus, MonitoringHostEntry } from './control/control-api.ts';
export { STATE_OPERATIONS } from './control/state-operations.ts';
export type { AttentionEvent } from './events/attention-event.ts';
export type { ForwarderStatus, RaiseOutcome } from './events/attention-forwarder.ts';
export { ATTENTION_OPERATIONS } from './events/attention-operations.ts';
export type { ControllerSettings } from './events/controller-link.ts';
export { pbxInventory } from './events/pbx-inventory.ts';
export {
  forwarderStatus,
  pbxNow,
  pbxState,
  raiseAttention,
  resolveCaller,
  siteControlRoutes,
  startFieldActivity,
} from './handle-functions.ts';
export { listScenarios, loadScenarioFile, resolveScenario, scenarioState } from './load-scenario.ts';
export type { CompletionEvent } from './maintenance/completion-event.ts';
export { MAINTENANCE_BASE_PATH } from './maintenance/maintenance-api.ts';
export { MAINTENANCE_CONTROL_OPERATIONS } from './maintenance/maintenance-operations.ts';
export type { CreatedToken, TokenInfo } from './maintenance/token-store.ts';
/** The simulator's own pbx_monitoring MKP (the package its web server offers for download). */
export { buildMonitoringPackage } from './mkp/monitoring-package.ts';
export { unpackTar } from './mkp/tar-archive.ts';
export {
  httpPbxControl,
  PBX_CONTROL_OPERATIONS,
  type PbxControl,
  type PbxControlEffects,
} from './pbx-control.ts';
/** What schemas/pbx-control.openapi.yaml is generated from (scripts/generate-control-openapi.ts). */
export { PBX_CONTROL_DOCUMENT } from './pbx-control-document.ts';
export {
  fetchBody,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedBytes,
  type RecordedClose,
  type RecordedHttpAnswer,
  type RecordedHttpFetch,
  type RecordedStream,
  type RecordedXmlRpcAnswer,
  type Recording,
  type RecordingSample,
  type RedactionSummary,
  sampleAt,
  streamBytes,
  toRecordedBytes,
} from './recording/recording.ts';
export { type RenderedFaces, renderFaces } from './recording/render-state.ts';
export { type ReplayBinding, type ReplayOptions, replayRecording } from './replay.ts';
export { type RegexNote, readJavaRegex } from './resolver/java-regex-check.ts';
export { numberForms } from './resolver/number-format.ts';
export { ProviderConfigError, validateProvider } from './resolver/provider-validation.ts';
export type { ResolutionTrigger } from './resolver/resolve-number.ts';
export { type ResolutionResult, resolveNumber } from './resolver/resolve-number.ts';
export type { ResolverLimits } from './resolver/resolver-limits.ts';
export {
  type ParserHitView,
  type ProviderAttemptView,
  RESOLVER_OPERATIONS,
  type ResolutionAnswer,
  type ResolutionState,
  type ResolverSettingsView,
} from './resolver/resolver-operations.ts';
export { SecretMasker } from './resolver/secret-mask.ts';
export { renderAgentText } from './snapshot/render/agent-text.ts';
export { renderJsonSnapshot } from './snapshot/render/json-snapshot.ts';
export { PBX_SECTION_NAMES, sectionKeys } from './snapshot/render/pbx-section-keys.ts';
export { renderFormat } from './snapshot/render/render-format.ts';
export { SnapshotCache, snapshotOf } from './snapshot/snapshot.ts';
export { type PbxHandle, type PbxStartOptions, type PbxUrls, start } from './start-pbx.ts';
export {
  AUTH_METHODS,
  type AuthMethod,
  HTTP_METHODS,
  NUMBER_FORMATS,
  type NumberFormat,
  normaliseProvider,
  type ProviderField,
  providerSecrets,
  type ResolverProvider,
} from './state/provider-config.ts';
export type {
  AddressBookEntry,
  CallerIdResult,
  ResolvedName,
  SearchLogEntry,
  SearchLogLevel,
  SearchStep,
} from './state/resolver-state.ts';
/** Freezes a state so that every PBX started from it shares it instead of copying it. */
export { shareableState } from './state/state-copy.ts';
export { type ModuleLogEntry, PbxStore } from './state/store.ts';
export type {
  AgentExtensions,
  BackupState,
  PbxState,
  SipProviderState,
  SnapshotFormat,
} from './state/types.ts';
