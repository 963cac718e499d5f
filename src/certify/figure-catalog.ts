/**
 * The figure catalog (plugin-interface.md, "Declared meaning"): every figure the harness can serve,
 * with a stable name, its unit, and where it is served (agent-text section and key or line, JSON
 * snapshot path, local-check metric). A vendor's expectations file names these figures in
 * `measures` (PLUGIN-FIGURES-AS-DECLARED); the served-figure collection (served-catalog.ts) reads
 * each of them from what a run was served, with its unit (PLUGIN-UOM-MATCHES-SERVED) and with every
 * unknown marked (PLUGIN-UNKNOWN-NOT-A-FIGURE). `certify-plugin --list-figures` prints it and
 * `schemas/figure-catalog.json` publishes it (schemas/figure-catalog.schema.json).
 */

/** The unit a figure is served in. */
export type FigureUnit = 'kB' | 'bytes' | 'ms' | 's' | 'min' | '%' | 'count' | 'number';

export const FIGURE_UNITS: readonly FigureUnit[] = ['kB', 'bytes', 'ms', 's', 'min', '%', 'count', 'number'];

/** Where a figure stands in the agent text. */
export type AgentLocation =
  /** A `key value` line (or `key value/other`, `part` picking the slash-separated part). */
  | { section: string; key: string; part?: number }
  /** The first line matching `line`, its first group. */
  | { section: string; line: string }
  /** How many non-empty lines the section has, those matching `except` left out. */
  | { section: string; countLines: true; except?: string };

export interface FigureDefinition {
  name: string;
  unit: FigureUnit;
  description: string;
  agent?: AgentLocation;
  /** A derived figure the harness computes from a section (`backups.failed` …): how, in words. */
  computed?: { section: string; how: string };
  /** Dot path in the JSON snapshot (`GET /json`); `.length` for a list's length. */
  json?: string;
  /** A metric of a `<<<local>>>` service. */
  local?: { service: string; metric: string };
  /** How far a reading may move between what the PBX served and what the plug-in read (ages from its own clock). */
  tolerance?: number;
}

const kv = (section: string, key: string, part?: number): AgentLocation =>
  part === undefined ? { section, key } : { section, key, part };

type Row = [
  name: string,
  unit: FigureUnit,
  agent: AgentLocation | undefined,
  json: string | undefined,
  description: string,
];

