import type { KeyValueSection, PbxState, PeerState, RaidState } from '../../state/types.ts';
import { validExtraLines } from './agent-extensions.ts';
import {
  encodeBareToken,
  encodeModuleField,
  encodeQuoted,
  encodeToken,
  encodeValue,
} from './agent-text-encoding.ts';
import { runsOldestFirst } from './backup-runs.ts';
import { sectionKeys } from './pbx-section-keys.ts';
import { formatNumber, LINE_BREAKING, wellFormed } from './text-safety.ts';

/** RAID states that count as healthy (`raid_diagnosis HEALTHY`). */
const RAID_HEALTHY = new Set(['clean', 'active', 'optimal', 'ok', 'online', 'healthy', 'in_sync']);

/**
 * The PBX sections of the agent text, `<<<pbx>>>` to `<<<pbx_java>>>` (MON-TEXT-PBX,
 * MON-TEXT-PBX-RAID, MON-TEXT-PBX-BACKUPS, MON-TEXT-PBX-CHANNELS, MON-TEXT-PBX-ACCOUNTS,
 * MON-TEXT-PBX-PEERS, MON-TEXT-PBX-SIP-PROVIDER, MON-TEXT-PBX-MODULES, MON-TEXT-PBX-DATABASE,
 * MON-TEXT-PBX-DB-CONNECTIONS, MON-TEXT-PBX-JAVA), in the line shapes of the earlier
 * monitoring component that check plug-ins in the field parse (field-line-shapes.md;
 * FIELD-KEY-VALUE-LINES, FIELD-KEY-PREFIX-FREE, FIELD-BARE-INTEGERS, FIELD-PBX-KEYS,
 * FIELD-PBX-VALUES-MATCH, FIELD-BACKUP-LINE, FIELD-CHANNELS-MAX-LINE, FIELD-ACCOUNTS-LINES,
 * FIELD-PEERS-SUMMARY, FIELD-SIP-PROVIDER-SUMMARY, FIELD-MODULES-LINE, FIELD-DATABASE-CONNECTIONS,
 * FIELD-JAVA-LINES, FIELD-ADDITIVE-ONLY). The grammar is written down in docs/agent-text-grammar.md.
 *
 * Numbers that cannot be determined are `-1` (MON-UNSPEC-SENTINEL-SCOPE, the simulator's choice:
 * the same sentinel as the JSON snapshot, so a count stays a bare integer; the JVM writes `-1` for
 * an unlimited maximum too). Counts, limits, byte values and epoch milliseconds are rounded to
 * integers; measurements (jitter, loss, RTT, MOS) keep their decimals.
 */
export function renderPbxSections(state: PbxState): string {
  const extra = (name: KeyValueSection) => validExtraLines(state, name);
  return [
    section('pbx', [...pbxLines(state), ...extra('pbx')]),
    section('pbx_backups', backupLines(state)),
    section('pbx_channels', channelLines(state)),
    section('pbx_calls', callLines(state)),
    section('pbx_accounts', [...accountLines(state), ...extra('pbx_accounts')]),
    section('pbx_peers', peerLines(state.peers)),
    section('pbx_sip_provider', registrationLines(state)),
    section('pbx_modules', moduleLines(state)),
    section('pbx_database', [...databaseLines(state), ...extra('pbx_database')]),
    section('pbx_db_connections', [...dbConnectionLines(state), ...extra('pbx_db_connections')]),
    section('pbx_java', [...javaLines(state), ...extra('pbx_java')]),
  ].join('');
}

