import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import {
  renderFormat,
  renderLocalDocumentCached,
} from '../../../../simulators/pbx/snapshot/render/render-format.ts';
import {
  type CallOutcome,
  methodCallXml,
  rawRequest,
  startXmlRpcTestServer,
  type XmlRpcTestServer,
} from './xmlrpc-test-server.ts';

const GMD = 'Monitoring.GetMonitoringData';
const GMDX = 'Monitoring.GetMonitoringDataXML';
const AD = 'Monitoring.isActiveDirectoryEnabled';
const MiB = 1024 * 1024;

/** Computed here with node:crypto, independently of simulators/pbx/xmlrpc/auth.ts. */
const sha512 = (text: string) => createHash('sha512').update(Buffer.from(text, 'utf8')).digest('hex');
const authValue = (login: string, password: string) => `${login}:${sha512(`${login}*${sha512(password)}`)}`;
const authQuery = (login: string, password: string, param = 'de.vendor.pbx.auth') =>
  `?${param}=${encodeURIComponent(authValue(login, password))}`;

const VECTOR_123 =
  '123:81d8af78c98b153485f7d48e3437eb735ba37f0f013c5e06ba74536776c5945694e7cde71e2effbed7b5a1d1a4566fadcd847ef4098c234052fdfd288e8b6ced';
const VECTOR_ADMIN =
  'admin:5b49f112384aedb874cd6777bd396629b61ebed8c8ded2839e537df22d2a7288f6b42054e5f70d310fb587b74a7e52dc440eb74f820a0b47265cc3a67a1b38ee';
const AUTH = `?de.vendor.pbx.auth=${VECTOR_123}`;

async function withServer(
  run: (server: XmlRpcTestServer) => Promise<void>,
  options?: Parameters<typeof startXmlRpcTestServer>[0],
) {
  const server = await startXmlRpcTestServer(options);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function resultOf(outcome: CallOutcome): unknown {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return outcome.kind === 'result' ? outcome.value : undefined;
}

function faultCodeOf(outcome: CallOutcome): number {
  assert.equal(outcome.kind, 'fault', JSON.stringify(outcome));
  return outcome.kind === 'fault' ? outcome.faultCode : Number.NaN;
}

function agentText(server: XmlRpcTestServer): string {
  return renderFormat(server.cache.get(), 'checkmk', { renderError: false, jsonError: false }).toString(
    'utf8',
  );
}

/** Fault code of a raw `methodResponse` body, or undefined when it holds no fault. */
function rawFaultCode(body: string): number | undefined {
  const doc = new XMLParser({ ignoreDeclaration: true }).parse(body);
  const members = doc?.methodResponse?.fault?.value?.struct?.member;
  if (!Array.isArray(members)) return undefined;
  const code = members.find((m: { name: string }) => m.name === 'faultCode');
  return code?.value?.int;
}

test('XMLRPC-AUTH-PARAM: both credential test vectors are accepted, with a raw or a %3A colon', async () => {
  await withServer(async (s) => {
    for (const vector of [VECTOR_123, VECTOR_ADMIN]) {
      for (const value of [vector, vector.replace(':', '%3A'), vector.replace(':', '%3a')]) {
        const outcome = await s.call(GMD, [{}], `?de.vendor.pbx.auth=${value}`);
        assert.equal(typeof (resultOf(outcome) as { data: unknown }).data, 'string', value);
      }
    }
  });
});

test('XMLRPC-ERR-BAD-LOGIN: a wrong secret or an unknown login gets a fault and no data', async () => {
  await withServer(async (s) => {
    for (const method of [GMD, GMDX]) {
      assert.equal(faultCodeOf(await s.call(method, [{}], authQuery('123', 'pass123'))), -32002);
      assert.equal(faultCodeOf(await s.call(method, [{}], authQuery('nobody', 'Pass123'))), -32002);
      assert.equal(faultCodeOf(await s.call(method, [{}], '?de.vendor.pbx.auth=123')), -32002);
    }
  });
});

test('XMLRPC-ERR-NO-LOGIN: a data query without the credentials parameter gets a fault and no data', async () => {
  await withServer(async (s) => {
    for (const method of [GMD, GMDX]) {
      assert.equal(faultCodeOf(await s.call(method, [{}])), -32001);
      assert.equal(faultCodeOf(await s.call(method, [{}], '?de.vendor.pbx.auth=')), -32001);
      assert.equal(faultCodeOf(await s.call(method, [{}], `?other=${VECTOR_123}`)), -32001);
    }
  });
});

test('XMLRPC-AUTH-PARAM: a renamed credentials parameter is read under its new name only', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.monitoring.authParam = 'x.auth';
    });
    assert.equal(faultCodeOf(await s.call(GMD, [{}], AUTH)), -32001);
    assert.equal(
      resultOf(await s.call(GMDX, [{}], authQuery('123', 'Pass123', 'x.auth'))) !== undefined,
      true,
    );
  });
});

