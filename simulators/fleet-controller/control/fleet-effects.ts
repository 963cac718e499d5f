import { randomBytes } from 'node:crypto';
import type { VirtualClock } from '../../shared/clock.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import type { EventStream } from '../../shared/control/event-stream.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { asInventory } from '../../shared/wire/ingest-protocol.ts';
import { itemView } from '../model/caller-view.ts';
import { accountOf, type FleetFixture } from '../model/fleet-fixture.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { hashPassword } from '../model/password-hash.ts';
import type { Account } from '../model/types.ts';
import type { AccountInfo } from './control-types.ts';
import type { FLEET_CONTROL_OPERATIONS } from './fleet-operations.ts';

/** What the fleet control plane needs of the running controller beyond its state. */
export interface FleetEffectsContext {
  state: FleetState;
  clock: VirtualClock;
  /** What `reset` goes back to. */
  fixture: FleetFixture;
  /** `tcp://host:port` of the ingest listener, once it listens. */
  ingestUrl: () => string;
}

/**
 * What each operation of `FLEET_CONTROL_OPERATIONS` does to the one `FleetState`. The declared
 * schemas have checked types and ranges before an effect runs; the state refuses an unknown
 * partner, site, account, token or link (`NotFoundError`, 404) and one that exists already
 * (`ConflictError`, 409); an effect refuses a malformed inventory (`ControlInputError`, 400).
 */
export function fleetEffects(context: FleetEffectsContext): Effects<typeof FLEET_CONTROL_OPERATIONS> {
  const { state, clock } = context;
  const access = state.access;
  return {
    reset: () => state.load(context.fixture),
    now: () => ({ now: clock.now() }),
    advanceClock: ({ ms }) => ({ now: clock.advance(ms) }),
    addPartner: (partner) => access.addPartner(partner),
    addSite: (site) => access.addSite(site),
    renameSite: ({ siteId, displayName }) => access.renameSite(siteId, displayName),
    grant: ({ modules, ...right }) => access.grant(modules === undefined ? right : { ...right, modules }),
    revoke: ({ partnerId, siteId }) => access.revoke(partnerId, siteId),
    async addAccount({ id = `acc-${randomBytes(6).toString('hex')}`, ...input }) {
      const account = await accountOf({ id, ...input }, state.scryptCost);
      access.addAccount(account);
      return accountInfo(account);
    },
    getAccount: ({ accountId }) => accountInfo(access.requireAccount(accountId)),
    async updateAccount({ accountId, ...patch }) {
      const account = access.requireAccount(accountId);
      const passwordHash =
        patch.password === undefined
          ? account.passwordHash
          : patch.password === null
            ? null
            : await hashPassword(patch.password, state.scryptCost);
      if (patch.name !== undefined) account.name = patch.name;
      if (patch.role !== undefined) account.role = patch.role;
      if (patch.level !== undefined) account.level = patch.level;
      account.passwordHash = passwordHash;
      access.accountChanged(account);
      return accountInfo(account);
    },
    issueToken({ accountId, level, label }) {
      const issued = access.issueToken(
        label === undefined ? { accountId, level } : { accountId, level, label },
      );
      return { id: issued.id, token: issued.secret };
    },
    revokeToken: ({ tokenId }) => access.revokeToken(tokenId),
    registerPbx({ siteId, key }) {
      const issued = state.ingest.registerPbx(siteId, key);
      return { siteId, ingest: context.ingestUrl(), key: issued };
    },
    setInventory({ siteId, inventory }) {
      const given = inventory ?? null;
      const valid = given === null ? null : asInventory(given);
      if (given !== null && !valid) throw new ControlInputError('malformed inventory');
      state.ingest.setInventory(siteId, valid);
    },
    getInventory({ siteId }) {
      access.requireSite(siteId);
      return state.ingest.inventories.get(siteId) ?? null;
    },
    injectEvent({ siteId, moduleId, description, at, suppressed, ...event }) {
      const outcome = state.attention.report(siteId, {
        ...event,
        at: at ?? clock.now(),
        suppressed: suppressed ?? 0,
        ...(moduleId === undefined ? {} : { moduleId }),
        ...(description === undefined ? {} : { description }),
      });
      return outcome.kind === 'capped'
        ? { outcome: 'capped' }
        : { outcome: outcome.kind, item: itemView(outcome.item) };
    },
    cutLink: ({ siteId }) => state.ingest.cutLink(siteId),
    restoreLink: ({ siteId }) => state.ingest.restoreLink(siteId),
    linkStatus({ siteId }) {
      access.requireSite(siteId);
      const link = state.ingest.links.get(siteId);
      return {
        siteId,
        registered: link !== undefined,
        connected: link?.connected ?? 0,
        cut: link?.cut ?? false,
      };
    },
    items({ siteId }) {
      access.requireSite(siteId);
      return state.attention.book
        .itemsOf(siteId)
        .sort((a, b) => a.id - b.id)
        .map((item) => ({
          ...itemView(item),
          siteId,
          acknowledgedBy: [...item.acks].map(([partnerId, ack]) => ({ partnerId, at: ack.at })),
        }));
    },
    stats: () => ({ ...state.ingest.stats }),
    watchChanges: () => coalesced(state, clock),
  };
}

/** Changes closer together than this go out as one event (a storm of attention events). */
const COALESCE_MS = 50;

/** The controller's `change` events as a stream, at most one event per 50 ms. */
function coalesced(state: FleetState, clock: { now(): number }): EventStream<{ at: number }> {
  return (send) => {
    let timer: NodeJS.Timeout | undefined;
    const listener = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        send('change', { at: clock.now() });
      }, COALESCE_MS);
    };
    state.on('change', listener);
    return () => {
      if (timer) clearTimeout(timer);
      state.off('change', listener);
    };
  };
}

function accountInfo(a: Account): AccountInfo {
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
