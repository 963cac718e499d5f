import { z } from 'zod';
import { fields, integer, named, oneOf, shaped, unboundedText } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { SEVERITIES } from '../../shared/wire/severity.ts';
import { LEVELS, ROLES } from '../model/types.ts';
import type {
  AccountInfo,
  InjectResult as InjectResultView,
  ItemInfo as ItemInfoView,
} from './control-types.ts';
import {
  Account,
  IngestStats,
  InjectResult,
  Inventory,
  IssuedToken,
  ItemInfo,
  LinkStatus,
  Now,
  PbxRegistration,
} from './fleet-schemas.ts';

/** Ten years: far beyond any acknowledgement age a scenario needs, and still finite. */
export const MAX_CLOCK_ADVANCE_MS = 3650 * 86_400_000;

const id = () => unboundedText(1);
const siteId = id;
const clockAnswer = Now;
const password = z.string({ error: 'must be a string or null' }).nullable();

/**
 * The fleet controller's control plane (schemas/fleet-control.openapi.yaml, generated), each operation declared once: it stands in for the controller console (partner
 * accesses, sites, rights, accounts, MCP access tokens) and for the simulated PBXs (ingest keys,
 * inventories, injected attention events, links), and moves the virtual clock. `fleetEffects`
 * (fleet-effects.ts) gives what each does to the one `FleetState`.
 */
