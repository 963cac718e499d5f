import assert from 'node:assert/strict';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { certify, EXAMPLES, tempDir, verdictOf } from './support.ts';

/*
 * certify-plugin against plug-ins the project did not write: Debian's monitoring-plugins-basic
 * (check_tcp, check_http). Optional: without the package every test skips with a reason, unless
 * PBX_REQUIRE_MONITORING_PLUGINS=1 (set by .ci/run after installing it) turns that into a failure.
 */

const PLUGIN_DIR = '/usr/lib/nagios/plugins';

function requirePlugin(t: TestContext, name: string): string | null {
  const path = join(PLUGIN_DIR, name);
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    if (process.env['PBX_REQUIRE_MONITORING_PLUGINS'] === '1')
      assert.fail(`PBX_REQUIRE_MONITORING_PLUGINS=1 but ${path} is missing`);
    t.skip(`${path} is not installed (apt-get install monitoring-plugins-basic); optional interop test`);
    return null;
  }
}

test('check_tcp expecting the agent banner: OK on healthy, CRITICAL when the endpoint is down or the host unlisted', async (t) => {
  const checkTcp = requirePlugin(t, 'check_tcp');
  if (!checkTcp) return;
  const dir = await tempDir(t);
  const result = await certify(dir, [
    '--expectations',
    join(EXAMPLES, 'debian', 'check_tcp.yaml'),
    '--scenario',
    'healthy',
    '--scenario',
    'endpoint-down',
    '--scenario',
    'host-unlisted',
    '--reports',
    'out',
    '--',
    checkTcp,
    '-H',
    '{host}',
    '-p',
    '{port}',
    '-e',
    '<<<monitor_agent>>>',
  ]);
  const report = await result.report();
  assert.deepEqual(
    ['healthy', 'endpoint-down', 'host-unlisted'].map((s) => [
      s,
      verdictOf(report, s).run?.details?.['state'],
    ]),
    [
      ['healthy', 'OK'],
      ['endpoint-down', 'CRITICAL'],
      ['host-unlisted', 'CRITICAL'],
    ],
  );
  assert.equal(result.code, 0, result.out);
  assert.equal(report.outcome.passed, true);
});

test('check_http on /json of the data endpoint is OK', async (t) => {
  const checkHttp = requirePlugin(t, 'check_http');
  if (!checkHttp) return;
  const dir = await tempDir(t);
  const result = await certify(dir, [
    '--expectations',
    join(EXAMPLES, 'debian', 'check_http.yaml'),
    '--scenario',
    'healthy',
    '--reports',
    'out',
    `${checkHttp} -H {host} -p {port} -u /json`,
  ]);
  assert.equal(result.code, 0, result.out);
  const healthy = verdictOf(await result.report(), 'healthy');
  assert.equal(healthy.run?.details?.['state'], 'OK');
  assert.match(String(healthy.run?.response), /^HTTP OK: HTTP\/1\.1 200 OK/);
});
