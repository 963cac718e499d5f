import { request } from 'undici';
import type { ControlMethod } from '../../shared/http/control-route.ts';
import type { FaultName, ModuleLogEntry } from '../state/store.ts';
import type { SnapshotFormat } from '../state/types.ts';
import type {
  EndpointStatus,
  MonitoringHostEntry,
  PbxControl,
  PbxUserInput,
  ScenarioInfo,
} from './control-api.ts';
import { ControlPlaneError } from './control-plane-error.ts';
import type { PublicPbxState } from './public-state.ts';

/** Real-time limit per request, so a dead or stuck control plane never hangs the harness. */
export const CONTROL_REQUEST_TIMEOUT_MS = 10_000;

/** Longest error text taken from a server that does not answer with the JSON error body. */
const MAX_ERROR_TEXT = 300;

/**
 * The control plane over HTTP (schemas/pbx-control.openapi.yaml), for steps and any process that
 * does not hold the simulator in memory. A non-2xx answer throws `ControlPlaneError` carrying the
 * server's message; every request has a real-time timeout (`CONTROL_REQUEST_TIMEOUT_MS`).
 */
export class HttpPbxControl implements PbxControl {
  private readonly base: string;

  /** `token`: the control plane's bearer token, when it requires one (a control plane beyond loopback). */
  constructor(
    baseUrl: string,
    private readonly timeoutMs = CONTROL_REQUEST_TIMEOUT_MS,
    private readonly token?: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** Users carry `login` and `admin` only: `GET /state` never shows password hashes. */
  getState(): Promise<PublicPbxState> {
    return this.call<PublicPbxState>('GET', '/state');
  }

  async patchState(overlay: unknown): Promise<void> {
    await this.call('PATCH', '/state', overlay);
  }

  listScenarios(): Promise<ScenarioInfo[]> {
    return this.call<ScenarioInfo[]>('GET', '/scenarios');
  }

  async loadScenario(name: string): Promise<void> {
    await this.call('PUT', '/scenario', { name });
  }

  async setTile(on: boolean): Promise<void> {
    await this.call('PUT', '/monitoring/tile', { on });
  }

  async setLicence(valid: boolean): Promise<void> {
    await this.call('PUT', '/licence', { valid });
  }

  async setMonitoringHosts(hosts: MonitoringHostEntry[]): Promise<void> {
    await this.call('PUT', '/monitoring/hosts', hosts);
  }

  async setUsers(users: PbxUserInput[]): Promise<void> {
    await this.call('PUT', '/users', users);
  }

  async setInstanceName(name: string): Promise<void> {
    await this.call('PUT', '/monitoring/instance', { name });
  }

  async setDefaultFormat(format: SnapshotFormat): Promise<void> {
    await this.call('PUT', '/monitoring/default-format', { format });
  }

  async setCacheLifetime(ms: number): Promise<void> {
    await this.call('PUT', '/monitoring/cache-lifetime', { ms });
  }

  setMonitoringPort(port: number): Promise<EndpointStatus> {
    return this.call<EndpointStatus>('PUT', '/monitoring/port', { port });
  }

  restartEndpoint(): Promise<EndpointStatus> {
    return this.call<EndpointStatus>('POST', '/monitoring/restart');
  }

  endpointStatus(): Promise<EndpointStatus> {
    return this.call<EndpointStatus>('GET', '/monitoring/status');
  }

  async injectFault(name: FaultName): Promise<void> {
    await this.call('POST', '/faults', { name });
  }

  async clearFault(name?: FaultName): Promise<void> {
    await this.call('DELETE', name === undefined ? '/faults' : `/faults/${encodeURIComponent(name)}`);
  }

  async activeFaults(): Promise<FaultName[]> {
    return (await this.call<{ active: FaultName[] }>('GET', '/faults')).active;
  }

  warnings(): Promise<string[]> {
    return this.call<string[]>('GET', '/warnings');
  }

  moduleLog(sinceSeq?: number): Promise<ModuleLogEntry[]> {
    const query = sinceSeq === undefined ? '' : `?since=${encodeURIComponent(String(sinceSeq))}`;
    return this.call<ModuleLogEntry[]>('GET', `/module-log${query}`);
  }

  async advanceClock(ms: number): Promise<number> {
    return (await this.call<{ now: number }>('POST', '/clock/advance', { ms })).now;
  }

  async now(): Promise<number> {
    return (await this.call<{ now: number }>('GET', '/clock')).now;
  }

  async invalidateSnapshot(): Promise<void> {
    await this.call('POST', '/snapshot/invalidate');
  }

  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  private async call<T = undefined>(method: ControlMethod, path: string, body?: unknown): Promise<T> {
    const operation = `${method} ${path}`;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${this.base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
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
      const { code, message } = describeError(text);
      throw new ControlPlaneError(operation, response.statusCode, code, message);
    }
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ControlPlaneError(operation, response.statusCode, 'bad_response', 'the answer is not JSON');
    }
  }
}

function describeError(text: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === 'string') {
      return {
        code: parsed.error,
        message: typeof parsed.message === 'string' ? parsed.message : parsed.error,
      };
    }
  } catch {
    // Not the control plane's JSON error body (a proxy, another server): show the text itself.
  }
  const line = text.replace(/\s+/g, ' ').trim().slice(0, MAX_ERROR_TEXT);
  return { code: 'unknown', message: line || 'no error text' };
}