test('XMLRPC-AUTH-BEFORE-HANDLER: a failed login is logged by name and the handler never runs', async () => {
  await withServer(async (s) => {
    await s.call(GMD, [{}], authQuery('123', 'wrong'));
    const entries = s.store.moduleLog().filter((e) => e.source === 'xmlrpc');
    assert.deepEqual(
      entries.map((e) => e.message),
      ['authentication failed for login "123"'],
    );
    assert.ok(!JSON.stringify(entries).includes(authValue('123', 'wrong').split(':')[1]!));
    await s.call(GMD, [{}], AUTH);
    assert.ok(s.store.moduleLog().some((e) => e.message === `${GMD} called`));
  });
});

test('XMLRPC-GMD-COMPLETE-TEXT: GetMonitoringData returns the whole agent text whatever useLocalChecks is', async () => {
  await withServer(async (s) => {
    const expected = agentText(s);
    assert.match(expected, /^<<<monitor_agent>>>/);
    assert.match(expected, /<<<local/);
    const inputs = [{}, { useLocalChecks: true }, { useLocalChecks: false }, { useLocalChecks: 'true' }];
    for (const input of [...inputs, { useLocalChecks: '1' }, { useLocalChecks: 'no' }]) {
      assert.deepEqual(resultOf(await s.call(GMD, [input], AUTH)), { data: expected }, JSON.stringify(input));
    }
  });
});

test('XMLRPC-GMDX-RETURN: GetMonitoringDataXML returns the local document of the shared snapshot', async () => {
  await withServer(async (s) => {
    const value = resultOf(await s.call(GMDX, [{}], AUTH)) as { data: string };
    assert.deepEqual(Object.keys(value), ['data']);
    assert.equal(value.data, renderLocalDocumentCached(s.cache.get()));
    const doc = new XMLParser({ ignoreDeclaration: true }).parse(value.data);
    assert.deepEqual(Object.keys(doc), ['local']);
  });
});

test('XMLRPC-AD-RETURN: isActiveDirectoryEnabled answers a string member only, without credentials', async () => {
  await withServer(async (s) => {
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
    s.store.update((state) => {
      state.directory.activeDirectoryEnabled = true;
    });
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'true' });
    const raw = await rawRequest(s, { body: methodCallXml(AD) });
    assert.equal(raw.status, 200);
    assert.match(raw.body, /<name>activeDirectoryEnabled<\/name><value><string>true<\/string><\/value>/);
    assert.doesNotMatch(raw.body, /<boolean>/);
  });
});

test('XMLRPC-AD-TILE-OFF, XMLRPC-AD-UNLICENSED: isActiveDirectoryEnabled answers with the tile off and no licence', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.monitoring.tileOn = false;
      state.licence.valid = false;
    });
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
  });
});

test('XMLRPC-GMD-TILE-OFF, XMLRPC-GMDX-TILE-OFF: with the tile off the data queries return empty payloads', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.monitoring.tileOn = false;
    });
    assert.deepEqual(resultOf(await s.call(GMD, [{}], AUTH)), { data: '' });
    assert.deepEqual(resultOf(await s.call(GMDX, [{}], AUTH)), { data: '<local></local>' });
    assert.equal(faultCodeOf(await s.call(GMD, [{}])), -32001);
  });
});

test('XMLRPC-GMD-UNLICENSED, XMLRPC-GMDX-UNLICENSED: without licence the data queries return empty payloads', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.licence.valid = false;
    });
    assert.deepEqual(resultOf(await s.call(GMD, [{}], AUTH)), { data: '' });
    assert.deepEqual(resultOf(await s.call(GMDX, [{}], AUTH)), { data: '<local></local>' });
    assert.equal(faultCodeOf(await s.call(GMDX, [{}], authQuery('123', 'bad'))), -32002);
  });
});

test('XMLRPC-INSTANCE-RENAME, XMLRPC-INSTANCE-RENAME-OLD: a renamed instance answers under the new name only', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.monitoring.instanceName = 'PbxMon';
    });
    assert.equal(
      typeof (resultOf(await s.call('PbxMon.GetMonitoringData', [{}], AUTH)) as { data: unknown }).data,
      'string',
    );
    assert.deepEqual(resultOf(await s.call('PbxMon.isActiveDirectoryEnabled', [{}])), {
      activeDirectoryEnabled: 'false',
    });
    for (const old of [GMD, GMDX, AD]) assert.equal(faultCodeOf(await s.call(old, [{}], AUTH)), -32601);
  });
});

