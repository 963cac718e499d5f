/**
 * Dog-food of `certify-plugin --mkp` (issue 24): the simulator's own pbx_monitoring MKP certifies,
 * and a copy broken on purpose is rejected with evidence. Here, beside the package's other tests,
 * because it builds the package from the simulator's sources.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  buildMonitoringPackage,
  PACKAGE_SOURCE_DIR,
} from '../../../../simulators/pbx/mkp/monitoring-package.ts';
import { openMkp } from '../../../../src/certify/mkp/plugin-package.ts';
import { pythonProblem } from '../../../../src/certify/mkp/run-agent-plugins.ts';
import { DEFAULT_CATALOG_PATH } from '../../../../src/core/project-paths.ts';
import { versionInfo } from '../../../../src/core/tool-version.ts';
import type { ClauseResult, CompatibilityReport } from '../../../../src/report/model.ts';
import { certify, tempDir } from '../../../certify/support.ts';
import { builderProblems } from '../../../src/report/builder-problems.ts';

const noPython = pythonProblem() ?? false;

/** Enough of the catalog for every rule: healthy (and its same-state twin), -1 sentinels, unknown entries. */
const SCENARIOS = ['--scenario', 'values-unknown', '--scenario', 'extension', '--scenario', 'slow-answer'];

function clause(report: CompatibilityReport, id: string): ClauseResult {
  const found = report.interfaces.flatMap((i) => i.clauses).find((c) => c.id === id);
  assert.ok(found, `no clause ${id} in the report`);
  return found;
}

/** Replaces one text of a package source file (the broken copy's two defects). */
async function patch(file: string, replace: string, by: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  assert.ok(text.includes(replace), `${file} no longer holds: ${replace}`);
  await writeFile(file, text.replace(replace, by));
}

test("the project's own pbx_monitoring MKP certifies with --mkp (exit 0), every rule passing", {
  skip: noPython,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'pbx_monitoring.mkp'), (await buildMonitoringPackage()).bytes);
  const result = await certify(dir, ['--mkp', 'pbx_monitoring.mkp', ...SCENARIOS, '--reports', 'out']);
  assert.equal(result.code, 0, `${result.out}\n${result.err}`);
  assert.match(
    result.out,
    /certify-plugin pbx_monitoring: 12\/12 rules passed over 4 scenarios \(23 services on healthy\)/,
  );
  const report = await result.report();
  assert.deepEqual(
    report.interfaces.map((i) => [i.id, i.score.passed, i.score.testable]),
    [
      ['PLUGIN', 4, 4],
      ['MKP', 8, 8],
    ],
  );
  assert.match(
    clause(report, 'MKP-PLUGIN-MISSING-ITEM').rule,
    /source: Checkmk, "Guidelines for coding check plug-ins"/,
  );
  assert.equal(report.outcome.passed, true);
  // The catalog is named as every other command names it (issue 29, item 12).
  const { catalog } = versionInfo();
  assert.equal(report.metadata.catalogVersion, catalog.format);
  assert.equal(report.metadata.catalogFingerprint, catalog.fingerprint);
});

test('a broken copy (an exception on values-unknown, a made-up Result for a missing item) is rejected with evidence', {
  skip: noPython,
}, async (t) => {
  const dir = await tempDir(t);
  const source = join(dir, 'broken-source');
  await cp(PACKAGE_SOURCE_DIR, source, { recursive: true });
  const family = join(source, 'cmk_addons_plugins', 'pbx_monitoring');
  await patch(
    join(family, 'agent_based', 'pbx.py'),
    '    known = section.num("known_phones")\n',
    '    known = section.num("known_phones")\n    if known is None:\n        raise ValueError("the PBX could not determine this value")\n',
  );
  await patch(
    join(family, 'agent_based', 'pbx_peers.py'),
    '    peer = section.get(item)\n    if peer is None:\n        return\n',
    '    peer = section.get(item)\n    if peer is None:\n        yield Result(state=State.CRIT, summary="Peer is gone")\n        return\n',
  );
  await writeFile(join(dir, 'broken.mkp'), (await buildMonitoringPackage(source)).bytes);
  const result = await certify(dir, ['--mkp', 'broken.mkp', ...SCENARIOS, '--reports', 'out']);
  assert.equal(result.code, 1, `${result.out}\n${result.err}`);
  assert.match(result.out, /FAIL +PLUGIN-NO-CRASH +: values-unknown: /);
  assert.match(result.out, /FAIL +MKP-PLUGIN-MISSING-ITEM +: healthy: pbx_peers made up 1 results/);
  const report = await result.report();
  const crash = clause(report, 'PLUGIN-NO-CRASH');
  assert.equal(crash.verdict, 'fail');
  const failed = crash.scenarios.find((s) => s.name === 'values-unknown');
  assert.equal(failed?.status, 'failed');
  assert.match(failed?.failure?.message ?? '', /raised ValueError: the PBX could not determine this value/);
  assert.ok(
    failed?.evidence.some((e) => /Traceback[\s\S]*pbx\.py/.test(e.response ?? '')),
    'the traceback is in the evidence',
  );
  assert.ok(
    failed?.evidence.some((e) => /<<<pbx>>>[\s\S]*-1/.test(e.response ?? '')),
    'the served text is in the evidence',
  );
  assert.equal(crash.scenarios.find((s) => s.name === 'healthy')?.status, 'passed');
  const missing = clause(report, 'MKP-PLUGIN-MISSING-ITEM');
  assert.equal(missing.verdict, 'fail');
  assert.match(missing.scenarios[0]?.failure?.message ?? '', /CRIT "Peer is gone"/);
  assert.equal(clause(report, 'MKP-PLUGIN-PACKAGE-VALID').verdict, 'pass');
  assert.equal(report.outcome.passed, false);
});

