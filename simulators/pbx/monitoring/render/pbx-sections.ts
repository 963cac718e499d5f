import type { PbxState } from '../../state/types.ts';
import { encodeBareToken, encodeToken, encodeValue } from './agent-text-encoding.ts';
import { runsOldestFirst } from './backup-runs.ts';
import { formatNumber } from './text-safety.ts';

/** The PBX section headers in output order; headers never carry options (test-vectors.md). */
export const PBX_SECTION_NAMES = [
  'pbx',
  'pbx_backups',
  'pbx_channels',
  'pbx_accounts',
  'pbx_peers',
  'pbx_sip_provider',
  'pbx_modules',
  'pbx_database',
  'pbx_db_connections',
  'pbx_java',
] as const;

type Fact = [key: string, value: string | number | boolean];

/**
 * The PBX sections of the agent text, `<<<pbx>>>` to `<<<pbx_java>>>` (MON-TEXT-PBX,
 * MON-TEXT-PBX-RAID, MON-TEXT-PBX-BACKUPS … MON-TEXT-PBX-JAVA). The line grammar is the
 * simulator's (MON-UNSPEC-LINE-GRAMMAR), written down in docs/agent-text-grammar.md: `key: value`
 * lines, one fact per line, except where plug-ins in the field parse a known shape (backups,
 * peer summary; test-vectors.md). Numbers that cannot be determined are `-1`
 * (MON-UNSPEC-SENTINEL-SCOPE).
 */
export function renderPbxSections(state: PbxState): string {
  return [
    section('pbx', pbxLines(state)),
    section('pbx_backups', backupLines(state)),
    section('pbx_channels', [
      ...facts([
        ['max', state.channels.max],
        ['active', state.channels.active.length],
        ['last_5min_calls', state.channels.last5MinCalls],
      ]),
      ...state.channels.active.map((channel) => fact('channel', channel)),
    ]),
    section(
      'pbx_accounts',
      facts([
        ['total', state.accounts.total],
        ['admin', state.accounts.admin],
        ['active', state.accounts.active],
        ['available', state.accounts.available],
        ['ringing', state.accounts.ringing],
        ['unavailable', state.accounts.unavailable],
      ]),
    ),
    section('pbx_peers', peerLines(state)),
    section(
      'pbx_sip_provider',
      state.sipProviders.map(
        (p, index) => `${index} ${encodeToken(p.uri)} ${p.registered ? 'registered' : 'unregistered'}`,
      ),
    ),
    section(
      'pbx_modules',
      state.modules.flatMap((m) => [
        fact('module', m.name),
        fact('id', m.id),
        fact('version', m.version),
        fact('vendor', m.vendor),
        ...m.instances.map((i) => fact('instance', i.name)),
      ]),
    ),
    section(
      'pbx_database',
      facts([
        ['database_size', state.database.databaseSize],
        ['cdr_size', state.database.cdrSize],
      ]),
    ),
    section('pbx_db_connections', dbConnectionLines(state)),
    section(
      'pbx_java',
      facts([
        ['vm_name', state.java.vmName],
        ['version', state.java.version],
        ['heap_used', state.java.heapUsed],
        ['heap_max', state.java.heapMax],
        ['non_heap_used', state.java.nonHeapUsed],
        ['max_memory', state.java.maxMemory],
      ]),
    ),
  ].join('');
}

