import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderAgentText } from '../../../../../simulators/pbx/snapshot/render/agent-text.ts';
import { parseAgentText, sectionLines } from '../../../../../src/agent-text/parse-agent-text.ts';
import { parseLocalLine } from '../../../../../src/agent-text/parse-local-line.ts';
import { parsePbxSections } from '../../../../../src/agent-text/parse-pbx-sections.ts';
import { scenarioSnapshot, scenarioState, snapshotOf } from './snapshot-of.ts';

const PBX_HEADERS = [
  '<<<pbx>>>',
  '<<<pbx_backups>>>',
  '<<<pbx_channels>>>',
  '<<<pbx_calls>>>',
  '<<<pbx_accounts>>>',
  '<<<pbx_peers>>>',
  '<<<pbx_sip_provider>>>',
  '<<<pbx_modules>>>',
  '<<<pbx_database>>>',
  '<<<pbx_db_connections>>>',
  '<<<pbx_java>>>',
];

function headers(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('<<<'));
}

test('the agent text opens with the agent header: version 2.5.0p6, AgentOS linux, the host name, then the labels', () => {
  const text = renderAgentText(scenarioSnapshot('healthy'));
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 6), [
    '<<<monitor_agent>>>',
    'Version: 2.5.0p6',
    'AgentOS: linux',
    'Hostname: pbx-sim-01',
    '<<<labels:sep(0)>>>',
    '{"cmk/os_family":"linux","pbx/role":"pbx"}',
  ]);
  assert.ok(text.startsWith('<<'), 'fetchers expect the first two bytes to be <<');
});

test('the labels are one JSON object with only string values, giving OS family linux and role pbx', () => {
  const agent = parseAgentText(renderAgentText(scenarioSnapshot('healthy')));
  const labels = sectionLines(agent, 'labels');
  assert.equal(labels?.length, 1);
  const parsed = JSON.parse(labels?.[0] ?? '') as Record<string, unknown>;
  assert.ok(Object.values(parsed).every((v) => typeof v === 'string'));
  assert.equal(parsed['cmk/os_family'], 'linux');
  assert.equal(parsed['pbx/role'], 'pbx');
});

test('blocks come in order: agent header, Linux sections, PBX sections with their exact headers, local checks', () => {
  const text = renderAgentText(scenarioSnapshot('healthy'));
  const all = headers(text);
  assert.deepEqual(all.slice(0, 2), ['<<<monitor_agent>>>', '<<<labels:sep(0)>>>']);
  const firstPbx = all.indexOf('<<<pbx>>>');
  const linux = all.slice(2, firstPbx);
  assert.ok(linux.includes('<<<cpu>>>') && linux.includes('<<<mem>>>') && linux.includes('<<<df>>>'));
  assert.deepEqual(all.slice(firstPbx, firstPbx + PBX_HEADERS.length), PBX_HEADERS);
  assert.deepEqual(all.slice(firstPbx + PBX_HEADERS.length), ['<<<local:sep(0)>>>']);
});

test('LF line ends only, and the text ends with a newline', () => {
  const text = renderAgentText(scenarioSnapshot('large'));
  assert.ok(!text.includes('\r'));
  assert.ok(text.endsWith('\n'));
  assert.ok(!text.endsWith('\n\n'));
});

test('when the agent script fails the Linux sections are missing and everything else is still there', () => {
  const text = renderAgentText(snapshotOf(scenarioState('healthy'), { linuxScriptFails: true }));
  const all = headers(text);
  assert.deepEqual(all, ['<<<monitor_agent>>>', '<<<labels:sep(0)>>>', ...PBX_HEADERS, '<<<local:sep(0)>>>']);
  assert.ok((sectionLines(parseAgentText(text), 'local')?.length ?? 0) > 10);
});

test('RAID lines appear in <<<pbx>>> only when RAID is configured: raid_status, the controller table, raid_diagnosis', () => {
  const healthy = parsePbxSections(renderAgentText(scenarioSnapshot('healthy')));
  assert.equal(healthy.pbx?.facts.has('raid_status'), false);
  assert.equal(healthy.pbx?.facts.has('raid_diagnosis'), false);
  assert.equal(healthy.pbx?.facts.has('raid_level'), false);
  const degraded = parsePbxSections(renderAgentText(scenarioSnapshot('raid-degraded')));
  assert.deepEqual(degraded.problems, []);
  assert.equal(degraded.pbx?.facts.get('raid_status'), '');
  assert.equal(degraded.pbx?.facts.get('raid_diagnosis'), 'DEGRADED');
  assert.equal(degraded.pbx?.facts.get('raid_state'), 'degraded');
  assert.equal(degraded.pbx?.facts.get('raid_level'), 'raid1');
  assert.ok(degraded.pbx?.raidTable.some((l) => /^u0 +RAID-1 +DEGRADED/.test(l)));
  assert.ok(degraded.pbx?.raidTable.some((l) => /^p1 +FAULTY +u0 +sdb1$/.test(l)));
  assert.deepEqual(degraded.pbx?.raidDevices, [
    { name: 'sda1', state: 'active' },
    { name: 'sdb1', state: 'faulty' },
  ]);
});

