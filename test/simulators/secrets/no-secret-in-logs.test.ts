import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  attentionHistory,
  defaultFixture,
  start as startFleet,
} from '../../../simulators/fleet-controller/index.ts';
import { MAINTENANCE_BASE_PATH, start as startPbx } from '../../../simulators/pbx/index.ts';
import { FAST_SCRYPT } from '../fleet-controller/fleet-test-kit.ts';

// Issue 12, defect 2 (and the house rule on secrets): whatever credentials a client sends, good or
// bad, no part of a secret (8 characters or more) shows in any log the simulator keeps: the PBX
// module log and UI warnings, the resolver's search log, the fleet request log and history.

const sha512 = (text: string) => createHash('sha512').update(text, 'utf8').digest('hex');
const xmlrpcAuth = (login: string, password: string) => `${login}:${sha512(`${login}*${sha512(password)}`)}`;

/** Every substring of 8 characters of `secret` (the shortest part the property forbids). */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) out.push(secret.slice(i, i + 8));
  return out;
}

const secretArb = fc.stringMatching(/^[A-Za-z0-9!#%*+=?@^_~-]{12,40}$/);

test('no 8-character piece of a generated secret appears in any simulator log, on every face', async () => {
  const fleetLog: unknown[] = [];
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  const fleet = await startFleet({
    scryptCost: FAST_SCRYPT,
    fixture: defaultFixture(),
    log: (e) => fleetLog.push(e),
  });
  const xmlrpc = `${pbx.urls.web}/xml-rpc`;
  // Every log of both simulators, as their control planes and front doors give them.
  const logs = async () =>
    JSON.stringify([
      await pbx.control.moduleLog({}),
      await pbx.control.warnings(),
      await pbx.control.resolverSearchLog({ expert: true }),
      fleetLog,
      attentionHistory(fleet),
    ]);
  const postXml = (query: string, method = 'Monitoring.GetMonitoringData') =>
    fetch(`${xmlrpc}?de.vendor.pbx.auth=${encodeURIComponent(query)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params/></methodCall>`,
    }).then((r) => r.text());
  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  const mcpCall = (token: string) =>
    fetch(fleet.urls.mcp, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    }).then((r) => r.text());
  let n = 0;
  try {
    await fc.assert(
      fc.asyncProperty(secretArb, fc.stringMatching(/^[a-z][a-z0-9]{2,10}$/), async (secret, login) => {
        n++;
        const earlier = await logs();
        fc.pre(!pieces(secret).some((p) => earlier.includes(p)));
        // XML-RPC: the password, the auth value, and the usual mistakes with both.
        await pbx.control.setUsers([
          { login: '123', password: 'Pass123', admin: true },
          { login, password: secret },
        ]);
        const good = xmlrpcAuth(login, secret);
        const sent = [
          good,
          `${login}:${sha512(secret)}`,
          `${secret}:x`,
          `${login}:${secret}`,
          secret,
          `${good}x`,
          `${good.slice(0, 90)}:${secret}`,
        ];
        for (const value of sent) await postXml(value);
        // Maintenance API: a minted token, used right and wrong.
        const created = await pbx.control.createToken({ label: `t${n}`, actor: '123' });
        const list = `${pbx.urls.web}${MAINTENANCE_BASE_PATH}/system-functions`;
        for (const token of [created.secret, `${created.secret}x`, secret, `${secret}${created.secret}`]) {
          await fetch(list, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
        }
        // Fleet REST: a generated password, signing in right and wrong; MCP: a generated token.
        const email = `${login}${n}@nordlicht.example`;
        const account = await fleet.control.addAccount({
          email,
          name: login,
          role: 'Admin',
          partnerId: 'p-nordlicht',
          password: secret,
        });
        for (const auth of [
          basic(email, secret),
          basic(email, `${secret}x`),
          basic(secret, secret),
          `Bearer ${secret}`,
        ]) {
          await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: auth } }).then((r) =>
            r.text(),
          );
        }
        const issued = await fleet.control.issueToken({ accountId: account.id, level: 'read' });
        for (const token of [issued.token, `${issued.token}x`, secret]) await mcpCall(token);
        const text = await logs();
        for (const s of [secret, good.slice(login.length + 1), created.secret, issued.token]) {
          const leaked = pieces(s).find((p) => text.includes(p));
          assert.equal(leaked, undefined, `a piece of a secret is in a log: ${leaked}`);
        }
      }),
      { numRuns: 12, seed: 1212, includeErrorInReport: true },
    );
  } finally {
    await fleet.close();
    await pbx.close();
  }
});
