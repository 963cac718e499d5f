import { z } from 'zod';
import { fields, flag, integer, named, oneOf, shaped, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type {
  AddressBookEntry as AddressBookEntryView,
  CallerIdResult as CallerIdResultView,
  ResolvedName,
  SearchLogEntry as SearchLogEntryView,
} from '../state/resolver-state.ts';
import type { ResolutionTrigger } from './resolve-number.ts';
import {
  AddressBookEntry,
  AddressBookEntryInput,
  CallerIdResult,
  Provider,
  Resolution,
  ResolverSettings,
  SearchLogEntry,
} from './resolver-schemas.ts';

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
    tag: 'resolver',
    description:
      'Country code of the telephone system, expert mode of the search log, and whether the address book serves as fallback.',
    answers: 'The settings.',
    actsOn: 'resolver settings (reads)',
    output: shaped<ResolverSettingsView>(ResolverSettings),
  },
  resolverSetSettings: {
    method: 'PATCH',
    path: '/resolver/settings',
    summary: 'Changes country code, expert mode or address-book fallback',
    tag: 'resolver',
    description:
      'Changes the fields present and answers the settings after the change. A country code is 1 to 3 digits without a leading zero (RESOLVER-FMT-COUNTRY-CODE); expert mode makes the search log show its expert lines (redirects, the encoded URI; RESOLVER-DIAG-LOG-EXPERT).',
    answers: 'The settings after the change.',
    actsOn: 'resolver settings',
    input: named(
      'ResolverSettingsChange',
      fields({
        countryCode: text(3)
          .regex(/^[1-9][0-9]{0,2}$/, { error: 'must be 1 to 3 digits without a leading zero' })
          .optional(),
        expertMode: flag().optional(),
        addressBookFallback: flag().optional(),
      }).describe('The settings to change; absent fields stay.'),
    ),
    output: shaped<ResolverSettingsView>(ResolverSettings),
  },
  resolverProviders: {
    method: 'GET',
    path: '/resolver/providers',
    summary: 'The search providers, secrets as ***',
    tag: 'resolver',
    description:
      'The provider list in its order. Values of secret fields (`password`, `securityToken` and fields marked `secret`) read `***`, so a list read here and put back unchanged replaces the secrets by `***`.',
    answers: 'The providers, secrets masked.',
    actsOn: 'resolver providers (reads)',
    output: z.array(Provider),
  },
  resolverSetProviders: {
    method: 'PUT',
    path: '/resolver/providers',
    summary: 'Replaces the provider list (schemas/resolver-provider.schema.json); empties the cache',
    tag: 'resolver',
    description:
      'Replaces the whole list (at most 64 providers, ids unique), each checked against resolver-provider.schema.json; the first problem is a 400 and nothing changes. Enabled providers are asked in list order. Setting the list empties the resolution cache.',
    answers: 'The providers as stored, secrets masked.',
    actsOn: 'resolver providers, the cache',
    input: z.array(Provider, { error: 'must be an array' }).max(64),
    output: z.array(Provider),
  },
  resolverResolve: {
    method: 'POST',
    path: '/resolver/resolutions',
    summary: 'Runs a resolution and waits for its end',
    tag: 'resolver',
    description:
      'Runs one resolution and answers when it has ended, as the PBX does for an incoming call (`call`, the default: also sets the caller-ID result), for the UI integration (`ui-integration`) or for the settings test of one provider (`settings-test` with `providerId`: that provider only, no cache, no address book, nothing saved; RESOLVER-DIAG-TEST-ONE-PROVIDER). `providerId` is read for the settings test only. The answer can take as long as the providers do (each lookup is limited to 10 s). Its search-log lines also go to `GET /resolver/search-log`; its `log` holds them all, expert lines included, with `seq` counted within this resolution.',
    answers:
      "The resolution. `state` is the outcome for the caller (`not-resolvable` when the number cannot be resolved, e.g. `anonymous`: then nothing is sent); `attempts` says what each provider gave, with the index variables and the timing against the provider's timeout.",
    refusals: { 404: '`settings-test` names no provider of the list.' },
    actsOn: 'caller ID, search log, cache',
    input: named(
      'ResolutionRequest',
      fields({
        number: text(64).describe('The number as the call delivers it, any notation.'),
        trigger: oneOf(RESOLUTION_TRIGGERS).optional().meta({ default: 'call' }),
        providerId: text(64).optional().describe('The provider of a settings test.'),
      }).meta({
        // A settings test names its provider; the effect refuses one without (400).
        if: { required: ['trigger'], properties: { trigger: { const: 'settings-test' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
        then: { required: ['providerId'] },
      }),
    ),
    output: shaped<ResolutionAnswer>(Resolution),
    // A resolution may take a slow provider's whole timeout, on top of the request.
    waitMs: 20_000,
  },
  resolverCallerId: {
    method: 'GET',
    path: '/resolver/caller-id',
    summary: 'The caller-ID result of the last call (null before any)',
    tag: 'resolver',
    description:
      'What the caller-ID display shows for the last resolution with trigger `call` (RESOLVER-CALLER-NAME); `null` before any, and after a reset. Settings tests and the UI integration leave it alone.',
    answers: "The last call's result, or null.",
    actsOn: 'caller ID (reads)',
    output: shaped<CallerIdResultView | null>(CallerIdResult.nullable()),
  },
  resolverSearchLog: {
    method: 'GET',
    path: '/resolver/search-log',
    summary: 'Search-log lines after seq `since`; `expert` adds expert lines',
    tag: 'resolver',
    description:
      'The search-requests tab (RESOLVER-DIAG-LOG): lines of every resolution, oldest first, the newest 2000 kept. Secrets are masked as `***`. Expert lines are included when expert mode is on, or when `expert=true` asks for them.',
    answers: 'Log lines.',
    actsOn: 'search log (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional(), expert: flag().optional() }),
    query: ['since', 'expert'],
    output: shaped<SearchLogEntryView[]>(z.array(SearchLogEntry)),
  },
  resolverAddressBook: {
    method: 'GET',
    path: '/resolver/address-book',
    summary: 'The address book',
    tag: 'resolver',
    description:
      'The entries the resolver reads as fallback (RESOLVER-NO-RESULT-ADDRESS-BOOK) and writes when a provider saves its results (RESOLVER-SAVE-TO-ADDRESS-BOOK; `source` is the provider id).',
    answers: 'The address book.',
    actsOn: 'address book (reads)',
    output: shaped<AddressBookEntryView[]>(z.array(AddressBookEntry)),
  },
  resolverSetAddressBook: {
    method: 'PUT',
    path: '/resolver/address-book',
    summary: 'Replaces the address book (at most 10000 entries)',
    tag: 'resolver',
    description:
      "Replaces the whole address book (at most 10000 entries). A fallback lookup compares the number as given with the canonical `+xx` form of the caller's number, so write numbers as `+<country code><number>`. Missing names are empty; `source` defaults to `manual`.",
    answers: 'The address book as stored.',
    actsOn: 'address book',
    input: shaped<AddressBookEntryView[], unknown>(
      z.array(AddressBookEntryInput, { error: 'must be an array' }).max(10_000),
    ),
    output: shaped<AddressBookEntryView[]>(z.array(AddressBookEntry)),
  },
  resolverClearCache: {
    method: 'DELETE',
    path: '/resolver/cache',
    summary: 'Empties the cache of successful queries',
    tag: 'resolver',
    description:
      'Drops every cached result (RESOLVER-UNSPEC-CACHE: one hour on the virtual clock, keyed by provider configuration and number), so the next resolution asks the providers again.',
    answers: 'The cache is empty.',
    actsOn: 'the cache',
  },
});
