import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FleetControl } from '../../../simulators/fleet-controller/index.ts';
import type { WorldPort } from '../../support/world-port.ts';
import { openEmbeddedFleet } from './embedded-fleet.ts';
import { notVerifiable } from './fleet-not-verifiable.ts';
import { type FleetResponse, type RestAuth, restEvidence, restExchange } from './fleet-rest.ts';
import { fleetSchemaErrors } from './fleet-schemas.ts';
import type {
  FleetAccount,
  FleetRole,
  FleetTarget,
  McpTokenRole,
  PbxPlane,
  SiteRole,
} from './fleet-target.ts';
import { deliveredInTime, type RaisedEvent } from './pbx-events.ts';
import { type FleetTargetSection, openRemoteFleet } from './remote-fleet.ts';

/** `/api/v1` (FLEET-BASE-PATH). */
export const API_BASE = '/api/v1';

/** Two minutes: the forwarding rate after the burst (EVENT-THROTTLE-RATE). */
export const THROTTLE_INTERVAL_MS = 120_000;
/** The burst a fresh module may send at once (EVENT-THROTTLE-BURST). */
export const THROTTLE_BURST = 5;

/** An attention item as the site list shows it (schemas/fleet/attention-item.schema.json). */
export interface ItemView {
  id: number;
  module: string;
  moduleId?: string;
  subject: string;
  description?: string | null;
  severity: string;
  firstAt: number;
  lastAt: number;
  occurrences: number;
  suppressed: number;
  [field: string]: unknown;
}

/** A site list entry (schemas/fleet/site-list.schema.json). */
export interface SiteView {
  id: string;
  displayName: string;
  attention: string[];
  attentionEvents?: ItemView[];
  [field: string]: unknown;
}

/** A module message a scenario raised, under the label (the subject as the scenario writes it). */
export interface SentMessage extends RaisedEvent {
  label: string;
  siteId: string;
  /** The item id, once a caller's site list showed it. */
  id?: number;
  /** PBX clock just before each report the scenario raised (when the site has a PBX). */
  reportedAt: number[];
  /**
   * The PBX clock read just before and just after each report was raised: one instant on a frozen
   * clock, a short span on a running one (`simulate --clock running`), where the report's own
   * time lies somewhere inside.
   */
  reportedWithin: [number, number][];
  /** The item as a site list last showed it. */
  shown?: ItemView;
}

/** Who sends a REST request. */
export type Caller =
  | FleetRole
  | { kind: 'none' }
  | { kind: 'basic'; email: string; password: string; who: string };

export interface RestOptions {
  headers?: Record<string, string>;
  body?: string;
  /** Attach the exchange as evidence (default true; property runs attach only their summary). */
  evidence?: boolean;
}

export interface RaiseOptions {
  /** Wait (real time) until the PBX has delivered it (default true). */
  wait?: boolean;
  /**
   * Let the PBX clock pass two minutes first when this module already used its burst in this
   * scenario, so the report is not withheld (for scenarios about the controller, not throttling).
   */
  unthrottled?: boolean;
}

/**
 * The fleet side of one scenario: the controller under test (opened on first use, closed in
 * steps/fleet/hooks.ts), the last REST answer, the messages the scenario raised and values kept
 * between steps. Steps reach the controller only through this.
 */
export class FleetContext {
  /** Makes module names unique per scenario, so items and throttles of earlier runs never mix in. */
  readonly tag = randomBytes(3).toString('hex');
  /** The last REST answer. */
  last: FleetResponse | undefined;
  readonly messages = new Map<string, SentMessage>();
  /** Values kept between steps: ETags, acknowledge results, comments. */
  readonly kept = new Map<string, unknown>();
  private opened: FleetTarget | undefined;
  private opening: Promise<FleetTarget> | undefined;
  private readonly modules = new Map<string, string>();
  private readonly burstUsed = new Map<string, number>();
  private readonly derivedSites = new Map<SiteRole, string>();

  constructor(private readonly world: WorldPort) {}

  /** Opens the target once: the embedded controller, or the target file's `fleet` section. */
  async ready(): Promise<this> {
    if (!this.opened) {
      this.opening ??= this.open();
      this.opened = await this.opening;
    }
    return this;
  }

