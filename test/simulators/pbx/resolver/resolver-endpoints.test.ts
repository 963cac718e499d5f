import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordedHeader } from '../../../../simulators/customer-endpoint/index.ts';
import { NO_RESULT_MESSAGE } from '../../../../simulators/pbx/resolver/query-provider.ts';
import { BROWSER_HEADERS } from '../../../../simulators/pbx/resolver/request-headers.ts';
import { createSelfSignedTls } from '../../../../simulators/shared/http/self-signed-tls.ts';
import { endpoint, logText, provider, resolveWith } from './resolver-fixture.ts';

const ANNA = '{"name":"Anna Müller"}';

test('RESOLVER-TRIGGER-RESOLUTION RESOLVER-METHOD-DEFAULT RESOLVER-FORMAT-DEFAULT: a plain GET with the canonical number resolves', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: ANNA } } });
  const result = await resolveWith(provider(`${ep.urls.base}/lookup?tel={tel}`));
  assert.equal(result.state, 'resolved');
  assert.equal(result.name?.displayName, 'Anna Müller');
  const [request] = ep.control.requests();
  assert.equal(request?.method, 'GET');
  assert.equal(request?.target, '/lookup?tel=+49301234567');
  assert.equal(request?.body.length, 0);
});

test('RESOLVER-GET-USER-AGENT RESOLVER-GET-ACCEPT RESOLVER-GET-ACCEPT-ENCODING RESOLVER-GET-ACCEPT-LANGUAGE RESOLVER-GET-NO-CACHE RESOLVER-AUTH-NONE: the GET header set as recorded', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: ANNA } } });
  await resolveWith(provider(`${ep.urls.base}/q?t={tel}`));
  const [request] = ep.control.requests();
  assert.ok(request);
  const names = request.headers.map(([n]) => n.toLowerCase());
  assert.deepEqual(
    names.filter((n) => BROWSER_HEADERS.some(([b]) => b === n)),
    BROWSER_HEADERS.map(([n]) => n),
  );
  assert.match(
    recordedHeader(request, 'user-agent') ?? '',
    /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\).*Chrome\/107\./,
  );
  assert.match(recordedHeader(request, 'accept') ?? '', /text\/html.*application\/xml/);
  assert.equal(recordedHeader(request, 'accept-encoding'), 'gzip, deflate, br');
  assert.match(recordedHeader(request, 'accept-language') ?? '', /^de(-DE)?,.*en/);
  assert.equal(recordedHeader(request, 'cache-control'), 'no-cache');
  assert.equal(recordedHeader(request, 'pragma'), 'no-cache');
  assert.equal(recordedHeader(request, 'authorization'), undefined);
});

test('RESOLVER-METHOD-POST RESOLVER-POST-CONTENT-TYPE RESOLVER-POST-BODY RESOLVER-PH-POST-URL: POST sends exactly {"query":"<number>"}', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { lookup: { records: { '0049301234567': ANNA } } } } });
  const result = await resolveWith(
    provider(`${ep.urls.base}/post/{tenant}`, {
      method: 'POST',
      numberFormat: '00xx',
      fields: { tenant: { value: 'a b' } },
    }),
  );
  assert.equal(result.state, 'resolved');
  const [request] = ep.control.requests();
  assert.equal(request?.method, 'POST');
  assert.equal(request?.target, '/post/a%20b');
  assert.equal(request?.body.toString('utf8'), '{"query":"0049301234567"}');
  assert.equal(recordedHeader(request!, 'content-type'), 'application/json');
  assert.equal(recordedHeader(request!, 'content-length'), '25');
});