test('XMLRPC-ERR-UNKNOWN-METHOD: an unknown method is HTTP 200 with fault -32601, not a 404', async () => {
  await withServer(async (s) => {
    const raw = await rawRequest(s, { body: methodCallXml('Monitoring.GetMonitoringDatas') });
    assert.equal(raw.status, 200);
    assert.match(String(raw.headers['content-type']), /^text\/xml/);
    assert.equal(rawFaultCode(raw.body), -32601);
  });
});

test('XMLRPC-ERR-COLLECTION: a collection error yields an empty struct and an error in the module log', async () => {
  await withServer(async (s) => {
    s.store.injectFault('collection-error');
    assert.deepEqual(resultOf(await s.call(GMD, [{}], AUTH)), {});
    assert.deepEqual(resultOf(await s.call(GMDX, [{}], AUTH)), {});
    const errors = s.store.moduleLog().filter((e) => e.level === 'error' && e.source === 'xmlrpc');
    assert.equal(errors.length, 2);
    assert.match(errors[0]!.message, /collecting monitoring data failed/);
  });
});

test('XMLRPC-ERR-COLLECTION: a renderer error yields an empty struct for GetMonitoringData', async () => {
  await withServer(async (s) => {
    s.store.injectFault('render-error');
    assert.deepEqual(resultOf(await s.call(GMD, [{}], AUTH)), {});
    assert.ok(s.store.moduleLog().some((e) => e.level === 'error' && e.source === 'xmlrpc'));
  });
});

test('XMLRPC-UNSPEC-PARAMS: no params act as an empty struct and a non-struct first param is -32602', async () => {
  await withServer(async (s) => {
    assert.deepEqual(resultOf(await s.call(AD, [])), { activeDirectoryEnabled: 'false' });
    assert.equal(faultCodeOf(await s.call(GMD, ['x'], AUTH)), -32602);
    assert.equal(faultCodeOf(await s.call(AD, [[1, 2]])), -32602);
  });
});

test('malformed XML gets the parse-error fault -32700 with HTTP 200', async () => {
  await withServer(async (s) => {
    const raw = await rawRequest(s, {
      body: '<methodCall><methodName>Monitoring.isActiveDirectoryEnabled</methodName>',
    });
    assert.equal(raw.status, 200);
    assert.equal(rawFaultCode(raw.body), -32700);
  });
});

test('a body that is not a methodCall gets the invalid-request fault -32600', async () => {
  await withServer(async (s) => {
    const raw = await rawRequest(s, { body: '<methodResponse><params/></methodResponse>' });
    assert.equal(raw.status, 200);
    assert.equal(rawFaultCode(raw.body), -32600);
  });
});

