import { type Clock, durationClock } from '../../shared/clock.ts';
import { normaliseProvider, providerSecrets, type ResolverProvider } from '../state/provider-config.ts';
import type { AddressBookEntry, ResolvedName, SearchLogEntry } from '../state/resolver-state.ts';
import { displayName } from './field-mappings.ts';
import { formatNumber, parseNumber } from './number-format.ts';
import { type ProviderOutcome, queryProvider } from './query-provider.ts';
import { ResolutionCache } from './resolution-cache.ts';
import { type ResolverLimits, resolveLimits } from './resolver-limits.ts';
import { SearchLogger } from './search-logger.ts';
import { SecretMasker } from './secret-mask.ts';

/**
 * Why a resolution runs (web-resolver.md, "What the service does"): an incoming call
 * (RESOLVER-TRIGGER-RESOLUTION), the settings test of one provider (RESOLVER-TRIGGER-SETTINGS-TEST,
 * RESOLVER-DIAG-TEST-ONE-PROVIDER) or a query of the UI integration (RESOLVER-TRIGGER-UI-INTEGRATION).
 */
export type ResolutionTrigger = 'call' | 'settings-test' | 'ui-integration';

export type ResolutionState = 'resolved' | 'no-result' | 'failed' | 'not-resolvable';

/** What the resolver reads of the PBX state. */
export interface ResolverInput {
  countryCode: string;
  providers: readonly ResolverProvider[];
  addressBook: readonly AddressBookEntry[];
  addressBookFallback: boolean;
}

export interface ResolveOptions {
  trigger?: ResolutionTrigger;
  /** The provider of a settings test (required for `settings-test`). */
  providerId?: string;
  cache?: ResolutionCache;
  limits?: Partial<ResolverLimits>;
  trustedCa?: readonly string[];
  /** Virtual clock for log lines and the cache; default `Date.now`. */
  now?: () => number;
  /**
   * The monotonic clock each lookup is timed on (timeout warning, overall limit); default real
   * time. Not the clock of `now`: that one dates, this one measures (clock.ts, `durationClock`).
   */
  durationClock?: Clock;
  /** Number of this resolution in the search log. */
  resolution?: number;
  /** Count matches per parser up to this number (resolver-check). */
  countUpTo?: number;
}

export interface ResolutionResult {
  resolution: number;
  trigger: ResolutionTrigger;
  /** The number as it came in. */
  input: string;
  /** Canonical `+xx` form, or `null` when not resolvable. */
  canonical: string | null;
  state: ResolutionState;
  /** `provider:<id>`, `cache:<id>`, `address-book`, or `null`. */
  source: string | null;
  name: ResolvedName | null;
  uiValues: Record<string, string>;
  attempts: ProviderOutcome[];
  /** The search-log lines of this resolution (secrets masked). */
  log: SearchLogEntry[];
  /** Entries to save in the address book (RESOLVER-SAVE-TO-ADDRESS-BOOK). */
  toSave: AddressBookEntry[];
}

export class UnknownProviderError extends Error {
  constructor(id: string) {
    super(`no provider with id ${JSON.stringify(id)}`);
    this.name = 'UnknownProviderError';
  }
}

/** A stable fingerprint of a provider's configuration, for the cache key. */
function fingerprint(provider: ResolverProvider): string {
  return JSON.stringify(provider, Object.keys(provider).sort());
}

function fromAddressBook(book: readonly AddressBookEntry[], canonical: string): AddressBookEntry | undefined {
  return book.find((e) => e.number === canonical);
}

/**
 * Resolves one number as the PBX does (web-resolver.md, "States and transitions"): the enabled
 * providers in their order, each served from the cache when switched on and fresh; a resolved
 * answer ends the search; after no result — and, RESOLVER-UNSPEC-FAILURE-FALLBACK, also after a
 * failed lookup — the next provider is asked (RESOLVER-NO-RESULT-NEXT-PROVIDER), and at the end
 * the address book when the setting enables it (RESOLVER-NO-RESULT-ADDRESS-BOOK). A settings test
 * asks only its provider, bypasses the cache and saves nothing. Pure: it changes no state; the
 * `Resolver` applies `log`, `toSave` and the caller-ID result.
 */
