import {
  answer,
  checkedByEffect,
  fields,
  flag,
  integer,
  oneOf,
  text,
} from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { ResolverProvider } from '../state/provider-config.ts';
import type {
  AddressBookEntry,
  CallerIdResult,
  ResolvedName,
  SearchLogEntry,
} from '../state/resolver-state.ts';
import type { ResolutionTrigger } from './resolve-number.ts';

/** Why a resolution runs: an incoming call, the settings test of one provider, the UI integration. */
export const RESOLUTION_TRIGGERS = [
  'call',
  'ui-integration',
  'settings-test',
] as const satisfies readonly ResolutionTrigger[];

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

/** The settings of `GET|PATCH /resolver/settings`. */
export interface ResolverSettingsView {
  countryCode: string;
  expertMode: boolean;
  addressBookFallback: boolean;
}

/**
 * The control-plane operations of the web resolver (schemas/pbx-control.openapi.yaml, tag
 * `resolver`; docs/resolver.md, "Control plane"): the operator's stand-in for the module UI
 * (providers, settings, address book, settings test) and the observation points the `control`
 * clauses need (caller-ID result, search log). Each name is `resolver` plus the method of the
 * `Resolver` class it drives; `resolverEffects` (resolver-effects.ts) gives what each does.
 */
export const RESOLVER_OPERATIONS = defineOperations({
  resolverSettings: {
    method: 'GET',
    path: '/resolver/settings',
    summary: 'The resolver settings',
    actsOn: 'resolver settings (reads)',
    output: answer<ResolverSettingsView>(),
  },
  resolverSetSettings: {
    method: 'PATCH',
    path: '/resolver/settings',
    summary: 'Changes country code, expert mode or address-book fallback',
    actsOn: 'resolver settings',
    input: fields({
      countryCode: text(3).optional(),
      expertMode: flag().optional(),
      addressBookFallback: flag().optional(),
    }),
    output: answer<ResolverSettingsView>(),
  },
  resolverProviders: {
    method: 'GET',
    path: '/resolver/providers',
    summary: 'The search providers, secrets as ***',
    actsOn: 'resolver providers (reads)',
    output: answer<ResolverProvider[]>(),
  },
  resolverSetProviders: {
    method: 'PUT',
    path: '/resolver/providers',
    summary: 'Replaces the provider list (schemas/resolver-provider.schema.json); empties the cache',
    actsOn: 'resolver providers, the cache',
    input: checkedByEffect<ResolverProvider[]>(),
    output: answer<ResolverProvider[]>(),
  },
  resolverResolve: {
    method: 'POST',
    path: '/resolver/resolutions',
    summary: 'Runs a resolution and waits for its end',
    actsOn: 'caller ID, search log, cache',
    input: fields({
      number: text(64),
      trigger: oneOf(RESOLUTION_TRIGGERS).optional(),
      providerId: text(64).optional(),
    }),
    output: answer<ResolutionAnswer>(),
    // A resolution may take a slow provider's whole timeout, on top of the request.
    waitMs: 20_000,
  },
  resolverCallerId: {
    method: 'GET',
    path: '/resolver/caller-id',
    summary: 'The caller-ID result of the last call (null before any)',
    actsOn: 'caller ID (reads)',
    output: answer<CallerIdResult | null>(),
  },
  resolverSearchLog: {
    method: 'GET',
    path: '/resolver/search-log',
    summary: 'Search-log lines after seq `since`; `expert` adds expert lines',
    actsOn: 'search log (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional(), expert: flag().optional() }),
    query: ['since', 'expert'],
    output: answer<SearchLogEntry[]>(),
  },
  resolverAddressBook: {
    method: 'GET',
    path: '/resolver/address-book',
    summary: 'The address book',
    actsOn: 'address book (reads)',
    output: answer<AddressBookEntry[]>(),
  },
  resolverSetAddressBook: {
    method: 'PUT',
    path: '/resolver/address-book',
    summary: 'Replaces the address book (at most 10000 entries)',
    actsOn: 'address book',
    input: checkedByEffect<AddressBookEntry[]>(),
    output: answer<AddressBookEntry[]>(),
  },
  resolverClearCache: {
    method: 'DELETE',
    path: '/resolver/cache',
    summary: 'Empties the cache of successful queries',
    actsOn: 'the cache',
  },
});
