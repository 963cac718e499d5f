import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { listScenarios } from '../../../../simulators/pbx/load-scenario.ts';
import { renderAgentText } from '../../../../simulators/pbx/snapshot/render/agent-text.ts';
import type { PbxState } from '../../../../simulators/pbx/state/types.ts';
import { scenarioState, snapshotOf } from '../snapshot/render/snapshot-of.ts';
import { pbxStateArbitrary } from '../snapshot/render/state-arbitrary.ts';
import { PLUGINS_PART, runPackageOn } from './agent-plugins.ts';
import { hasCommand, run } from './system-tools.ts';

const noPython = hasCommand('python3') ? false : 'python3 is not installed';
const PART = PLUGINS_PART;

interface HarnessService {
  plugin: string;
  name: string;
  item: string | null;
  state: 0 | 1 | 2 | 3;
  results: { state: number; summary: string; details: string }[];
  metrics: { name: string; value: number; levels: [number, number] | null }[];
}

interface HarnessRun {
  sections: string[];
  services: HarnessService[];
}

/** Discovery and check of every plug-in on the agent text of `state`, through the product's runner. */
function discover(state: PbxState): HarnessRun {
  const result = runPackageOn(renderAgentText(snapshotOf(state)));
  return { sections: result.sectionsParsed, services: result.services as unknown as HarnessService[] };
}

function service(result: HarnessRun, name: string): HarnessService {
  const found = result.services.find((s) => s.name === name);
  assert.ok(found, `no service "${name}" in ${result.services.map((s) => s.name).join(', ')}`);
  return found;
}

/** The services of MKP-SERVICES-PBX (RAID only with a RAID) and MKP-SERVICES-SECTIONS for `state`. */
function expectedServices(state: PbxState): string[] {
  const backupItem = (b: PbxState['backups'][number]) => (b.location ? `${b.type} ${b.location}` : b.type);
  return [
    'PBX Info',
    'Phones',
    'SIP Health',
    'Security',
    'Server Traffic',
    'RTP Quality',
    'Debug Mode',
    ...(state.raid ? ['RAID'] : []),
    'Accounts',
    'Channels',
    // A target that never ran has no line (one line per run, FIELD-BACKUP-LINE).
    ...state.backups.filter((b) => b.runs.length > 0).map((b) => `Backup ${backupItem(b)}`),
    ...state.peers.map((p) => `Peer ${p.name}`),
    ...state.sipProviders.map((p) => `Trunk ${p.uri}`),
    'Modules',
    'Database',
    'Java',
  ].sort();
}

test('every plug-in file byte-compiles', { skip: noPython }, () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.py')) files.push(join(dir, entry.name));
    }
  };
  walk(PART);
  assert.ok(files.length >= 10, `found only ${files.length} plug-in files`);
  const script =
    'import sys\nfor path in sys.argv[1:]:\n    compile(open(path, "rb").read(), path, "exec")\nprint(len(sys.argv) - 1)';
  assert.equal(
    run('python3', ['-B', '-c', script, ...files])
      .toString('utf8')
      .trim(),
    String(files.length),
  );
});

test('MKP-SERVICES-PBX, MKP-SERVICES-SECTIONS: discovery on the default scenario yields the listed services', {
  skip: noPython,
}, () => {
  const state = scenarioState('healthy');
  const result = discover(state);
  assert.deepEqual(result.services.map((s) => s.name).sort(), expectedServices(state));
  assert.ok(!result.services.some((s) => s.name === 'RAID'), 'RAID without a configured RAID');
});

test('MKP-SERVICES-PBX: a configured RAID adds the RAID service, critical while degraded', {
  skip: noPython,
}, () => {
  const state = scenarioState('raid-degraded');
  const result = discover(state);
  assert.deepEqual(result.services.map((s) => s.name).sort(), expectedServices(state));
  const raid = service(result, 'RAID');
  assert.equal(raid.state, 2);
  assert.ok(raid.results.some((r) => r.details.includes('sdb1: faulty') && r.state === 2));
});

test('every shipped scenario parses and checks without an error, and discovery follows its state', {
  skip: noPython,
}, () => {
  for (const { name } of listScenarios()) {
    const state = scenarioState(name);
    const result = discover(state);
    assert.deepEqual(result.services.map((s) => s.name).sort(), expectedServices(state), name);
    for (const s of result.services) assert.ok(s.results.length > 0, `${name}: ${s.name} has no result`);
  }
});

