import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { request } from 'undici';
import { parse } from 'yaml';
import { httpEndpointControl, start } from '../../../simulators/customer-endpoint/index.ts';
import { ControlError } from '../../../simulators/shared/control/control-error.ts';

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await request(url, { headers });
  return { status: response.statusCode, body: await response.body.text(), headers: response.headers };
}

async function raw(url: string, method: string, body?: string) {
  const response = await request(url, {
    method: method as 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.statusCode, body: await response.body.text() };
}

test('the control plane configures answers per path and as fallback, and reads the recordings back', async (t) => {
  const ep = await start({ controlPlane: true });
  t.after(() => ep.close());
  assert.ok(ep.urls.control);
  const control = httpEndpointControl(ep.urls.control);
  assert.deepEqual(await control.info(), { base: ep.urls.base, control: ep.urls.control, certificate: null });

  await control.putFallback({ body: '{"name":"Anna"}' });
  await control.putRoute({
    path: '/bytes',
    behaviour: {
      bodyBase64: Buffer.from([0x4d, 0xfc, 0x6c]).toString('base64'),
      contentType: 'text/plain; charset=iso-8859-1',
    },
  });
  await control.putRoute({ path: '/gone', behaviour: { status: 410, body: 'gone' } });
  assert.equal((await get(`${ep.urls.base}/any?tel=+491`)).body, '{"name":"Anna"}');
  const latin1 = await request(`${ep.urls.base}/bytes`);
  assert.deepEqual([...Buffer.from(await latin1.body.arrayBuffer())], [0x4d, 0xfc, 0x6c]);
  assert.equal((await get(`${ep.urls.base}/gone`)).status, 410);

  const config = await control.getConfig();
  assert.equal(config.routes?.['/bytes']?.bodyBase64, Buffer.from([0x4d, 0xfc, 0x6c]).toString('base64'));
  await control.deleteRoute({ path: '/gone' });
  assert.equal((await get(`${ep.urls.base}/gone`)).status, 200);
  await assert.rejects(
    control.deleteRoute({ path: '/gone' }),
    (e: unknown) => e instanceof ControlError && e.status === 404 && e.code === 'not_found',
  );

  const all = await control.getRequests();
  assert.deepEqual(
    all.map((r) => [r.method, r.target, r.status]),
    [
      ['GET', '/any?tel=+491', 200],
      ['GET', '/bytes', 200],
      ['GET', '/gone', 410],
      ['GET', '/gone', 200],
    ],
  );
  assert.deepEqual(
    (await control.getRequests({ since: all[1]?.seq })).map((r) => r.target),
    ['/gone', '/gone'],
  );
  await control.clearRequests();
  assert.deepEqual(await control.getRequests(), []);
});

test('recordings carry the body as text and as base64, and non-UTF-8 bodies as base64 only', async (t) => {
  const ep = await start({ controlPlane: true });
  t.after(() => ep.close());
  const post = async (body: Buffer) => {
    const r = await request(`${ep.urls.base}/p`, { method: 'POST', body });
    await r.body.dump();
  };
  await post(Buffer.from('{"query":"+491"}'));
  await post(Buffer.from([0xff, 0xfe, 0x41]));
  const records = JSON.parse((await get(`${ep.urls.control}/requests`)).body) as {
    body: string | null;
    bodyBase64: string;
  }[];
  assert.deepEqual(
    records.map((r) => [r.body, r.bodyBase64]),
    [
      ['{"query":"+491"}', Buffer.from('{"query":"+491"}').toString('base64')],
      [null, Buffer.from([0xff, 0xfe, 0x41]).toString('base64')],
    ],
  );
});

test('bad configurations get 400 with one line naming the field, and leave the configuration as it was', async (t) => {
  const ep = await start({ controlPlane: true, config: { fallback: { body: 'kept' } } });
  t.after(() => ep.close());
  const control = ep.urls.control as string;
  const cases: [string, string, unknown, RegExp][] = [
    ['PUT', '/config', { fallback: { status: 700 } }, /fallback\.status .*<=599/],
    [
      'PUT',
      '/config',
      { fallback: { body: 'a', bodyBase64: 'YQ==' } },
      /must not have both body and bodyBase64/,
    ],
    ['PUT', '/config', { routes: { nopath: {} } }, /routes/],
    [
      'PUT',
      '/fallback',
      { headers: [['X-A', 'b\r\nInjected: 1']] },
      /headers\[0\]\[1\] .*must match pattern/,
    ],
    ['PUT', '/fallback', { colour: 'red' }, /unknown field "colour"/],
    ['PUT', '/fallback', { auth: { scheme: 'Basic', username: 'a', password: 'b', realm: 'x"y' } }, /realm/],
    ['PUT', '/routes/lookup', {}, /must start with \//],
    ['POST', '/requests/wait', { count: 0 }, /count must be an integer from 1 to 1000, got 0/],
  ];
  for (const [method, path, body, message] of cases) {
    const answer = await raw(`${control}${path}`, method, JSON.stringify(body));
    assert.equal(answer.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${answer.body}`);
    assert.match((JSON.parse(answer.body) as { message: string }).message, message);
  }
  assert.equal((await raw(`${control}/config`, 'PUT', '{not json')).status, 400);
  assert.equal((await get(`${control}/requests?since=-1`)).status, 400);
  assert.equal((await get(`${control}/nowhere`)).status, 404);
  assert.equal((await raw(`${control}/config`, 'DELETE')).status, 405);
  assert.equal((await get(`${ep.urls.base}/x`)).body, 'kept');
});

test('a body beyond 2 MiB gets 413 and the control plane keeps serving', async (t) => {
  const ep = await start({ controlPlane: true });
  t.after(() => ep.close());
  const big = JSON.stringify({ fallback: { body: 'x'.repeat(3 * 1024 * 1024) } });
  const answer = await raw(`${ep.urls.control}/config`, 'PUT', big);
  assert.equal(answer.status, 413);
  assert.equal((await get(`${ep.urls.control}/info`)).status, 200);
});

test('wait answers once enough requests arrived, and 408 when they do not come in time', async (t) => {
  const ep = await start({ controlPlane: true });
  t.after(() => ep.close());
  const control = httpEndpointControl(ep.urls.control as string);
  const waiting = control.waitForRequests({ count: 2, timeoutMs: 5000 });
  await get(`${ep.urls.base}/one`);
  await get(`${ep.urls.base}/two`);
  assert.deepEqual(
    (await waiting).map((r) => r.path),
    ['/one', '/two'],
  );
  await assert.rejects(
    control.waitForRequests({ count: 5, timeoutMs: 50 }),
    (e: unknown) => e instanceof ControlError && e.status === 408 && e.code === 'timeout',
  );
});

test('reset goes back to the start configuration and forgets recordings', async (t) => {
  const ep = await start({ controlPlane: true, config: { fallback: { body: 'start' } } });
  t.after(() => ep.close());
  const control = httpEndpointControl(ep.urls.control as string);
  await control.putConfig({ fallback: { body: 'changed', status: 202 } });
  assert.deepEqual(await get(`${ep.urls.base}/`).then((r) => [r.status, r.body]), [202, 'changed']);
  await control.reset();
  assert.deepEqual(await control.getRequests(), []);
  assert.deepEqual(await get(`${ep.urls.base}/`).then((r) => [r.status, r.body]), [200, 'start']);
});

test('an HTTPS endpoint for other host names serves a certificate naming exactly those (RESOLVER-TLS-NO-HOSTNAME)', async (t) => {
  const ep = await start({ tls: { hosts: ['another-host.invalid'] }, controlPlane: true });
  t.after(() => ep.close());
  assert.match(ep.urls.base, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(ep.certificate);
  const certificate = new X509Certificate(ep.certificate);
  assert.equal(certificate.subjectAltName, 'DNS:another-host.invalid');
  const info = JSON.parse((await get(`${ep.urls.control}/info`)).body) as { certificate: string };
  assert.equal(info.certificate, ep.certificate);
});

test('answers on the wire validate against the generated OpenAPI document', async (t) => {
  const document = parse(
    readFileSync(new URL('../../../schemas/customer-endpoint-control.openapi.yaml', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...document, $id: 'urn:pbx-conformance:endpoint-control-test' });
  const check = (name: string, value: unknown) => {
    const validate = ajv.getSchema(`urn:pbx-conformance:endpoint-control-test#/components/schemas/${name}`);
    assert.ok(validate, name);
    assert.ok(validate(value), `${name}: ${ajv.errorsText(validate.errors)}`);
  };
  const ep = await start({ controlPlane: true, config: { routes: { '/x': { status: 201, body: 'y' } } } });
  t.after(() => ep.close());
  await get(`${ep.urls.base}/x?tel=1`);
  const control = ep.urls.control as string;
  check('Info', JSON.parse((await get(`${control}/info`)).body));
  check('Config', JSON.parse((await get(`${control}/config`)).body));
  const recorded = JSON.parse((await get(`${control}/requests`)).body) as unknown[];
  assert.equal(recorded.length, 1);
  check('RecordedRequest', recorded[0]);
  const refused = await raw(`${control}/fallback`, 'PUT', '{"status": 99}');
  check('Error', JSON.parse(refused.body));
});

test('in process, the derived client answers and refuses as over HTTP, without a control listener', async (t) => {
  const ep = await start();
  t.after(() => ep.close());
  assert.equal(ep.urls.control, undefined);
  assert.deepEqual(await ep.client.info(), { base: ep.urls.base, control: '', certificate: null });
  await ep.client.putRoute({ path: '/x', behaviour: { status: 201, body: 'a' } });
  assert.deepEqual(await get(`${ep.urls.base}/x`).then((r) => [r.status, r.body]), [201, 'a']);
  assert.deepEqual(
    (await ep.client.getRequests()).map((r) => [r.path, r.status]),
    [['/x', 201]],
  );
  await assert.rejects(
    ep.client.putRoute({ path: 'lookup', behaviour: {} }),
    (e: unknown) => e instanceof ControlError && e.status === 400 && /must start with \//.test(e.message),
  );
  await assert.rejects(
    ep.client.putFallback({ status: 700 }),
    (e: unknown) => e instanceof ControlError && e.status === 400 && /status .*<=599/.test(e.message),
  );
  await assert.rejects(
    ep.client.waitForRequests({ count: 5, timeoutMs: 20 }),
    (e: unknown) => e instanceof ControlError && e.status === 408 && e.code === 'timeout',
  );
});
