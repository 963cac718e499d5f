import type { RESOLVER_OPERATIONS } from '../../../simulators/pbx/resolver/resolver-operations.ts';
import type { ControlClient } from '../../../simulators/shared/control/control-operation.ts';

export type { ResolverProvider } from '../../../simulators/pbx/resolver/provider-config.ts';
export type { ResolutionTrigger } from '../../../simulators/pbx/resolver/resolve-number.ts';
export type {
  ParserHitView,
  ProviderAttemptView,
  ResolutionAnswer,
  ResolutionState,
  ResolverSettingsView,
} from '../../../simulators/pbx/resolver/resolver-operations.ts';
export type {
  AddressBookEntry,
  CallerIdResult,
  ResolvedName,
  SearchLogEntry,
} from '../../../simulators/pbx/resolver/resolver-state.ts';

/**
 * The web-resolver operations of a PBX control plane (docs/resolver.md, "Control plane"), as the
 * client derived from their declarations (simulators/pbx/resolver/resolver-operations.ts): the
 * operator's stand-in for the module UI and the observation points the `control` clauses need.
 */
export type ResolverControl = ControlClient<typeof RESOLVER_OPERATIONS>;
