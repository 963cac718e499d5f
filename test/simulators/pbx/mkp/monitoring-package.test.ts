import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  buildMonitoringPackage,
  monitoringPackage,
  PACKAGE_SOURCE_DIR,
} from '../../../../simulators/pbx/mkp/monitoring-package.ts';
import { unpackTar } from '../../../../simulators/pbx/mkp/tar-archive.ts';
import { hasCommand, run } from './system-tools.ts';

const noTar = hasCommand('tar') ? false : 'the system tar is not installed';
const noPython = hasCommand('python3') ? false : 'python3 is not installed';

const PLUGIN_FILES = [
  'pbx_monitoring/agent_based/pbx.py',
  'pbx_monitoring/agent_based/pbx_accounts.py',
  'pbx_monitoring/agent_based/pbx_backups.py',
  'pbx_monitoring/agent_based/pbx_channels.py',
  'pbx_monitoring/agent_based/pbx_database.py',
  'pbx_monitoring/agent_based/pbx_java.py',
  'pbx_monitoring/agent_based/pbx_modules.py',
  'pbx_monitoring/agent_based/pbx_peers.py',
  'pbx_monitoring/agent_based/pbx_sip_provider.py',
  'pbx_monitoring/lib/agent_lines.py',
];

test('the package is a gzip-compressed tar whose members are info, info.json and cmk_addons_plugins.tar', {
  skip: noTar,
}, async () => {
  const { bytes } = await buildMonitoringPackage();
  assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
  const listing = run('tar', ['-tzf', '-'], bytes).toString('utf8').trim().split('\n');
  assert.deepEqual(listing, ['info', 'info.json', 'cmk_addons_plugins.tar']);
});

test('the part tar holds every plug-in file, byte for byte as in the repository', {
  skip: noTar,
}, async () => {
  const { bytes } = await buildMonitoringPackage();
  const inner = run('tar', ['-xOzf', '-', 'cmk_addons_plugins.tar'], bytes);
  const listing = run('tar', ['-tf', '-'], inner).toString('utf8').trim().split('\n');
  assert.deepEqual(listing, PLUGIN_FILES);
  for (const file of PLUGIN_FILES) {
    const packed = run('tar', ['-xOf', '-', file], inner);
    assert.deepEqual(packed, readFileSync(join(PACKAGE_SOURCE_DIR, 'cmk_addons_plugins', file)), file);
  }
});

test('info.json names the package, its Checkmk versions and exactly the packed files', {
  skip: noTar,
}, async () => {
  const { bytes } = await buildMonitoringPackage();
  const info = JSON.parse(run('tar', ['-xOzf', '-', 'info.json'], bytes).toString('utf8'));
  assert.equal(info.name, 'pbx_monitoring');
  assert.match(info.name, /^[^\d\W][-\w]*$/, "Checkmk's package-name rule");
  assert.match(info.version, /^\d+\.\d+\.\d+$/);
  assert.equal(info['version.min_required'], '2.3.0', 'the agent-based API v2 needs Checkmk 2.3');
  assert.equal(info['version.usable_until'], null);
  assert.deepEqual(info.files, { cmk_addons_plugins: PLUGIN_FILES });
  for (const key of ['title', 'description', 'author', 'download_url', 'version.packaged']) {
    assert.equal(typeof info[key], 'string', key);
  }
});

test('info is a Python literal equal to info.json, as Checkmk reads it with ast.literal_eval', {
  skip: noTar || noPython,
}, async () => {
  const { bytes } = await buildMonitoringPackage();
  const info = run('tar', ['-xOzf', '-', 'info'], bytes);
  const evaluated = run(
    'python3',
    ['-c', 'import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))'],
    info,
  );
  const json = run('tar', ['-xOzf', '-', 'info.json'], bytes).toString('utf8');
  assert.deepEqual(JSON.parse(evaluated.toString('utf8')), JSON.parse(json));
});

test('Python tarfile opens the package the way the Checkmk package tool does', {
  skip: noPython,
}, async () => {
  const script = [
    'import ast, io, sys, tarfile',
    'mkp = sys.stdin.buffer.read()',
    'with tarfile.open(fileobj=io.BytesIO(mkp), mode="r:gz") as tar:',
    '    manifest = ast.literal_eval(tar.extractfile("info").read().decode())',
    '    for part, files in manifest["files"].items():',
    '        inner = tarfile.open(fileobj=tar.extractfile(part + ".tar"))',
    '        assert sorted(inner.getnames()) == sorted(files), (inner.getnames(), files)',
    '        for name in files:',
    '            compile(inner.extractfile(name).read(), name, "exec")',
    'print(manifest["name"], manifest["version"])',
  ].join('\n');
  const out = run('python3', ['-c', script], (await buildMonitoringPackage()).bytes)
    .toString('utf8')
    .trim();
  assert.match(out, /^pbx_monitoring \d+\.\d+\.\d+$/);
});

test('the same sources always give the same bytes, and the process keeps one build', async () => {
  assert.deepEqual((await buildMonitoringPackage()).bytes, (await buildMonitoringPackage()).bytes);
  assert.equal(monitoringPackage(), monitoringPackage());
});

test('only .py files are packed: caches and other files in the source folder are left out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mkp-src-'));
  try {
    const family = join(dir, 'cmk_addons_plugins', 'fam', 'agent_based');
    mkdirSync(join(family, '__pycache__'), { recursive: true });
    writeFileSync(join(family, 'one.py'), 'x = 1\n');
    writeFileSync(join(family, 'notes.txt'), 'no\n');
    writeFileSync(join(family, '__pycache__', 'one.cpython-311.pyc'), 'no');
    mkdirSync(join(dir, 'empty_part'));
    const { bytes, manifest } = await buildMonitoringPackage(dir);
    assert.deepEqual(manifest.files, { cmk_addons_plugins: ['fam/agent_based/one.py'] });
    const members = (await unpackTar(gunzipSync(bytes))).map((e) => e.name);
    assert.deepEqual(members, ['info', 'info.json', 'cmk_addons_plugins.tar']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
