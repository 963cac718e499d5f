import { request } from 'undici';
import { ControlPlaneError } from '../../../simulators/pbx/index.ts';
import type {
  AddressBookEntry,
  CallerIdResult,
  ResolutionAnswer,
  ResolutionTrigger,
  ResolverControl,
  ResolverProvider,
  ResolverSettingsView,
  SearchLogEntry,
} from './resolver-control.ts';

/** Real-time limit of one control request; a resolution may take a slow endpoint's time on top. */
const CONTROL_TIMEOUT_MS = 30_000;

/**
 * The resolver routes of a PBX control plane over HTTP (`/resolver/*` below the control URL).
 * A non-2xx answer throws `ControlPlaneError` with the server's message: a harness error, never a
 * verdict.
 */
export class HttpResolverControl implements ResolverControl {
  private readonly base: string;

  /** `token`: the control plane's bearer token, when it requires one (beyond loopback). */
  constructor(
    controlUrl: string,
    private readonly token?: string,
  ) {
    this.base = controlUrl.replace(/\/+$/, '');
  }

  settings(): Promise<ResolverSettingsView> {
    return this.call('GET', '/resolver/settings');
  }

  setSettings(change: Partial<ResolverSettingsView>): Promise<ResolverSettingsView> {
    return this.call('PATCH', '/resolver/settings', change);
  }

  async setProviders(providers: ResolverProvider[]): Promise<void> {
    await this.call('PUT', '/resolver/providers', providers);
  }

  resolve(number: string, trigger: ResolutionTrigger, providerId?: string): Promise<ResolutionAnswer> {
    return this.call('POST', '/resolver/resolutions', {
      number,
      trigger,
      ...(providerId === undefined ? {} : { providerId }),
    });
  }

  callerId(): Promise<CallerIdResult | null> {
    return this.call('GET', '/resolver/caller-id');
  }

  searchLog(since = 0): Promise<SearchLogEntry[]> {
    return this.call('GET', `/resolver/search-log?since=${since}`);
  }

  addressBook(): Promise<AddressBookEntry[]> {
    return this.call('GET', '/resolver/address-book');
  }

  async setAddressBook(entries: AddressBookEntry[]): Promise<void> {
    await this.call('PUT', '/resolver/address-book', entries);
  }

  async clearCache(): Promise<void> {
    await this.call('DELETE', '/resolver/cache');
  }

  private async call<T>(
    method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const operation = `${method} ${path}`;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${this.base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: CONTROL_TIMEOUT_MS,
        bodyTimeout: CONTROL_TIMEOUT_MS,
        signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ControlPlaneError(
        operation,
        0,
        'unreachable',
        `no answer from ${this.base}: ${(error as Error).message}`,
      );
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) {
      let code = 'unknown';
      let message = text.replace(/\s+/g, ' ').slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { error?: string; message?: string };
        code = parsed.error ?? code;
        message = parsed.message ?? message;
      } catch {
        // Not the control plane's JSON error body: keep the text.
      }
      throw new ControlPlaneError(operation, response.statusCode, code, message);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}
