import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTargetName } from '../../../src/runner/read-target-name.ts';

test('reads the name of a target file and explains what is wrong with bad ones', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify({ name: 'lab-pbx', pbx: {} }));
    assert.equal(await readTargetName(good), 'lab-pbx');
    await assert.rejects(readTargetName(join(dir, 'missing.json')), /does not exist/);
    const notJson = join(dir, 'bad.json');
    await writeFile(notJson, '{ name: ');
    await assert.rejects(readTargetName(notJson), /not valid JSON/);
    const nameless = join(dir, 'nameless.json');
    await writeFile(nameless, '{"pbx":{}}');
    await assert.rejects(readTargetName(nameless), /has no `name`/);
    await assert.rejects(readTargetName(dir), /cannot read target file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