test('the check states follow the agent data: offline peer, failed backup, lost trunk, licence, phones', {
  skip: noPython,
}, () => {
  const healthy = discover(scenarioState('healthy'));
  assert.equal(service(healthy, 'Peer 240').state, 0, 'an offline peer that is not monitored');
  assert.equal(
    service(discover(scenarioState('all-phones-offline')), 'Peer 201').state,
    2,
    'a monitored peer that is offline',
  );
  assert.equal(service(healthy, 'Peer 201').state, 0);
  assert.equal(service(healthy, 'Peer trunk-sipgate').state, 0, 'an unmonitored peer is not judged');
  assert.equal(service(healthy, 'Backup SMB 192.0.2.6:/Backup').state, 0);
  assert.equal(service(healthy, 'PBX Info').state, 0);
  assert.equal(service(healthy, 'Phones').state, 0);
  assert.equal(service(discover(scenarioState('backup-failed')), 'Backup SMB 192.0.2.6:/Backup').state, 2);
  const lost = scenarioState('trunk-unregistered').sipProviders.find((p) => !p.registered);
  assert.ok(lost);
  assert.equal(service(discover(scenarioState('trunk-unregistered')), `Trunk ${lost.uri}`).state, 2);
  assert.equal(service(discover(scenarioState('unlicensed')), 'PBX Info').state, 2);
  assert.equal(service(discover(scenarioState('all-phones-offline')), 'Phones').state, 2);
});

test('values and items are decoded: a peer name with spaces and a percent sign, a backup location', {
  skip: noPython,
}, () => {
  const state = scenarioState('healthy');
  state.peers = [{ name: 'Front desk 100%', ipaddr: '10.0.0.9', lastms: 7, monitored: true, online: true }];
  state.backups[0]!.location = 'D:\\Backups [nightly]';
  state.java.vmName = '  Spaced VM  ';
  state.appliance.debugMode = true;
  const result = discover(state);
  const peer = service(result, 'Peer Front desk 100%');
  assert.equal(peer.state, 0);
  assert.deepEqual(peer.metrics.find((m) => m.name === 'rtt')?.value, 0.007);
  service(result, 'Backup HDD D:\\Backups [nightly]');
  assert.equal(service(result, 'Debug Mode').state, 1);
  assert.match(service(result, 'Java').results[0]?.summary ?? '', /Spaced VM/);
});

test('numbers become metrics and levels: channel, heap and connection use turn WARN and CRIT', {
  skip: noPython,
}, () => {
  const state = scenarioState('healthy');
  state.channels.max = 10;
  state.channels.active = Array.from({ length: 9 }, (_, i) => `SIP/x-${i}`);
  state.java.heapUsed = state.java.heapMax * 0.85;
  state.database.connections.total = 200;
  const result = discover(state);
  assert.equal(service(result, 'Channels').state, 2, '90 % of the channels');
  assert.equal(service(result, 'Java').state, 1, '85 % of the heap');
  assert.equal(service(result, 'Database').state, 2, 'every connection used');
  const channels = service(result, 'Channels').metrics.find((m) => m.name === 'channels_active');
  assert.deepEqual(channels && [channels.value, channels.levels], [9, [8, 9]]);
});

test('Channels reads the maximum from <<<pbx_channels>>> and the calls of the last 5 minutes from <<<pbx_calls>>>', {
  skip: noPython,
}, () => {
  const state = scenarioState('healthy');
  state.channels.max = 40;
  state.channels.last5MinCalls = 31;
  state.channels.active = ['SIP/a-1', 'SIP/b-2', 'DAHDI/i1/0791-3'];
  const channels = service(discover(state), 'Channels');
  const metric = (name: string) => channels.metrics.find((m) => m.name === name)?.value;
  assert.equal(metric('channels_active'), 3);
  assert.equal(metric('calls_last_5min'), 31);
  assert.deepEqual([metric('channels_sip'), metric('channels_dahdi')], [2, 1]);
  assert.match(channels.results[0]?.summary ?? '', /3 of 40/);
});

test('an unknown number (-1) is shown as unknown and gives no metric', { skip: noPython }, () => {
  const result = discover(scenarioState('values-unknown'));
  const traffic = service(result, 'Server Traffic');
  assert.equal(traffic.metrics.length, 0);
  assert.ok(traffic.results.every((r) => r.summary?.endsWith('unknown')));
  assert.equal(service(result, 'Phones').state, 3);
  assert.equal(service(result, 'RTP Quality').metrics.length, 0);
});

test('the plug-ins parse and check generated states without an error (awkward names, -1, extensions)', {
  skip: noPython,
}, () => {
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      state.agentExtensions.sections = [{ name: 'vendor_extra', lines: ['a b', 'c'] }];
      state.agentExtensions.extraLines.pbx = ['vendor_key 1'];
      state.agentExtensions.extraLines.pbx_java = ['vendor_gc 2/3'];
      const result = discover(state);
      assert.ok(result.sections.includes('pbx'));
      for (const s of result.services) assert.ok(s.results.length > 0, `${s.name} has no result`);
    }),
    { numRuns: 15 },
  );
});
