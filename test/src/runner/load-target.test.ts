import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadTarget } from '../../../src/runner/load-target.ts';
import { sampleTarget } from './loopback-ports.ts';

test('loads a target file that matches the schema', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const file = join(dir, 'good.json');
    await writeFile(file, JSON.stringify(sampleTarget({ web: 8080, monitoring: 6556 })));
    const target = await loadTarget(file);
    assert.equal(target.name, 'lab');
    assert.equal(target.pbx.monitoring.port, 6556);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a target file that does not match the schema names the file and every problem on one line', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ name: 'lab', pbx: {} }));
    await assert.rejects(loadTarget(file), (error: Error) => {
      assert.ok(error.message.startsWith(`target file ${file}: does not match schemas/target.schema.json: `));
      assert.match(error.message, /: 4 problems: \/pbx must have required property 'webUrl'; /);
      for (const key of ['monitoring', 'xmlrpc', 'listedClientAddress']) {
        assert.ok(error.message.includes(`required property '${key}'`), key);
      }
      assert.equal(error.message.includes('\n'), false);
      assert.equal(error.message.includes('more)'), false);
      return true;
    });
    const badPort = sampleTarget({ web: 8080, monitoring: 70000 });
    await writeFile(file, JSON.stringify(badPort));
    await assert.rejects(loadTarget(file), /: \/pbx\/monitoring\/port must be <= 65535$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an unknown key is named with the nearest valid one, next to the other problems', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const file = join(dir, 'typo.json');
    const target = sampleTarget({ web: 8080, monitoring: 6556 });
    const pbx = target['pbx'] as Record<string, unknown>;
    await writeFile(
      file,
      JSON.stringify({ ...target, maintainance: { token: 't' }, pbx: { ...pbx, webUrl: 'ftp://x' } }),
    );
    await assert.rejects(loadTarget(file), (error: Error) => {
      assert.match(error.message, /unknown key "maintainance" at \/ \(did you mean "maintenance"\?\)/);
      assert.match(error.message, /\/pbx\/webUrl must match pattern/);
      assert.match(error.message, /: 2 problems: /);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a missing or non-JSON target file keeps its plain message', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    await assert.rejects(loadTarget(join(dir, 'missing.json')), /target file .*missing\.json does not exist/);
    const file = join(dir, 'bad.json');
    await writeFile(file, '{ name: ');
    await assert.rejects(loadTarget(file), /is not valid JSON/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// Issue 20, item 22: a UTF-8 BOM was "not valid JSON", and `"name": 5` was reported as "has no `name`".
test('a target file saved with a UTF-8 byte order mark loads', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const file = join(dir, 'bom.json');
    await writeFile(file, `\uFEFF${JSON.stringify(sampleTarget({ web: 8080, monitoring: 6556 }))}`);
    assert.equal((await loadTarget(file)).name, 'lab');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a `name` that is not a string is named for what it is, not as missing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-target-'));
  try {
    const file = join(dir, 'name.json');
    await writeFile(file, JSON.stringify({ ...sampleTarget({ web: 8080, monitoring: 6556 }), name: 5 }));
    await assert.rejects(loadTarget(file), {
      message: `target file ${file}: \`name\` must be a string, got the number 5`,
    });
    await writeFile(file, JSON.stringify({ pbx: {} }));
    await assert.rejects(loadTarget(file), { message: `target file ${file} has no \`name\`` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