test('<<<pbx>>> starts with the earlier keys in the order of field-line-shapes.md, key, one space, value', () => {
  const lines = sectionLines(parseAgentText(renderAgentText(scenarioSnapshot('healthy'))), 'pbx') ?? [];
  assert.deepEqual(lines.slice(0, 24), [
    'appliance_type "PBX-Appliance-M"',
    'appliance_serial_number PBXM-2041-7731',
    'appliance_max_users 250',
    'appliance_max_connections 120',
    'system_manufacturer Simulated Systems GmbH',
    'system_product_name SimServer 1U R2',
    'pbx_version 12.4.1.3',
    'pbx_build_date 2026-09-14T00:00:00.000Z',
    'owner "Example Trading AG"',
    'license_max_users 250',
    'password_check enabled',
    'attack_detection enabled',
    'blacklisted_hosts 3',
    'whitelisted_hosts 12',
    'autoprovisioning true',
    'accept_all_macs false',
    'automated_firmware_updates true',
    'sip_status_localhost OK',
    'known_phones 148',
    'online_phones 139',
    'ip_changed_phones 2',
    'engine_uptime  14 days, 2 hours, 11 minutes',
    'debug_mode disabled',
    'hostname pbx-sim-01',
  ]);
});

test('<<<pbx>>> gives appliance, version, licence, security, SIP health, phones, traffic and RTP quality', () => {
  const facts = parsePbxSections(renderAgentText(scenarioSnapshot('healthy'))).pbx?.facts;
  assert.ok(facts);
  const expected: Record<string, string> = {
    appliance_type: 'PBX-Appliance-M',
    appliance_serial_number: 'PBXM-2041-7731',
    pbx_version: '12.4.1.3',
    owner: 'Example Trading AG',
    license_state: 'valid',
    password_check: 'enabled',
    attack_detection: 'enabled',
    sip_flood_protection: 'enabled',
    sip_status_localhost: 'OK',
    known_phones: '148',
    online_phones: '139',
    ip_changed_phones: '2',
    engine_uptime: '14 days, 2 hours, 11 minutes',
    web_sessions: '9',
    app_connections: '61',
    calls_connected: '7',
    calls_parked: '1',
    calls_conference: '1',
    rtp_jitter_avg_ms: '3.2',
    rtp_jitter_median_ms: '2.8',
    rtp_jitter_max_ms: '11.5',
    rtp_packet_loss_avg_percent: '0.12',
    rtp_rtt_max_ms: '88',
    rtp_mos_avg: '4.31',
    rtp_mos_median: '4.35',
    rtp_mos_min: '3.9',
    debug_mode: 'disabled',
  };
  for (const [key, value] of Object.entries(expected)) assert.equal(facts.get(key), value, key);
});

test('<<<pbx_backups>>> has one line per run in the shape [TYPE]location epoch-ms result-key', () => {
  const lines =
    sectionLines(parseAgentText(renderAgentText(scenarioSnapshot('backup-failed'))), 'pbx_backups') ?? [];
  assert.equal(lines.length, 4);
  for (const line of lines) assert.match(line, /^\[[A-Z]+\][^ ]* \d{13} de\.vendor\.backup\.[a-z]+$/);
  assert.match(lines.at(-1) ?? '', /^\[SMB\]192\.0\.2\.6:\/Backup \d+ de\.vendor\.backup\.mountfail$/);
  assert.match(lines[0] ?? '', /^\[HDD\] \d+ de\.vendor\.backup\.successful$/);
});

test('<<<pbx_peers>>> is the engine listing and ends with the summary line that plug-ins find by " sip peers "', () => {
  const lines = sectionLines(parseAgentText(renderAgentText(scenarioSnapshot('healthy'))), 'pbx_peers') ?? [];
  assert.equal(lines.at(-1), '7 sip peers [Monitored: 5 online, 0 offline Unmonitored: 1 online, 1 offline]');
  assert.equal(lines.filter((l) => l.includes(' sip peers ')).length, 1);
  assert.match(lines[0] ?? '', /^201 +10\.20\.1\.21 +D +No +No +5060 +OK \(12 ms\)$/);
  assert.match(lines[4] ?? '', /^240 +\(Unspecified\) +D +No +No +0 +Unmonitored$/);
});

