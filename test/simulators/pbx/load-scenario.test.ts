import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listScenarios, loadScenarioFile, resolveScenario } from '../../../simulators/pbx/load-scenario.ts';
import { defaultState } from '../../../simulators/pbx/state/default-state.ts';

const NOW = 1_750_000_000_000;
const SCHEMA_PATH = new URL('../../../schemas/pbx-scenario.schema.json', import.meta.url);

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
}

function withFile(content: unknown, run: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'pbx-scenario-'));
  try {
    const path = join(dir, 'custom.json');
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the simulator ships the named scenarios, healthy first, each with a description', () => {
  const scenarios = listScenarios();
  assert.equal(scenarios[0]?.name, 'healthy');
  const names = scenarios.map((s) => s.name);
  for (const name of [
    'healthy',
    'all-phones-offline',
    'backup-failed',
    'backup-failed-latest',
    'trunk-unregistered',
    'raid-degraded',
    'update-major',
    'update-minor',
    'ram-warning',
    'ram-critical',
    'values-unknown',
    'unlicensed',
    'large',
  ]) {
    assert.ok(names.includes(name), name);
  }
  assert.ok(scenarios.every((s) => s.description.length > 10));
});

test('healthy is the default state itself, and every scenario resolves deterministically', () => {
  assert.deepEqual(resolveScenario('healthy', NOW), defaultState(NOW));
  for (const { name } of listScenarios())
    assert.deepEqual(resolveScenario(name, NOW), resolveScenario(name, NOW));
});

test('scenarios change what their names say', () => {
  assert.equal(resolveScenario('all-phones-offline', NOW).sip.onlinePhones, 0);
  assert.equal(resolveScenario('raid-degraded', NOW).raid?.status, 'degraded');
  assert.equal(resolveScenario('update-major', NOW).update.kind, 'major');
  assert.equal(resolveScenario('update-minor', NOW).update.kind, 'minor');
  assert.equal(resolveScenario('unlicensed', NOW).licence.valid, false);
  assert.equal(resolveScenario('trunk-unregistered', NOW).sipProviders[1]?.registered, false);
  const failed = resolveScenario('backup-failed', NOW).backups[1];
  assert.equal(failed?.runs.at(-1)?.result, 'de.vendor.backup.mountfail');
  assert.equal(failed?.runs.at(-1)?.time, NOW - 180 * 60_000);
  const ram = (name: string) => {
    const os = resolveScenario(name, NOW).os;
    return ((os.memTotalBytes - os.memAvailableBytes) * 100) / os.memTotalBytes;
  };
  assert.ok(ram('ram-warning') >= 70 && ram('ram-warning') < 90);
  assert.ok(ram('ram-critical') >= 90);
  const unknown = resolveScenario('values-unknown', NOW);
  assert.equal(unknown.accounts.total, -1);
  assert.equal(unknown.java.heapUsed, -1);
});

test('large generates hundreds of peers, modules and backup targets', () => {
  const large = resolveScenario('large', NOW);
  assert.equal(large.peers.length, 400);
  assert.equal(large.modules.length, 120);
  assert.equal(large.backups.length, 150);
  assert.equal(large.sipProviders.length, 40);
  assert.equal(large.channels.active.length, 240);
  assert.equal(new Set(large.peers.map((p) => p.name)).size, 400);
  assert.equal(large.sip.knownPhones, 400);
});

test('a complete state is used as is, as a copy', () => {
  const state = defaultState(NOW);
  state.appliance.hostname = 'custom';
  const resolved = resolveScenario(state, NOW);
  assert.deepEqual(resolved, state);
  assert.notEqual(resolved, state);
});

test('an unknown scenario name throws one line naming the known ones', () => {
  assert.throws(
    () => resolveScenario('no-such', NOW),
    (error: Error) =>
      error.message.includes("unknown scenario 'no-such'") &&
      error.message.includes('healthy') &&
      !error.message.includes('\n'),
  );
});

