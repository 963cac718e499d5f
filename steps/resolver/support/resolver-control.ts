import type {
  AddressBookEntry,
  CallerIdResult,
  ResolvedName,
  ResolverProvider,
  SearchLogEntry,
} from '../../../simulators/pbx/index.ts';

export type { AddressBookEntry, CallerIdResult, ResolvedName, ResolverProvider, SearchLogEntry };

/** Why a resolution runs: an incoming call, the settings test of one provider, the UI integration. */
export type ResolutionTrigger = 'call' | 'settings-test' | 'ui-integration';

export type ResolutionState = 'resolved' | 'no-result' | 'failed' | 'not-resolvable';

/** The resolver settings of the PBX (`GET|PATCH /resolver/settings`). */
export interface ResolverSettingsView {
  countryCode: string;
  expertMode: boolean;
  addressBookFallback: boolean;
}

/** What one parser made of an evaluated body (`hits` of a resolution attempt). */
export interface ParserHitView {
  index: number;
  matched: boolean;
  /** The index variable: formatter result, HTML-decoded and trimmed. */
  result: string;
}

/** One provider query of a resolution as the control plane reports it. */
export interface ProviderAttemptView {
  provider: string;
  state: 'resolved' | 'no-result' | 'failed';
  /** The number as sent, in the provider's format. */
  number: string;
  status: number | null;
  reason: string | null;
  hint: string | null;
  name: ResolvedName | null;
  /** The index variables `{0}`, `{1}`, … (RESOLVER-EVAL-PARSER-ORDER). */
  variables: string[];
  uiValues: Record<string, string>;
  /** What each parser made of the body; empty when no body was evaluated. */
  hits: ParserHitView[];
  fromCache: boolean;
  /** Timing of the lookup against the provider's timeout; `null` when no request was made. */
  timing: { timeoutMs: number; exceeded: boolean; totalMs: number } | null;
}

/** What `POST /resolver/resolutions` answers. */
export interface ResolutionAnswer {
  resolution: number;
  trigger: ResolutionTrigger;
  state: ResolutionState;
  source: string | null;
  name: ResolvedName | null;
  uiValues: Record<string, string>;
  attempts: ProviderAttemptView[];
}

/**
 * The web-resolver routes of a PBX control plane (docs/resolver.md, "Control plane"): the
 * operator's stand-in for the module UI (providers, settings, address book, settings test) and
 * the observation points the `control` clauses need (caller-ID result, search log).
 */
export interface ResolverControl {
  settings(): Promise<ResolverSettingsView>;
  setSettings(change: Partial<ResolverSettingsView>): Promise<ResolverSettingsView>;
  setProviders(providers: ResolverProvider[]): Promise<void>;
  resolve(number: string, trigger: ResolutionTrigger, providerId?: string): Promise<ResolutionAnswer>;
  callerId(): Promise<CallerIdResult | null>;
  /** Lines as the search-requests tab shows them (expert lines only in expert mode). */
  searchLog(since?: number): Promise<SearchLogEntry[]>;
  addressBook(): Promise<AddressBookEntry[]>;
  setAddressBook(entries: AddressBookEntry[]): Promise<void>;
  clearCache(): Promise<void>;
}