for (const compression of ['gzip', 'br', 'deflate', 'deflate-raw'] as const) {
  test(`RESOLVER-RESPONSE-COMPRESSED: a ${compression} body is decoded before evaluation`, async (t) => {
    const ep = await endpoint(t, { config: { fallback: { body: ANNA, compression } } });
    const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`));
    assert.equal(result.name?.displayName, 'Anna Müller');
  });
}

test('RESOLVER-AUTH-BASIC RESOLVER-AUTH-BASIC-PREEMPTIVE: Basic credentials go with the first request', async (t) => {
  const ep = await endpoint(t, {
    config: { fallback: { body: ANNA, auth: { scheme: 'Basic', username: 'ann', password: 'pä ss:1' } } },
  });
  const result = await resolveWith(
    provider(`${ep.urls.base}/?t={tel}`, {
      authentication: 'Basic',
      fields: { username: { value: 'ann' }, password: { value: 'pä ss:1' } },
    }),
  );
  assert.equal(result.state, 'resolved');
  const requests = ep.control.requests();
  assert.equal(requests.length, 1);
  assert.equal(
    recordedHeader(requests[0]!, 'authorization'),
    `Basic ${Buffer.from('ann:pä ss:1').toString('base64')}`,
  );
  assert.doesNotMatch(logText(result), /pä ss|YW5uOnDDpCBzczox/);
});

for (const algorithm of ['MD5', 'SHA-256', 'MD5-sess', 'SHA-256-sess'] as const) {
  test(`RESOLVER-AUTH-DIGEST RESOLVER-AUTH-DIGEST-VALID: a ${algorithm} challenge is answered and accepted`, async (t) => {
    const auth = { scheme: 'Digest' as const, username: 'ann', password: 'secret', algorithms: [algorithm] };
    const ep = await endpoint(t, { config: { fallback: { body: ANNA, auth } } });
    const result = await resolveWith(
      provider(`${ep.urls.base}/d?t={tel}&x=a%20b`, {
        authentication: 'Digest',
        fields: { username: { value: 'ann' }, password: { value: 'secret' } },
      }),
    );
    assert.equal(result.state, 'resolved', logText(result));
    const requests = ep.control.requests();
    assert.deepEqual(
      requests.map((r) => r.auth),
      ['challenged', 'ok'],
    );
    assert.equal(recordedHeader(requests[0]!, 'authorization'), undefined);
    assert.match(
      recordedHeader(requests[1]!, 'authorization') ?? '',
      new RegExp(`algorithm=${algorithm}.*qop=auth`),
    );
  });
}

test('RESOLVER-AUTH-DIGEST: a wrong digest password fails with a 4xx hint, after one retry', async (t) => {
  const ep = await endpoint(t, {
    config: { fallback: { body: ANNA, auth: { scheme: 'Digest', username: 'ann', password: 'right' } } },
  });
  const result = await resolveWith(
    provider(`${ep.urls.base}/?t={tel}`, {
      authentication: 'Digest',
      fields: { username: { value: 'ann' }, password: { value: 'wrong' } },
    }),
  );
  assert.equal(result.state, 'failed');
  assert.equal(ep.control.requests().length, 2);
  assert.match(logText(result), /refused the digest authorisation/);
  assert.equal(result.attempts[0]?.hint?.startsWith('Unauthorized'), true);
});

test('RESOLVER-AUTH-BEARER: the token goes as authorization: Bearer <token> and is masked in the log', async (t) => {
  const ep = await endpoint(t, {
    config: { fallback: { body: ANNA, auth: { scheme: 'Bearer', token: 'tok-123456' } } },
  });
  const result = await resolveWith(
    provider(`${ep.urls.base}/?t={tel}&echo={securityToken}`, {
      authentication: 'Bearer',
      fields: { securityToken: { value: 'tok-123456' } },
    }),
  );
  assert.equal(result.state, 'resolved');
  assert.equal(recordedHeader(ep.control.requests()[0]!, 'authorization'), 'Bearer tok-123456');
  assert.doesNotMatch(JSON.stringify(result), /tok-123456/);
  assert.match(logText(result), /echo=\*\*\*/);
});

test('RESOLVER-REDIRECTS RESOLVER-DIAG-LOG-EXPERT: a 3xx is followed and logged as an expert line', async (t) => {
  const ep = await endpoint(t, {
    config: {
      routes: { '/old': { redirect: { location: '/new?x=1', status: 301 } }, '/new': { body: ANNA } },
    },
  });
  const result = await resolveWith(provider(`${ep.urls.base}/old?t={tel}`));
  assert.equal(result.state, 'resolved');
  assert.deepEqual(
    ep.control.requests().map((r) => r.target),
    ['/old?t=+49301234567', '/new?x=1'],
  );
  const redirect = result.log.find((e) => e.step === 'redirect');
  assert.equal(redirect?.expert, true);
  assert.ok(result.log.some((e) => e.step === 'encoded-uri' && e.expert));
});

test('RESOLVER-REDIRECTS: every 3xx with a Location is followed, not only 301, 302, 303, 307 and 308', async (t) => {
  const statuses = [300, 304, 305, 306, 309, 399];
  const routes: Record<string, { redirect?: { location: string; status: number }; body?: string }> = {
    '/new': { body: ANNA },
  };
  for (const status of statuses) routes[`/old${status}`] = { redirect: { location: '/new', status } };
  const ep = await endpoint(t, { config: { routes } });
  for (const status of statuses) {
    ep.control.clearRequests();
    const result = await resolveWith(provider(`${ep.urls.base}/old${status}?t={tel}`));
    assert.equal(result.state, 'resolved', `${status}: ${logText(result)}`);
    assert.deepEqual(
      ep.control.requests().map((r) => `${r.status} ${r.path}`),
      [`${status} /old${status}`, '200 /new'],
    );
  }
});

test('RESOLVER-REDIRECTS RESOLVER-NON-2XX-FAILED: a 3xx without a Location is not followed and fails as non-2xx, its body not evaluated', async (t) => {
  const ep = await endpoint(t, {
    config: { routes: { '/300': { status: 300, body: ANNA }, '/304': { status: 304, body: ANNA } } },
  });
  for (const status of [300, 304]) {
    ep.control.clearRequests();
    const result = await resolveWith(provider(`${ep.urls.base}/${status}?t={tel}`));
    assert.equal(result.state, 'failed', `${status}: ${logText(result)}`);
    assert.equal(result.attempts[0]?.status, status);
    assert.equal(result.attempts[0]?.evaluation, null);
    assert.equal(result.attempts[0]?.lookup?.ok, true, 'a non-2xx answer, not a transport failure');
    assert.equal(ep.control.requests().length, 1);
    assert.match(logText(result), new RegExp(`${status} without a Location header: not followed`));
  }
});

test('RESOLVER-UNSPEC-REDIRECTS: a POST redirected with 300 or 308 keeps method and body', async (t) => {
  const ep = await endpoint(t, {
    config: {
      routes: {
        '/a': { redirect: { location: '/final', status: 300 } },
        '/b': { redirect: { location: '/final', status: 308 } },
        '/final': { body: ANNA },
      },
    },
  });
  await resolveWith(provider(`${ep.urls.base}/a`, { method: 'POST' }));
  await resolveWith(provider(`${ep.urls.base}/b`, { method: 'POST' }));
  assert.deepEqual(
    ep.control.requests().map((x) => `${x.method} ${x.path} ${x.body.length}`),
    ['POST /a 24', 'POST /final 24', 'POST /b 24', 'POST /final 24'],
  );
});

test('RESOLVER-UNSPEC-REDIRECTS: a POST redirected with 303 continues as GET; with 307 it keeps method and body', async (t) => {
  const ep = await endpoint(t, {
    config: {
      routes: {
        '/a': { redirect: { location: '/final', status: 303 } },
        '/b': { redirect: { location: '/final', status: 307 } },
        '/final': { body: ANNA },
      },
    },
  });
  await resolveWith(provider(`${ep.urls.base}/a`, { method: 'POST' }));
  await resolveWith(provider(`${ep.urls.base}/b`, { method: 'POST' }));
  const r = ep.control.requests();
  assert.deepEqual(
    r.map((x) => `${x.method} ${x.path} ${x.body.length}`),
    ['POST /a 24', 'GET /final 0', 'POST /b 24', 'POST /final 24'],
  );
});

test('RESOLVER-SLOW-NOT-ABORTED RESOLVER-TIMEOUT-WARNING: an answer after the timeout still resolves, with a warning', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: ANNA, delayMs: 250 } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`, { timeoutMs: 100 }));
  assert.equal(result.state, 'resolved');
  assert.ok(result.log.some((e) => e.step === 'timeout' && e.level === 'warning'));
  assert.equal(result.attempts[0]?.lookup?.timing.exceeded, true);
});