export async function resolveNumber(
  input: ResolverInput,
  number: string,
  options: ResolveOptions = {},
): Promise<ResolutionResult> {
  const trigger = options.trigger ?? 'call';
  const now = options.now ?? Date.now;
  const limits = resolveLimits(options.limits);
  const resolution = options.resolution ?? 1;
  const log = new SearchLogger(resolution, now);
  const parsed = parseNumber(number, input.countryCode);
  const canonical = formatNumber(parsed, '+xx');
  const result: ResolutionResult = {
    resolution,
    trigger,
    input: number,
    canonical,
    state: 'no-result',
    source: null,
    name: null,
    uiValues: {},
    attempts: [],
    log: log.entries,
    toSave: [],
  };
  log.info('start', `resolution of ${JSON.stringify(number)} (${trigger})`, { trigger, input: number });
  if (parsed.kind === 'not-resolvable' || canonical === null) {
    result.state = 'not-resolvable';
    log.info(
      'result',
      `nothing to resolve: ${parsed.kind === 'not-resolvable' ? parsed.reason : 'no number'}`,
    );
    return result;
  }
  let providers: ResolverProvider[];
  if (trigger === 'settings-test') {
    const chosen = input.providers.find((p) => p.id === options.providerId);
    if (!chosen) throw new UnknownProviderError(options.providerId ?? '');
    providers = [chosen];
  } else providers = input.providers.filter((p) => p.enabled !== false);
  if (providers.length === 0) log.warn('fallback', 'no enabled provider');
  const useCache = trigger !== 'settings-test' && options.cache !== undefined;

  for (const raw of providers) {
    const provider = normaliseProvider(raw);
    const masker = new SecretMasker(providerSecrets(provider), {
      username: provider.fields['username']?.value ?? '',
      password: provider.fields['password']?.value ?? '',
    });
    log.forProvider(provider.id, masker);
    // The provider's fingerprint only when its cache is in use (issue 31 §3: a JSON text per query).
    const key = useCache && provider.cache ? ResolutionCache.key(fingerprint(raw), canonical) : '';
    const cached = useCache && provider.cache ? options.cache?.get(key, now()) : null;
    if (cached) {
      log.info('cache', `served from the cache: ${cached.name.displayName}`);
      result.attempts.push({
        provider: provider.id,
        state: 'resolved',
        number: formatNumber(parsed, provider.numberFormat) ?? canonical,
        url: null,
        status: null,
        reason: null,
        hint: null,
        name: cached.name,
        variables: cached.variables,
        uiValues: cached.uiValues,
        fromCache: true,
        evaluation: null,
        lookup: null,
      });
      Object.assign(result, {
        state: 'resolved',
        source: `cache:${provider.id}`,
        name: cached.name,
        uiValues: cached.uiValues,
      });
      break;
    }
    const outcome = await queryProvider(
      provider,
      parsed,
      {
        limits,
        trustedCa: options.trustedCa,
        countUpTo: options.countUpTo,
        durationClock: options.durationClock ?? durationClock(),
      },
      log,
    );
    result.attempts.push(masker.maskValue(outcome));
    if (outcome.state === 'resolved' && outcome.name) {
      Object.assign(result, {
        state: 'resolved',
        source: `provider:${provider.id}`,
        name: outcome.name,
        uiValues: outcome.uiValues,
      });
      if (useCache && provider.cache)
        options.cache?.set(
          key,
          { name: outcome.name, variables: outcome.variables, uiValues: outcome.uiValues },
          now(),
        );
      if (trigger !== 'settings-test' && provider.saveToAddressBook) {
        result.toSave.push({
          number: canonical,
          firstName: outcome.name.firstName,
          lastName: outcome.name.lastName,
          company: outcome.name.company,
          source: provider.id,
        });
        log.info('address-book', `saved to the address book as ${canonical}`);
      }
      break;
    }
  }
  log.forProvider(null, null);
  if (result.state !== 'resolved') {
    const entry =
      trigger !== 'settings-test' && input.addressBookFallback
        ? fromAddressBook(input.addressBook, canonical)
        : undefined;
    if (entry) {
      const name: ResolvedName = {
        firstName: entry.firstName,
        lastName: entry.lastName,
        company: entry.company,
        displayName: displayName(entry.firstName, entry.lastName, entry.company),
      };
      Object.assign(result, { state: 'resolved', source: 'address-book', name });
      log.info('fallback', `resolved from the address book: ${name.displayName}`);
    } else {
      const allFailed = result.attempts.length > 0 && result.attempts.every((a) => a.state === 'failed');
      result.state = allFailed ? 'failed' : 'no-result';
      if (trigger !== 'settings-test' && input.addressBookFallback)
        log.info('fallback', 'the address book has no entry for this number');
      log.info('result', allFailed ? 'no provider answered usably' : 'no provider resolved the number');
    }
  }
  return result;
}
