/**
 * Issue 30 §4: one report builder. Every command that writes a compatibility report (`verify`,
 * `report merge`, `certify-plugin` with and without `--mkp`, `fuzz`, `resolver-check`) is run
 * here as a user runs it, and each report it writes must be what the one builder makes: valid
 * against the schema, the metadata filled the same way (this tool's version, the judging
 * catalog's format version and fingerprint, times, nulls where nothing applies), the counts,
 * scores and baseline agreeing with the clauses, and the outcome agreeing with its reasons.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { start as startCustomerEndpoint } from '../../../simulators/customer-endpoint/index.ts';
import { buildMonitoringPackage } from '../../../simulators/pbx/index.ts';
import { pythonProblem } from '../../../src/certify/mkp/run-agent-plugins.ts';
import { run } from '../../../src/cli/run.ts';
import { DEFAULT_CATALOG_PATH } from '../../../src/core/project-paths.ts';
import { fingerprint, TOOL_VERSION } from '../../../src/core/tool-version.ts';
import { type CompatibilityReport, emptyVerdictCounts, type Verdict } from '../../../src/report/model.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { tempDir, throwawayPlugin } from '../../certify/support.ts';
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

/**
 * What the one builder guarantees of every report, as a list of the ways `report` falls short
 * (empty when it holds). `catalogFile`: the catalog that judged the run.
 */
function builderProblems(report: CompatibilityReport, catalogFile: string): string[] {
  const problems = validateReport(report).map((p) => `schema: ${p}`);
  const text = readFileSync(catalogFile, 'utf8');
  const format = Number(/^version:\s*(\d+)\s*$/m.exec(text)?.[1]);
  const m = report.metadata;
  if (m.toolVersion !== TOOL_VERSION) problems.push(`toolVersion ${m.toolVersion}, not ${TOOL_VERSION}`);
  if (m.catalogVersion !== format) problems.push(`catalogVersion ${m.catalogVersion}, not ${format}`);
  if (m.catalogFingerprint !== fingerprint(text))
    problems.push(`catalogFingerprint ${m.catalogFingerprint}, not ${fingerprint(text)}`);
  for (const time of [m.startedAt, m.finishedAt])
    if (new Date(time).toISOString() !== time) problems.push(`time ${time} is not an ISO time`);
  if (m.startedAt > m.finishedAt) problems.push('finished before it started');

  const clauses = report.interfaces.flatMap((i) => i.clauses);
  const total = emptyVerdictCounts();
  for (const face of report.interfaces) {
    const counts = emptyVerdictCounts();
    for (const clause of face.clauses) counts[clause.verdict] += 1;
    if (face.clauses.length === 0) problems.push(`interface ${face.id} has no clause`);
    if (JSON.stringify(face.counts) !== JSON.stringify(counts))
      problems.push(`interface ${face.id}: counts ${JSON.stringify(face.counts)} are not its clauses'`);
    if (
      face.score.passed !== counts.pass ||
      face.score.testable !== face.clauses.length - counts['not-testable']
    )
      problems.push(`interface ${face.id}: score ${JSON.stringify(face.score)} is not its clauses'`);
    for (const verdict of Object.keys(total) as Verdict[]) total[verdict] += counts[verdict];
  }
  if (JSON.stringify(report.clauses) !== JSON.stringify(total))
    problems.push(`clause counts ${JSON.stringify(report.clauses)} are not the interfaces' sum`);
  const s = report.scenarios;
  if (s.total !== s.passed + s.failed + s.skipped + s.other)
    problems.push(`scenario counts ${JSON.stringify(s)} do not add up`);

  const unexpected = clauses.filter((c) => c.baseline?.status === 'unexpected-failure').map((c) => c.id);
  for (const clause of clauses.filter((c) => c.verdict === 'fail'))
    if (clause.baseline?.status !== 'unexpected-failure' && clause.baseline?.status !== 'expected-failure')
      problems.push(`${clause.id} failed without a baseline status`);
  if (JSON.stringify(report.baseline.unexpectedFailures) !== JSON.stringify(unexpected))
    problems.push(
      `baseline.unexpectedFailures ${report.baseline.unexpectedFailures} are not the clauses' ${unexpected}`,
    );
  if (report.outcome.passed !== (report.outcome.reasons.length === 0))
    problems.push('outcome.passed disagrees with its reasons');
  if (unexpected.length > 0 && report.outcome.passed) problems.push('passed with unexpected failures');
  if (s.total === 0 && !report.outcome.reasons.includes('no scenario ran'))
    problems.push('no scenario ran, and the outcome does not say so');
  return problems;
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

test('certify-plugin --mkp: the package’s report is the one builder’s', {
  skip: pythonProblem() ?? false,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'pbx_monitoring.mkp'), (await buildMonitoringPackage()).bytes);
  const result = await cli(dir, [
    'certify-plugin',
    '--quiet',
    '--mkp',
    'pbx_monitoring.mkp',
    '--scenario',
    'healthy',
  ]);
  assert.equal(result.code, 0, result.out + result.err);
  const report = await reportAt(join(dir, 'reports'));
  assert.deepEqual(builderProblems(report, DEFAULT_CATALOG_PATH), []);
  assert.equal(report.metadata.catalogVersion > 0, true, 'never catalogVersion 0');
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