/** Figures of `key value` lines and lines of their own, with their JSON twin. */
const ROWS: Row[] = [
  // <<<pbx>>>
  [
    'appliance.max_users',
    'count',
    kv('pbx', 'appliance_max_users'),
    'maxUsers',
    'users the appliance allows',
  ],
  [
    'appliance.max_connections',
    'count',
    kv('pbx', 'appliance_max_connections'),
    'maxConnections',
    'connections the appliance allows',
  ],
  [
    'license.max_users',
    'count',
    kv('pbx', 'license_max_users'),
    'licenseMaxUsers',
    'users the licence allows',
  ],
  [
    'security.blocked_hosts',
    'count',
    kv('pbx', 'blacklisted_hosts'),
    'securityBlockedIps',
    'hosts blocked by attack detection',
  ],
  ['security.whitelisted_hosts', 'count', kv('pbx', 'whitelisted_hosts'), undefined, 'whitelisted hosts'],
  ['phones.known', 'count', kv('pbx', 'known_phones'), 'knownPhones', 'phones the PBX knows'],
  ['phones.online', 'count', kv('pbx', 'online_phones'), 'onlinePhones', 'phones online'],
  [
    'phones.ip_changed',
    'count',
    kv('pbx', 'ip_changed_phones'),
    'ipChangedPhones',
    'phones whose address changed',
  ],
  ['phones.provisioned', 'count', kv('pbx', 'provisioned_phones'), 'provisionedPhones', 'phones provisioned'],
  ['system.uptime_ms', 'ms', kv('pbx', 'uptime_linux_ms'), 'uptimeLinuxMs', "the Linux system's uptime"],
  ['app.web_sessions', 'count', kv('pbx', 'web_sessions'), 'appWebSessions', 'web sessions'],
  ['app.connections', 'count', kv('pbx', 'app_connections'), 'appConnectedClients', 'connected app clients'],
  ['calls.connected', 'count', kv('pbx', 'calls_connected'), 'currentLinkedCalls', 'calls connected now'],
  ['calls.parked', 'count', kv('pbx', 'calls_parked'), 'currentParkedCalls', 'calls parked now'],
  [
    'calls.conference',
    'count',
    kv('pbx', 'calls_conference'),
    'currentConferenceCalls',
    'conference calls now',
  ],
  [
    'rtp.active_channels',
    'count',
    kv('pbx', 'rtp_active_channels'),
    'rtpActiveChannels',
    'RTP channels active',
  ],
  ['rtp.jitter_avg', 'ms', kv('pbx', 'rtp_jitter_avg_ms'), 'rtpAvgJitterMs', 'mean RTP jitter'],
  ['rtp.jitter_median', 'ms', kv('pbx', 'rtp_jitter_median_ms'), 'rtpMedianJitterMs', 'median RTP jitter'],
  ['rtp.jitter_max', 'ms', kv('pbx', 'rtp_jitter_max_ms'), 'rtpMaxJitterMs', 'largest RTP jitter'],
  [
    'rtp.packet_loss_avg',
    '%',
    kv('pbx', 'rtp_packet_loss_avg_percent'),
    'rtpAvgPacketLossPercent',
    'mean RTP packet loss',
  ],
  [
    'rtp.packet_loss_median',
    '%',
    kv('pbx', 'rtp_packet_loss_median_percent'),
    'rtpMedianPacketLossPercent',
    'median RTP packet loss',
  ],
  [
    'rtp.packet_loss_max',
    '%',
    kv('pbx', 'rtp_packet_loss_max_percent'),
    'rtpMaxPacketLossPercent',
    'largest RTP packet loss',
  ],
  ['rtp.rtt_avg', 'ms', kv('pbx', 'rtp_rtt_avg_ms'), 'rtpAvgRttMs', 'mean RTP round-trip time'],
  ['rtp.rtt_median', 'ms', kv('pbx', 'rtp_rtt_median_ms'), 'rtpMedianRttMs', 'median RTP round-trip time'],
  ['rtp.rtt_max', 'ms', kv('pbx', 'rtp_rtt_max_ms'), 'rtpMaxRttMs', 'largest RTP round-trip time'],
  ['rtp.mos_avg', 'number', kv('pbx', 'rtp_mos_avg'), 'rtpEstimatedMos', 'estimated mean opinion score'],
  ['rtp.mos_median', 'number', kv('pbx', 'rtp_mos_median'), 'rtpMedianMos', 'median mean opinion score'],
  ['rtp.mos_min', 'number', kv('pbx', 'rtp_mos_min'), 'rtpMinMos', 'lowest mean opinion score'],
  // <<<pbx_channels>>>, <<<pbx_calls>>>
  [
    'channels.max',
    'count',
    { section: 'pbx_channels', line: '^(-?\\d+) max calls$' },
    'channelsMax',
    'the most calls at once (`<N> max calls`)',
  ],
  [
    'channels.active',
    'count',
    { section: 'pbx_channels', countLines: true, except: 'max calls$' },
    'channelsActive.length',
    'channels in use (one line each)',
  ],
  [
    'calls.last_5min',
    'count',
    kv('pbx_calls', 'last_5min_calls'),
    'channelsLast5MinCalls',
    'calls of the last 5 minutes',
  ],
  // <<<pbx_accounts>>>
  [
    'accounts.total',
    'count',
    kv('pbx_accounts', 'total_accounts', 0),
    'accountsTotal',
    'accounts (`total_accounts <A>/0`)',
  ],
  ['accounts.admin', 'count', kv('pbx_accounts', 'admin_accounts'), 'accountsAdmin', 'admin accounts'],
  ['accounts.active', 'count', kv('pbx_accounts', 'active_accounts'), 'accountsActive', 'active accounts'],
  [
    'accounts.available',
    'count',
    kv('pbx_accounts', 'available_accounts'),
    'accountsAvailable',
    'available accounts',
  ],
  [
    'accounts.ringing',
    'count',
    kv('pbx_accounts', 'ringing_accounts'),
    'accountsRinging',
    'ringing accounts',
  ],
  [
    'accounts.unavailable',
    'count',
    kv('pbx_accounts', 'unavailable_accounts'),
    'accountsUnavailable',
    'unavailable accounts',
  ],
  // <<<pbx_peers>>>, <<<pbx_sip_provider>>>
  ['peers.total', 'count', { section: 'pbx_peers', line: '^(\\d+) sip peers' }, 'peers.length', 'SIP peers'],
  [
    'peers.monitored_online',
    'count',
    { section: 'pbx_peers', line: 'Monitored: (\\d+) online' },
    undefined,
    'monitored peers online',
  ],
  [
    'peers.monitored_offline',
    'count',
    { section: 'pbx_peers', line: 'Monitored: \\d+ online, (\\d+) offline' },
    undefined,
    'monitored peers offline',
  ],
  [
    'peers.unmonitored_online',
    'count',
    { section: 'pbx_peers', line: 'Unmonitored: (\\d+) online' },
    undefined,
    'unmonitored peers online',
  ],
  [
    'peers.unmonitored_offline',
    'count',
    { section: 'pbx_peers', line: 'Unmonitored: \\d+ online, (\\d+) offline' },
    undefined,
    'unmonitored peers offline',
  ],
  [
    'sip.registrations',
    'count',
    { section: 'pbx_sip_provider', line: '^(\\d+) SIP registrations' },
    'sipProviderEntries.length',
    'SIP registrations',
  ],
  // <<<pbx_database>>>, <<<pbx_db_connections>>>
  [
    'database.opened_connections',
    'count',
    kv('pbx_database', 'opened_connections'),
    undefined,
    'database connections opened',
  ],
  [
    'database.closed_connections',
    'count',
    kv('pbx_database', 'closed_connections'),
    undefined,
    'database connections closed',
  ],
  ['database.size', 'bytes', kv('pbx_database', 'database_size'), 'databaseSize', 'size of the database'],
  ['database.cdr_size', 'bytes', kv('pbx_database', 'cdr_size'), 'cdrSize', 'size of the call records'],
  [
    'db_connections.total',
    'count',
    kv('pbx_db_connections', 'total_connections'),
    'dbConnTotal',
    'database connections',
  ],
  [
    'db_connections.active',
    'count',
    kv('pbx_db_connections', 'active_connections'),
    'dbConnActive',
    'active database connections',
  ],
  [
    'db_connections.idle',
    'count',
    kv('pbx_db_connections', 'idle_connections'),
    'dbConnIdle',
    'idle database connections',
  ],
  [
    'db_connections.idle_in_transaction',
    'count',
    kv('pbx_db_connections', 'idle_in_transaction_connections'),
    'dbConnIdleInTx',
    'database connections idle in a transaction',
  ],
  [
    'db_connections.max',
    'count',
    kv('pbx_db_connections', 'max_connections'),
    'dbConnMax',
    'database connections allowed',
  ],
  // <<<pbx_java>>>
  ['java.heap_used', 'bytes', kv('pbx_java', 'java_heap_memory', 0), 'javaHeapUsed', 'Java heap in use'],
  ['java.heap_max', 'bytes', kv('pbx_java', 'java_heap_memory', 1), 'javaHeapMax', 'largest Java heap'],
  [
    'java.non_heap_used',
    'bytes',
    kv('pbx_java', 'java_non_heap_memory', 0),
    'javaNonHeapUsed',
    'Java memory outside the heap in use',
  ],
  [
    'java.non_heap_max',
    'bytes',
    kv('pbx_java', 'java_non_heap_memory', 1),
    undefined,
    'largest Java memory outside the heap',
  ],
  [
    'java.max_memory',
    'bytes',
    kv('pbx_java', 'java_max_memory'),
    'javaMaxMemory',
    'memory the Java VM may use',
  ],
  // The Linux sections (synthetic in certification: the same on every machine).
  ['mem.total', 'kB', kv('mem', 'MemTotal:'), undefined, 'memory (`MemTotal: … kB`)'],
  ['mem.free', 'kB', kv('mem', 'MemFree:'), undefined, 'free memory'],
  ['mem.available', 'kB', kv('mem', 'MemAvailable:'), undefined, 'memory available'],
  ['mem.buffers', 'kB', kv('mem', 'Buffers:'), undefined, 'memory in buffers'],
  ['mem.cached', 'kB', kv('mem', 'Cached:'), undefined, 'memory in the page cache'],
  ['mem.swap_total', 'kB', kv('mem', 'SwapTotal:'), undefined, 'swap space'],
  ['mem.swap_free', 'kB', kv('mem', 'SwapFree:'), undefined, 'free swap space'],
  ['os.mem_total_bytes', 'bytes', undefined, 'osMemTotalBytes', 'memory in bytes (JSON snapshot)'],
  [
    'os.mem_available_bytes',
    'bytes',
    undefined,
    'osMemAvailableBytes',
    'memory available in bytes (JSON snapshot)',
  ],
  [
    'disk.root_total',
    'kB',
    { section: 'df', line: '^\\S+ \\S+ (\\d+) \\d+ \\d+ \\d+% /$' },
    undefined,
    'size of the root file system (1K blocks)',
  ],
  [
    'disk.root_used',
    'kB',
    { section: 'df', line: '^\\S+ \\S+ \\d+ (\\d+) \\d+ \\d+% /$' },
    undefined,
    'root file system in use (1K blocks)',
  ],
  [
    'disk.root_available',
    'kB',
    { section: 'df', line: '^\\S+ \\S+ \\d+ \\d+ (\\d+) \\d+% /$' },
    undefined,
    'root file system free (1K blocks)',
  ],
  [
    'disk.root_used_percent',
    '%',
    { section: 'df', line: '^\\S+ \\S+ \\d+ \\d+ \\d+ (\\d+)% /$' },
    undefined,
    'root file system in use',
  ],
  ['os.uptime', 's', { section: 'uptime', line: '^(\\d+(?:\\.\\d+)?) ' }, undefined, "the host's uptime"],
  [
    'os.load_1min',
    'number',
    { section: 'cpu', line: '^(\\d+(?:\\.\\d+)?) ' },
    'osLoad1min',
    'load average over 1 minute',
  ],
  [
    'os.load_5min',
    'number',
    { section: 'cpu', line: '^\\S+ (\\d+(?:\\.\\d+)?) ' },
    'osLoad5min',
    'load average over 5 minutes',
  ],
  [
    'os.load_15min',
    'number',
    { section: 'cpu', line: '^\\S+ \\S+ (\\d+(?:\\.\\d+)?) ' },
    'osLoad15min',
    'load average over 15 minutes',
  ],
];