  get target(): FleetTarget {
    if (!this.opened) throw new Error('the fleet target is not open yet');
    return this.opened;
  }

  private async open(): Promise<FleetTarget> {
    const parsed = this.world.parameters.target;
    if (parsed === undefined) return openEmbeddedFleet();
    const file = parsed.description;
    const section = file['fleet'] as FleetTargetSection | undefined;
    if (!section) notVerifiable(`target "${file.name}" has no fleet section (schemas/target.schema.json)`);
    const target = openRemoteFleet(file.name, section);
    await target.reset();
    return target;
  }

  async close(): Promise<void> {
    const target = this.opened ?? (await this.opening?.catch(() => undefined));
    if (!target) return;
    try {
      if (target.kind === 'remote') await target.reset();
    } finally {
      await target.close();
    }
  }

  // --- fixtures and control planes -------------------------------------------------------------

  account(role: FleetRole): FleetAccount {
    const account = this.target.accounts[role];
    if (!account) notVerifiable(`target "${this.target.name}" names no fleet.accounts.${role}`);
    return account;
  }

  control(purpose: string): FleetControl {
    const control = this.target.control;
    if (!control)
      notVerifiable(`target "${this.target.name}" has no fleet control plane; needed to ${purpose}`);
    return control;
  }

  async pbx(siteId: string, purpose: string): Promise<PbxPlane> {
    const plane = await this.target.pbx(siteId);
    if (!plane)
      notVerifiable(
        `target "${this.target.name}" has no PBX control plane for ${siteId}; needed to ${purpose}`,
      );
    return plane;
  }

  async mcpToken(role: McpTokenRole): Promise<string> {
    const token = await this.target.mcpToken(role);
    if (!token) notVerifiable(`target "${this.target.name}" names no fleet.mcpTokens.${role}`);
    return token;
  }

  mcpUrl(): string {
    const url = this.target.mcpUrl;
    if (!url) notVerifiable(`target "${this.target.name}" names no fleet.mcpUrl`);
    return url;
  }

  /** A site id by its role: declared by the target, or derived from the partners' site lists. */
  async siteId(role: SiteRole): Promise<string> {
    if (role === 'fresh') {
      const fresh = this.derivedSites.get('fresh');
      if (!fresh) throw new Error('the scenario added no fresh site (addFreshSite)');
      return fresh;
    }
    const declared = this.target.declaredSites[role] ?? this.derivedSites.get(role);
    if (declared) return declared;
    const mine = (await this.siteList('partner', { evidence: false })).map((s) => s.id);
    const theirs = this.target.accounts.otherPartner
      ? (await this.siteList('otherPartner', { evidence: false })).map((s) => s.id)
      : [];
    // Own sites are those the other partner does not see; shared ones are kept for their role.
    const unshared = mine.filter((id) => !theirs.includes(id));
    const own = this.target.declaredSites.own ?? unshared[0] ?? mine[0];
    const candidates: Record<Exclude<SiteRole, 'fresh'>, string | undefined> = {
      own,
      second: unshared.find((id) => id !== own) ?? mine.find((id) => id !== own),
      shared: mine.find((id) => theirs.includes(id)),
      foreign: theirs.find((id) => !mine.includes(id)),
    };
    const found = candidates[role];
    if (!found) notVerifiable(`target "${this.target.name}" has no site for the role "${role}"`);
    this.derivedSites.set(role, found);
    return found;
  }

  /**
   * Adds a site of the partner (own right) through the controller's control plane; it becomes the
   * `fresh` site and holds no item yet. Not verifiable without the control plane or the partner's
   * control-plane partner id.
   */
  async addFreshSite(purpose: string): Promise<string> {
    const control = this.control(purpose);
    const partnerId = this.account('partner').partnerId;
    if (!partnerId) notVerifiable('the target names no control-plane partnerId for the partner');
    const siteId = `site-${this.tag}-fresh`;
    await control.addSite({ id: siteId, displayName: `Neuer Standort ${this.tag}` });
    await control.grant({ partnerId, siteId, kind: 'own' });
    this.derivedSites.set('fresh', siteId);
    return siteId;
  }