test('--plugin-dir takes the package source; usage errors exit 2 with one line', {
  skip: noPython,
}, async (t) => {
  const dir = await tempDir(t);
  const ok = await certify(dir, [
    '--plugin-dir',
    PACKAGE_SOURCE_DIR,
    '--scenario',
    'healthy',
    '--runs',
    '2',
    '--seed',
    '7',
    '--reports',
    'out',
  ]);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.match(ok.out, /over 3 scenarios/);
  assert.match(ok.out, /generated states: 2, seed 7 \(--seed repeats them\)/);
  const crash = (await ok.report()).interfaces
    .flatMap((i) => i.clauses)
    .find((c) => c.id === 'PLUGIN-NO-CRASH');
  assert.deepEqual(
    crash?.scenarios.map((s) => [s.name, s.status]),
    [
      ['healthy', 'passed'],
      ['generated-1', 'passed'],
      ['generated-2', 'passed'],
    ],
  );
  const both = await certify(dir, ['--mkp', 'x.mkp', '--plugin-dir', '.']);
  assert.equal(both.code, 2);
  assert.match(both.err, /give either --mkp or --plugin-dir, not both/);
  const missing = await certify(dir, ['--mkp', 'nothing-here.mkp']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /package nothing-here.mkp not found/);
  const family = await certify(dir, [
    '--plugin-dir',
    join(PACKAGE_SOURCE_DIR, 'cmk_addons_plugins', 'pbx_monitoring'),
  ]);
  assert.equal(family.code, 2);
  assert.match(family.err, /is one plug-in family/);
  const withCommand = await certify(dir, ['--mkp', 'x.mkp', '--', './check_pbx']);
  assert.equal(withCommand.code, 2);
});

test('an invalid MKP is a failed MKP-PLUGIN-PACKAGE-VALID with every problem (exit 1), not a harness error', {
  skip: noPython,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'broken.mkp'), 'this is not an archive');
  const result = await certify(dir, ['--mkp', 'broken.mkp', '--reports', 'out']);
  assert.equal(result.code, 1, result.out + result.err);
  const report = await result.report();
  assert.equal(clause(report, 'MKP-PLUGIN-PACKAGE-VALID').verdict, 'fail');
  assert.match(
    clause(report, 'MKP-PLUGIN-PACKAGE-VALID').scenarios[0]?.failure?.message ?? '',
    /not a gzip-compressed tar/,
  );
  assert.equal(clause(report, 'PLUGIN-NO-CRASH').verdict, 'not-verifiable');
});

test("the project's own MKP passes the package check and unpacks its plug-ins part, removed again on close", async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'pbx_monitoring.mkp');
  await writeFile(path, (await buildMonitoringPackage()).bytes);
  const checked = await openMkp(path, 'pbx_monitoring.mkp');
  assert.ok(checked.ok, checked.ok ? '' : checked.problems.join('; '));
  const pkg = checked.package;
  assert.equal(pkg.manifest?.name, 'pbx_monitoring');
  assert.ok(pkg.files.includes('pbx_monitoring/agent_based/pbx.py'));
  assert.ok(
    (await readFile(join(pkg.pluginsDir, 'pbx_monitoring', 'lib', 'agent_lines.py'), 'utf8')).length > 0,
  );
  await pkg.close();
  assert.equal(existsSync(pkg.pluginsDir), false);
});

test('certify-plugin --mkp: the package’s report is the one builder’s', {
  skip: noPython,
}, async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'pbx_monitoring.mkp'), (await buildMonitoringPackage()).bytes);
  const result = await certify(dir, ['--mkp', 'pbx_monitoring.mkp', '--scenario', 'healthy']);
  assert.equal(result.code, 0, `${result.out}\n${result.err}`);
  const report = await result.report();
  assert.deepEqual(builderProblems(report, DEFAULT_CATALOG_PATH), []);
  assert.equal(report.metadata.catalogVersion > 0, true, 'never catalogVersion 0');
});