/** Local-check metrics: the PBX's own judgement, with its figures. */
const LOCAL_ROWS: [name: string, unit: FigureUnit, service: string, metric: string, description: string][] = [
  ['licence.full_users_used', 'count', 'Licensed/Used full users', 'used', 'full users in use'],
  ['licence.full_users_licensed', 'count', 'Licensed/Used full users', 'licensed', 'full users licensed'],
  ['licence.light_users_used', 'count', 'Licensed/Used light users', 'used', 'light users in use'],
  ['licence.light_users_licensed', 'count', 'Licensed/Used light users', 'licensed', 'light users licensed'],
  [
    'update_contract.days_left',
    'count',
    'Update contract valid until',
    'days_left',
    'days the update contract still runs',
  ],
  ['fax.queued', 'count', 'PBX Fax Queue', 'queued', 'faxes queued'],
];

/** Figures the harness computes from a listing section. */
const COMPUTED: FigureDefinition[] = [
  {
    name: 'backups.targets',
    unit: 'count',
    description: 'backup targets (distinct `[TYPE]location` of the backup runs)',
    computed: { section: 'pbx_backups', how: 'distinct targets of the `[TYPE]location <ms> <result>` lines' },
    json: 'backups.length',
  },
  {
    name: 'backups.failed',
    unit: 'count',
    description: 'backup targets whose newest run failed (its result does not end in `successful`)',
    computed: {
      section: 'pbx_backups',
      how: "each target's newest run by time; those whose result does not end in successful",
    },
  },
  {
    name: 'backups.oldest_newest_age',
    unit: 'min',
    description:
      "the age of the oldest target's newest run (the largest `age_minutes` of the `PBX Backup …` local checks)",
    computed: { section: 'local', how: 'the largest age_minutes metric of the PBX Backup services' },
    tolerance: 2,
  },
];

