import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { DEFAULT_MAX_BODY_BYTES } from '../../../../simulators/pbx/xmlrpc/xmlrpc-handler.ts';
import {
  methodCallXml,
  rawRequest,
  startXmlRpcTestServer,
  type XmlRpcTestServer,
} from './xmlrpc-test-server.ts';

// Issue 12, defects 1, 2 and 5: malformed bytes, credentials before parsing, the body limit, and
// no part of a credential in the module log.

const sha512 = (text: string) => createHash('sha512').update(Buffer.from(text, 'utf8')).digest('hex');

async function withServer(run: (server: XmlRpcTestServer) => Promise<void>) {
  const server = await startXmlRpcTestServer();
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function faultCode(body: string): number {
  const match = /<name>faultCode<\/name>\s*<value>\s*<int>(-?\d+)<\/int>/.exec(body);
  assert.ok(match, `no fault in: ${body.slice(0, 300)}`);
  return Number(match[1]);
}

test('xmlrpc: a NUL byte as the whole body is HTTP 200 with the parse fault -32700', async () => {
  await withServer(async (server) => {
    const raw = await rawRequest(server, { body: Buffer.from([0]) });
    assert.equal(raw.status, 200);
    assert.equal(faultCode(raw.body), -32700);
  });
});

test('xmlrpc: control characters inside a methodCall are the parse fault -32700', async () => {
  await withServer(async (server) => {
    for (const body of [
      '<methodCall>\x00</methodCall>',
      '<methodCall><methodName>Monitoring.isActiveDirectoryEnabled\x01</methodName></methodCall>',
      '<?xml version="1.0"?><methodCall><methodName>x\x1b[31m</methodName><params/></methodCall>',
    ]) {
      const raw = await rawRequest(server, { body });
      assert.equal(raw.status, 200, JSON.stringify(body));
      assert.equal(faultCode(raw.body), -32700, JSON.stringify(body));
    }
  });
});

test('xmlrpc: the credentials are checked before a data query body is parsed', async () => {
  await withServer(async (server) => {
    // Not well formed after the method name: without credentials the answer is the login fault,
    // so the body was never parsed.
    const broken = `<?xml version="1.0"?><methodCall><methodName>Monitoring.GetMonitoringData</methodName><params><param><value><struct>${'<member>'.repeat(2000)}`;
    const missing = await rawRequest(server, { body: broken });
    assert.equal(faultCode(missing.body), -32001);
    const bad = await rawRequest(server, {
      body: broken,
      path: `/xml-rpc?de.vendor.pbx.auth=123:${'0'.repeat(128)}`,
    });
    assert.equal(faultCode(bad.body), -32002);
    // isActiveDirectoryEnabled needs no credentials, so its body is parsed.
    const ad = await rawRequest(server, { body: methodCallXml('Monitoring.isActiveDirectoryEnabled') });
    assert.match(ad.body, /activeDirectoryEnabled/);
  });
});

test('xmlrpc: the body limit is 64 KiB, a larger body is 413', async () => {
  assert.equal(DEFAULT_MAX_BODY_BYTES, 64 * 1024);
  await withServer(async (server) => {
    const raw = await rawRequest(server, { body: Buffer.alloc(64 * 1024 + 1, 0x20) });
    assert.equal(raw.status, 413);
  });
});

test('xmlrpc: a failed login logs the login id and a reason, never any part of the credential', async () => {
  await withServer(async (server) => {
    const secret = sha512('not the secret');
    const values = [`123:${secret.slice(0, 96)}:x`, 'Pass123:x', `123:${secret}`, `${secret}`];
    for (const value of values) {
      await rawRequest(server, {
        body: methodCallXml('Monitoring.GetMonitoringData'),
        path: `/xml-rpc?de.vendor.pbx.auth=${encodeURIComponent(value)}`,
      });
    }
    const log = JSON.stringify(server.store.moduleLog());
    for (const needle of ['Pass123', secret.slice(0, 8), secret.slice(40, 48), secret.slice(100, 108)]) {
      assert.ok(!log.includes(needle), `log holds ${needle}: ${log}`);
    }
    // The one known login with a wrong secret is named.
    assert.match(log, /login \\?"123\\?"/);
  });
});
