import type { RESOLVER_OPERATIONS } from '../../../simulators/pbx/index.ts';
import type { ControlClient } from '../../../simulators/shared/index.ts';

export type {
  AddressBookEntry,
  CallerIdResult,
  ParserHitView,
  ProviderAttemptView,
  ResolutionAnswer,
  ResolutionState,
  ResolutionTrigger,
  ResolvedName,
  ResolverProvider,
  ResolverSettingsView,
  SearchLogEntry,
} from '../../../simulators/pbx/index.ts';

/**
 * The web-resolver operations of a PBX control plane (docs/resolver.md, "Control plane"), as the
 * client derived from their declarations (simulators/pbx/resolver/resolver-operations.ts): the
 * operator's stand-in for the module UI and the observation points the `control` clauses need.
 */
export type ResolverControl = ControlClient<typeof RESOLVER_OPERATIONS>;