export const FLEET_CONTROL_OPERATIONS = defineOperations({
  reset: {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the start fixture; drops every ingest connection',
    answers: 'Reset.',
    actsOn: 'the whole state, ingest connections',
  },
  now: {
    method: 'GET',
    path: '/clock',
    summary: "The controller's virtual clock",
    answers: 'Now.',
    actsOn: 'the virtual clock (reads)',
    output: clockAnswer,
  },
  advanceClock: {
    method: 'POST',
    path: '/clock/advance',
    summary: "Advances the controller's clock (acknowledgement times)",
    answers: 'The new time.',
    actsOn: 'the virtual clock',
    input: fields({ ms: integer(0, MAX_CLOCK_ADVANCE_MS) }),
    output: clockAnswer,
  },
  addPartner: {
    method: 'POST',
    path: '/partners',
    summary: 'Creates a partner access',
    answers: 'Created.',
    refusals: { 409: 'Exists already.' },
    actsOn: 'partners',
    input: fields({ id: id(), name: id() }),
  },
  addSite: {
    method: 'POST',
    path: '/sites',
    summary: 'Creates a site',
    answers: 'Created.',
    refusals: { 409: 'Exists already.' },
    actsOn: 'sites',
    input: fields({ id: id(), displayName: id() }),
  },
  renameSite: {
    method: 'PATCH',
    path: '/sites/{siteId}',
    summary: 'Renames a site (history entries keep the old name)',
    answers: 'Renamed.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'sites',
    input: fields({ siteId: siteId(), displayName: id() }),
  },
  grant: {
    method: 'PUT',
    path: '/rights',
    summary: 'Gives a partner access a right on a site (replaces an existing one)',
    description:
      "`kind` `own` or `managed` (on behalf of another; FLEET-AUTH-VISIBLE-SITES). `modules`, when given, limits the items the partner sees to those modules (by display name or module id): the simulator's invisible items (FLEET-UNSPEC-INVISIBLE-ITEM).",
    answers: 'Granted.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'rights',
    input: fields({
      partnerId: id(),
      siteId: siteId(),
      kind: oneOf(['own', 'managed']),
      modules: z.array(unboundedText(), { error: 'must be a list of strings' }).optional(),
    }),
  },
  revoke: {
    method: 'DELETE',
    path: '/rights/{partnerId}/{siteId}',
    summary: "Removes a partner's right on a site",
    answers: 'Revoked.',
    actsOn: 'rights',
    input: fields({ partnerId: id(), siteId: siteId() }),
  },
  /**
   * `password: null` makes an account of an external identity provider, which cannot sign in
   * (FLEET-AUTH-IDP-ONLY); a clear password is hashed at once and never kept.
   */
  addAccount: {
    method: 'POST',
    path: '/accounts',
    summary: 'Creates an account; the password is hashed at once and never shown again',
    description:
      '`password: null` creates an account of an external identity provider, which cannot sign in (FLEET-AUTH-IDP-ONLY). `level` defaults to `read-write`, `read` for a Viewer.',
    answers: 'The account.',
    refusals: { 404: 'Unknown partner, site, account, token or link.', 409: 'Exists already.' },
    actsOn: 'accounts',
    input: fields({
      id: id().optional(),
      email: id(),
      name: id(),
      role: oneOf(ROLES),
      partnerId: id(),
      password,
      level: oneOf(LEVELS).optional(),
    }),
    output: shaped<AccountInfo>(Account),
  },
  updateAccount: {
    method: 'PATCH',
    path: '/accounts/{accountId}',
    summary: 'Changes name, role, level or password of an account',
    answers: 'The account.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'accounts',
    input: fields({
      accountId: id(),
      name: id().optional(),
      role: oneOf(ROLES).optional(),
      level: oneOf(LEVELS).optional(),
      password: password.optional(),
    }),
    output: shaped<AccountInfo>(Account),
  },
  /**
   * One account as the console shows it, without the password hash: what `addAccount` and
   * `updateAccount` made of it, e.g. `hasPassword: false` for an account of an external identity
   * provider, which cannot sign in (FLEET-AUTH-IDP-ONLY).
   */
  getAccount: {
    method: 'GET',
    path: '/accounts/{accountId}',
    summary: 'One account, without its password hash',
    description:
      'The account as `addAccount` and `updateAccount` answer it; `hasPassword` is false for an account of an external identity provider, which cannot sign in (FLEET-AUTH-IDP-ONLY).',
    answers: 'The account.',
    refusals: { 404: 'No account with this id.' },
    actsOn: 'accounts (reads)',
    input: fields({ accountId: id() }),
    output: shaped<AccountInfo>(Account),
  },
  /** MCP-UNSPEC-TRANSPORT: issues an MCP access token; the secret is answered once, only its hash is kept. */
  issueToken: {
    method: 'POST',
    path: '/tokens',
    summary: 'Issues an MCP access token; the secret is shown once',
    answers: 'The token.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'MCP access tokens',
    input: fields({ accountId: id(), level: oneOf(LEVELS), label: unboundedText().optional() }),
    output: IssuedToken,
  },
  revokeToken: {
    method: 'DELETE',
    path: '/tokens/{tokenId}',
    summary: 'Revokes a token at once',
    answers: 'Revoked.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'MCP access tokens',
    input: fields({ tokenId: id() }),
  },
  registerPbx: {
    method: 'POST',
    path: '/sites/{siteId}/pbx',
    summary: 'Registers a PBX for a site: the ingest URL and key it connects with',
    description:
      'The site then shows `offline` until a PBX with that key is connected (FLEET-UNSPEC-FINDING-CRITERIA). A new registration replaces the key.',
    answers: 'The registration.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'ingest links',
    input: fields({ siteId: siteId(), key: id().optional() }),
    output: PbxRegistration,
  },
  setInventory: {
    method: 'PUT',
    path: '/sites/{siteId}/inventory',
    summary: 'Sets the inventory the findings are evaluated from; null clears it',
    answers: 'Set.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'inventories',
    input: fields({
      siteId: siteId(),
      inventory: shaped<PbxInventory | null, unknown>(Inventory.nullable()),
    }),
    bodyField: 'inventory',
  },
  /**
   * The inventory the findings are evaluated from, as the site's PBX last reported it over the
   * ingest link (FLEET-FINDINGS-SELF-CLEARING) or `setInventory` set it; `null` when there is none.
   * A test of a real PBX reads here what the PBX sent.
   */
  getInventory: {
    method: 'GET',
    path: '/sites/{siteId}/inventory',
    summary: "The inventory the site's PBX last reported, or null",
    description:
      'What the findings are evaluated from (FLEET-FINDINGS-SELF-CLEARING). A test of a real PBX pointed at this controller reads here the inventory the PBX sent.',
    answers: 'The inventory, or `null`.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'inventories (reads)',
    input: fields({ siteId: siteId() }),
    output: shaped<PbxInventory | null>(Inventory.nullable()),
  },
  /** As if the site's PBX had forwarded it: no PBX throttle or buffer; `at` defaults to the controller's clock. */
  injectEvent: {
    method: 'POST',
    path: '/sites/{siteId}/events',
    summary: "Applies an attention event as if the site's PBX had forwarded it",
    answers: '`created`, `merged`, or `capped` (the site holds 200 items; EVENT-SITE-CAP) without item.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'attention items, ingest counters',
    input: fields({
      siteId: siteId(),
      module: id(),
      moduleId: unboundedText().optional(),
      subject: unboundedText(),
      description: unboundedText().optional(),
      severity: oneOf(SEVERITIES),
      at: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).optional(),
      suppressed: integer(0, Number.MAX_SAFE_INTEGER).optional(),
    }),
    output: shaped<InjectResultView>(InjectResult),
  },
  items: {
    method: 'GET',
    path: '/sites/{siteId}/items',
    summary: 'Every item of a site, oldest first, with the partner accesses that acknowledged it',
    answers: 'The items.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'attention items (reads)',
    input: fields({ siteId: siteId() }),
    output: shaped<ItemInfoView[]>(z.array(ItemInfo)),
  },
  linkStatus: {
    method: 'GET',
    path: '/sites/{siteId}/link',
    summary: 'Whether a PBX is registered, how many are connected, whether the link is cut',
    answers: 'The link.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'ingest links (reads)',
    input: fields({ siteId: siteId() }),
    output: LinkStatus,
  },
  cutLink: {
    method: 'POST',
    path: '/sites/{siteId}/link/cut',
    summary: 'Cuts the PBX-controller link of a site until restored',
    answers: 'Cut.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'ingest links',
    input: fields({ siteId: siteId() }),
  },
  restoreLink: {
    method: 'POST',
    path: '/sites/{siteId}/link/restore',
    summary: 'Restores a cut link',
    answers: 'Restored.',
    refusals: { 404: 'Unknown partner, site, account, token or link.' },
    actsOn: 'ingest links',
    input: fields({ siteId: siteId() }),
  },
  stats: {
    method: 'GET',
    path: '/stats',
    summary: 'Ingest counters',
    answers: 'The counters.',
    actsOn: 'ingest counters (reads)',
    output: IngestStats,
  },
  /** Issue 32: the console's live feed of the controller (attention events, acknowledgements, sites). */
  watchChanges: {
    method: 'GET',
    path: '/changes',
    summary: 'Server-Sent Events: one event per change of the controller state',
    description:
      'A stream of Server-Sent Events that stays open until the client goes away: one `change` event each time the state changes (an attention event arrives or is acknowledged, a site, a right, an account or a token changes, an inventory is reported); changes within 50 ms go out as one event. A comment line every 15 s keeps an idle stream open. The console (`/console`) reads it to show an event within a second of its arrival, without polling.',
    answers: 'The event stream; each event is a FleetChangeNotice.',
    actsOn: 'nothing (reads)',
    produces: 'text/event-stream',
    output: named(
      'FleetChangeNotice',
      z.object({ at: z.int().describe("The controller's virtual time of the change, epoch ms.") }),
    ),
  },
});