test('<<<pbx_channels>>> is exactly "<N> max calls" and one channel name per line; the calls are apart', () => {
  const agent = parseAgentText(renderAgentText(scenarioSnapshot('healthy')));
  const lines = sectionLines(agent, 'pbx_channels') ?? [];
  assert.equal(lines[0], '60 max calls');
  assert.deepEqual(sectionLines(agent, 'pbx_calls'), ['last_5min_calls 23']);
  assert.equal(lines.length, 8);
  assert.deepEqual(
    lines.slice(1).map((l) => l.split('/')[0]),
    ['SIP', 'SIP', 'SIP', 'SIP', 'SIP', 'SIP', 'DAHDI'],
  );
});

test('the other PBX sections carry the spec content of the healthy state', () => {
  const text = renderAgentText(scenarioSnapshot('healthy'));
  const data = parsePbxSections(text);
  assert.deepEqual(data.problems, []);
  assert.deepEqual(sectionLines(parseAgentText(text), 'pbx_accounts'), [
    'total_accounts 155/0',
    'admin_accounts 4',
    'active_accounts 139',
    'available_accounts 96',
    'ringing_accounts 3',
    'unavailable_accounts 40',
  ]);
  assert.deepEqual(data.accounts, {
    total: 155,
    admin: 4,
    active: 139,
    available: 96,
    ringing: 3,
    unavailable: 40,
  });
  assert.equal(data.channels?.max, 60);
  assert.equal(data.channels?.active, 7);
  assert.equal(data.calls?.last5MinCalls, 23);
  assert.deepEqual(data.sipProviders?.registrations[0], {
    uri: 'sip:+4930123456@tel.t-online.de',
    username: '+4930123456',
    state: 'Registered',
    registered: true,
  });
  assert.equal(data.sipProviders?.summaryCount, 2);
  assert.deepEqual(
    sectionLines(parseAgentText(text), 'pbx_modules')?.[2],
    'WebResolver:26.8.14:Simulated Systems GmbH:<CRM Lookup,ERP Lookup>',
  );
  assert.deepEqual(data.modules?.[2]?.instances, ['CRM Lookup', 'ERP Lookup']);
  assert.equal(data.modules?.[2]?.vendor, 'Simulated Systems GmbH');
  assert.deepEqual(data.database, {
    openedConnections: 184_223,
    closedConnections: 184_185,
    activeConnections: 6,
    idleConnections: 30,
    databaseSize: 2_147_483_648,
    cdrSize: 536_870_912,
  });
  assert.equal(data.dbConnections?.idleInTx, 2);
  assert.deepEqual(data.dbConnections?.byDb, [
    { name: 'pbx', count: 30 },
    { name: 'cdr', count: 8 },
  ]);
  assert.equal(data.java?.vmName, 'OpenJDK 64-Bit Server VM');
  assert.equal(data.java?.vmVendor, 'Eclipse Adoptium');
  assert.equal(data.java?.heapMax, 2_147_483_648);
  assert.equal(data.java?.nonHeapMax, -1);
  assert.ok(sectionLines(parseAgentText(text), 'pbx_java')?.includes('java_non_heap_memory 187695104/-1'));
});

test('the local section has every service of the spec, each line in the test-vectors grammar', () => {
  const lines = sectionLines(parseAgentText(renderAgentText(scenarioSnapshot('healthy'))), 'local') ?? [];
  const parsed = lines.map((line) => parseLocalLine(line));
  const names = parsed.map((p) => ('error' in p ? assert.fail(p.error) : p.name));
  for (const name of [
    'PBX update',
    'PBX version',
    'Licensed/Used full users',
    'Licensed/Used light users',
    'Licensed/Used iQueues standard',
    'Licensed/Used iQueues priority based',
    'Licensed/Used iQueues skill based',
    'Licensed/Used terminal server permissions',
    'Licensed/Used app premium permissions',
    'Update contract valid until',
    'PBX Module Monitoring',
    'PBX Module CRM Lookup',
    'PBX Log Status Support/PBX',
    'PBX All Phones Offline',
    'PBX Hardware ID',
    'PBX Fax Queue',
    'PBX Backup HDD',
    'PBX Backup SMB 192.0.2.6:/Backup',
    'PBX SIP Provider sip:+4930123456@tel.t-online.de',
  ]) {
    assert.ok(names.includes(name), name);
  }
  for (const line of lines) assert.match(line, /^[0-2] "[^"']+" (-|[^ ]+) .+$/);
});
