import type { ResolverProvider } from '../state/provider-config.ts';

/** Levels of search-log lines. */
export type SearchLogLevel = 'info' | 'warning' | 'error';

/**
 * Steps of a resolution as the search log names them (RESOLVER-DIAG-LOG). `redirect` and
 * `encoded-uri` lines are expert lines (RESOLVER-DIAG-LOG-EXPERT).
 */
export type SearchStep =
  | 'start'
  | 'number'
  | 'cache'
  | 'url'
  | 'encoded-uri'
  | 'request'
  | 'connect'
  | 'redirect'
  | 'auth'
  | 'response'
  | 'timeout'
  | 'body'
  | 'matcher'
  | 'parser'
  | 'result'
  | 'hint'
  | 'fallback'
  | 'address-book'
  | 'error';

/** One line of the search log (the search-requests tab). Secrets are masked before it is made. */
export interface SearchLogEntry {
  seq: number;
  /** Virtual-clock epoch ms. */
  at: number;
  /** Number of the resolution the line belongs to. */
  resolution: number;
  /** `null` for lines of the resolution as a whole (start, fallback, result). */
  provider: string | null;
  level: SearchLogLevel;
  step: SearchStep;
  message: string;
  /** Shown only in expert mode (redirects, the encoded URI). */
  expert: boolean;
  data?: Record<string, string | number | boolean | null>;
}

/** A name as the caller-ID display gets it (RESOLVER-CALLER-NAME). */
export interface ResolvedName {
  firstName: string;
  lastName: string;
  company: string;
  /** The composed display name (docs/resolver.md, "Display name"). */
  displayName: string;
}

/** An address-book entry; `number` is canonical (`+xx`). */
export interface AddressBookEntry extends Omit<ResolvedName, 'displayName'> {
  number: string;
  /** Which provider saved it, or `manual`. */
  source: string;
}

/** What the caller-ID display shows for the last resolution of an incoming call. */
export interface CallerIdResult {
  number: string;
  state: 'resolved' | 'no-result' | 'failed' | 'not-resolvable';
  name: ResolvedName | null;
  /** `provider:<id>`, `cache:<id>`, `address-book` or `null`. */
  source: string | null;
  /** Option-UI values by index variable (RESOLVER-EVAL-OPTION-UI). */
  uiValues: Record<string, string>;
  resolution: number;
  at: number;
}

/**
 * The web-resolver part of the PBX state (added for simulators/pbx/resolver/; docs/resolver.md).
 * The providers, the address book and the settings are configuration; the search log and the
 * caller-ID result are what resolutions leave behind, so a state reset empties them.
 */
export interface ResolverState {
  /** Country code of the telephone system, digits without `+` (RESOLVER-FMT-COUNTRY-CODE). */
  countryCode: string;
  /** Expert mode of the module UI: the search log also shows redirects and the encoded URI. */
  expertMode: boolean;
  /** Whether the address book serves as fallback when no provider resolves (RESOLVER-NO-RESULT-ADDRESS-BOOK). */
  addressBookFallback: boolean;
  providers: ResolverProvider[];
  addressBook: AddressBookEntry[];
  /** The newest `MAX_SEARCH_LOG_ENTRIES` lines. */
  searchLog: SearchLogEntry[];
  callerId: CallerIdResult | null;
}

/** Bound on kept search-log lines. */
export const MAX_SEARCH_LOG_ENTRIES = 2000;

/** Bound on address-book entries the resolver saves (oldest provider entries drop first). */
export const MAX_ADDRESS_BOOK_ENTRIES = 10_000;

export function defaultResolverState(): ResolverState {
  return {
    countryCode: '49',
    expertMode: false,
    addressBookFallback: true,
    providers: [],
    addressBook: [],
    searchLog: [],
    callerId: null,
  };
}
