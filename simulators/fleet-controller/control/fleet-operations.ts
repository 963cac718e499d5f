import { z } from 'zod';
import {
  answer,
  checkedByEffect,
  fields,
  integer,
  oneOf,
  unboundedText,
} from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { SEVERITIES } from '../../shared/wire/severity.ts';
import { type IngestStats, LEVELS, ROLES } from '../model/types.ts';
import type { AccountInfo, InjectResult, ItemInfo, LinkStatus, PbxRegistration } from './control-types.ts';

/** Ten years: far beyond any acknowledgement age a scenario needs, and still finite. */
export const MAX_CLOCK_ADVANCE_MS = 3650 * 86_400_000;

const id = () => unboundedText(1);
const siteId = id;
const clockAnswer = z.object({ now: z.number() });
const password = z.string({ error: 'must be a string or null' }).nullable();

/**
 * The fleet controller's control plane (schemas/fleet-control.openapi.yaml, all but the tag
 * `pbx-events`), each operation declared once: it stands in for the controller console (partner
 * accesses, sites, rights, accounts, MCP access tokens) and for the simulated PBXs (ingest keys,
 * inventories, injected attention events, links), and moves the virtual clock. `fleetEffects`
 * (fleet-effects.ts) gives what each does to the one `FleetState`.
 */
export const FLEET_CONTROL_OPERATIONS = defineOperations({
  reset: {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the start fixture; drops every ingest connection',
    actsOn: 'the whole state, ingest connections',
  },
  now: {
    method: 'GET',
    path: '/clock',
    summary: "The controller's virtual clock",
    actsOn: 'the virtual clock (reads)',
    output: clockAnswer,
  },
  advanceClock: {
    method: 'POST',
    path: '/clock/advance',
    summary: "Advances the controller's clock (acknowledgement times)",
    actsOn: 'the virtual clock',
    input: fields({ ms: integer(0, MAX_CLOCK_ADVANCE_MS) }),
    output: clockAnswer,
  },
  addPartner: {
    method: 'POST',
    path: '/partners',
    summary: 'Creates a partner access',
    actsOn: 'partners',
    input: fields({ id: id(), name: id() }),
  },
  addSite: {
    method: 'POST',
    path: '/sites',
    summary: 'Creates a site',
    actsOn: 'sites',
    input: fields({ id: id(), displayName: id() }),
  },
  renameSite: {
    method: 'PATCH',
    path: '/sites/{siteId}',
    summary: 'Renames a site (history entries keep the old name)',
    actsOn: 'sites',
    input: fields({ siteId: siteId(), displayName: id() }),
  },
  grant: {
    method: 'PUT',
    path: '/rights',
    summary: 'Gives a partner access a right on a site (replaces an existing one)',
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
    output: answer<AccountInfo>(),
  },
  updateAccount: {
    method: 'PATCH',
    path: '/accounts/{accountId}',
    summary: 'Changes name, role, level or password of an account',
    actsOn: 'accounts',
    input: fields({
      accountId: id(),
      name: id().optional(),
      role: oneOf(ROLES).optional(),
      level: oneOf(LEVELS).optional(),
      password: password.optional(),
    }),
    output: answer<AccountInfo>(),
  },
  /** MCP-UNSPEC-TRANSPORT: issues an MCP access token; the secret is answered once, only its hash is kept. */
  issueToken: {
    method: 'POST',
    path: '/tokens',
    summary: 'Issues an MCP access token; the secret is shown once',
    actsOn: 'MCP access tokens',
    input: fields({ accountId: id(), level: oneOf(LEVELS), label: unboundedText().optional() }),
    output: answer<{ id: string; token: string }>(),
  },
  revokeToken: {
    method: 'DELETE',
    path: '/tokens/{tokenId}',
    summary: 'Revokes a token at once',
    actsOn: 'MCP access tokens',
    input: fields({ tokenId: id() }),
  },
  registerPbx: {
    method: 'POST',
    path: '/sites/{siteId}/pbx',
    summary: 'Registers a PBX for a site: the ingest URL and key it connects with',
    actsOn: 'ingest links',
    input: fields({ siteId: siteId(), key: id().optional() }),
    output: answer<PbxRegistration>(),
  },
  setInventory: {
    method: 'PUT',
    path: '/sites/{siteId}/inventory',
    summary: 'Sets the inventory the findings are evaluated from; null clears it',
    actsOn: 'inventories',
    input: fields({ siteId: siteId(), inventory: checkedByEffect<PbxInventory | null>() }),
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
    actsOn: 'inventories (reads)',
    input: fields({ siteId: siteId() }),
    output: answer<PbxInventory | null>(),
  },
  /** As if the site's PBX had forwarded it: no PBX throttle or buffer; `at` defaults to the controller's clock. */
  injectEvent: {
    method: 'POST',
    path: '/sites/{siteId}/events',
    summary: "Applies an attention event as if the site's PBX had forwarded it",
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
    output: answer<InjectResult>(),
  },
  items: {
    method: 'GET',
    path: '/sites/{siteId}/items',
    summary: 'Every item of a site, oldest first, with the partner accesses that acknowledged it',
    actsOn: 'attention items (reads)',
    input: fields({ siteId: siteId() }),
    output: answer<ItemInfo[]>(),
  },
  linkStatus: {
    method: 'GET',
    path: '/sites/{siteId}/link',
    summary: 'Whether a PBX is registered, how many are connected, whether the link is cut',
    actsOn: 'ingest links (reads)',
    input: fields({ siteId: siteId() }),
    output: answer<LinkStatus>(),
  },
  cutLink: {
    method: 'POST',
    path: '/sites/{siteId}/link/cut',
    summary: 'Cuts the PBX-controller link of a site until restored',
    actsOn: 'ingest links',
    input: fields({ siteId: siteId() }),
  },
  restoreLink: {
    method: 'POST',
    path: '/sites/{siteId}/link/restore',
    summary: 'Restores a cut link',
    actsOn: 'ingest links',
    input: fields({ siteId: siteId() }),
  },
  stats: {
    method: 'GET',
    path: '/stats',
    summary: 'Ingest counters',
    actsOn: 'ingest counters (reads)',
    output: answer<IngestStats>(),
  },
});