/** `<<<pbx>>>`: the earlier keys in the order of field-line-shapes.md, then the newer ones. */
function pbxLines(state: PbxState): string[] {
  const { appliance, licence, update, security, sip, traffic, rtp, raid } = state;
  return [
    kv('appliance_type', encodeQuoted(appliance.type)),
    kv('appliance_serial_number', appliance.serial === '' ? 'n/a' : encodeValue(appliance.serial)),
    kv('appliance_max_users', int(appliance.maxUsers)),
    kv('appliance_max_connections', int(appliance.maxConnections)),
    kv('system_manufacturer', encodeValue(appliance.manufacturer)),
    kv('system_product_name', encodeValue(appliance.productName)),
    kv('pbx_version', encodeValue(appliance.pbxVersion)),
    kv('pbx_build_date', encodeValue(isoDateTime(appliance.pbxBuildDate))),
    kv('owner', encodeQuoted(licence.owner)),
    kv('license_max_users', int(licence.maxUsers)),
    ...(raid ? raidLines(raid) : []),
    kv('password_check', enabled(security.passwordCheck)),
    kv('attack_detection', enabled(security.attackDetection)),
    kv('blacklisted_hosts', int(security.blockedIps)),
    kv('whitelisted_hosts', int(security.whitelistedHosts)),
    kv('autoprovisioning', String(sip.autoprovisioning)),
    kv('accept_all_macs', String(sip.acceptAllMacs)),
    kv('automated_firmware_updates', String(sip.automatedFirmwareUpdates)),
    kv('sip_status_localhost', encodeValue(sip.localhostStatus)),
    kv('known_phones', int(sip.knownPhones)),
    kv('online_phones', int(sip.onlinePhones)),
    kv('ip_changed_phones', int(sip.ipChangedPhones)),
    // Two spaces, then the engine's own uptime text (field-line-shapes.md).
    kv('engine_uptime', ` ${encodeValue(appliance.engineUptime)}`),
    kv('debug_mode', enabled(appliance.debugMode)),
    // Newer content (FIELD-ADDITIVE-ONLY).
    kv('hostname', encodeValue(appliance.hostname)),
    kv('uptime_linux_ms', int(appliance.uptimeLinuxMs)),
    kv('license_state', licence.valid ? 'valid' : 'invalid'),
    kv('license_valid_until', encodeValue(licence.serverLicenseValidUntil)),
    kv('update_contract_valid_until', encodeValue(licence.updateContractValidUntil)),
    kv('update_available', String(update.kind !== 'none')),
    kv('update_kind', update.kind),
    kv('update_latest_version', encodeValue(update.latestVersion)),
    kv('sip_flood_protection', enabled(security.sipFloodProtection)),
    kv('provisioned_phones', int(sip.provisionedPhones)),
    kv('web_sessions', int(traffic.webSessions)),
    kv('app_connections', int(traffic.appConnections)),
    kv('calls_connected', int(traffic.linkedCalls)),
    kv('calls_parked', int(traffic.parkedCalls)),
    kv('calls_conference', int(traffic.conferenceCalls)),
    kv('rtp_active_channels', int(rtp.activeChannels)),
    kv('rtp_jitter_avg_ms', formatNumber(rtp.avgJitterMs)),
    kv('rtp_jitter_median_ms', formatNumber(rtp.medianJitterMs)),
    kv('rtp_jitter_max_ms', formatNumber(rtp.maxJitterMs)),
    kv('rtp_packet_loss_avg_percent', formatNumber(rtp.avgPacketLossPercent)),
    kv('rtp_packet_loss_median_percent', formatNumber(rtp.medianPacketLossPercent)),
    kv('rtp_packet_loss_max_percent', formatNumber(rtp.maxPacketLossPercent)),
    kv('rtp_rtt_avg_ms', formatNumber(rtp.avgRttMs)),
    kv('rtp_rtt_median_ms', formatNumber(rtp.medianRttMs)),
    kv('rtp_rtt_max_ms', formatNumber(rtp.maxRttMs)),
    kv('rtp_mos_avg', formatNumber(rtp.estimatedMos)),
    kv('rtp_mos_median', formatNumber(rtp.medianMos)),
    kv('rtp_mos_min', formatNumber(rtp.minMos)),
    ...(raid
      ? [
          kv('raid_level', encodeValue(raid.level)),
          kv('raid_state', encodeValue(raid.status)),
          kv('raid_devices', raid.devices.map((d) => `${raidToken(d.name)}=${raidToken(d.state)}`).join(' ')),
        ]
      : []),
  ];
}

/**
 * `raid_status` with an empty value, the controller's table lines verbatim, an empty line, then
 * `raid_diagnosis HEALTHY` or the state in capitals (field-line-shapes.md).
 */
function raidLines(raid: RaidState): string[] {
  const table = raid.controllerTable?.length ? raid.controllerTable : derivedControllerTable(raid);
  return [
    kv('raid_status', ''),
    ...table.map(tableLine),
    '',
    kv('raid_diagnosis', raidDiagnosis(raid.status)),
  ];
}

/** `HEALTHY` for a healthy RAID state, else the state as one upper-case word (`DEGRADED`). */
export function raidDiagnosis(status: string): string {
  const word = wellFormed(status).trim().toLowerCase();
  if (RAID_HEALTHY.has(word)) return 'HEALTHY';
  const upper = word.toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
  return upper === '' || upper === '_' ? 'UNKNOWN' : upper;
}

/** A unit table and a port table as a hardware RAID controller's CLI prints them. */
function derivedControllerTable(raid: RaidState): string[] {
  const level = /^raid-?(\d+)$/i.exec(raid.level.trim());
  const unitType = level ? `RAID-${level[1]}` : encodeToken(raid.level);
  const rule = '-'.repeat(56);
  return [
    'Unit  UnitType  Status          Ports',
    rule,
    `u0    ${unitType.padEnd(9)} ${encodeToken(raidDiagnosisWord(raid.status)).padEnd(15)} ${raid.devices.length}`,
    '',
    'Port  Status          Unit  Device',
    rule,
    ...raid.devices.map(
      (d, i) =>
        `p${i}${' '.repeat(Math.max(1, 4 - String(i).length))} ${encodeToken(raidDiagnosisWord(d.state)).padEnd(15)} u0    ${encodeToken(d.name)}`,
    ),
  ];
}

