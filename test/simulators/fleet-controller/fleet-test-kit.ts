import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  type ApiRequest,
  type ApiResponse,
  createApiCore,
  type RequestLogger,
} from '../../../simulators/fleet-controller/api/api-core.ts';
import { Authenticator } from '../../../simulators/fleet-controller/model/authenticator.ts';
import {
  defaultFixture,
  type FleetFixture,
} from '../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { FleetState } from '../../../simulators/fleet-controller/model/fleet-state.ts';
import type { ScryptCost } from '../../../simulators/fleet-controller/model/password-hash.ts';
import type { AttentionReport } from '../../../simulators/fleet-controller/model/types.ts';
import { VirtualClock } from '../../../simulators/shared/clock.ts';

/** scrypt cost for tests: the same algorithm, cheap enough for property runs. */
export const FAST_SCRYPT: ScryptCost = { N: 1024, r: 8, p: 1 };

export const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

/** The default fixture's people (docs/fleet-controller.md, "Default fixture"). */
export const ANNA = { email: 'anna.admin@nordlicht.example', password: 'Nordlicht-Demo-1', id: 'acc-anna' };
export const TOM = { email: 'tom.technik@nordlicht.example', password: 'Nordlicht-Demo-2', id: 'acc-tom' };
export const VERA = { email: 'vera.viewer@nordlicht.example', password: 'Nordlicht-Demo-3', id: 'acc-vera' };
export const SSO = { email: 'sso.only@nordlicht.example', password: '', id: 'acc-sso' };
export const SAM = { email: 'sam.admin@suedwind.example', password: 'Suedwind-Demo-1', id: 'acc-sam' };
export const TOKENS = {
  annaRw: 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ',
  annaR: 'demo-anna-read-only-3Hs6PdJ1cR5yF0uE',
  samRw: 'demo-sam-read-write-9Wg4KtN2vZ7aQ1xM',
};

export function basic(who: { email: string; password: string }): string {
  return `Basic ${Buffer.from(`${who.email}:${who.password}`, 'utf8').toString('base64')}`;
}

/** The default fixture's partners, sites and rights, without accounts (no hashing: fast reloads). */
export function sitesOnly(): FleetFixture {
  return { ...defaultFixture(), accounts: [], tokens: [] };
}

/** A controller core without sockets: state, clock, authenticator and the REST core. */
export async function fleetCore(
  fixture: FleetFixture = defaultFixture(),
  log?: RequestLogger,
  options: { sitesPerBlock?: number } = {},
) {
  const clock = new VirtualClock({ start: T0 });
  const state = new FleetState(clock, FAST_SCRYPT);
  await state.load(fixture);
  const auth = new Authenticator(state);
  const api = createApiCore(state, auth, log, options);
  const call = (
    method: string,
    url: string,
    who?: { email: string; password: string },
    extra: Partial<ApiRequest> = {},
  ) => {
    const headers: Record<string, string | undefined> = { ...(extra.headers ?? {}) };
    if (who) headers['authorization'] = basic(who);
    const req: ApiRequest = { method, url, headers };
    if (extra.body) req.body = extra.body;
    return Promise.resolve(api(req));
  };
  return { clock, state, auth, api, call };
}

export function report(overrides: Partial<AttentionReport> = {}): AttentionReport {
  return {
    module: 'Backup',
    subject: 'Backup failed',
    severity: 'ERROR',
    at: T0,
    suppressed: 0,
    ...overrides,
  };
}

export function jsonBody(res: ApiResponse): unknown {
  if (res.body === undefined) throw new Error(`no body (status ${res.status})`);
  return JSON.parse(res.body);
}

export function postJson(value: unknown): Partial<ApiRequest> {
  return {
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(value), 'utf8'),
  };
}

const SCHEMA_DIR = new URL('../../../schemas/fleet/', import.meta.url);
let ajv: Ajv2020 | undefined;

/** Validates `value` against schemas/fleet/<name>.schema.json; throws with the errors when invalid. */
export function assertSchema(name: string, value: unknown): void {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: true });
    for (const file of readdirSync(SCHEMA_DIR))
      ajv.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')));
  }
  const validate = ajv.getSchema(`https://pbx-conformance.invalid/schemas/fleet/${name}.schema.json`);
  if (!validate) throw new Error(`no schema ${name}`);
  if (!validate(value))
    throw new Error(`${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`);
}
