import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { Agent, request } from 'undici';
import { parseChallenges } from '../../../../simulators/pbx/resolver/auth-challenge.ts';
import {
  digestAuthorization,
  selectDigestChallenge,
} from '../../../../simulators/pbx/resolver/digest-auth.ts';
import { type ResolutionResult, resolveNumber } from '../../../../simulators/pbx/resolver/resolve-number.ts';
import type { ResolverProvider } from '../../../../simulators/pbx/state/provider-config.ts';
import { runResolverCheck } from '../../../../src/resolver-check/run-resolver-check.ts';
import type { ApacheDigestSite } from './apache-digest-config.ts';
import {
  type ApacheInstallation,
  type ApacheServer,
  checkApacheConfig,
  findApache,
  startApache,
} from './apache-httpd.ts';

/*
 * Interop with a digest server the project did not write: Apache httpd's mod_auth_digest
 * (Debian package `apache2`). Optional: without an httpd binary every test skips, unless
 * PBX_REQUIRE_APACHE=1 (a CI job that installed Apache) turns that into a failure.
 * docs/resolver.md, "Interop with Apache mod_auth_digest".
 */

const apache = findApache();

const SITE: ApacheDigestSite = { realm: 'pbx', username: 'pbx-resolver', password: 'S3cret+pw' };
const FILES = { 'lookup.json': '{"number":"+49301234567","name":"Jürgen Weiß"}\n' };
const NAME = '"name":"(.*?)"';

function requireApache(t: TestContext): ApacheInstallation | null {
  if (apache) return apache;
  if (process.env['PBX_REQUIRE_APACHE'] === '1')
    assert.fail('PBX_REQUIRE_APACHE=1 but no Apache httpd with mod_auth_digest was found');
  t.skip('Apache httpd is not installed (apt-get install apache2); optional interop test');
  return null;
}

async function serve(t: TestContext, found: ApacheInstallation, site = SITE): Promise<ApacheServer> {
  const server = await startApache(found, site, FILES);
  t.after(() => server.close());
  return server;
}

function provider(server: ApacheServer, overrides: Partial<ResolverProvider> = {}): ResolverProvider {
  return {
    id: 'apache',
    type: 'HTTP',
    url: `${server.origin}/lookup.json?tel={tel}`,
    authentication: 'Digest',
    fields: { username: { value: SITE.username }, password: { value: SITE.password } },
    parsers: [{ matcher: NAME, formatter: '\\1' }],
    ...overrides,
  };
}

function resolve(p: ResolverProvider, number = '030 1234567'): Promise<ResolutionResult> {
  return resolveNumber(
    { countryCode: '49', providers: [p], addressBook: [], addressBookFallback: false },
    number,
    { trigger: 'settings-test', providerId: p.id },
  );
}

function describe(result: ResolutionResult): string {
  return result.log.map((e) => `${e.level} ${e.step} ${e.message}`).join('\n');
}

test("RESOLVER-AUTH-DIGEST: the resolver answers Apache mod_auth_digest's MD5 challenge and reads the name", async (t) => {
  const found = requireApache(t);
  if (!found) return;
  const server = await serve(t, found);
  const result = await resolve(provider(server));
  assert.equal(result.state, 'resolved', describe(result));
  assert.equal(result.name?.displayName, 'Jürgen Weiß');
  const lookup = result.attempts[0]?.lookup;
  assert.deepEqual(
    lookup?.hops.map((h) => [h.status, h.next]),
    [
      [401, 'digest'],
      [200, null],
    ],
  );
  assert.deepEqual(lookup?.digest, {
    challenged: true,
    algorithm: 'MD5',
    qop: 'auth',
    status: 200,
    problem: null,
  });
  assert.doesNotMatch(await server.errorLog(), /mismatch/);
});

test('RESOLVER-AUTH-DIGEST-VALID: with a wrong password Apache answers 401 again and the lookup fails', async (t) => {
  const found = requireApache(t);
  if (!found) return;
  const server = await serve(t, found);
  const result = await resolve(
    provider(server, {
      fields: { username: { value: SITE.username }, password: { value: 'wrong-password' } },
    }),
  );
  assert.equal(result.state, 'failed', describe(result));
  assert.equal(result.name, null);
  const attempt = result.attempts[0];
  assert.equal(attempt?.status, 401);
  assert.deepEqual(
    attempt?.lookup?.hops.map((h) => h.status),
    [401, 401],
  );
  assert.match(attempt?.lookup?.digest?.problem ?? '', /refused the digest authorisation/);
  // Apache itself says why: the user exists and the response hash did not match.
  assert.match(await server.errorLog(), new RegExp(`user ${SITE.username}: password mismatch`));
  assert.doesNotMatch(describe(result), /wrong-password/, 'the password never reaches the search log');
});