test('a user scenario file hashes clear passwords and turns ageMinutes into times', () => {
  withFile(
    {
      name: 'mine',
      description: 'custom users and a recent backup',
      state: {
        users: [{ login: '123', password: 'Pass123', admin: true }],
        backups: [
          {
            type: 'FTP',
            location: 'ftp.example',
            message: 'ok',
            runs: [{ ageMinutes: 30, result: 'x.successful' }],
            sizeBytes: 1,
          },
        ],
      },
    },
    (path) => {
      const state = loadScenarioFile(path, NOW);
      assert.deepEqual(state.users, [
        { login: '123', passwordSha512: createHash('sha512').update('Pass123').digest('hex'), admin: true },
      ]);
      assert.ok(!JSON.stringify(state).includes('Pass123'));
      assert.deepEqual(state.backups[0]?.runs, [{ time: NOW - 30 * 60_000, result: 'x.successful' }]);
    },
  );
});

test('an invalid scenario file throws one clear line', () => {
  const rejects = (content: unknown, pattern: RegExp) =>
    withFile(content, (path) =>
      assert.throws(
        () => loadScenarioFile(path, NOW),
        (error: Error) => pattern.test(error.message) && !error.message.includes('\n'),
      ),
    );
  rejects(
    { name: 'x', description: 'typo', state: { appliance: { hostnme: 'a' } } },
    /invalid: \/state\/appliance .*'hostnme'/,
  );
  rejects(
    { name: 'x', description: 'bad type', state: { sip: { knownPhones: 'many' } } },
    /invalid: \/state\/sip\/knownPhones must be integer/,
  );
  rejects({ description: 'no name' }, /invalid: .*name/);
  rejects('{ not json', /cannot be read/);
});

test('the scenario schema knows every field of the default state, so any field can be overlaid', () => {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as SchemaNode & {
    definitions: Record<string, SchemaNode>;
  };
  const resolve = (node: SchemaNode): SchemaNode => {
    const ref = node.$ref?.replace('#/definitions/', '');
    return ref ? resolve(schema.definitions[ref] ?? {}) : node;
  };
  const missing: string[] = [];
  const walk = (value: unknown, node: SchemaNode, path: string) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const childNode = resolve(node).properties?.[key];
      if (!childNode) missing.push(`${path}${key}`);
      else walk(child, childNode, `${path}${key}.`);
    }
  };
  walk(defaultState(NOW), schema.definitions['stateOverlay'] ?? {}, '');
  assert.deepEqual(missing, [], 'add these fields to schemas/pbx-scenario.schema.json');
});

test('healthy-extended is healthy plus agent-text extensions only', () => {
  const extended = resolveScenario('healthy-extended', NOW);
  const healthy = resolveScenario('healthy', NOW);
  assert.ok(extended.agentExtensions.sections.length > 0);
  assert.ok(extended.agentExtensions.extraLines.pbx.length > 0);
  assert.deepEqual({ ...extended, agentExtensions: healthy.agentExtensions }, healthy);
});

test('backup-failed: an older target failed and another succeeded later; backup-failed-latest: the newest run of all failed', () => {
  const newestOfAll = (name: string) =>
    resolveScenario(name, NOW)
      .backups.flatMap((b) => b.runs)
      .sort((a, b) => b.time - a.time)[0]?.result;
  assert.equal(newestOfAll('backup-failed'), 'de.vendor.backup.successful');
  assert.equal(newestOfAll('backup-failed-latest'), 'de.vendor.backup.mountfail');
  for (const name of ['backup-failed', 'backup-failed-latest']) {
    const smb = resolveScenario(name, NOW).backups.find((b) => b.type === 'SMB');
    const newest = [...(smb?.runs ?? [])].sort((a, b) => b.time - a.time)[0];
    assert.equal(newest?.result, 'de.vendor.backup.mountfail', name);
  }
});
