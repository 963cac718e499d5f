import { request } from 'undici';
import type { EndpointBehaviour, EndpointConfig } from './endpoint-behaviour.ts';
import type { RecordedRequest } from './recorded-request.ts';
import {
  configToWire,
  parseWireConfig,
  recordFromWire,
  type WireConfig,
  type WireRecordedRequest,
} from './wire-config.ts';

/** Real-time limit of one control request (a wait gets its own timeout on top). */
const REQUEST_TIMEOUT_MS = 10_000;

/** A non-2xx answer of the control plane, with its error code and message. */
export class EndpointControlError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${operation}: ${status} ${code}: ${message}`);
    this.name = 'EndpointControlError';
  }
}

/**
 * The customer endpoint's control plane over HTTP (schemas/customer-endpoint-control.openapi.yaml),
 * for a process that does not hold the endpoint in memory, e.g. next to `pbx-conformance endpoint`.
 */
export class HttpEndpointControl {
  private readonly base: string;

  constructor(controlUrl: string) {
    this.base = controlUrl.replace(/\/+$/, '');
  }

  info(): Promise<{ base: string; control: string; certificate: string | null }> {
    return this.call('GET', '/info');
  }

  async config(): Promise<EndpointConfig> {
    return parseWireConfig(await this.call<WireConfig>('GET', '/config'));
  }

  async configure(config: EndpointConfig): Promise<void> {
    await this.call('PUT', '/config', configToWire(config));
  }

  async setRoute(path: string, behaviour: EndpointBehaviour): Promise<void> {
    await this.call('PUT', `/routes/${encodeURIComponent(path)}`, wireBehaviour(behaviour));
  }

  async deleteRoute(path: string): Promise<void> {
    await this.call('DELETE', `/routes/${encodeURIComponent(path)}`);
  }

  async setFallback(behaviour: EndpointBehaviour): Promise<void> {
    await this.call('PUT', '/fallback', wireBehaviour(behaviour));
  }

  async requests(since = 0): Promise<RecordedRequest[]> {
    return (await this.call<WireRecordedRequest[]>('GET', `/requests?since=${since}`)).map(recordFromWire);
  }

  async clearRequests(): Promise<void> {
    await this.call('DELETE', '/requests');
  }

  async waitForRequests(count: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    const records = await this.call<WireRecordedRequest[]>(
      'POST',
      '/requests/wait',
      { count, timeoutMs },
      timeoutMs + REQUEST_TIMEOUT_MS,
    );
    return records.map(recordFromWire);
  }

  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  private async call<T = undefined>(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<T> {
    const operation = `${method} ${path}`;
    const response = await request(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) {
      let code = 'unknown';
      let message = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { error?: string; message?: string };
        code = parsed.error ?? code;
        message = parsed.message ?? message;
      } catch {
        // Not the control plane's error body; keep the text.
      }
      throw new EndpointControlError(operation, response.statusCode, code, message);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}

function wireBehaviour(behaviour: EndpointBehaviour): unknown {
  return configToWire({ fallback: behaviour }).fallback;
}