function raidDiagnosisWord(status: string): string {
  const diagnosis = raidDiagnosis(status);
  return diagnosis === 'HEALTHY' ? 'OK' : diagnosis;
}

/**
 * A verbatim controller line made safe: one line, no `<<<`, and indented by a space when it would
 * start like a key of `<<<pbx>>>` (consumers match lines by prefix).
 */
function tableLine(raw: string): string {
  const line = wellFormed(raw).replace(LINE_BREAKING, ' ').replace(/<{3,}/g, '<<');
  return sectionKeys('pbx').some((key) => line.startsWith(key)) ? ` ${line}` : line;
}

function raidToken(raw: string): string {
  return encodeToken(raw).replace(/=/g, '%3D');
}

/**
 * One line per backup run, `[<TYPE>]<location> <epoch milliseconds> <result key>`, oldest first
 * per target (FIELD-BACKUP-LINE). A target that has never run has no run and so no line.
 */
function backupLines(state: PbxState): string[] {
  return state.backups.flatMap((backup) => {
    const target = `[${encodeBareToken(backup.type)}]${encodeBareToken(backup.location)}`;
    return runsOldestFirst(backup.runs).map((run) => `${target} ${int(run.time)} ${encodeToken(run.result)}`);
  });
}

/**
 * Exactly `<N> max calls`, then one active channel name per line and nothing else
 * (MON-TEXT-PBX-CHANNELS, FIELD-CHANNELS-MAX-LINE): field readers find the maximum by the line's
 * ending (`endswith('max calls')`) and count every other line as a channel.
 */
function channelLines(state: PbxState): string[] {
  const { max, active } = state.channels;
  return [`${int(max)} max calls`, ...active.map((c) => encodeToken(c))];
}

/**
 * `<<<pbx_calls>>>`: `last_5min_calls <N>`, the spec's calls of the last five minutes in a section
 * of their own (MON-TEXT-PBX-CHANNELS, FIELD-CHANNELS-CALLS-APART): inside `<<<pbx_channels>>>`
 * any line would count as a channel, and readers ignore unknown sections.
 */
function callLines(state: PbxState): string[] {
  return [kv('last_5min_calls', int(state.channels.last5MinCalls))];
}

/** `total_accounts <A>/0` and the five counts (MON-TEXT-PBX-ACCOUNTS, FIELD-ACCOUNTS-LINES). */
function accountLines(state: PbxState): string[] {
  const a = state.accounts;
  return [
    kv('total_accounts', `${int(a.total)}/0`),
    kv('admin_accounts', int(a.admin)),
    kv('active_accounts', int(a.active)),
    kv('available_accounts', int(a.available)),
    kv('ringing_accounts', int(a.ringing)),
    kv('unavailable_accounts', int(a.unavailable)),
  ];
}

/** The engine's status column of a peer, derived so it always agrees with the summary line. */
export function peerStatusText(peer: PeerState): string {
  if (!peer.monitored) return 'Unmonitored';
  if (peer.online) return peer.lastms >= 0 ? `OK (${int(peer.lastms)} ms)` : 'OK';
  return peer.ipaddr === '' || peer.ipaddr === '(Unspecified)' ? 'UNKNOWN' : 'UNREACHABLE';
}

/**
 * The telephony engine's SIP peer listing: one fixed-width line per peer
 * `<name> <ip> <Dyn> <Forcerport> <Comedia> <ACL> <port> <status>`, then the summary line
 * `N sip peers [Monitored: a online, b offline Unmonitored: c online, d offline]` whose counts
 * come from the same peers (MON-TEXT-PBX-PEERS, FIELD-PEERS-SUMMARY). Name and address are tokens (no spaces), so no
 * peer line can contain ` sip peers `.
 */
export function peerLines(peers: readonly PeerState[]): string[] {
  const count = { monitoredOnline: 0, monitoredOffline: 0, unmonitoredOnline: 0, unmonitoredOffline: 0 };
  const lines = peers.map((peer) => {
    if (peer.monitored) peer.online ? count.monitoredOnline++ : count.monitoredOffline++;
    else peer.online ? count.unmonitoredOnline++ : count.unmonitoredOffline++;
    const port = peer.port ?? (peer.online && peer.ipaddr !== '(Unspecified)' ? 5060 : 0);
    const nat = peer.nat ? 'Yes' : 'No';
    return [
      encodeToken(peer.name).padEnd(25),
      encodeToken(peer.ipaddr).padEnd(39),
      ((peer.dynamic ?? true) ? 'D' : '').padEnd(3),
      nat.padEnd(10),
      nat.padEnd(10),
      (peer.acl ? 'A' : '').padEnd(3),
      int(port).padEnd(8),
      peerStatusText(peer),
    ].join(' ');
  });
  lines.push(
    `${peers.length} sip peers [Monitored: ${count.monitoredOnline} online, ${count.monitoredOffline} offline` +
      ` Unmonitored: ${count.unmonitoredOnline} online, ${count.unmonitoredOffline} offline]`,
  );
  return lines;
}

