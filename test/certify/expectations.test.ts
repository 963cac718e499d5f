import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadExpectations } from '../../src/certify/expectations.ts';
import { PROJECT_ROOT } from '../../src/core/project-paths.ts';

async function load(yaml: string) {
  const dir = await mkdtemp(join(tmpdir(), 'certify-exp-'));
  try {
    const path = join(dir, 'e.yaml');
    await writeFile(path, yaml);
    return await loadExpectations(path, 'e.yaml');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('an expectations file gives states as names, patterns and labels', async () => {
  const e = await load(
    "plugin: p\ntimeoutSeconds: 5\nscenarios:\n  healthy: { state: 0, text: ['^OK'], perfdata: [a] }\n  large: { state: [WARNING, 2] }\n",
  );
  assert.equal(e.plugin, 'p');
  assert.equal(e.timeoutSeconds, 5);
  assert.deepEqual(e.scenarios.get('healthy')?.states, ['OK']);
  assert.ok(e.scenarios.get('healthy')?.text[0]?.test('OK - x'));
  assert.deepEqual(e.scenarios.get('healthy')?.perfdata, ['a']);
  assert.deepEqual(e.scenarios.get('large')?.states, ['WARNING', 'CRITICAL']);
});

test('the shipped example expectations are valid', async () => {
  for (const file of ['check_pbx_backups.yaml', 'debian/check_tcp.yaml', 'debian/check_http.yaml']) {
    const e = await loadExpectations(join(PROJECT_ROOT, 'examples', 'plugins', file));
    assert.ok(e.scenarios.size > 0, file);
  }
});

test('unknown keys are refused with one line naming the key', async () => {
  await assert.rejects(load('scenarios: {}\nretries: 3\n'), (error: Error) => {
    assert.equal(error.message, 'expectations file e.yaml: unknown key "retries" at /');
    return true;
  });
  await assert.rejects(
    load('scenarios:\n  healthy: { state: OK, txt: [a] }\n'),
    /unknown key "txt" at \/scenarios\/healthy \(did you mean "text"\?\)$/,
  );
});

test('bad values are refused with one line', async () => {
  const cases: [string, RegExp][] = [
    [
      'scenarios:\n  healthy: { state: GOOD }\n',
      /\/scenarios\/healthy\/state must be one of "OK", "WARNING", "CRITICAL", "UNKNOWN" or integer or array$/,
    ],
    ['scenarios:\n  healthy: { state: 4 }\n', /state/],
    ['scenarios:\n  healthy: { text: [a] }\n', /\/scenarios\/healthy must have required property 'state'/],
    ['plugin: x\n', /must have required property 'scenarios'/],
    ["scenarios:\n  healthy: { state: OK, text: ['('] }\n", /text\/0 is not a regular expression/],
    ['scenarios:\n  Healthy: { state: OK }\n', /key "Healthy" at \/scenarios must match pattern/],
    ['scenarios: [\n', /not valid YAML/],
  ];
  for (const [yaml, reason] of cases) {
    await assert.rejects(load(yaml), (error: Error) => {
      assert.match(error.message, reason, yaml);
      assert.ok(!error.message.includes('\n'), 'one line');
      return true;
    });
  }
});
