import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { SYSTEM_FUNCTIONS_PATH } from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import { createMaintenanceHandler } from '../../../../simulators/pbx/maintenance/maintenance-handler.ts';
import { startWebServer } from '../../../../simulators/pbx/web/web-server.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { createSelfSignedTls } from '../../../../simulators/shared/http/self-signed-tls.ts';
import { createFixture } from './maintenance-fixture.ts';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('MAINT-REACHABILITY: interface A can be served over HTTPS with a certificate made at start', {
  skip: !hasOpenssl() && 'openssl is not installed',
}, async () => {
  const tls = await createSelfSignedTls();
  const certificate = new X509Certificate(tls.cert);
  assert.ok(certificate.checkHost('localhost'));
  assert.ok(certificate.checkIP('127.0.0.1'));
  assert.ok(certificate.verify(certificate.publicKey), 'self-signed');
  const f = createFixture();
  const web = await startWebServer({
    host: '127.0.0.1',
    port: 0,
    routes: [{ prefix: '/fp/7ce0d8df/api/v1', handle: createMaintenanceHandler(f.api) }],
    tls,
  });
  const agent = new Agent({ connect: { ca: tls.cert } });
  try {
    assert.match(web.url, /^https:/);
    const response = await request(`${web.url}${SYSTEM_FUNCTIONS_PATH}`, {
      headers: { authorization: `Bearer ${f.secret}` },
      dispatcher: agent,
    });
    assert.equal(response.statusCode, 200);
    assert.equal(((await response.body.json()) as { commands: string[] }).commands.length, 14);
  } finally {
    await agent.close();
    await closeServer(web.server);
    f.close();
  }
});
