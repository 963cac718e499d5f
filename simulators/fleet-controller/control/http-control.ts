import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { IngestStats, Level, SiteRight } from '../model/types.ts';
import type {
  AccountInfo,
  AccountInput,
  AccountPatch,
  FleetControl,
  InjectedEvent,
  InjectResult,
  ItemInfo,
  LinkStatus,
  PbxRegistration,
} from './fleet-control.ts';

/** A control-plane call that failed; carries the HTTP status and the `{error, message}` body. */
export class FleetControlError extends Error {
  override name = 'FleetControlError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The control plane over HTTP (schemas/fleet-control.openapi.yaml), for steps and other processes. */
export class HttpFleetControl implements FleetControl {
  /** `token`: the control plane's bearer token, when it requires one (a control plane beyond loopback). */
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
    private readonly token?: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, signal: AbortSignal.timeout(this.timeoutMs) };
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    init.headers = headers;
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // keep the raw text
      }
      throw new FleetControlError(res.status, `${method} ${path}: ${res.status} ${message}`);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  reset(): Promise<void> {
    return this.call('POST', '/reset');
  }
  async now(): Promise<number> {
    return (await this.call<{ now: number }>('GET', '/clock')).now;
  }
  async advanceClock(ms: number): Promise<number> {
    return (await this.call<{ now: number }>('POST', '/clock/advance', { ms })).now;
  }
  addPartner(partner: { id: string; name: string }): Promise<void> {
    return this.call('POST', '/partners', partner);
  }
  addSite(site: { id: string; displayName: string }): Promise<void> {
    return this.call('POST', '/sites', site);
  }
  renameSite(siteId: string, displayName: string): Promise<void> {
    return this.call('PATCH', `/sites/${enc(siteId)}`, { displayName });
  }
  grant(right: SiteRight): Promise<void> {
    return this.call('PUT', '/rights', right);
  }
  revoke(partnerId: string, siteId: string): Promise<void> {
    return this.call('DELETE', `/rights/${enc(partnerId)}/${enc(siteId)}`);
  }
  addAccount(input: AccountInput): Promise<AccountInfo> {
    return this.call('POST', '/accounts', input);
  }
  updateAccount(id: string, patch: AccountPatch): Promise<AccountInfo> {
    return this.call('PATCH', `/accounts/${enc(id)}`, patch);
  }
  issueToken(input: {
    accountId: string;
    level: Level;
    label?: string;
  }): Promise<{ id: string; token: string }> {
    return this.call('POST', '/tokens', input);
  }
  revokeToken(id: string): Promise<void> {
    return this.call('DELETE', `/tokens/${enc(id)}`);
  }
  registerPbx(siteId: string, key?: string): Promise<PbxRegistration> {
    return this.call('POST', `/sites/${enc(siteId)}/pbx`, key === undefined ? {} : { key });
  }
  setInventory(siteId: string, inventory: PbxInventory | null): Promise<void> {
    return this.call('PUT', `/sites/${enc(siteId)}/inventory`, inventory);
  }
  injectEvent(siteId: string, event: InjectedEvent): Promise<InjectResult> {
    return this.call('POST', `/sites/${enc(siteId)}/events`, event);
  }
  cutLink(siteId: string): Promise<void> {
    return this.call('POST', `/sites/${enc(siteId)}/link/cut`);
  }
  restoreLink(siteId: string): Promise<void> {
    return this.call('POST', `/sites/${enc(siteId)}/link/restore`);
  }
  linkStatus(siteId: string): Promise<LinkStatus> {
    return this.call('GET', `/sites/${enc(siteId)}/link`);
  }
  items(siteId: string): Promise<ItemInfo[]> {
    return this.call('GET', `/sites/${enc(siteId)}/items`);
  }
  stats(): Promise<IngestStats> {
    return this.call('GET', '/stats');
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
