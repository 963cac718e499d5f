import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import { EXPECTED_FAILURES_DIR } from '../../../src/catalog/project-paths.ts';
import { loadExpectedFailures, parseExpectedFailures } from '../../../src/report/expected-failures.ts';

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
  assert.throws(() => parseExpectedFailures('- {clause: MON-A}', IDS), /reason is required/);
  assert.throws(
    () => parseExpectedFailures('- {clause: MON-A, reason: r}\n- {clause: MON-A, reason: s}', IDS),
    /twice/,
  );
  assert.throws(() => parseExpectedFailures('clause: MON-A', IDS), /YAML list/);
});

test('a missing file is an empty baseline; unsafe target names are refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-baseline-'));
  try {
    assert.deepEqual(await loadExpectedFailures(dir, 'remote-1', IDS), {
      path: join(dir, 'remote-1.yaml'),
      file: null,
      entries: [],
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
