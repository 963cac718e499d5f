/**
 * Issue 30 §4: one report builder. Every command that writes a compatibility report (`verify`,
 * `report merge`, `certify-plugin` with and without `--mkp` (the latter beside the package's other
 * tests, test/simulators/pbx/mkp/certify-with-mkp.test.ts), `fuzz`, `resolver-check`) is run
 * here as a user runs it, and each report it writes must be what the one builder makes: valid
 * against the schema, the metadata filled the same way (this tool's version, the judging
 * catalog's format version and fingerprint, times, nulls where nothing applies), the counts,
 * scores and baseline agreeing with the clauses, and the outcome agreeing with its reasons.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { start as startCustomerEndpoint } from '../../../simulators/customer-endpoint/index.ts';
import { run } from '../../../src/cli/run.ts';
import { DEFAULT_CATALOG_PATH } from '../../../src/core/project-paths.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { tempDir, throwawayPlugin } from '../../certify/support.ts';
import { builderProblems } from '../report/builder-problems.ts';
import { listeningPort, sampleTarget } from '../runner/loopback-ports.ts';
import { createThrowawaySuite } from '../runner/throwaway-suite.ts';
import { captureIo } from './capture-io.ts';

/** Runs the CLI in `cwd`; its reports are then read from `<cwd>/<reports>/compatibility.json`. */
async function cli(cwd: string, argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const io = captureIo(cwd, { env });
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

async function reportAt(dir: string): Promise<CompatibilityReport> {
  return JSON.parse(await readFile(join(dir, 'compatibility.json'), 'utf8')) as CompatibilityReport;
}

test('verify and report merge: each report is the one builder’s', async (t) => {
  const suite = await createThrowawaySuite();
  t.after(() => suite.cleanup());
  const web = await listeningPort();
  const monitoring = await listeningPort();
  t.after(() => Promise.all([web.close(), monitoring.close()]));
  await writeFile(
    join(suite.dir, 'target.json'),
    JSON.stringify(sampleTarget({ web: web.port, monitoring: monitoring.port })),
  );
  const { verifyCommand } = await import('../../../src/cli/verify-command.ts');
  const catalogPath = join(suite.dir, 'clauses.yaml');
  for (const shard of ['1/2', '2/2']) {
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        target: 'target.json',
        tags: 'not @XMLRPC-A',
        reports: `shard-${shard[0]}`,
        quiet: true,
        shard,
        catalogPath,
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
        credentials: async () => [],
      },
      io,
    );
    assert.ok(code === 0 || code === 1, io.err());
    const report = await reportAt(join(suite.dir, `shard-${shard[0]}`));
    assert.deepEqual(builderProblems(report, catalogPath), [], `verify --shard ${shard}`);
    assert.match(report.metadata.cucumberVersion ?? '', /^\d+\.\d+\.\d+/);
  }
  const merged = await cli(suite.dir, [
    'report',
    'merge',
    '--reports',
    'merged',
    'shard-1/compatibility.json',
    'shard-2/compatibility.json',
  ]);
  assert.ok(merged.code === 0 || merged.code === 1, merged.err);
  const report = await reportAt(join(suite.dir, 'merged'));
  assert.deepEqual(builderProblems(report, catalogPath), [], 'report merge');
  assert.equal(report.metadata.command, 'verify');
});

test('certify-plugin: a certification that breaks a must rule is the one builder’s report', async (t) => {
  const dir = await tempDir(t);
  const plugin = await throwawayPlugin(dir, 'check_five.sh', '#!/bin/sh\necho "OK - fine"\nexit 5\n');
  const result = await cli(dir, [
    'certify-plugin',
    '--quiet',
    '--scenario',
    'healthy',
    '--runs',
    '0',
    '--',
    plugin,
  ]);
  assert.equal(result.code, 1, result.out + result.err);
  const report = await reportAt(join(dir, 'reports'));
  assert.deepEqual(builderProblems(report, DEFAULT_CATALOG_PATH), []);
  assert.equal(report.metadata.cucumberVersion, null);
  assert.ok(report.baseline.unexpectedFailures.includes('PLUGIN-EXIT-CODE'));
  assert.ok(report.outcome.reasons.some((r) => r.startsWith('PLUGIN-EXIT-CODE (must) broken in healthy')));
  assert.ok(report.sandbox, 'the certification says how sealed its runs were');
  assert.ok(report.certification, 'and what it certified');
});

test('fuzz: its report is the one builder’s', async (t) => {
  const dir = await tempDir(t);
  const result = await cli(dir, ['fuzz', '--quiet', '--faces', 'data', '--runs', '5', '--seed', '7']);
  assert.equal(result.code, 0, result.out + result.err);
  const report = await reportAt(join(dir, 'reports'));
  assert.deepEqual(builderProblems(report, DEFAULT_CATALOG_PATH), []);
  assert.equal(report.metadata.command, 'fuzz');
  assert.equal(report.metadata.cucumberVersion, null);
});

test('resolver-check: its report is the one builder’s', async (t: TestContext) => {
  const dir = await tempDir(t);
  const endpoint = await startCustomerEndpoint({
    config: { fallback: { body: '{"name":"Anna Müller"}' } },
  });
  t.after(() => endpoint.close());
  const result = await cli(dir, [
    'resolver-check',
    '--url',
    `${endpoint.urls.base}/q?tel={tel}`,
    '--matcher',
    '"name":"(.*?)"',
    '--number',
    '030 1234567',
    '--reports',
    'out',
  ]);
  assert.equal(result.code, 0, result.out + result.err);
  const report = await reportAt(join(dir, 'out'));
  assert.deepEqual(builderProblems(report, DEFAULT_CATALOG_PATH), []);
  assert.equal(report.metadata.command, 'resolver-check');
});