test("RESOLVER-URL-PLUS: a + and percent-encoded values in the query pass Apache's digest uri check", async (t) => {
  const found = requireApache(t);
  if (!found) return;
  const server = await serve(t, found);
  const result = await resolve(
    provider(server, {
      url: `${server.origin}/lookup.json?tel={tel}&area={area}`,
      fields: {
        username: { value: SITE.username },
        password: { value: SITE.password },
        area: { value: 'Berlin Mitte/Süd' },
      },
    }),
    '+49 30 1234567',
  );
  assert.equal(result.state, 'resolved', describe(result));
  const target = result.log.find((e) => e.step === 'encoded-uri')?.data?.['requestTarget'];
  assert.equal(target, '/lookup.json?tel=+49301234567&area=Berlin%20Mitte%2FS%C3%BCd');
  assert.equal(result.attempts[0]?.lookup?.digest?.status, 200);
  assert.doesNotMatch(await server.errorLog(), /mismatch/);
});

test('Apache answers 400 to a digest whose uri names another query: a + read as a space, a query left out', async (t) => {
  const found = requireApache(t);
  if (!found) return;
  const server = await serve(t, found);
  const agent = new Agent();
  t.after(() => agent.close());
  const target = '/lookup.json?tel=+49301234567';
  const get = async (authorization?: string) => {
    const res = await request(`${server.origin}${target}`, {
      dispatcher: agent,
      headers: authorization ? { authorization } : {},
    });
    await res.body.text();
    return res;
  };

  const first = await get();
  assert.equal(first.statusCode, 401);
  const header = first.headers['www-authenticate'];
  const selection = selectDigestChallenge(parseChallenges(Array.isArray(header) ? header : [header ?? '']));
  assert.ok(selection.ok, 'Apache sent a usable Digest challenge');
  const answer = (uri: string, nc: number) =>
    digestAuthorization({
      challenge: selection.challenge,
      username: SITE.username,
      password: SITE.password,
      method: 'GET',
      uri,
      nc,
    });

  // Apache compares the uri with the request target after percent-decoding both (so `%2B` for
  // `+` passes), and answers a mismatch with 400, not 401.
  assert.equal((await get(answer('/lookup.json?tel=%2049301234567', 1))).statusCode, 400);
  assert.equal((await get(answer('/lookup.json', 2))).statusCode, 400);
  assert.equal((await get(answer(target, 3))).statusCode, 200);
  assert.match(await server.errorLog(), /uri mismatch/);
});

test('resolver-check resolves against Apache with Digest in all three number formats and exits 0', async (t) => {
  const found = requireApache(t);
  if (!found) return;
  const server = await serve(t, found);
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d) => {
    text += d.toString();
  });
  const { exitCode, report } = await runResolverCheck(
    {
      url: `${server.origin}/lookup.json?tel={tel}`,
      auth: 'Digest',
      username: SITE.username,
      password: SITE.password,
      matcher: [NAME],
      number: ['030 1234567'],
    },
    { cwd: process.cwd(), stdout, stderr: new PassThrough(), env: {} },
  );
  assert.equal(exitCode, 0, text);
  assert.equal(report.numbers[0]?.name?.displayName, 'Jürgen Weiß');
  assert.deepEqual(
    report.numbers[0]?.formatComparison.map((f) => [f.format, f.outcome]),
    [
      ['+xx', 'resolved'],
      ['00xx', 'resolved'],
      ['0', 'resolved'],
    ],
  );
  assert.deepEqual(
    report.findings.filter((f) => f.id === 'digest').map((f) => f.severity),
    ['info'],
  );
  assert.ok(!text.includes(SITE.password), 'the password never reaches the report');
});

for (const algorithm of ['SHA-256', 'MD5-sess']) {
  test(`RESOLVER-AUTH-DIGEST: the resolver answers Apache's ${algorithm} challenge where this Apache offers one`, async (t) => {
    const found = requireApache(t);
    if (!found) return;
    const site = { ...SITE, algorithm };
    const probe = await checkApacheConfig(found, site);
    if (!probe.ok) {
      t.skip(`Apache ${found.version} refuses AuthDigestAlgorithm ${algorithm}: ${probe.message}`);
      return;
    }
    const server = await serve(t, found, site);
    const result = await resolve(provider(server));
    assert.equal(result.state, 'resolved', describe(result));
    assert.equal(result.attempts[0]?.lookup?.digest?.algorithm, algorithm);
    assert.equal(result.attempts[0]?.lookup?.digest?.status, 200);
  });
}
