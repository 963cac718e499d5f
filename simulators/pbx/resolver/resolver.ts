import type { Clock } from '../../shared/clock.ts';
import { maskProvider, type ResolverProvider } from '../state/provider-config.ts';
import {
  type AddressBookEntry,
  type CallerIdResult,
  MAX_ADDRESS_BOOK_ENTRIES,
  MAX_SEARCH_LOG_ENTRIES,
  type SearchLogEntry,
} from '../state/resolver-state.ts';
import type { PbxStore } from '../state/store.ts';
import { isCountryCode } from './number-format.ts';
import { ProviderConfigError, validateProviders } from './provider-validation.ts';
import { ResolutionCache } from './resolution-cache.ts';
import { type ResolutionResult, type ResolutionTrigger, resolveNumber } from './resolve-number.ts';
import type { ResolverLimits } from './resolver-limits.ts';

export interface ResolverOptions {
  /** PEM certificates the simulated PBX runtime trusts besides Node's roots (RESOLVER-TLS-TRUST-STORE). */
  trustedCa?: readonly string[];
  /** Lower limits for tests (resolver-limits.ts). */
  limits?: Partial<ResolverLimits>;
  /**
   * The monotonic clock lookups are timed on (RESOLVER-TIMEOUT-WARNING); default real time. The
   * simulator passes the PBX's duration clock (index.ts, `durationClock`), which a harness in the
   * same process may share with its reference endpoints so their delays pass without sleeping.
   */
  durationClock?: Clock;
}

export interface ResolverSettings {
  countryCode: string;
  expertMode: boolean;
  addressBookFallback: boolean;
}

/**
 * The web resolver of one simulated PBX, owned by the composition root. It reads country code,
 * providers, address book and settings from the shared state and writes back what a resolution
 * leaves: search-log lines (RESOLVER-DIAG-LOG), the caller-ID result of a call
 * (RESOLVER-CALLER-NAME) and address-book entries (RESOLVER-SAVE-TO-ADDRESS-BOOK). The cache lives
 * here, tied to the provider list: setting providers or replacing the state (reset, scenario,
 * `PATCH /state`) empties it.
 */
export class Resolver {
  private caches = new WeakMap<object, ResolutionCache>();
  private resolutionCounter = 0;
  private logSeq = 0;

  constructor(
    private readonly store: PbxStore,
    private readonly options: ResolverOptions = {},
  ) {}

  settings(): ResolverSettings {
    const { countryCode, expertMode, addressBookFallback } = this.store.read().resolver;
    return { countryCode, expertMode, addressBookFallback };
  }

  /** Changes settings; throws `ProviderConfigError` for an invalid country code. */
  setSettings(change: Partial<ResolverSettings>): ResolverSettings {
    if (change.countryCode !== undefined && !isCountryCode(change.countryCode))
      throw new ProviderConfigError(
        `countryCode must be 1 to 3 digits without a leading zero, got ${JSON.stringify(change.countryCode)}`,
      );
    this.store.update((state) => {
      if (change.countryCode !== undefined) state.resolver.countryCode = change.countryCode;
      if (change.expertMode !== undefined) state.resolver.expertMode = change.expertMode;
      if (change.addressBookFallback !== undefined)
        state.resolver.addressBookFallback = change.addressBookFallback;
    });
    return this.settings();
  }

  /** Replaces the provider list (validated against schemas/resolver-provider.schema.json). */
  setProviders(value: unknown): ResolverProvider[] {
    const providers = structuredClone(validateProviders(value));
    this.store.update((state) => {
      state.resolver.providers = providers;
    });
    return this.providers();
  }

  /** The providers with secret values masked. */
  providers(): ResolverProvider[] {
    return this.store.read().resolver.providers.map((p) => maskProvider(p));
  }

  addressBook(): AddressBookEntry[] {
    return structuredClone(this.store.read().resolver.addressBook);
  }

  setAddressBook(entries: AddressBookEntry[]): void {
    this.store.update((state) => {
      state.resolver.addressBook = structuredClone(entries).slice(0, MAX_ADDRESS_BOOK_ENTRIES);
    });
  }

  callerId(): CallerIdResult | null {
    return structuredClone(this.store.read().resolver.callerId);
  }

  /** Search-log lines after `sinceSeq`; expert lines only in expert mode (or when asked). */
  searchLog(sinceSeq = 0, expert?: boolean): SearchLogEntry[] {
    const state = this.store.read().resolver;
    const showExpert = expert ?? state.expertMode;
    return structuredClone(state.searchLog.filter((e) => e.seq > sinceSeq && (showExpert || !e.expert)));
  }

  clearCache(): void {
    this.caches = new WeakMap();
  }

  /** Resolves a number for an incoming call or the UI integration. */
  resolve(
    number: string,
    trigger: Exclude<ResolutionTrigger, 'settings-test'> = 'call',
  ): Promise<ResolutionResult> {
    return this.run(number, trigger);
  }

  /** The settings test: one provider, no cache, no address book (RESOLVER-DIAG-TEST-ONE-PROVIDER). */
  testProvider(providerId: string, number: string): Promise<ResolutionResult> {
    return this.run(number, 'settings-test', providerId);
  }

  private cacheFor(providers: object): ResolutionCache {
    let cache = this.caches.get(providers);
    if (!cache) {
      cache = new ResolutionCache();
      this.caches.set(providers, cache);
    }
    return cache;
  }

  private async run(
    number: string,
    trigger: ResolutionTrigger,
    providerId?: string,
  ): Promise<ResolutionResult> {
    const state = this.store.read().resolver;
    const resolution = ++this.resolutionCounter;
    const result = await resolveNumber(
      {
        countryCode: state.countryCode,
        providers: structuredClone(state.providers),
        addressBook: state.addressBook,
        addressBookFallback: state.addressBookFallback,
      },
      number,
      {
        trigger,
        providerId,
        cache: this.cacheFor(state.providers),
        limits: this.options.limits,
        trustedCa: this.options.trustedCa,
        ...(this.options.durationClock ? { durationClock: this.options.durationClock } : {}),
        now: () => this.store.clock.now(),
        resolution,
      },
    );
    this.store.update((current) => {
      const resolver = current.resolver;
      for (const entry of result.log) resolver.searchLog.push({ ...entry, seq: ++this.logSeq });
      // `shift` (V8 trims the front in place) rather than `splice`, which moved the whole full
      // log on every lookup (issue 31 §3: 2.6 % of a lookup's busy time).
      while (resolver.searchLog.length > MAX_SEARCH_LOG_ENTRIES) resolver.searchLog.shift();
      for (const entry of result.toSave) {
        const index = resolver.addressBook.findIndex((e) => e.number === entry.number);
        if (index >= 0) resolver.addressBook[index] = entry;
        else resolver.addressBook.push(entry);
      }
      if (resolver.addressBook.length > MAX_ADDRESS_BOOK_ENTRIES)
        resolver.addressBook.splice(0, resolver.addressBook.length - MAX_ADDRESS_BOOK_ENTRIES);
      if (trigger === 'call') {
        resolver.callerId = {
          number: result.canonical ?? number,
          state: result.state,
          name: result.name,
          source: result.source,
          uiValues: result.uiValues,
          resolution,
          at: this.store.clock.now(),
        };
      }
    });
    const level = result.state === 'resolved' ? 'info' : 'warning';
    this.store.log(
      level,
      'resolver',
      `resolution ${resolution} of ${result.canonical ?? 'an unresolvable number'}: ${result.state}`,
      {
        trigger,
        source: result.source,
      },
    );
    return result;
  }
}