/** Every figure of the catalog, by its stable name. */
export const FIGURE_CATALOG: readonly FigureDefinition[] = [
  ...ROWS.map(([name, unit, agent, json, description]) => ({
    name,
    unit,
    description,
    ...(agent ? { agent } : {}),
    ...(json ? { json } : {}),
  })),
  ...LOCAL_ROWS.map(([name, unit, service, metric, description]) => ({
    name,
    unit,
    description,
    local: { service, metric },
  })),
  ...COMPUTED,
];

export const FIGURES_BY_NAME: ReadonlyMap<string, FigureDefinition> = new Map(
  FIGURE_CATALOG.map((f) => [f.name, f]),
);

/** The agent-text section a figure is read from (where a plug-in reading it reads). */
export function sectionOf(figure: FigureDefinition): string | null {
  return figure.agent?.section ?? figure.computed?.section ?? (figure.local ? 'local' : null);
}

/** Where a figure is served, in words (`--list-figures`). */
export function whereServed(figure: FigureDefinition): string {
  const places: string[] = [];
  const a = figure.agent;
  if (a) {
    if ('key' in a)
      places.push(`<<<${a.section}>>> ${a.key}${a.part === undefined ? '' : ` (part ${a.part + 1} of a/b)`}`);
    else if ('line' in a) places.push(`<<<${a.section}>>> /${a.line}/`);
    else places.push(`<<<${a.section}>>> line count${a.except ? ` without /${a.except}/` : ''}`);
  }
  if (figure.computed) places.push(`<<<${figure.computed.section}>>> ${figure.computed.how}`);
  if (figure.local) places.push(`<<<local>>> "${figure.local.service}" ${figure.local.metric}=`);
  if (figure.json) places.push(`JSON ${figure.json}`);
  return places.join('; ');
}

/** The catalog as published in schemas/figure-catalog.json. */
export function figureCatalogDocument(): Record<string, unknown> {
  return {
    $schema: './figure-catalog.schema.json',
    description:
      'Every figure certify-plugin can serve, by stable name, with its unit and where it is served. Name them in the measures of an expectations file (schemas/plugin-expectations.schema.json). Generated from src/certify/figure-catalog.ts; certify-plugin --list-figures prints the same.',
    units: FIGURE_UNITS,
    figures: FIGURE_CATALOG.map((f) => ({
      name: f.name,
      unit: f.unit,
      description: f.description,
      ...(f.agent ? { agent: f.agent } : {}),
      ...(f.computed ? { computed: f.computed } : {}),
      ...(f.local ? { local: f.local } : {}),
      ...(f.json ? { json: f.json } : {}),
    })),
  };
}
