import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { certify, clauseOf, EXAMPLES, tempDir } from './support.ts';

/*
 * Issue 28, "Prove it": a broken example plug-in in examples/plugins/broken/ per new rule, each a
 * correct example but for one defect. Each fails on exactly the clause its header names, on the
 * catalog scenarios that show the defect (no generated states, to stay quick).
 */

interface Broken {
  file: string;
  scenarios: string[];
  /** The expectations file beside it, if it needs one. */
  yaml?: string;
  clause: string;
  because: RegExp;
}

const BROKEN: Broken[] = [
  {
    file: 'check_pbx_phones_ok_when_down.py',
    scenarios: ['healthy', 'endpoint-down'],
    clause: 'PLUGIN-NOT-OK-WITHOUT-DATA',
    because: /state OK, but the connection was refused/,
  },
  {
    file: 'check_pbx_phones_drops_at.py',
    scenarios: ['healthy', 'all-phones-offline'],
    clause: 'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS',
    because: /'phones_online_percent'=0.0% is outside its own crit range @0, but the state is WARNING/,
  },
  {
    file: 'check_pbx_channels_unknown_max.py',
    scenarios: ['healthy', 'values-unknown'],
    clause: 'PLUGIN-UNKNOWN-NOT-A-FIGURE',
    because: /'channels_max'=-1 is the PBX's -1 sentinel/,
  },
  {
    file: 'check_pbx_backups_age_in_minutes.py',
    // No file: an undeclared label that equals a figure of another unit is caught all the same
    // (with the example's declaration it also fails PLUGIN-FIGURES-AS-DECLARED).
    scenarios: ['healthy', 'backup-failed', 'large'],
    clause: 'PLUGIN-UOM-MATCHES-SERVED',
    because: /'oldest_newest_backup_age'=\d+s equals backups.oldest_newest_age, served in min/,
  },
  {
    file: 'check_pbx_phones_swapped_labels.py',
    scenarios: ['healthy', 'all-phones-offline'],
    yaml: 'check_pbx_phones_swapped_labels.yaml',
    clause: 'PLUGIN-FIGURES-AS-DECLARED',
    because: /'phones_(online|known)'=\d+, but phones\.(online|known) is served as \d+/,
  },
  {
    file: 'check_pbx_backups_any_failed_run.py',
    scenarios: ['healthy', 'backup-failed', 'backup-recovered'],
    yaml: 'check_pbx_backups_any_failed_run.yaml',
    clause: 'PLUGIN-STATE-EQUALS-PBX',
    because: /state CRITICAL, more severe than the PBX's OK/,
  },
];

for (const broken of BROKEN) {
  test(`broken/${broken.file} fails on ${broken.clause} alone`, async (t) => {
    const yaml = broken.yaml ? ['--expectations', join(EXAMPLES, 'broken', broken.yaml)] : [];
    const result = await certify(await tempDir(t), [
      ...broken.scenarios.flatMap((s) => ['--scenario', s]),
      '--runs',
      '0',
      ...yaml,
      '--reports',
      'out',
      '--',
      join(EXAMPLES, 'broken', broken.file),
      '-H',
      '{host}',
      '-p',
      '{port}',
      '-t',
      '{timeout}',
    ]);
    assert.equal(result.code, 1, result.out);
    const report = await result.report();
    const failed = report.interfaces[0]?.clauses.filter((c) => c.verdict === 'fail').map((c) => c.id);
    const messages = report.interfaces[0]?.clauses
      .flatMap((c) => c.scenarios.filter((s) => s.failure).map((s) => `${c.id}: ${s.failure?.message}`))
      .join('\n');
    assert.deepEqual(failed, [broken.clause], messages);
    const clause = clauseOf(report, broken.clause);
    assert.match(clause.scenarios.find((s) => s.failure)?.failure?.message ?? '', broken.because, messages);
  });
}