  // --- REST -------------------------------------------------------------------------------------

  private auth(caller: Caller): { auth: RestAuth; who: string } {
    if (typeof caller === 'string') {
      const { email, password } = this.account(caller);
      return { auth: { kind: 'basic', email, password }, who: caller };
    }
    if (caller.kind === 'none') return { auth: { kind: 'none' }, who: 'no credentials' };
    return { auth: { kind: 'basic', email: caller.email, password: caller.password }, who: caller.who };
  }

  /** Sends a request below `{controller_url}` and keeps the answer as `last`. */
  async rest(
    method: string,
    path: string,
    caller: Caller,
    options: RestOptions = {},
  ): Promise<FleetResponse> {
    const { auth, who } = this.auth(caller);
    const res = await restExchange({
      method,
      url: `${this.target.apiUrl}${path}`,
      auth,
      who,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    if (options.evidence !== false) this.world.evidence(restEvidence(res));
    this.last = res;
    return res;
  }

  /** The caller's site list; a non-200 answer or a body off the schema fails the step. */
  async siteList(caller: FleetRole, options: RestOptions = {}): Promise<SiteView[]> {
    const res = await this.rest('GET', `${API_BASE}/sites`, caller, options);
    if (res.status !== 200 && options.evidence === false) this.world.evidence(restEvidence(res));
    assert.equal(res.status, 200, `GET ${API_BASE}/sites as ${caller} answered ${res.status}`);
    const errors = fleetSchemaErrors('site list', res.json);
    assert.equal(errors, null, `the site list does not match schemas/fleet/site-list.schema.json: ${errors}`);
    return res.json as SiteView[];
  }

  async site(caller: FleetRole, siteId: string, options: RestOptions = {}): Promise<SiteView | undefined> {
    return (await this.siteList(caller, options)).find((s) => s.id === siteId);
  }

  /** The messages open for the caller on a site (`attentionEvents`, which may be absent). */
  async openItems(caller: FleetRole, siteId: string, options: RestOptions = {}): Promise<ItemView[]> {
    return (await this.site(caller, siteId, options))?.attentionEvents ?? [];
  }

  /** The open item a raised message became, by module and subject (a cut subject matches too). */
  async findItem(caller: FleetRole, label: string, options: RestOptions = {}): Promise<ItemView | undefined> {
    const message = this.message(label);
    return (await this.openItems(caller, message.siteId, options)).find((item) => matches(item, message));
  }

  acknowledge(
    caller: Caller,
    siteId: string,
    attentionId: number | string,
    body = '{}',
    options: RestOptions = {},
  ): Promise<FleetResponse> {
    return this.rest(
      'POST',
      `${API_BASE}/sites/${encodeURIComponent(siteId)}/attention/${encodeURIComponent(String(attentionId))}/acknowledge`,
      caller,
      { ...options, headers: { 'Content-Type': 'application/json', ...options.headers }, body },
    );
  }

  history(caller: Caller, siteId: string, options: RestOptions = {}): Promise<FleetResponse> {
    return this.rest('GET', `${API_BASE}/sites/${encodeURIComponent(siteId)}/history`, caller, options);
  }

  // --- attention events -------------------------------------------------------------------------

  /** The module's display name in this scenario: the name plus the scenario tag. */
  moduleName(name: string): string {
    let unique = this.modules.get(name);
    if (!unique) {
      unique = `${name} ${this.tag}`;
      this.modules.set(name, unique);
    }
    return unique;
  }

  message(label: string): SentMessage {
    const message = this.messages.get(label);
    if (!message) throw new Error(`the scenario raised no message "${label}"`);
    return message;
  }

  /**
   * Raises a module message on a site as its PBX would: through the PBX's control plane when the
   * target has one for the site (and waits until it is delivered), else by injecting it through
   * the controller's control plane. The message is kept under `label`.
   */
  async raise(
    label: string,
    siteId: string,
    event: RaisedEvent,
    options: RaiseOptions = {},
  ): Promise<SentMessage> {
    const earlier = this.messages.get(label);
    const message: SentMessage = {
      ...event,
      label,
      siteId,
      reportedAt: earlier?.reportedAt ?? [],
      reportedWithin: earlier?.reportedWithin ?? [],
      ...(earlier?.id !== undefined ? { id: earlier.id } : {}),
    };
    this.messages.set(label, message);
    const plane = await this.target.pbx(siteId);
    if (plane) {
      await this.keepUnderLimit(plane, event, options.unthrottled === true);
      const before = (await plane.control.now()).now;
      const outcome = (await plane.control.raiseAttentionEvent(event)).outcome;
      message.reportedAt.push(before);
      message.reportedWithin.push([before, (await plane.control.now()).now]);
      if (options.wait !== false) await this.delivered(plane, `the message "${label}" (${outcome})`);
      return message;
    }
    const control = this.target.control;
    if (!control)
      notVerifiable(`target "${this.target.name}" can neither raise nor inject messages on ${siteId}`);
    await control.injectEvent({ siteId, ...event });
    return message;
  }

  /** Whether the scenario can raise messages on the site (a PBX control plane or the controller's). */
  async canRaise(siteId: string): Promise<boolean> {
    return (await this.target.pbx(siteId)) !== undefined || this.target.control !== undefined;
  }

  /** Fails as not verifiable when nothing can raise messages on the site (properties raise one per run). */
  async requireRaising(siteId: string): Promise<void> {
    if (!(await this.canRaise(siteId))) {
      notVerifiable(`target "${this.target.name}" can neither raise nor inject messages on ${siteId}`);
    }
  }

  /** Records an item the target already shows as the scenario's message `label` (black-box targets). */
  adopt(label: string, siteId: string, item: ItemView): SentMessage {
    const message: SentMessage = {
      label,
      siteId,
      module: item.module,
      subject: item.subject,
      severity: item.severity as RaisedEvent['severity'],
      id: item.id,
      reportedAt: [],
      reportedWithin: [],
      shown: item,
    };
    this.messages.set(label, message);
    return message;
  }

  /**
   * The item id of a message: from the first of `viewers` whose open list shows it (and then
   * remembered), else the remembered one (an acknowledged message leaves the open lists).
   */
  async itemId(label: string, viewers: FleetRole[] = ['partner', 'otherPartner']): Promise<number> {
    const message = this.message(label);
    for (const viewer of viewers) {
      if (viewer !== 'partner' && !this.target.accounts[viewer]) continue;
      const item = (await this.openItems(viewer, message.siteId, { evidence: false })).find((i) =>
        matches(i, message),
      );
      if (item) {
        message.id = item.id;
        message.shown = item;
        return item.id;
      }
    }
    if (message.id === undefined) throw new Error(`no site list shows the message "${label}"`);
    return message.id;
  }

  /** Waits until the PBX delivered everything it forwarded; a harness error when it does not. */
  async delivered(plane: PbxPlane, what: string): Promise<void> {
    if (await deliveredInTime(plane.control)) return;
    const status = await plane.control.forwarderStatus();
    this.world.evidence({ exchange: `PBX ${plane.siteId} forwarder`, response: JSON.stringify(status) });
    throw new Error(`the PBX of ${plane.siteId} did not deliver ${what} to the controller`);
  }

  /** Counts reports per module; with `advance`, moves the PBX clock on once the burst is used. */
  private async keepUnderLimit(plane: PbxPlane, event: RaisedEvent, advance: boolean): Promise<void> {
    const key = `${plane.siteId}\u0000${event.moduleId ?? event.module}`;
    const used = this.burstUsed.get(key) ?? 0;
    if (advance && used >= THROTTLE_BURST) await plane.control.advanceClock({ ms: THROTTLE_INTERVAL_MS });
    this.burstUsed.set(key, Math.min(used + 1, THROTTLE_BURST));
  }
}

/** Whether a shown item is the given message: same module, same subject or its cut form. */
export function matches(item: ItemView, message: RaisedEvent): boolean {
  if (item.module !== message.module) return false;
  if (item.subject === message.subject) return true;
  // FLEET-UNSPEC-CHARACTER-COUNT: a cut subject may end in a marker; the start identifies it.
  const head = 100;
  return [...message.subject].length > 200 && item.subject.slice(0, head) === message.subject.slice(0, head);
}
