// The front door of the simulated PBX: everything outside simulators/pbx/ imports the PBX from this
// file only (test/architecture/import-graph.test.ts), and this file exports what an outside user
// may use and nothing else, each name with one line of doc (test/architecture/front-doors.test.ts).
// Nothing hands out the PBX's inside at run time either: what a harness needs is an operation of
// the control client or one of the named functions over a handle below.

export type {
  /** A handler the control listener serves beside the operations (the console). */
  RawMount,
} from '../shared/http/control-server.ts';
export type {
  /** One route of the PBX web server; `wrapWebRoute` gets each (tests seed deviations with it). */
  WebRoute,
} from '../shared/http/web-route.ts';
export type {
  /** The seed and rates of field activity (`startFieldActivity`, the control operation `activityStart`). */
  FieldActivityOptions,
} from './activity/field-activity.ts';
export type {
  /** The data endpoint's state, port and reason, as the control operation `endpointStatus` gives it. */
  EndpointStatus,
  /** One entry of the data endpoint's host allow list (`setMonitoringHosts`). */
  MonitoringHostEntry,
} from './control/control-api.ts';
export type {
  /** An attention event as a module raises it (`raiseAttention`, `raiseAttentionEvent`). */
  AttentionEvent,
} from './events/attention-event.ts';
export type {
  /** Where a PBX forwards its attention events: the controller's ingest address, site id and key. */
  ControllerSettings,
} from './events/controller-link.ts';
export {
  /** The inventory a PBX reports to its fleet controller, from a state at a time. */
  pbxInventory,
} from './events/pbx-inventory.ts';
export {
  /** The forwarder's link state and counters, read synchronously (as `forwarderStatus` of the control client). */
  forwarderStatus,
  /** The PBX's virtual time in epoch ms, read synchronously. */
  pbxNow,
  /** The PBX's current state, password hashes included; read only. */
  pbxState,
  /** Raises an attention event through the forwarder synchronously (benches; the control operation is `raiseAttentionEvent`). */
  raiseAttention,
  /** One caller lookup by the web resolver as an incoming call triggers it (benches; the control operation is `resolverResolve`). */
  resolveCaller,
  /** The control routes of a PBX started with `controlMountedAt`, for the fleet's site plane to serve. */
  siteControlRoutes,
  /** Starts field activity under a fleet's site id (the control operation `activityStart` uses the serial number). */
  startFieldActivity,
} from './handle-functions.ts';
export {
  /** The shipped scenarios by name and description, `healthy` first. */
  listScenarios,
  /** The state a user's scenario file gives at a time (schema-checked, over the default state). */
  loadScenarioFile,
  /** The state a shipped scenario (by name) gives at a time, or a copy of a complete state. */
  resolveScenario,
  /** The state a scenario given as a value gives at a time, with the checks a file gets (e.g. `record import`'s result). */
  scenarioState,
} from './load-scenario.ts';
export type {
  /** A completion event of a maintenance command (`completionEvents`). */
  CompletionEvent,
} from './maintenance/completion-event.ts';
export {
  /** The base path of the maintenance API on the PBX web server. */
  MAINTENANCE_BASE_PATH,
} from './maintenance/maintenance-api.ts';
export type {
  /** A maintenance token as minted (`createToken`), its secret shown this once. */
  CreatedToken,
  /** A maintenance token as listed (`listTokens`), without its secret. */
  TokenInfo,
} from './maintenance/token-store.ts';
export {
  /** The simulator's own pbx_monitoring MKP (the package its web server offers for download). */
  buildMonitoringPackage,
} from './mkp/monitoring-package.ts';
export {
  /** The regular files of a tar archive in archive order (the monitoring package, `.mkp`). */
  unpackTar,
} from './mkp/tar-archive.ts';
export {
  /** The PBX control plane at a URL as a typed client over HTTP. */
  httpPbxControl,
  /** The PBX control plane as a typed client, derived from its declarations. */
  type PbxControl,
} from './pbx-control.ts';
export {
  /** What schemas/pbx-control.openapi.yaml is generated from (scripts/generate-control-openapi.ts). */
  PBX_CONTROL_DOCUMENT,
} from './pbx-control-document.ts';
export {
  /** The body of a recorded HTTP fetch (everything after the head). */
  fetchBody,
  /** The `format` a recording file names. */
  RECORDING_FORMAT,
  /** The version of the recording format this simulator writes and reads. */
  RECORDING_VERSION,
  /** A recorded close of a connection. */
  type RecordedClose,
  /** A recorded HTTP answer. */
  type RecordedHttpAnswer,
  /** A recorded HTTP fetch of the data endpoint. */
  type RecordedHttpFetch,
  /** A recorded byte stream with its timing. */
  type RecordedStream,
  /** A recorded XML-RPC answer. */
  type RecordedXmlRpcAnswer,
  /** A recording of a real PBX (schemas/pbx-recording.schema.json). */
  type Recording,
  /** One sample of a recording: every face read at one time. */
  type RecordingSample,
  /** The bytes of a recorded stream. */
  streamBytes,
  /** Bytes as a recording stores them: text when valid UTF-8, else base64. */
  toRecordedBytes,
} from './recording/recording.ts';
export {
  /** Every face of the data endpoint and the `local` document rendered from one state. */
  renderFaces,
} from './recording/render-state.ts';
export {
  /** A recording bound to a PBX (`start({ replay })`): its faces answer with the recorded bytes. */
  type ReplayBinding,
  /** The binding that serves a recording (`simulate --recording`). */
  replayRecording,
} from './replay.ts';
export {
  /** A note on a matcher that Java and JavaScript read differently or not at all. */
  type RegexNote,
  /** Reads a matcher as Java would: JavaScript source, flags and notes. */
  readJavaRegex,
} from './resolver/java-regex-check.ts';
export {
  /** All three forms of a number (`+xx`, `00xx`, `0`), or `null` when it cannot be resolved. */
  numberForms,
} from './resolver/number-format.ts';
export {
  /** A provider configuration the PBX would refuse. */
  ProviderConfigError,
  /** Checks a provider configuration as the PBX does. */
  validateProvider,
} from './resolver/provider-validation.ts';
export {
  /** The result of one resolution, with every provider attempt. */
  type ResolutionResult,
  /** What started a resolution (a call, the settings test, …). */
  type ResolutionTrigger,
  /** One resolution against a provider list as the PBX runs it, changing no state (resolver-check). */
  resolveNumber,
} from './resolver/resolve-number.ts';
export type {
  /** The simulator's own limits on a lookup (sizes, times), beyond the spec. */
  ResolverLimits,
} from './resolver/resolver-limits.ts';
export {
  /** One parser of a provider as `resolverResolve` shows it. */
  type ParserHitView,
  /** One provider attempt as `resolverResolve` shows it. */
  type ProviderAttemptView,
  /** The resolver's control operations (the resolver steps read their shapes). */
  RESOLVER_OPERATIONS,
  /** What `resolverResolve` answers. */
  type ResolutionAnswer,
  /** How a resolution ended. */
  type ResolutionState,
  /** The resolver settings as the control plane shows them. */
  type ResolverSettingsView,
} from './resolver/resolver-operations.ts';
export {
  /** Replaces a provider's secret values with `***` in text the resolver logs or shows. */
  SecretMasker,
} from './resolver/secret-mask.ts';
export {
  /** The sections of the PBX's agent text. */
  PBX_SECTION_NAMES,
  /** The keys the simulator renders in a section of the agent text. */
  sectionKeys,
} from './snapshot/render/pbx-section-keys.ts';
export {
  /** Renders a snapshot in one format of the data endpoint. */
  renderFormat,
} from './snapshot/render/render-format.ts';
export {
  /** A snapshot of a state taken at a time, as the snapshot cache takes one. */
  snapshotOf,
} from './snapshot/snapshot.ts';
export {
  /** What a started PBX gives: its URLs, its control client and `close()`. */
  type PbxHandle,
  /** How to start a PBX: scenario, addresses, ports, clock, controller, replay. */
  type PbxStartOptions,
  /** The URLs of a started PBX's faces. */
  type PbxUrls,
  /** Starts a simulated PBX: every face and the control plane on one state. */
  start,
} from './start-pbx.ts';
export {
  /** How a provider signs in: `None`, `Basic`, `Digest`, `Bearer`. */
  AUTH_METHODS,
  /** One authentication method of a provider. */
  type AuthMethod,
  /** The HTTP methods a provider may send: `GET`, `POST`. */
  HTTP_METHODS,
  /** The three number formats a provider may ask for: `+xx`, `00xx`, `0`. */
  NUMBER_FORMATS,
  /** One number format. */
  type NumberFormat,
  /** A provider with its defaults filled in and its timeout clamped, as the PBX uses it. */
  normaliseProvider,
  /** A configuration field of a provider, usable as `{<fieldId>}` in its request. */
  type ProviderField,
  /** The clear values of a provider's secrets, for masking. */
  providerSecrets,
  /** A provider of the web resolver (schemas/resolver-provider.schema.json). */
  type ResolverProvider,
} from './state/provider-config.ts';
export type {
  /** One entry of the PBX address book. */
  AddressBookEntry,
  /** What the caller-ID display shows for the last resolved incoming call. */
  CallerIdResult,
  /** A name the resolver found. */
  ResolvedName,
  /** One line of the resolver's search log (`resolverSearchLog`). */
  SearchLogEntry,
  /** The level of a search-log line. */
  SearchLogLevel,
  /** A step of a resolution as the search log names it. */
  SearchStep,
} from './state/resolver-state.ts';
export {
  /** Freezes a state so that every PBX started from it shares it instead of copying it. */
  shareableState,
} from './state/state-copy.ts';
export type {
  /** One line of the module log (`moduleLog`). */
  ModuleLogEntry,
} from './state/store.ts';
export type {
  /** Agent-text sections and lines beyond what the simulator models (`agentExtensions` of the state). */
  AgentExtensions,
  /** One backup target with its runs. */
  BackupState,
  /** The whole state of a simulated PBX (simulators/pbx/state/types.ts). */
  PbxState,
  /** One SIP provider (trunk). */
  SipProviderState,
  /** A format of the data endpoint (`checkmk`, `xml`, `json`). */
  SnapshotFormat,
} from './state/types.ts';
