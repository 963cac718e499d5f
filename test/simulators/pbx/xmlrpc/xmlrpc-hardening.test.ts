import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { xmlrpcAuthValue } from '../../../../simulators/pbx/xmlrpc/auth.ts';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_UNAUTHENTICATED_MAX_BODY_BYTES,
} from '../../../../simulators/pbx/xmlrpc/xmlrpc-handler.ts';
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
    const broken = `<?xml version="1.0"?><methodCall><methodName>Monitoring.GetMonitoringData</methodName><params><param><value><struct>${'<member>'.repeat(400)}`;
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

// Issue 20, item 2: a comment first, or `params` before `methodName`, hid the method name from the
// pre-scan, and such bodies were parsed in full without credentials (15-37 ms per 64 KiB).
const DATA_QUERY = '<methodName>Monitoring.GetMonitoringData</methodName>';
const MEMBERS = (count: number) =>
  `<params><param><value><struct>${'<member><name>m</name><value><i4>1</i4></value></member>'.repeat(count)}</struct></value></param></params>`;
const SIGNED_IN = `/xml-rpc?de.vendor.pbx.auth=${xmlrpcAuthValue('123', 'Pass123')}`;

test('xmlrpc: without valid credentials a body above 4 KiB is 413 whatever its shape', async () => {
  assert.equal(DEFAULT_UNAUTHENTICATED_MAX_BODY_BYTES, 4 * 1024);
  const shapes = {
    'comment first': `<?xml version="1.0"?><!-- x --><methodCall>${DATA_QUERY}${MEMBERS(1000)}</methodCall>`,
    'params first': `<?xml version="1.0"?><methodCall>${MEMBERS(1000)}${DATA_QUERY}</methodCall>`,
    'unknown method': `<?xml version="1.0"?><methodCall><methodName>x.y</methodName>${MEMBERS(1000)}</methodCall>`,
    'no-login method': methodCallXml('Monitoring.isActiveDirectoryEnabled', MEMBERS(1000).slice(8, -9)),
  };
  await withServer(async (server) => {
    for (const [shape, body] of Object.entries(shapes)) {
      for (const path of ['/xml-rpc', `/xml-rpc?de.vendor.pbx.auth=123:${'0'.repeat(128)}`]) {
        const raw = await rawRequest(server, { body, path });
        assert.equal(raw.status, 413, `${shape} ${path}`);
        assert.match(raw.body, /without valid credentials in URL parameter de\.vendor\.pbx\.auth/);
      }
      // A signed-in caller keeps the 64 KiB limit: the same body is parsed and answered.
      const signedIn = await rawRequest(server, { body, path: SIGNED_IN });
      assert.equal(signedIn.status, 200, shape);
    }
  });
});

test('xmlrpc: a small body without credentials is still parsed and answered, whatever its shape', async () => {
  await withServer(async (server) => {
    const paramsFirst = await rawRequest(server, {
      body: `<?xml version="1.0"?><methodCall>${MEMBERS(40)}${DATA_QUERY}</methodCall>`,
    });
    assert.equal(faultCode(paramsFirst.body), -32001);
    const commentFirst = await rawRequest(server, {
      body: methodCallXml('Monitoring.isActiveDirectoryEnabled').replace('?>', '?><!-- x -->'),
    });
    assert.match(commentFirst.body, /activeDirectoryEnabled/);
  });
});

test('xmlrpc: full parses without credentials draw on a budget; beyond it the answer is 429 with Retry-After', async () => {
  let now = 0;
  const server = await startXmlRpcTestServer({ unauthenticatedParseBytesPerSecond: 1000, now: () => now });
  try {
    const body = methodCallXml('Monitoring.isActiveDirectoryEnabled').replace(
      '?>',
      `?><!-- ${'x'.repeat(500)} -->`,
    );
    assert.ok(body.length > 500 && body.length < 1000);
    assert.match((await rawRequest(server, { body })).body, /activeDirectoryEnabled/);
    const refused = await rawRequest(server, { body });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    // A signed-in caller does not draw on it, and a data query refused from its name needs no parse.
    assert.match((await rawRequest(server, { body, path: SIGNED_IN })).body, /activeDirectoryEnabled/);
    assert.equal(
      faultCode((await rawRequest(server, { body: methodCallXml('Monitoring.GetMonitoringData') })).body),
      -32001,
    );
    now += 1000;
    assert.match((await rawRequest(server, { body })).body, /activeDirectoryEnabled/);
  } finally {
    await server.close();
  }
});
