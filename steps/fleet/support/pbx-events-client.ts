/** Real-time limit of one control-plane request, so a stuck PBX never hangs the harness. */
const REQUEST_TIMEOUT_MS = 10_000;

/** How long the harness waits for a PBX to deliver its attention events (real time). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** An attention event as the PBX control plane raises it (EVENT-UNSPEC-ATTENTIONEVENT-FIELDS). */
export interface RaisedEvent {
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';
}

/** What the forwarder reports about itself (`GET /events/forwarder`); used for evidence only. */
export interface ForwarderStatus {
  link: string;
  siteId: string | null;
  stats: Record<string, number>;
}

/** A PBX control-plane call that failed: a harness error, never a verdict. */
export class PbxEventsError extends Error {
  override name = 'PbxEventsError';
}

/**
 * The attention-event routes of a PBX control plane (`/events/*`, documented under the tag
 * `pbx-events` in schemas/fleet-control.openapi.yaml): raise an event as a module would, release
 * or withdraw the partner, cut and restore the link to the controller, and wait until everything
 * raised has been delivered.
 */
export class PbxEventsClient {
  private readonly base: string;

  /** `token`: the control plane's bearer token, when it requires one (beyond loopback). */
  constructor(
    baseUrl: string,
    private readonly token?: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private headers(json: boolean): Record<string, string> {
    return {
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
    };
  }

  /** Raises one event; returns the PBX's own outcome word (evidence only, never asserted). */
  async raise(event: RaisedEvent): Promise<string> {
    const body = (await this.call('POST', '/events/attention', event)) as { outcome?: unknown };
    return String(body?.outcome ?? '');
  }

  async setPartnerReleased(released: boolean): Promise<void> {
    await this.call('PUT', '/events/partner', { released });
  }

  async cutLink(): Promise<void> {
    await this.call('POST', '/events/link/cut');
  }

  async restoreLink(): Promise<void> {
    await this.call('POST', '/events/link/restore');
  }

  async status(): Promise<ForwarderStatus> {
    return (await this.call('GET', '/events/forwarder')) as ForwarderStatus;
  }

  /**
   * Waits (real time) until the link is up and nothing waits to be delivered. Resolves `false`
   * when that does not happen within `timeoutMs`.
   */
  async waitDelivered(timeoutMs = DELIVERY_TIMEOUT_MS): Promise<boolean> {
    const res = await fetch(`${this.base}/events/wait-delivered`, {
      method: 'POST',
      headers: this.headers(true),
      body: JSON.stringify({ timeoutMs }),
      signal: AbortSignal.timeout(timeoutMs + REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    if (res.status === 200) return true;
    if (res.status === 504) return false;
    throw new PbxEventsError(`POST /events/wait-delivered: unexpected status ${res.status}`);
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = {
      method,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: this.headers(body !== undefined),
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${this.base}${path}`, init);
    const text = await res.text();
    if (!res.ok) throw new PbxEventsError(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text === '' ? undefined : JSON.parse(text);
  }
}