test('RESOLVER-NON-2XX-FAILED RESOLVER-4XX-HINT: a 404 fails with a hint and its body is not evaluated', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { status: 404, body: ANNA } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`));
  assert.equal(result.state, 'failed');
  assert.equal(result.attempts[0]?.evaluation, null);
  assert.ok(result.log.some((e) => e.step === 'hint' && /Not found/.test(e.message)));
  assert.ok(!result.log.some((e) => e.step === 'parser'));
});

test('RESOLVER-NON-2XX-FAILED: a 500 fails without a hint, body ignored', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { status: 500, body: ANNA } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`));
  assert.equal(result.state, 'failed');
  assert.equal(result.attempts[0]?.hint, null);
  assert.equal(result.name, null);
});

test('RESOLVER-NO-RESULT: a 2xx without any match gives the no-result message', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: '{}' } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`));
  assert.equal(result.state, 'no-result');
  assert.equal(result.attempts[0]?.reason, NO_RESULT_MESSAGE);
  assert.ok(result.log.some((e) => e.message === NO_RESULT_MESSAGE));
});

test('RESOLVER-EVAL-FIRST-MATCH: with several records only the first one names the caller', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: '[{"name":"First"},{"name":"Second"}]' } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`), undefined, { countUpTo: 10 });
  assert.equal(result.name?.displayName, 'First');
  assert.equal(result.attempts[0]?.evaluation?.hits[0]?.matchCount, 2);
});

