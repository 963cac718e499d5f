import { randomBytes } from 'node:crypto';
import type { VirtualClock } from '../../shared/clock.ts';
import { asInventory } from '../../shared/wire/ingest-protocol.ts';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { isSeverity } from '../../shared/wire/severity.ts';
import { itemView } from '../model/caller-view.ts';
import type { FleetFixture } from '../model/fleet-fixture.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { hashPassword } from '../model/password-hash.ts';
import { type Account, LEVELS, ROLES, type SiteRight } from '../model/types.ts';
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

/** Input the control plane refuses (HTTP 400 there). */
export class BadRequestError extends Error {
  override name = 'BadRequestError';
}

/** The control plane, in process. Validates its input the same way for the HTTP face. */
export class InProcessFleetControl implements FleetControl {
  constructor(
    private readonly state: FleetState,
    private readonly clock: VirtualClock,
    private readonly fixture: FleetFixture,
    private readonly ingestUrl: () => string,
  ) {}

  async reset(): Promise<void> {
    await this.state.load(this.fixture);
  }

  async now(): Promise<number> {
    return this.clock.now();
  }

  async advanceClock(ms: number): Promise<number> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      throw new BadRequestError('ms must be a non-negative number');
    return this.clock.advance(ms);
  }

  async addPartner(partner: { id: string; name: string }): Promise<void> {
    requireString(partner?.id, 'id');
    requireString(partner?.name, 'name');
    this.state.access.addPartner({ id: partner.id, name: partner.name });
  }

  async addSite(site: { id: string; displayName: string }): Promise<void> {
    requireString(site?.id, 'id');
    requireString(site?.displayName, 'displayName');
    this.state.access.addSite({ id: site.id, displayName: site.displayName });
  }

  async renameSite(siteId: string, displayName: string): Promise<void> {
    requireString(displayName, 'displayName');
    this.state.access.renameSite(siteId, displayName);
  }

  async grant(right: SiteRight): Promise<void> {
    requireString(right?.partnerId, 'partnerId');
    requireString(right?.siteId, 'siteId');
    if (right.kind !== 'own' && right.kind !== 'managed')
      throw new BadRequestError('kind must be own or managed');
    if (
      right.modules !== undefined &&
      !(Array.isArray(right.modules) && right.modules.every((m) => typeof m === 'string'))
    ) {
      throw new BadRequestError('modules must be a list of strings');
    }
    this.state.access.grant(right);
  }

  async revoke(partnerId: string, siteId: string): Promise<void> {
    this.state.access.revoke(partnerId, siteId);
  }

  async addAccount(input: AccountInput): Promise<AccountInfo> {
    requireString(input?.email, 'email');
    requireString(input?.name, 'name');
    requireString(input?.partnerId, 'partnerId');
    if (!(ROLES as readonly string[]).includes(input.role))
      throw new BadRequestError(`role must be one of ${ROLES.join(', ')}`);
    if (input.password !== null && typeof input.password !== 'string')
      throw new BadRequestError('password must be a string or null');
    if (input.level !== undefined && !(LEVELS as readonly string[]).includes(input.level))
      throw new BadRequestError('bad level');
    const account: Account = {
      id: input.id ?? `acc-${randomBytes(6).toString('hex')}`,
      email: input.email,
      name: input.name,
      role: input.role,
      partnerId: input.partnerId,
      passwordHash:
        input.password === null ? null : await hashPassword(input.password, this.state.scryptCost),
      level: input.level ?? (input.role === 'Viewer' ? 'read' : 'read-write'),
    };
    this.state.access.addAccount(account);
    return accountInfo(account);
  }

  async updateAccount(id: string, patch: AccountPatch): Promise<AccountInfo> {
    const account = this.state.access.requireAccount(id);
    if (patch.role !== undefined && !(ROLES as readonly string[]).includes(patch.role))
      throw new BadRequestError('bad role');
    if (patch.level !== undefined && !(LEVELS as readonly string[]).includes(patch.level))
      throw new BadRequestError('bad level');
    if (patch.name !== undefined) requireString(patch.name, 'name');
    const passwordHash =
      patch.password === undefined
        ? account.passwordHash
        : patch.password === null
          ? null
          : await hashPassword(requireString(patch.password, 'password'), this.state.scryptCost);
    if (patch.name !== undefined) account.name = patch.name;
    if (patch.role !== undefined) account.role = patch.role;
    if (patch.level !== undefined) account.level = patch.level;
    account.passwordHash = passwordHash;
    this.state.access.accountChanged(account);
    return accountInfo(account);
  }

  async issueToken(input: {
    accountId: string;
    level: AccountInfo['level'];
    label?: string;
  }): Promise<{ id: string; token: string }> {
    requireString(input?.accountId, 'accountId');
    if (!(LEVELS as readonly string[]).includes(input.level))
      throw new BadRequestError('level must be read or read-write');
    const issued = this.state.access.issueToken(
      input.label === undefined ? { accountId: input.accountId, level: input.level } : input,
    );
    return { id: issued.id, token: issued.secret };
  }

  async revokeToken(id: string): Promise<void> {
    this.state.access.revokeToken(id);
  }

  async registerPbx(siteId: string, key?: string): Promise<PbxRegistration> {
    if (key !== undefined) requireString(key, 'key');
    const issued = this.state.ingest.registerPbx(siteId, key);
    return { siteId, ingest: this.ingestUrl(), key: issued };
  }

  async setInventory(siteId: string, inventory: PbxInventory | null): Promise<void> {
    const valid = inventory === null ? null : asInventory(inventory);
    if (inventory !== null && !valid) throw new BadRequestError('malformed inventory');
    this.state.ingest.setInventory(siteId, valid);
  }

  async injectEvent(siteId: string, event: InjectedEvent): Promise<InjectResult> {
    requireString(event?.module, 'module');
    if (typeof event.subject !== 'string') throw new BadRequestError('subject must be a string');
    if (!isSeverity(event.severity))
      throw new BadRequestError('severity must be INFO, WARNING, ERROR or CRITICAL');
    if (event.description !== undefined && typeof event.description !== 'string')
      throw new BadRequestError('bad description');
    if (event.moduleId !== undefined && typeof event.moduleId !== 'string')
      throw new BadRequestError('bad moduleId');
    const at = event.at ?? this.clock.now();
    const suppressed = event.suppressed ?? 0;
    if (!Number.isSafeInteger(at)) throw new BadRequestError('at must be an integer (ms since 1970)');
    if (!Number.isSafeInteger(suppressed) || suppressed < 0)
      throw new BadRequestError('suppressed must be a count');
    const report = { module: event.module, subject: event.subject, severity: event.severity, at, suppressed };
    const outcome = this.state.attention.report(siteId, {
      ...report,
      ...(event.moduleId === undefined ? {} : { moduleId: event.moduleId }),
      ...(event.description === undefined ? {} : { description: event.description }),
    });
    return outcome.kind === 'capped'
      ? { outcome: 'capped' }
      : { outcome: outcome.kind, item: itemView(outcome.item) };
  }

  async cutLink(siteId: string): Promise<void> {
    this.state.ingest.cutLink(siteId);
  }

  async restoreLink(siteId: string): Promise<void> {
    this.state.ingest.restoreLink(siteId);
  }

  async linkStatus(siteId: string): Promise<LinkStatus> {
    this.state.access.requireSite(siteId);
    const link = this.state.ingest.links.get(siteId);
    return {
      siteId,
      registered: link !== undefined,
      connected: link?.connected ?? 0,
      cut: link?.cut ?? false,
    };
  }

  async items(siteId: string): Promise<ItemInfo[]> {
    this.state.access.requireSite(siteId);
    return this.state.attention.book
      .itemsOf(siteId)
      .sort((a, b) => a.id - b.id)
      .map((item) => ({
        ...itemView(item),
        siteId,
        acknowledgedBy: [...item.acks].map(([partnerId, ack]) => ({ partnerId, at: ack.at })),
      }));
  }

  async stats() {
    return { ...this.state.ingest.stats };
  }
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '')
    throw new BadRequestError(`${name} must be a non-empty string`);
  return value;
}

export function accountInfo(a: Account): AccountInfo {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    role: a.role,
    partnerId: a.partnerId,
    level: a.level,
    hasPassword: a.passwordHash !== null,
  };
}
