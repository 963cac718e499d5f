import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { EndpointCore } from '../../../simulators/customer-endpoint/answer-request.ts';
import { start } from '../../../simulators/customer-endpoint/index.ts';

const run = promisify(execFile);

function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('the core answers by route, compresses, and reads a lookup number with + as a space', () => {
  const core = new EndpointCore({
    routes: { '/z': { body: 'hello', compression: 'gzip', contentType: null } },
    fallback: { lookup: { records: { '+491': 'plus', ' 491': 'space' } } },
  });
  const z = core.answer({ method: 'GET', target: '/z?a=1', headers: [], body: Buffer.alloc(0) });
  assert.equal(gunzipSync(z.body).toString(), 'hello');
  assert.deepEqual(z.headers, [['Content-Encoding', 'gzip']]);
  const plus = core.answer({ method: 'GET', target: '/l?tel=+491', headers: [], body: Buffer.alloc(0) });
  assert.equal(plus.body.toString(), 'space');
  const encoded = core.answer({ method: 'GET', target: '/l?tel=%2B491', headers: [], body: Buffer.alloc(0) });
  assert.equal(encoded.body.toString(), 'plus');
  const post = core.answer({
    method: 'POST',
    target: '/l',
    headers: [],
    body: Buffer.from('{"query":"+491"}'),
  });
  assert.equal(post.body.toString(), 'plus');
  const missing = core.answer({ method: 'POST', target: '/l', headers: [], body: Buffer.from('not json') });
  assert.equal(missing.body.toString(), '{}');
});

test('every request is recorded exactly: raw target, header order and casing, body', async (t) => {
  const ep = await start({ config: { fallback: { status: 201, body: 'ok', contentType: 'text/plain' } } });
  t.after(() => ep.close());
  const port = Number(new URL(ep.urls.base).port);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(
        'POST /p%41th?q=+1&x=%2B HTTP/1.1\r\nHost: h\r\nX-MiXeD: One\r\nx-mixed: two\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello',
      );
    });
    let data = '';
    socket.on('data', (d) => {
      data += d.toString();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  assert.match(raw, /^HTTP\/1\.1 201/);
  const [record] = ep.control.requests();
  assert.ok(record);
  assert.equal(record.method, 'POST');
  assert.equal(record.target, '/p%41th?q=+1&x=%2B');
  assert.equal(record.path, '/p%41th');
  assert.equal(record.query, 'q=+1&x=%2B');
  assert.deepEqual(record.headers, [
    ['Host', 'h'],
    ['X-MiXeD', 'One'],
    ['x-mixed', 'two'],
    ['Content-Length', '5'],
    ['Connection', 'close'],
  ]);
  assert.equal(record.body.toString(), 'hello');
  assert.equal(record.status, 201);
});

test('Basic and Bearer challenges answer 401 with WWW-Authenticate until the right credentials come', async (t) => {
  const ep = await start({
    config: {
      routes: {
        '/basic': { body: 'ok', auth: { scheme: 'Basic', username: 'u', password: 'p' } },
        '/bearer': { body: 'ok', auth: { scheme: 'Bearer', token: 't' } },
      },
    },
  });
  t.after(() => ep.close());
  const get = async (path: string, authorization?: string) => {
    const r = await request(`${ep.urls.base}${path}`, { headers: authorization ? { authorization } : {} });
    await r.body.dump();
    return { status: r.statusCode, challenge: r.headers['www-authenticate'] };
  };
  assert.deepEqual(await get('/basic'), {
    status: 401,
    challenge: 'Basic realm="customer", charset="UTF-8"',
  });
  assert.equal((await get('/basic', `Basic ${Buffer.from('u:p').toString('base64')}`)).status, 200);
  assert.equal((await get('/bearer', 'Bearer x')).status, 401);
  assert.equal((await get('/bearer', 'Bearer t')).status, 200);
  assert.deepEqual(
    ep.control.requests().map((r) => r.auth),
    ['challenged', 'ok', 'rejected', 'ok'],
  );
  ep.control.reset();
  assert.deepEqual(ep.control.requests(), []);
});

for (const algorithm of ['MD5', 'SHA-256'] as const) {
  test(`interop: curl --digest authenticates against the endpoint's ${algorithm} challenge (skipped without curl)`, {
    skip: !hasCurl() && 'curl is not installed',
  }, async (t) => {
    const ep = await start({
      config: {
        fallback: {
          body: 'secret data',
          auth: { scheme: 'Digest', username: 'ann', password: 'pw', algorithms: [algorithm] },
        },
      },
    });
    t.after(() => ep.close());
    const good = await run('curl', [
      '-s',
      '--digest',
      '-u',
      'ann:pw',
      '-w',
      '%{http_code}',
      `${ep.urls.base}/x?tel=+491&a=b`,
    ]);
    assert.equal(good.stdout, 'secret data200');
    const bad = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '--digest',
      '-u',
      'ann:nope',
      '-w',
      '%{http_code}',
      `${ep.urls.base}/x`,
    ]);
    assert.equal(bad.stdout, '401');
    assert.deepEqual(
      ep.control.requests().map((r) => r.auth),
      ['challenged', 'ok', 'challenged', 'rejected'],
    );
  });
}

test('waitForRequests resolves once requests arrive and rejects when the endpoint closes', async () => {
  const ep = await start();
  const waiting = ep.control.waitForRequests(1);
  const r = await request(`${ep.urls.base}/`);
  await r.body.dump();
  assert.equal((await waiting).length, 1);
  const never = ep.control.waitForRequests(5);
  await ep.close();
  await assert.rejects(never, /closed/);
});
