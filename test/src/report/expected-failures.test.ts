import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import { EXPECTED_FAILURES_DIR } from '../../../src/core/project-paths.ts';
import {
  loadBaselineFile,
  loadExpectedFailures,
  parseExpectedFailures,
} from '../../../src/report/expected-failures.ts';

const IDS = new Set(['MON-A', 'MON-B']);

test('parses a list of clause and reason', () => {
  assert.deepEqual(parseExpectedFailures('- clause: MON-A\n  reason: gap\n', IDS), [
    { clause: 'MON-A', reason: 'gap' },
  ]);
  assert.deepEqual(parseExpectedFailures('# nothing yet\n', IDS), []);
  assert.deepEqual(parseExpectedFailures('[]\n', IDS), []);
});

test('rejects unknown clauses, missing reasons, duplicates and other shapes', () => {
  assert.throws(() => parseExpectedFailures('- {clause: MON-X, reason: r}', IDS), /not a catalog clause id/);
  assert.throws(() => parseExpectedFailures('- {clause: MON-A}', IDS), /required property 'reason'/);
  assert.throws(() => parseExpectedFailures('- {clause: MON-A, reason: " "}', IDS), /\/0\/reason must match/);
  assert.throws(
    () => parseExpectedFailures('- {clause: MON-A, reason: r}\n- {clause: MON-A, reason: s}', IDS),
    /twice/,
  );
  assert.throws(() => parseExpectedFailures('clause: MON-A', IDS), /\/ must be array/);
});

test('unknown keys are named with the nearest valid one, and every problem is listed', () => {
  assert.throws(
    () =>
      parseExpectedFailures(
        '- {clause: MON-A, reasn: r, untl: 2030-01-01}\n- {clause: MON-X, reason: r}',
        IDS,
      ),
    (error: Error) => {
      assert.match(error.message, /^4 problems: /);
      assert.match(error.message, /unknown key "reasn" at \/0 \(did you mean "reason"\?\)/);
      assert.match(error.message, /unknown key "untl" at \/0 \(did you mean "until"\?\)/);
      assert.match(error.message, /required property 'reason'/);
      assert.match(error.message, /entry 2: clause MON-X is not a catalog clause id/);
      return true;
    },
  );
  assert.throws(
    () => parseExpectedFailures('- {clause: MON-A, reason: r, until: soon}', IDS),
    /\/0\/until must match format "date"/,
  );
});

test('an entry past its until day excuses nothing; on the day itself it still does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-baseline-'));
  try {
    const file = join(dir, 'vendor-gaps.yaml');
    await writeFile(
      file,
      '- {clause: MON-A, reason: fix due, until: 2026-03-01}\n- {clause: MON-B, reason: open}\n',
    );
    const onTheDay = await loadBaselineFile(file, IDS, '2026-03-01');
    assert.deepEqual(
      onTheDay.entries.map((e) => e.clause),
      ['MON-A', 'MON-B'],
    );
    const after = await loadBaselineFile(file, IDS, '2026-03-02');
    assert.deepEqual(
      after.entries.map((e) => e.clause),
      ['MON-B'],
    );
    assert.deepEqual(
      after.expired?.map((e) => e.clause),
      ['MON-A'],
    );
    await assert.rejects(
      loadBaselineFile(join(dir, 'missing.yaml'), IDS),
      /baseline file .*missing\.yaml does not exist/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a missing file is an empty baseline; unsafe target names are refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-baseline-'));
  try {
    assert.deepEqual(await loadExpectedFailures(dir, 'remote-1', IDS), {
      path: join(dir, 'remote-1.yaml'),
      file: null,
      entries: [],
      expired: [],
    });
    await writeFile(join(dir, 'remote-1.yaml'), '- {clause: MON-B, reason: slow disk}\n');
    const loaded = await loadExpectedFailures(dir, 'remote-1', IDS);
    assert.equal(loaded.file, join(dir, 'remote-1.yaml'));
    assert.deepEqual(loaded.entries, [{ clause: 'MON-B', reason: 'slow disk' }]);
    await assert.rejects(loadExpectedFailures(dir, '../escape', IDS), /may only use/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the shipped embedded baseline is valid against the real catalog', async () => {
  const catalog = await loadCatalog();
  const ids = new Set(catalog.clauses.map((c) => c.id));
  const loaded = await loadExpectedFailures(EXPECTED_FAILURES_DIR, 'embedded', ids);
  assert.notEqual(loaded.file, null);
  for (const entry of loaded.entries) assert.ok(ids.has(entry.clause));
});