test('billion laughs is refused without expansion and memory stays bounded', async () => {
  await withServer(async (s) => {
    const entities = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${i === 0 ? 'lol' : `&lol${i};`.repeat(10)}">`,
    ).join('\n');
    const body = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${entities}\n]>\n${methodCallXml('&lol9;')}`;
    const before = process.memoryUsage().rss;
    const raw = await rawRequest(s, { body });
    assert.equal(raw.status, 200);
    assert.equal(rawFaultCode(raw.body), -32700);
    assert.ok(process.memoryUsage().rss - before < 50 * MiB);
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
  });
});

test('a streamed 100 MB body is cut off with 413 and memory stays bounded', async () => {
  await withServer(async (s) => {
    const before = process.memoryUsage().rss;
    const raw = await rawRequest(s, { stream: { chunk: Buffer.alloc(64 * 1024, 0x20), count: 1600 } });
    assert.equal(raw.status, 413);
    assert.equal(raw.headers.connection, 'close');
    assert.ok(process.memoryUsage().rss - before < 50 * MiB);
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
  });
});

test('a declared Content-Length above the limit is refused with 413 before reading', async () => {
  await withServer(async (s) => {
    const raw = await rawRequest(s, {
      headers: { 'content-length': 100 * MiB },
      stream: { chunk: Buffer.alloc(64 * 1024, 0x20), count: 1600 },
    });
    assert.equal(raw.status, 413);
  });
});

test('a body just under the limit is read and parsed', async () => {
  await withServer(
    async (s) => {
      const body = methodCallXml(AD);
      const padded = body.replace('<methodCall>', `<methodCall>${' '.repeat(4096 - body.length)}`);
      assert.equal(Buffer.byteLength(padded), 4096);
      const raw = await rawRequest(s, { body: padded });
      assert.equal(raw.status, 200);
      assert.equal(rawFaultCode(raw.body), undefined);
      const tooBig = await rawRequest(s, { body: `${padded} ` });
      assert.equal(tooBig.status, 413);
    },
    { maxBodyBytes: 4096 },
  );
});

test('a slow body times out with 408 and the server keeps answering', async () => {
  await withServer(
    async (s) => {
      const body = methodCallXml(AD);
      const pieces = [body.slice(0, 20), body.slice(20, 40), body.slice(40, 60), body.slice(60)];
      const raw = await rawRequest(s, { trickle: { pieces, pauseMs: 150 } });
      assert.equal(raw.status, 408);
      assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
    },
    { bodyTimeoutMs: 200 },
  );
});

test('content types other than text/xml or application/xml in UTF-8 are refused with 415', async () => {
  await withServer(async (s) => {
    const body = methodCallXml(AD);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/xml; charset=iso-8859-1']) {
      assert.equal((await rawRequest(s, { body, headers: { 'content-type': type } })).status, 415, type);
    }
    for (const type of [
      'text/xml; charset=UTF-8',
      'text/xml;charset="utf-8"',
      'application/xml',
      'TEXT/XML',
    ]) {
      assert.equal((await rawRequest(s, { body, headers: { 'content-type': type } })).status, 200, type);
    }
  });
});

test('methods other than POST get 405 with Allow: POST and other paths 404', async () => {
  await withServer(async (s) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const raw = await rawRequest(s, { method, body: '' });
      assert.equal(raw.status, 405, method);
      assert.equal(raw.headers.allow, 'POST');
    }
    assert.equal((await rawRequest(s, { path: '/xml-rpc/extra', body: methodCallXml(AD) })).status, 404);
  });
});

const visibleText = (maxLength: number) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength })
    .filter((t) => !/[\u0000-\u001f\u007f-\u009f]/.test(t));

test('XMLRPC-AUTH-PARAM: generated users sign in with an independently computed value', async () => {
  await withServer(async (s) => {
    await fc.assert(
      fc.asyncProperty(
        visibleText(16),
        fc.string({ unit: 'grapheme', maxLength: 24 }),
        async (login, password) => {
          s.store.update((state) => {
            state.users = [{ login, passwordSha512: sha512(password), admin: false }];
          });
          const value = resultOf(await s.call(GMDX, [{}], authQuery(login, password))) as { data: unknown };
          assert.equal(typeof value.data, 'string');
        },
      ),
      { numRuns: 25 },
    );
  });
});

test('XMLRPC-ERR-BAD-LOGIN: a secret with one hex digit changed is rejected', async () => {
  await withServer(async (s) => {
    await fc.assert(
      fc.asyncProperty(fc.nat(127), fc.integer({ min: 1, max: 15 }), async (position, delta) => {
        const [login, secret] = VECTOR_123.split(':') as [string, string];
        const digit = ((Number.parseInt(secret[position]!, 16) + delta) % 16).toString(16);
        const mutated = `${login}:${secret.slice(0, position)}${digit}${secret.slice(position + 1)}`;
        assert.equal(faultCodeOf(await s.call(GMD, [{}], `?de.vendor.pbx.auth=${mutated}`)), -32002);
      }),
      { numRuns: 25 },
    );
  });
});

test('XMLRPC-ERR-UNKNOWN-METHOD: generated method names other than the three get fault -32601', async () => {
  await withServer(async (s) => {
    const known = new Set([GMD, GMDX, AD]);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          visibleText(40),
          fc.constantFrom(
            'GetMonitoringData',
            'Monitoring.getmonitoringdata',
            'monitoring.GetMonitoringData',
          ),
          visibleText(12).map((p) => `${p}.GetMonitoringData`),
        ),
        async (name) => {
          fc.pre(!known.has(name));
          assert.equal(faultCodeOf(await s.call(name, [{}], AUTH)), -32601);
        },
      ),
      { numRuns: 25 },
    );
  });
});

test('XMLRPC-NOT-HOSTS-LIST: XML-RPC answers callers that the monitoring-hosts list does not name', async () => {
  await withServer(async (s) => {
    s.store.update((state) => {
      state.monitoring.hosts = [{ entry: '192.0.2.0/24', active: true }];
    });
    assert.equal(typeof (resultOf(await s.call(GMD, [{}], AUTH)) as { data: unknown }).data, 'string');
    assert.deepEqual(resultOf(await s.call(AD, [{}])), { activeDirectoryEnabled: 'false' });
  });
});
