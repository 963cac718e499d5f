import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { certify, clauseOf, tempDir } from './support.ts';

/*
 * The eight kinds of wrong plug-in of issue 28 ("Why"), each correct but for one defect, which
 * `--wrong` switches on (test/fixtures/wrong-plugins/). With a file that declares `measures` and
 * `watches` (with `agree: exact` where the plug-in reproduces a service) each wrong one fails on
 * the clause that names its defect; kinds 1, 2 and 4 fail with no file at all; the correct one of
 * each kind passes with the same file: no false alarm.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'wrong-plugins');

interface Kind {
  kind: number;
  file: string;
  scenarios: string[];
  yaml: string;
  /** The clause the wrong one breaks with the file, and the finding that says so. */
  fails: string;
  because: RegExp;
  /** The clause the wrong one breaks with no file at all (kinds 1, 2 and 4). */
  failsWithoutFile?: string;
}

const KINDS: Kind[] = [
  {
    kind: 1,
    file: 'kind1_ok_when_refused.py',
    scenarios: ['healthy', 'endpoint-down', 'unlicensed', 'all-phones-offline'],
    yaml: "measures: { phones_online: phones.online }\nwatches: [{ service: 'PBX All Phones Offline', agree: exact }]\n",
    fails: 'PLUGIN-NOT-OK-WITHOUT-DATA',
    because: /state OK, but the connection was refused/,
    failsWithoutFile: 'PLUGIN-NOT-OK-WITHOUT-DATA',
  },
  {
    kind: 2,
    file: 'kind2_ignores_thresholds.py',
    scenarios: ['healthy', 'ram-warning', 'ram-critical'],
    yaml: 'measures: { mem_total: mem.total }\n',
    fails: 'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS',
    because: /'ram_used'=93% is outside its own crit range 90, but the state is OK/,
    failsWithoutFile: 'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS',
  },
  {
    kind: 3,
    file: 'kind3_max_as_in_use.py',
    scenarios: ['healthy', 'large'],
    yaml: 'measures: { channels_in_use: channels.active }\n',
    fails: 'PLUGIN-FIGURES-AS-DECLARED',
    because: /'channels_in_use'=60, but channels.active is served as 7/,
  },
  {
    kind: 4,
    file: 'kind4_kb_as_bytes.py',
    scenarios: ['healthy', 'ram-critical'],
    yaml: 'measures: { mem_total: mem.total, mem_available: mem.available }\n',
    fails: 'PLUGIN-UOM-MATCHES-SERVED',
    because: /'mem_total'=8388608B is mem.total as served in kB, not converted into B/,
    failsWithoutFile: 'PLUGIN-UOM-MATCHES-SERVED',
  },
  {
    kind: 5,
    file: 'kind5_first_4kib.py',
    scenarios: ['healthy', 'large'],
    yaml: 'measures: { accounts_total: accounts.total }\n',
    fails: 'PLUGIN-FIGURES-AS-DECLARED',
    because: /the declared label 'accounts_total' is missing, where accounts.total is served/,
  },
  {
    kind: 6,
    file: 'kind6_oldest_run.py',
    scenarios: ['healthy', 'backup-failed', 'backup-recovered'],
    yaml: "measures: { backups_failed: backups.failed }\nwatches: [{ service: 'PBX Backup*', agree: exact }]\n",
    fails: 'PLUGIN-STATE-EQUALS-PBX',
    because: /state CRITICAL, more severe than the PBX's OK/,
  },
  {
    kind: 7,
    file: 'kind7_warning_not_critical.py',
    scenarios: ['healthy', 'backup-failed', 'backup-recovered'],
    yaml: "measures: { backups_failed: backups.failed }\nwatches: [{ service: 'PBX Backup*', agree: exact }]\n",
    fails: 'PLUGIN-STATE-AGREES-WITH-PBX',
    because: /state WARNING, but the PBX gives 'PBX Backup SMB 192.0.2.6:\/Backup' CRITICAL/,
  },
  {
    kind: 8,
    file: 'kind8_swapped.py',
    scenarios: ['healthy', 'all-phones-offline'],
    yaml: "measures: { phones_online: phones.online }\nwatches: ['PBX All Phones Offline']\n",
    fails: 'PLUGIN-FIGURES-AS-DECLARED',
    because: /'phones_online'=9, but phones.online is served as 139/,
  },
];

for (const k of KINDS) {
  test(`wrong plug-in kind ${k.kind} (${k.file}) fails on ${k.fails}; its correct twin passes`, async (t) => {
    const dir = await tempDir(t);
    await writeFile(join(dir, 'expectations.yaml'), `plugin: kind${k.kind}\n${k.yaml}`);
    const run = (wrong: boolean, file: boolean, reports: string) =>
      certify(dir, [
        ...(file ? ['--expectations', 'expectations.yaml'] : []),
        ...k.scenarios.flatMap((s) => ['--scenario', s]),
        '--runs',
        '0',
        '--reports',
        reports,
        '--',
        'python3',
        join(FIXTURES, k.file),
        ...(wrong ? ['--wrong'] : []),
        '{host}',
        '{port}',
      ]);
    const correct = await run(false, true, 'correct');
    const report = await correct.report();
    const failing = report.interfaces.flatMap((i) => i.clauses).filter((c) => c.verdict === 'fail');
    assert.deepEqual(
      failing.map((c) => `${c.id}: ${c.scenarios[0]?.failure?.message}`),
      [],
      'the correct plug-in raised a false alarm',
    );
    assert.equal(correct.code, 0, correct.out + correct.err);
    const wrong = await run(true, true, 'wrong');
    assert.equal(wrong.code, 1, wrong.out + wrong.err);
    const clause = clauseOf(await wrong.report(), k.fails);
    assert.equal(clause.verdict, 'fail', wrong.out);
    assert.ok(
      clause.scenarios.some((s) => k.because.test(s.failure?.message ?? '')),
      `${k.fails}: ${clause.scenarios.map((s) => s.failure?.message).join(' | ')}`,
    );
    if (k.failsWithoutFile) {
      const bare = await run(true, false, 'bare');
      assert.equal(bare.code, 1, bare.out + bare.err);
      assert.equal(clauseOf(await bare.report(), k.failsWithoutFile).verdict, 'fail', bare.out);
    }
  });
}
