import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { type CustomerEndpointOptions, start } from '../../../simulators/customer-endpoint/index.ts';
import { HarnessError } from '../../../src/core/harness-error.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import type { ResolverCheckOptions } from '../../../src/resolver-check/resolver-check-options.ts';
import { runResolverCheck } from '../../../src/resolver-check/run-resolver-check.ts';

async function check(options: ResolverCheckOptions, env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d) => {
    text += d.toString();
  });
  const result = await runResolverCheck(options, {
    cwd: process.cwd(),
    stdout,
    stderr: new PassThrough(),
    env,
  });
  return { ...result, text };
}

async function endpoint(t: TestContext, options: CustomerEndpointOptions) {
  const ep = await start(options);
  t.after(() => ep.close());
  return ep;
}

const NAME = ['"name":"(.*?)"'];

test('a good endpoint: exit 0, the text names status, timing, charset, parser hit and name', async (t) => {
  const ep = await endpoint(t, {
    config: { fallback: { body: '{"name":"Anna Müller"}', compression: 'br' } },
  });
  const r = await check({ url: `${ep.urls.base}/q?tel={tel}`, matcher: NAME, number: ['030 1234567'] });
  assert.equal(r.exitCode, 0, r.text);
  assert.match(r.text, /RESOLVED "Anna Müller"/);
  assert.match(r.text, /HTTP 200, application\/json; charset=utf-8, charset utf-8, compression br/);
  assert.match(r.text, /timing {4}connect \d+ ms, first byte \d+ ms, total \d+ ms; timeout 700 ms: within/);
  assert.match(r.text, /parser 0 {2}"name":"\(\.\*\?\)" → \{0\} = "Anna Müller" \(1 match\)/);
  assert.match(
    r.text,
    /formats {3}\+xx \+49301234567: resolved \| 00xx 0049301234567: resolved \| 0 0301234567: resolved/,
  );
  assert.equal(ep.control.requests().length, 3, 'one request per format');
});

test('the JSON report is the one result model (compatibility-report schema) and carries the pitfalls', async (t) => {
  const ep = await endpoint(t, {
    config: {
      routes: {
        '/old': { redirect: { location: '/lookup?tel=0049301234567' } },
        '/lookup': {
          lookup: { records: { '0049301234567': '[{"name":"First"},{"name":"Second"}]' } },
          contentType: 'application/json',
          delayMs: 150,
          auth: { scheme: 'Digest', username: 'ann', password: 'pw-secret', algorithms: ['SHA-256'] },
        },
      },
    },
  });
  const r = await check(
    {
      url: `${ep.urls.base}/lookup?tel={tel}`,
      auth: 'Digest',
      username: 'ann',
      matcher: NAME,
      number: ['0301234567'],
      timeout: 100,
      json: true,
    },
    { PBX_RESOLVER_PASSWORD: 'pw-secret' },
  );
  const json = JSON.parse(r.text);
  assert.deepEqual(validateReport(json), []);
  assert.deepEqual(json, JSON.parse(JSON.stringify(r.result)));
  assert.equal(json.metadata.command, 'resolver-check');
  assert.equal(json.metadata.cucumberVersion, null);
  assert.equal(r.exitCode, 1);
  assert.equal(json.outcome.passed, false);
  // Only the clause resolver-check exercises gets a verdict; the pitfalls name theirs in the message.
  const judged = json.interfaces
    .flatMap((i: { clauses: { id: string; verdict: string }[] }) => i.clauses)
    .filter((c: { verdict: string }) => c.verdict === 'pass' || c.verdict === 'fail');
  assert.deepEqual(
    judged.map((c: { id: string; verdict: string }) => `${c.id} ${c.verdict}`),
    ['RESOLVER-TRIGGER-SETTINGS-TEST fail'],
  );
  const failing = judged[0].scenarios.find((s: { status: string }) => s.status === 'failed');
  assert.match(failing.failure.message, /error slow \(RESOLVER-TIMEOUT-WARNING\)/);
  assert.match(failing.failure.message, /error plus-as-space \(RESOLVER-URL-PLUS\)/);
  const ids = r.report.findings.map((f) => `${f.severity} ${f.id}`);
  for (const expected of [
    'error not-resolved',
    'error plus-as-space',
    'warning missing-charset',
    'info digest',
    'error slow',
  ])
    assert.ok(ids.includes(expected), `${expected} in ${ids.join(', ')}`);
  assert.doesNotMatch(r.text, /pw-secret/);
  const zeros = await check({
    url: `${ep.urls.base}/old?tel={tel}`,
    format: '00xx',
    auth: 'Digest',
    username: 'ann',
    password: 'pw-secret',
    matcher: NAME,
    number: ['0301234567'],
    compareFormats: false,
    json: true,
  });
  const zerosIds = zeros.report.findings.map((f) => f.id);
  assert.ok(zerosIds.includes('several-records'));
  assert.ok(zerosIds.includes('redirect-chain'));
  assert.equal(zeros.report.numbers[0]?.name?.displayName, 'First');
});