test('RESOLVER-RESPONSE-CHARSET RESOLVER-UNSPEC-CHARSET: a declared charset decodes; none or an unknown one reads UTF-8 with a warning', async (t) => {
  const latin1 = Buffer.from('{"name":"Jörg Müller"}', 'latin1');
  const ep = await endpoint(t, {
    config: {
      routes: {
        '/latin1': { body: latin1, contentType: 'application/json; charset=ISO-8859-1' },
        '/none': { body: ANNA, contentType: 'application/json' },
        '/wrong': { body: latin1, contentType: 'text/plain; charset=utf-8' },
        '/unknown': { body: ANNA, contentType: 'text/plain; charset=x-klingon' },
      },
    },
  });
  const latin = await resolveWith(provider(`${ep.urls.base}/latin1?t={tel}`));
  assert.equal(latin.name?.displayName, 'Jörg Müller');
  const none = await resolveWith(provider(`${ep.urls.base}/none?t={tel}`));
  assert.equal(none.name?.displayName, 'Anna Müller');
  assert.match(logText(none), /no charset in Content-Type/);
  const wrong = await resolveWith(provider(`${ep.urls.base}/wrong?t={tel}`));
  assert.equal(wrong.name?.displayName, 'J\uFFFDrg M\uFFFDller');
  assert.match(logText(wrong), /U\+FFFD/);
  const unknown = await resolveWith(provider(`${ep.urls.base}/unknown?t={tel}`));
  assert.equal(unknown.name?.displayName, 'Anna Müller');
  assert.match(logText(unknown), /unknown charset x-klingon/);
});

test('RESOLVER-EVAL-HTML-DECODE: HTML entities of an HTML body are decoded in the name', async (t) => {
  const ep = await endpoint(t, {
    config: {
      fallback: {
        body: '<html><td class="n"> M&uuml;ller &amp; S&#246;hne </td></html>',
        contentType: 'text/html; charset=utf-8',
      },
    },
  });
  const result = await resolveWith(
    provider(`${ep.urls.base}/?t={tel}`, {
      parsers: [{ matcher: '<td class="n">(.*?)</td>', formatter: '\\1' }],
    }),
  );
  assert.equal(result.name?.displayName, 'Müller & Söhne');
});

test('RESOLVER-TLS-CHECK-OFF RESOLVER-TLS-TRUST-STORE RESOLVER-UNSPEC-VERIFY-DEFAULT: a self-signed certificate fails by default and passes with the check off', async (t) => {
  const ep = await endpoint(t, { tls: true, config: { fallback: { body: ANNA } } });
  const verified = await resolveWith(provider(`${ep.urls.base}/?t={tel}`));
  assert.equal(verified.state, 'failed');
  assert.match(verified.attempts[0]?.reason ?? '', /TLS/);
  assert.equal(ep.control.requests().length, 0, 'no request reaches the endpoint');
  const unchecked = await resolveWith(provider(`${ep.urls.base}/?t={tel}`, { verifyCertificate: false }));
  assert.equal(unchecked.state, 'resolved');
});

test('RESOLVER-TLS-NO-HOSTNAME: a trusted certificate for another host name is accepted', async (t) => {
  const pair = await createSelfSignedTls({ hosts: ['other.example'] });
  const ep = await endpoint(t, { tls: pair, config: { fallback: { body: ANNA } } });
  const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`), undefined, {
    trustedCa: [pair.cert],
  });
  assert.equal(result.state, 'resolved', logText(result));
});

for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
  test(`RESOLVER-TLS-VERSIONS: an endpoint offering only ${version} is reached`, async (t) => {
    const ep = await endpoint(t, {
      tls: true,
      tlsVersions: { min: version, max: version },
      config: { fallback: { body: ANNA } },
    });
    const result = await resolveWith(provider(`${ep.urls.base}/?t={tel}`, { verifyCertificate: false }));
    assert.equal(result.state, 'resolved');
    assert.equal(ep.control.requests()[0]?.tlsProtocol, version);
  });
}
