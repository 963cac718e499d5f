import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { hashPassword, type ScryptCost } from './password-hash.ts';
import type { Account, Level, PartnerAccess, Role, Site, SiteRight } from './types.ts';

/** An account as a fixture gives it: the clear password is hashed when the fixture is loaded. */
export interface FixtureAccount {
  id: string;
  email: string;
  name: string;
  role: Role;
  partnerId: string;
  /** `null`: the account signs in only through an external identity provider (FLEET-AUTH-IDP-ONLY). */
  password: string | null;
  /** Default: `read-write`, or `read` for a Viewer. */
  level?: Level;
}

/**
 * The account the controller keeps for `input`: the clear password hashed at once and never kept
 * (`null`: an account of an external identity provider, FLEET-AUTH-IDP-ONLY), the level by role
 * when not given (MCP-ACK-ACCOUNT-LEVEL).
 */
export async function accountOf(input: FixtureAccount, cost: ScryptCost): Promise<Account> {
  return {
    id: input.id,
    email: input.email,
    name: input.name,
    role: input.role,
    partnerId: input.partnerId,
    passwordHash: input.password === null ? null : await hashPassword(input.password, cost),
    level: input.level ?? (input.role === 'Viewer' ? 'read' : 'read-write'),
  };
}

/** An MCP access token as a fixture gives it: the clear secret is hashed when loaded. */
export interface FixtureToken {
  id: string;
  accountId: string;
  label: string;
  level: Level;
  secret: string;
}

/** A PBX the fixture expects to connect over the ingest link; `key` authenticates it. */
export interface FixturePbx {
  siteId: string;
  key: string;
}

/**
 * The people, sites and rights a controller starts with; `reset()` returns to it.
 * Scenario targets name these credentials in their target file.
 */
export interface FleetFixture {
  partners: PartnerAccess[];
  sites: Site[];
  rights: SiteRight[];
  accounts: FixtureAccount[];
  tokens: FixtureToken[];
  pbxs?: FixturePbx[];
  /** Inventories of sites without a connected PBX (findings for scenarios that start no PBX). */
  inventories?: Record<string, PbxInventory>;
}

/** A controller with no one in it. */
export function emptyFixture(): FleetFixture {
  return { partners: [], sites: [], rights: [], accounts: [], tokens: [] };
}

/**
 * The demo fleet (docs/fleet-controller.md, "Default fixture"): two partner accesses; partner
 * Nordlicht owns Hamburg and Kiel and manages Bremen on behalf of Südwind, which owns Bremen and
 * München. The passwords and token secrets are public demo values, not secrets.
 */
export function defaultFixture(): FleetFixture {
  return {
    partners: [
      { id: 'p-nordlicht', name: 'Nordlicht Kommunikation GmbH' },
      { id: 'p-suedwind', name: 'Südwind IT-Service AG' },
    ],
    sites: [
      { id: 'site-hamburg', displayName: 'Hamburg Zentrale' },
      { id: 'site-kiel', displayName: 'Kiel Lager' },
      { id: 'site-bremen', displayName: 'Bremen Werk' },
      { id: 'site-muenchen', displayName: 'München Büro' },
    ],
    rights: [
      { partnerId: 'p-nordlicht', siteId: 'site-hamburg', kind: 'own' },
      { partnerId: 'p-nordlicht', siteId: 'site-kiel', kind: 'own' },
      { partnerId: 'p-nordlicht', siteId: 'site-bremen', kind: 'managed' },
      { partnerId: 'p-suedwind', siteId: 'site-bremen', kind: 'own' },
      { partnerId: 'p-suedwind', siteId: 'site-muenchen', kind: 'own' },
    ],
    accounts: [
      {
        id: 'acc-anna',
        email: 'anna.admin@nordlicht.example',
        name: 'Anna Admin',
        role: 'Admin',
        partnerId: 'p-nordlicht',
        password: 'Nordlicht-Demo-1',
      },
      {
        id: 'acc-tom',
        email: 'tom.technik@nordlicht.example',
        name: 'Tom Technik',
        role: 'Technician',
        partnerId: 'p-nordlicht',
        password: 'Nordlicht-Demo-2',
      },
      {
        id: 'acc-vera',
        email: 'vera.viewer@nordlicht.example',
        name: 'Vera Viewer',
        role: 'Viewer',
        partnerId: 'p-nordlicht',
        password: 'Nordlicht-Demo-3',
      },
      {
        // A Technician whose own account level is read only: her read-and-write token may still
        // not acknowledge (MCP-ACK-ACCOUNT-LEVEL).
        id: 'acc-lea',
        email: 'lea.lesen@nordlicht.example',
        name: 'Lea Lesen',
        role: 'Technician',
        partnerId: 'p-nordlicht',
        password: 'Nordlicht-Demo-4',
        level: 'read',
      },
      {
        id: 'acc-sso',
        email: 'sso.only@nordlicht.example',
        name: 'Sven SSO',
        role: 'Admin',
        partnerId: 'p-nordlicht',
        password: null,
      },
      {
        id: 'acc-sam',
        email: 'sam.admin@suedwind.example',
        name: 'Sam Admin',
        role: 'Admin',
        partnerId: 'p-suedwind',
        password: 'Suedwind-Demo-1',
      },
    ],
    tokens: [
      {
        id: 'tok-anna-rw',
        accountId: 'acc-anna',
        label: 'Assistent (lesen+schreiben)',
        level: 'read-write',
        secret: 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ',
      },
      {
        id: 'tok-anna-r',
        accountId: 'acc-anna',
        label: 'Assistent (lesen)',
        level: 'read',
        secret: 'demo-anna-read-only-3Hs6PdJ1cR5yF0uE',
      },
      {
        id: 'tok-lea-rw',
        accountId: 'acc-lea',
        label: 'Assistent (lesen+schreiben)',
        level: 'read-write',
        secret: 'demo-lea-read-write-5Jm8RbX3qC6vH2nD',
      },
      {
        id: 'tok-sam-rw',
        accountId: 'acc-sam',
        label: 'Assistent',
        level: 'read-write',
        secret: 'demo-sam-read-write-9Wg4KtN2vZ7aQ1xM',
      },
    ],
  };
}