test('a 4xx gives its hint; a Java-only matcher is an error even when JavaScript matches', async (t) => {
  const ep = await endpoint(t, {
    config: { routes: { '/gone': { status: 404 }, '/ok': { body: '{"name":"A"}' } } },
  });
  const gone = await check({
    url: `${ep.urls.base}/gone?t={tel}`,
    matcher: NAME,
    number: ['0301'],
    compareFormats: false,
  });
  assert.equal(gone.exitCode, 1);
  assert.match(gone.text, /ERROR {3}\[client-error\] 0301: HTTP 404: the lookup fails\. Not found/);
  const java = await check({
    url: `${ep.urls.base}/ok?t={tel}`,
    matcher: ['{"name":"(.*?)"'],
    number: ['0301'],
    compareFormats: false,
  });
  assert.equal(java.exitCode, 1);
  assert.equal(java.report.numbers[0]?.outcome, 'resolved');
  assert.match(java.text, /\[java-regex\] parser 0: the real module \(Java\) refuses this matcher/);
});

test('a provider file works, flags override it, and secrets in fields are masked', async (t) => {
  const ep = await endpoint(t, {
    config: { fallback: { body: '{"name":"Filed"}', auth: { scheme: 'Bearer', token: 'tok-abcdef' } } },
  });
  const dir = await mkdtemp(join(tmpdir(), 'resolver-check-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'provider.json');
  await writeFile(
    file,
    JSON.stringify({
      id: 'crm',
      type: 'HTTP',
      url: `${ep.urls.base}/q?tel={tel}&k={apiKey}`,
      authentication: 'Bearer',
      parsers: [{ matcher: NAME[0], formatter: '\\1' }],
    }),
  );
  const r = await check({
    provider: file,
    token: 'tok-abcdef',
    field: ['apiKey=key-123456'],
    number: ['0301'],
    compareFormats: false,
    json: true,
  });
  assert.equal(r.exitCode, 0, r.text);
  assert.doesNotMatch(r.text, /tok-abcdef|key-123456/);
  assert.equal(ep.control.requests()[0]?.query, 'tel=+49301&k=key-123456');
});

test('unusable options are harness errors', async () => {
  await assert.rejects(
    check({ number: ['1'] }),
    (e) => e instanceof HarnessError && /--provider FILE or --url/.test(e.message),
  );
  await assert.rejects(check({ url: 'http://127.0.0.1:9/{tel}', matcher: NAME }), /at least one --number/);
  await assert.rejects(check({ url: 'http://127.0.0.1:9/{tel}', number: ['1'] }), /no parser/);
  await assert.rejects(
    check({ url: 'http://127.0.0.1:9/{tel}', matcher: NAME, number: ['1'], timeout: 5000 }),
    /timeoutMs must be <= 1500/,
  );
  // Issue 20, item 15: a matcher that does not compile was reported as "no parser matched" (exit 1).
  await assert.rejects(
    check({ url: 'http://127.0.0.1:9/{tel}', matcher: [NAME[0] as string, '((('], number: ['1'] }),
    (e) =>
      e instanceof HarnessError &&
      /^parser 1: the matcher "\(\(\(" does not compile: .*Unterminated group/.test(e.message),
  );
  await assert.rejects(
    check({ provider: '/nonexistent/p.json', number: ['1'] }),
    /cannot read the provider file/,
  );
  await assert.rejects(
    check({ url: 'http://127.0.0.1:9/{tel}', matcher: NAME, number: ['1'], method: 'PUT' }),
    /--method must be one of GET, POST/,
  );
});

function pythonServer(t: TestContext, dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(error);
      return;
    }
    t.after(() => {
      child.kill();
    });
    child.once('error', reject);
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.stderr?.resume();
  });
}

test('interop: the check grades a server the project did not write (Python http.server)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'resolver-check-py-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'lookup.json'), '{"name":"Py Thon","company":"Snake &amp; Co"}');
  let base: string;
  try {
    base = await pythonServer(t, dir);
  } catch {
    t.skip('python3 is not available');
    return;
  }
  const r = await check({
    url: `${base}/lookup.json?tel={tel}`,
    matcher: NAME.concat('"company":"(.*?)"'),
    lastName: '{0}',
    company: '{1}',
    number: ['+49 30 1234567'],
    json: true,
  });
  assert.equal(r.report.numbers[0]?.name?.displayName, 'Py Thon (Snake & Co)');
  assert.ok(
    r.report.findings.some((f) => f.id === 'missing-charset'),
    'http.server sends application/json without charset',
  );
  assert.equal(r.exitCode, 0);
});
