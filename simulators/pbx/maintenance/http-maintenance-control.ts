import { request } from 'undici';
import type { ControlMethod } from '../../shared/http/control-route.ts';
import { ControlPlaneError } from '../control/control-plane-error.ts';
import type { CompletionEvent } from './completion-event.ts';
import type { MaintenanceControl, TokenCreateRequest } from './maintenance-control.ts';
import type { CreatedToken, StoredTokenView, TokenInfo } from './token-store.ts';

/** Real-time limit per request; above `MAX_IDLE_WAIT_MS` so `waitIdle` can finish. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * `MaintenanceControl` over the control plane's HTTP routes (`maintenanceControlRoutes`), for
 * steps that drive a simulator in another process. A non-2xx answer throws `ControlPlaneError`
 * with the server's status and code (`forbidden` for 403, `invalid_request`, `not_found`).
 */
export class HttpMaintenanceControl implements MaintenanceControl {
  private readonly base: string;

  /** `token`: the control plane's bearer token, when it requires one (beyond loopback). */
  constructor(
    controlUrl: string,
    private readonly token?: string,
  ) {
    this.base = controlUrl.replace(/\/+$/, '');
  }

  createToken(tokenRequest: TokenCreateRequest, actor: string): Promise<CreatedToken> {
    return this.call<CreatedToken>('POST', '/maintenance/tokens', { ...tokenRequest, actor });
  }

  listTokens(actor: string): Promise<TokenInfo[]> {
    return this.call<TokenInfo[]>('GET', `/maintenance/tokens?actor=${encodeURIComponent(actor)}`);
  }

  async deleteToken(id: string, actor: string): Promise<void> {
    await this.call(
      'DELETE',
      `/maintenance/tokens/${encodeURIComponent(id)}?actor=${encodeURIComponent(actor)}`,
    );
  }

  completionEvents(sinceSeq = 0): Promise<CompletionEvent[]> {
    return this.call<CompletionEvent[]>('GET', `/maintenance/events?since=${sinceSeq}`);
  }

  waitIdle(): Promise<{ pending: number }> {
    return this.call<{ pending: number }>('POST', '/maintenance/queue/wait-idle');
  }

  async storedTokenRecords(): Promise<StoredTokenView[]> {
    return this.call<StoredTokenView[]>('GET', '/maintenance/tokens/stored');
  }

  private async call<T = undefined>(method: ControlMethod, path: string, body?: unknown): Promise<T> {
    const operation = `${method} ${path.split('?')[0]}`;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${this.base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
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
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ControlPlaneError(operation, response.statusCode, 'bad_response', 'the answer is not JSON');
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      const error = parsed as { error?: unknown; message?: unknown } | undefined;
      throw new ControlPlaneError(
        operation,
        response.statusCode,
        typeof error?.error === 'string' ? error.error : 'unknown',
        typeof error?.message === 'string' ? error.message : text.slice(0, 300),
      );
    }
    return parsed as T;
  }
}