function pbxLines(state: PbxState): string[] {
  const { appliance, licence, update, security, sip, traffic, rtp, raid } = state;
  const raidFacts: Fact[] = raid
    ? [
        ['raid_level', raid.level],
        ['raid_status', raid.status],
      ]
    : [];
  return [
    ...facts([
      ['appliance_type', appliance.type],
      ['serial_number', appliance.serial],
      ['manufacturer', appliance.manufacturer],
      ['hostname', appliance.hostname],
      ['pbx_version', appliance.pbxVersion],
      ['pbx_build_date', appliance.pbxBuildDate],
      ['max_users', appliance.maxUsers],
      ['max_connections', appliance.maxConnections],
      ['debug_mode', appliance.debugMode],
      ['uptime_linux_ms', appliance.uptimeLinuxMs],
      ['engine_uptime', appliance.engineUptime],
      ['license_valid', licence.valid],
      ['license_owner', licence.owner],
      ['license_max_users', licence.maxUsers],
      ['license_valid_until', licence.serverLicenseValidUntil],
      ['update_contract_valid_until', licence.updateContractValidUntil],
      ['update_available', update.kind !== 'none'],
      ['update_kind', update.kind],
      ['latest_version', update.latestVersion],
      ...raidFacts,
    ]),
    ...(raid ? raid.devices.map((d) => `raid_device: ${encodeToken(d.name)} ${encodeToken(d.state)}`) : []),
    ...facts([
      ['security_password_check', security.passwordCheck],
      ['security_attack_detection', security.attackDetection],
      ['security_sip_flood_protection', security.sipFloodProtection],
      ['security_blocked_ips', security.blockedIps],
      ['sip_localhost_status', sip.localhostStatus],
      ['phones_known', sip.knownPhones],
      ['phones_online', sip.onlinePhones],
      ['phones_ip_changed', sip.ipChangedPhones],
      ['phones_provisioned', sip.provisionedPhones],
      ['web_sessions', traffic.webSessions],
      ['app_connections', traffic.appConnections],
      ['calls_connected', traffic.linkedCalls],
      ['calls_parked', traffic.parkedCalls],
      ['calls_conference', traffic.conferenceCalls],
      ['rtp_active_channels', rtp.activeChannels],
      ['rtp_jitter_avg_ms', rtp.avgJitterMs],
      ['rtp_jitter_median_ms', rtp.medianJitterMs],
      ['rtp_jitter_max_ms', rtp.maxJitterMs],
      ['rtp_packet_loss_avg_percent', rtp.avgPacketLossPercent],
      ['rtp_packet_loss_median_percent', rtp.medianPacketLossPercent],
      ['rtp_packet_loss_max_percent', rtp.maxPacketLossPercent],
      ['rtp_rtt_avg_ms', rtp.avgRttMs],
      ['rtp_rtt_median_ms', rtp.medianRttMs],
      ['rtp_rtt_max_ms', rtp.maxRttMs],
      ['rtp_mos_avg', rtp.estimatedMos],
      ['rtp_mos_median', rtp.medianMos],
      ['rtp_mos_min', rtp.minMos],
    ]),
  ];
}

/**
 * One line per run, `[<TYPE>]<location> <epoch ms> <result key>`, oldest first per target (the
 * earlier component's shape, test-vectors.md). A target that never ran gets one line with time
 * `-1` and result `-`, so every target appears.
 */
function backupLines(state: PbxState): string[] {
  return state.backups.flatMap((backup) => {
    const target = `[${encodeBareToken(backup.type)}]${encodeBareToken(backup.location)}`;
    const runs = runsOldestFirst(backup.runs);
    if (runs.length === 0) return [`${target} -1 -`];
    return runs.map((run) => `${target} ${formatNumber(run.time)} ${encodeToken(run.result)}`);
  });
}

/**
 * Per peer `<name> <ipaddr> <lastms> <monitored|unmonitored> <online|offline>`, then the
 * telephony engine's summary line that plug-ins find by ` sip peers ` (test-vectors.md).
 * The name comes first and every field is a token without spaces, so no peer line can contain
 * ` sip peers `.
 */
function peerLines(state: PbxState): string[] {
  const count = { monitoredOnline: 0, monitoredOffline: 0, unmonitoredOnline: 0, unmonitoredOffline: 0 };
  const lines = state.peers.map((peer) => {
    if (peer.monitored) peer.online ? count.monitoredOnline++ : count.monitoredOffline++;
    else peer.online ? count.unmonitoredOnline++ : count.unmonitoredOffline++;
    return [
      encodeToken(peer.name),
      encodeToken(peer.ipaddr),
      formatNumber(peer.lastms),
      peer.monitored ? 'monitored' : 'unmonitored',
      peer.online ? 'online' : 'offline',
    ].join(' ');
  });
  lines.push(
    `${state.peers.length} sip peers [Monitored: ${count.monitoredOnline} online, ${count.monitoredOffline} offline` +
      ` Unmonitored: ${count.unmonitoredOnline} online, ${count.unmonitoredOffline} offline]`,
  );
  return lines;
}

function dbConnectionLines(state: PbxState): string[] {
  const c = state.database.connections;
  return [
    ...facts([
      ['total', c.total],
      ['active', c.active],
      ['idle', c.idle],
      ['idle_in_transaction', c.idleInTx],
      ['max', c.max],
    ]),
    ...c.byApp.map((g) => `by_app: ${encodeToken(g.name)} ${formatNumber(g.count)}`),
    ...c.byDb.map((g) => `by_db: ${encodeToken(g.name)} ${formatNumber(g.count)}`),
  ];
}

function section(name: string, lines: string[]): string {
  return `<<<${name}>>>\n${lines.map((line) => `${line}\n`).join('')}`;
}

function facts(list: Fact[]): string[] {
  return list.map(([key, value]) => fact(key, value));
}

function fact(key: string, value: string | number | boolean): string {
  if (typeof value === 'number') return `${key}: ${formatNumber(value)}`;
  if (typeof value === 'boolean') return `${key}: ${value}`;
  return `${key}: ${encodeValue(value)}`;
}