/**
 * The engine's registration listing: per trunk `<uri> <username> <refresh> <State>` in fixed
 * columns, then `N SIP registrations.` (MON-TEXT-PBX-SIP-PROVIDER, FIELD-SIP-PROVIDER-SUMMARY).
 */
function registrationLines(state: PbxState): string[] {
  const lines = state.sipProviders.map((p) => {
    const user = /^sips?:([^@]+)@/.exec(p.uri)?.[1] ?? '';
    return [
      encodeToken(p.uri).padEnd(39),
      encodeToken(user).padEnd(20),
      '120'.padStart(7),
      p.registered ? 'Registered' : 'Unregistered',
    ].join(' ');
  });
  lines.push(`${state.sipProviders.length} SIP registrations.`);
  return lines;
}

/** `<name>:<version>:<vendor>:<<instance>,<instance>,…>` per module (MON-TEXT-PBX-MODULES, FIELD-MODULES-LINE). */
function moduleLines(state: PbxState): string[] {
  return state.modules.map((m) => {
    const instances = m.instances.map((i) => encodeModuleField(i.name, { instance: true })).join(',');
    return `${encodeModuleField(m.name)}:${encodeModuleField(m.version)}:${encodeModuleField(m.vendor)}:<${instances}>`;
  });
}

/** The four earlier connection counters, then the sizes (MON-TEXT-PBX-DATABASE, FIELD-DATABASE-CONNECTIONS). */
function databaseLines(state: PbxState): string[] {
  const { connections: c } = state.database;
  return [
    kv('opened_connections', int(c.opened)),
    kv('closed_connections', int(c.closed)),
    kv('active_connections', int(c.active)),
    kv('idle_connections', int(c.idle)),
    kv('database_size', int(state.database.databaseSize)),
    kv('cdr_size', int(state.database.cdrSize)),
  ];
}

/** The spec's connection figures with `by_app <name> <count>` and `by_db <name> <count>` lines (MON-TEXT-PBX-DB-CONNECTIONS). */
function dbConnectionLines(state: PbxState): string[] {
  const c = state.database.connections;
  return [
    kv('total_connections', int(c.total)),
    kv('active_connections', int(c.active)),
    kv('idle_connections', int(c.idle)),
    kv('idle_in_transaction_connections', int(c.idleInTx)),
    kv('max_connections', int(c.max)),
    ...c.byApp.map((g) => kv('by_app', `${encodeToken(g.name)} ${int(g.count)}`)),
    ...c.byDb.map((g) => kv('by_db', `${encodeToken(g.name)} ${int(g.count)}`)),
  ];
}

/** The JVM's names and versions, `used/max` memory lines and the maximum (FIELD-JAVA-LINES). */
function javaLines(state: PbxState): string[] {
  const j = state.java;
  return [
    kv('java_vm_name', encodeValue(j.vmName)),
    kv('java_vm_vendor', encodeValue(j.vmVendor)),
    kv('java_vm_version', encodeValue(j.vmVersion)),
    kv('java_version', encodeValue(j.version)),
    kv('java_heap_memory', `${int(j.heapUsed)}/${int(j.heapMax)}`),
    kv('java_non_heap_memory', `${int(j.nonHeapUsed)}/${int(j.nonHeapMax)}`),
    kv('java_max_memory', int(j.maxMemory)),
  ];
}

function section(name: string, lines: string[]): string {
  return `<<<${name}>>>\n${lines.map((line) => `${line}\n`).join('')}`;
}

/** A `key value` line: the key, ONE space, the value (FIELD-KEY-VALUE-LINES). */
function kv(key: string, value: string): string {
  return `${key} ${value}`;
}

/** A bare integer (FIELD-BARE-INTEGERS): rounded; a non-finite number is the sentinel `-1`. */
export function int(value: number): string {
  return Number.isFinite(value) ? formatNumber(Math.round(value)) : '-1';
}

function enabled(on: boolean): string {
  return on ? 'enabled' : 'disabled';
}

/**
 * The build date as ISO 8601 UTC date-time (`2021-02-04T16:51:03.564Z`): a bare date
 * `yyyy-mm-dd` becomes midnight UTC of that day; anything else is written as it is.
 */
function isoDateTime(text: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text;
}
