import {
  fetchBody,
  PBX_SECTION_NAMES,
  type Recording,
  type RecordingSample,
  sectionKeys,
  streamBytes,
} from '../../simulators/pbx/index.ts';
import { type AgentText, parseAgentText, parsePbxSections, sectionLines } from '../agent-text/index.ts';

/** A scenario file (schemas/pbx-scenario.schema.json). */
export interface ImportedScenario {
  $schema?: string;
  name: string;
  description: string;
  state: Record<string, unknown>;
}

export interface ImportOptions {
  name: string;
  /** Which sample (default the first). */
  sample?: number;
  /**
   * Keep what the simulator does not model (unknown `<<<pbx>>>` keys, unknown sections) as
   * `agentExtensions`, so a replay serves them too. `record diff` imports without them, so they
   * show as extensions the recording has.
   */
  extensions?: boolean;
}

/** The keys of `<<<pbx>>>` the simulator renders from its state (everything else is an extension). */
export const MODELLED_PBX_KEYS: ReadonlySet<string> = new Set(sectionKeys('pbx'));

/** Sections the simulator renders; the Linux ones are the agent script's (MON-UNSPEC-LINUX-SECTIONS). */
export const MODELLED_SECTIONS: ReadonlySet<string> = new Set([
  'monitor_agent',
  'labels',
  ...PBX_SECTION_NAMES,
  'local',
]);

/** The agent text of a sample: the raw answer, else `GET /checkmk`, else `GetMonitoringData`. */
export function sampleAgentText(sample: RecordingSample): string | undefined {
  const endpoint = sample.dataEndpoint;
  if (endpoint?.raw) return streamBytes(endpoint.raw).toString('utf8');
  const fetch = endpoint?.http.find((candidate) => candidate.request === 'GET /checkmk');
  if (fetch) return fetchBody(fetch).toString('utf8');
  const value = sample.xmlrpc?.getMonitoringData?.value as { data?: unknown } | undefined;
  return typeof value?.data === 'string' ? value.data : undefined;
}

/** The JSON snapshot of a sample (`GET /json`), when it parses. */
export function sampleJson(sample: RecordingSample): Record<string, unknown> | undefined {
  const fetch = sample.dataEndpoint?.http.find((candidate) => candidate.request === 'GET /json');
  if (!fetch) return undefined;
  try {
    const value = JSON.parse(fetchBody(fetch).toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A recording as a scenario file (issue 23, `record import`): the agent text read with the
 * project's own parser (src/agent-text/, the field's line shapes), completed from the JSON
 * snapshot where the agent text says less (peer flags, module ids and instance states, backup
 * messages, licence usage, OS figures) and from `isActiveDirectoryEnabled`. What neither face
 * shows keeps the simulator's default. The state machine (maintenance, events, cache, licence)
 * then runs on the recorded figures.
 */
export function importRecording(recording: Recording, options: ImportOptions): ImportedScenario {
  const sample = recording.samples[options.sample ?? 0];
  if (!sample) throw new Error(`the recording has no sample ${options.sample ?? 0}`);
  const text = sampleAgentText(sample) ?? '';
  const agent = parseAgentText(text);
  const json = sampleJson(sample) ?? {};
  const state: Record<string, unknown> = {};
  const pbx = parsePbxSections(agent);
  const facts = pbx.pbx?.facts ?? new Map<string, string>();
  const fact = (key: string) => facts.get(key);
  const int = (key: string) => toInt(fact(key));
  const num = (key: string) => toNum(fact(key));
  const flag = (key: string, yes: string) => (fact(key) === undefined ? undefined : fact(key) === yes);
  const j = (key: string) => json[key];

  state['appliance'] = compact({
    type: fact('appliance_type') ?? str(j('applianceType')),
    serial: fact('appliance_serial_number') ?? str(j('applianceSerialNumber')),
    maxUsers: int('appliance_max_users') ?? toInt(j('maxUsers')),
    maxConnections: int('appliance_max_connections') ?? toInt(j('maxConnections')),
    manufacturer: fact('system_manufacturer') ?? str(j('systemManufacturer')),
    productName: fact('system_product_name'),
    pbxVersion: fact('pbx_version') ?? str(j('pbxVersion')),
    pbxBuildDate: str(j('pbxBuildDate')) ?? fact('pbx_build_date'),
    hostname: fact('hostname') ?? str(j('hostname')) ?? agentHostname(agent),
    debugMode: flag('debug_mode', 'enabled') ?? bool(j('debugMode')),
    hardwareId: str(j('hardwareId')) ?? localHardwareId(agent),
    uptimeLinuxMs: int('uptime_linux_ms') ?? toInt(j('uptimeLinuxMs')),
    engineUptime: fact('engine_uptime') ?? str(j('engineUptime')),
  });
  const usage = (json['licenseUsage'] ?? {}) as Record<string, { licensed?: unknown; used?: unknown }>;
  const use = (key: string) =>
    usage[key]
      ? compact({ licensed: toInt(usage[key]?.licensed), used: toInt(usage[key]?.used) })
      : undefined;
  state['licence'] = compact({
    valid: fact('license_state') === undefined ? bool(j('licenseValid')) : fact('license_state') === 'valid',
    owner: fact('owner') ?? str(j('licenseOwner')),
    maxUsers: int('license_max_users') ?? toInt(j('licenseMaxUsers')),
    fullUsers: use('fullUsers'),
    lightUsers: use('lightUsers'),
    iQueues: usage['iQueuesStandard']
      ? compact({
          standard: use('iQueuesStandard'),
          priority: use('iQueuesPriority'),
          skill: use('iQueuesSkill'),
        })
      : undefined,
    terminalServer: use('terminalServer'),
    appPremium: use('appPremium'),
    serverLicenseValidUntil: fact('license_valid_until') ?? str(j('serverLicenseValidUntil')),
    updateContractValidUntil: fact('update_contract_valid_until') ?? str(j('updateContractValidUntil')),
  });
  const kind = fact('update_kind') ?? str(j('updateKind'));
  state['update'] = compact({
    kind: kind === 'major' || kind === 'minor' || kind === 'none' ? kind : undefined,
    latestVersion: fact('update_latest_version') ?? str(j('pbxLatestVersion')),
  });
  state['security'] = compact({
    passwordCheck: flag('password_check', 'enabled') ?? bool(j('securityPasswordCheck')),
    attackDetection: flag('attack_detection', 'enabled') ?? bool(j('securityAttackDetection')),
    sipFloodProtection: flag('sip_flood_protection', 'enabled') ?? bool(j('securitySipFloodProtection')),
    blockedIps: int('blacklisted_hosts') ?? toInt(j('securityBlockedIps')),
    whitelistedHosts: int('whitelisted_hosts'),
  });
  state['sip'] = compact({
    localhostStatus: fact('sip_status_localhost') ?? str(j('sipStatusLocalhost')),
    knownPhones: int('known_phones') ?? toInt(j('knownPhones')),
    onlinePhones: int('online_phones') ?? toInt(j('onlinePhones')),
    ipChangedPhones: int('ip_changed_phones') ?? toInt(j('ipChangedPhones')),
    provisionedPhones: int('provisioned_phones') ?? toInt(j('provisionedPhones')),
    autoprovisioning: flag('autoprovisioning', 'true'),
    acceptAllMacs: flag('accept_all_macs', 'true'),
    automatedFirmwareUpdates: flag('automated_firmware_updates', 'true'),
  });
  state['traffic'] = compact({
    webSessions: int('web_sessions') ?? toInt(j('appWebSessions')),
    appConnections: int('app_connections') ?? toInt(j('appConnectedClients')),
    linkedCalls: int('calls_connected') ?? toInt(j('currentLinkedCalls')),
    parkedCalls: int('calls_parked') ?? toInt(j('currentParkedCalls')),
    conferenceCalls: int('calls_conference') ?? toInt(j('currentConferenceCalls')),
  });
  state['rtp'] = compact({
    activeChannels: int('rtp_active_channels') ?? toInt(j('rtpActiveChannels')),
    avgJitterMs: num('rtp_jitter_avg_ms') ?? toNum(j('rtpAvgJitterMs')),
    medianJitterMs: num('rtp_jitter_median_ms') ?? toNum(j('rtpMedianJitterMs')),
    maxJitterMs: num('rtp_jitter_max_ms') ?? toNum(j('rtpMaxJitterMs')),
    avgPacketLossPercent: num('rtp_packet_loss_avg_percent') ?? toNum(j('rtpAvgPacketLossPercent')),
    medianPacketLossPercent: num('rtp_packet_loss_median_percent') ?? toNum(j('rtpMedianPacketLossPercent')),
    maxPacketLossPercent: num('rtp_packet_loss_max_percent') ?? toNum(j('rtpMaxPacketLossPercent')),
    avgRttMs: num('rtp_rtt_avg_ms') ?? toNum(j('rtpAvgRttMs')),
    medianRttMs: num('rtp_rtt_median_ms') ?? toNum(j('rtpMedianRttMs')),
    maxRttMs: num('rtp_rtt_max_ms') ?? toNum(j('rtpMaxRttMs')),
    estimatedMos: num('rtp_mos_avg') ?? toNum(j('rtpEstimatedMos')),
    medianMos: num('rtp_mos_median') ?? toNum(j('rtpMedianMos')),
    minMos: num('rtp_mos_min') ?? toNum(j('rtpMinMos')),
  });
  if (pbx.channels || pbx.calls) {
    state['channels'] = compact({
      max: finite(pbx.channels?.max),
      active: pbx.channels?.channels,
      last5MinCalls: finite(pbx.calls?.last5MinCalls) ?? toInt(j('channelsLast5MinCalls')),
    });
  }
  if (pbx.accounts) state['accounts'] = compact(mapFinite(pbx.accounts));
  state['peers'] = importPeers(pbx, json);
  state['sipProviders'] = importProviders(pbx, json);
  state['modules'] = importModules(pbx, json);
  state['backups'] = importBackups(pbx, json);
  state['database'] = importDatabase(pbx, json);
  if (pbx.java) state['java'] = compact(mapFinite(pbx.java));
  const raid = json['raid'] as
    | { level?: unknown; status?: unknown; devices?: { name: string; state: string }[] }
    | null
    | undefined;
  if (facts.has('raid_status') || facts.has('raid_diagnosis')) {
    // The controller's own table is kept verbatim; level, state and devices from the newer keys or the JSON.
    const diagnosis = fact('raid_diagnosis') ?? '';
    const unitType = /RAID-?(\d+)/i.exec(pbx.pbx?.raidTable.join('\n') ?? '')?.[1];
    state['raid'] = compact({
      level:
        str(raid?.level) ?? fact('raid_level') ?? (unitType === undefined ? 'unknown' : `raid${unitType}`),
      status:
        str(raid?.status) ??
        fact('raid_state') ??
        (diagnosis === 'HEALTHY' ? 'healthy' : diagnosis.toLowerCase()),
      devices: raid?.devices ?? pbx.pbx?.raidDevices ?? [],
      controllerTable: pbx.pbx?.raidTable.length ? pbx.pbx.raidTable : undefined,
    });
  } else if (raid === null || !json['raid']) state['raid'] = null;
  state['os'] = compact({
    load1: toNum(j('osLoad1min')),
    load5: toNum(j('osLoad5min')),
    load15: toNum(j('osLoad15min')),
    memTotalBytes: toInt(j('osMemTotalBytes')),
    memAvailableBytes: toInt(j('osMemAvailableBytes')),
    diskRootTotalBytes: toInt(j('osDiskRootTotalBytes')),
    diskRootFreeBytes: toInt(j('osDiskRootFreeBytes')),
  });
  const directory = sample.xmlrpc?.isActiveDirectoryEnabled?.value as
    | { activeDirectoryEnabled?: unknown }
    | undefined;
  if (directory?.activeDirectoryEnabled === 'true' || directory?.activeDirectoryEnabled === 'false')
    state['directory'] = { activeDirectoryEnabled: directory.activeDirectoryEnabled === 'true' };
  if (options.extensions !== false) state['agentExtensions'] = importExtensions(agent, facts);
  for (const [key, value] of Object.entries(state)) {
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).length === 0
    )
      delete state[key];
  }
  return {
    $schema: 'https://pbx-conformance.local/schemas/pbx-scenario.schema.json',
    name: options.name,
    description: `Imported from the recording of ${recording.target.name} taken ${sample.recordedAt} (record import).`,
    state,
  };
}

function importPeers(
  pbx: ReturnType<typeof parsePbxSections>,
  json: Record<string, unknown>,
): unknown[] | undefined {
  const lines = pbx.peers?.peers;
  const jsonPeers = Array.isArray(json['peers']) ? (json['peers'] as Record<string, unknown>[]) : undefined;
  if (!lines && !jsonPeers) return undefined;
  const count = Math.max(lines?.length ?? 0, jsonPeers?.length ?? 0);
  const peers: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const line = lines?.[i];
    const fromJson = jsonPeers?.[i] ?? {};
    const flags = line?.flags ?? [];
    peers.push(
      compact({
        name: line?.name ?? str(fromJson['name']) ?? '',
        ipaddr: str(fromJson['ipaddr']) ?? line?.ipaddr ?? '',
        lastms: toInt(fromJson['lastms']) ?? finite(line?.lastms) ?? 0,
        monitored: bool(fromJson['monitored']) ?? line?.monitored ?? true,
        online: bool(fromJson['online']) ?? line?.online ?? false,
        port: finite(line?.port),
        dynamic: line ? flags.includes('D') : undefined,
        nat: line ? flags[flags.includes('D') ? 1 : 0] === 'Yes' : undefined,
        acl: line ? flags.includes('A') : undefined,
      }),
    );
  }
  return peers;
}

function importProviders(
  pbx: ReturnType<typeof parsePbxSections>,
  json: Record<string, unknown>,
): unknown[] | undefined {
  const entries = Array.isArray(json['sipProviderEntries'])
    ? (json['sipProviderEntries'] as Record<string, unknown>[])
    : undefined;
  if (entries)
    return entries.map((entry) => ({
      uri: str(entry['uri']) ?? '',
      registered: entry['registered'] === true,
    }));
  return pbx.sipProviders?.registrations.map((line) => ({ uri: line.uri, registered: line.registered }));
}

function importModules(
  pbx: ReturnType<typeof parsePbxSections>,
  json: Record<string, unknown>,
): unknown[] | undefined {
  const modules = Array.isArray(json['modules']) ? (json['modules'] as Record<string, unknown>[]) : undefined;
  if (modules) {
    return modules.map((module) => ({
      name: str(module['name']) ?? '',
      id: str(module['id']) ?? '',
      version: str(module['version']) ?? '',
      vendor: str(module['vendor']) ?? '',
      instances: (Array.isArray(module['instances'])
        ? (module['instances'] as Record<string, unknown>[])
        : []
      ).map((instance) => ({
        name: str(instance['name']) ?? '',
        status: [0, 1, 2].includes(Number(instance['status'])) ? Number(instance['status']) : 0,
        statusText: str(instance['statusText']) ?? '',
      })),
    }));
  }
  return pbx.modules?.map((line, index) => ({
    name: line.name,
    id: `imported-module-${index + 1}`,
    version: line.version,
    vendor: line.vendor,
    instances: line.instances.map((name) => ({ name, status: 0, statusText: 'running' })),
  }));
}

function importBackups(
  pbx: ReturnType<typeof parsePbxSections>,
  json: Record<string, unknown>,
): unknown[] | undefined {
  const jsonBackups = Array.isArray(json['backups'])
    ? (json['backups'] as Record<string, unknown>[])
    : undefined;
  if (jsonBackups) {
    return jsonBackups.map((backup) => {
      const runInfo = (backup['runInfo'] ?? {}) as { runs?: { time: unknown; result: unknown }[] };
      return {
        type: str(backup['type']) ?? '',
        location: str(backup['location']) ?? '',
        message: str(backup['message']) ?? '',
        runs: (runInfo.runs ?? []).map((run) => ({
          time: toInt(run.time) ?? 0,
          result: str(run.result) ?? '',
        })),
        sizeBytes: 0,
      };
    });
  }
  if (!pbx.backups) return undefined;
  const targets = new Map<
    string,
    {
      type: string;
      location: string;
      message: string;
      runs: { time: number; result: string }[];
      sizeBytes: number;
    }
  >();
  for (const run of pbx.backups) {
    const key = `${run.type}\0${run.location}`;
    const target = targets.get(key) ?? {
      type: run.type,
      location: run.location,
      message: '',
      runs: [],
      sizeBytes: 0,
    };
    target.runs.push({ time: run.time, result: run.result });
    targets.set(key, target);
  }
  for (const target of targets.values()) {
    const latest = target.runs.reduce((a, b) => (b.time > a.time ? b : a));
    target.message = latest.result.endsWith('successful')
      ? 'Backup completed successfully'
      : `Backup failed: ${latest.result}`;
  }
  return [...targets.values()];
}

function importDatabase(pbx: ReturnType<typeof parsePbxSections>, json: Record<string, unknown>): unknown {
  const db = pbx.database;
  const conn = pbx.dbConnections;
  const groups = (value: unknown) =>
    Array.isArray(value)
      ? (value as Record<string, unknown>[]).map((g) => ({
          name: str(g['name']) ?? '',
          count: toInt(g['count']) ?? 0,
        }))
      : undefined;
  return compact({
    databaseSize: finite(db?.databaseSize) ?? toInt(json['databaseSize']),
    cdrSize: finite(db?.cdrSize) ?? toInt(json['cdrSize']),
    connections: compact({
      opened: finite(db?.openedConnections),
      closed: finite(db?.closedConnections),
      total: finite(conn?.total) ?? toInt(json['dbConnTotal']),
      active: finite(conn?.active) ?? finite(db?.activeConnections) ?? toInt(json['dbConnActive']),
      idle: finite(conn?.idle) ?? finite(db?.idleConnections) ?? toInt(json['dbConnIdle']),
      idleInTx: finite(conn?.idleInTx) ?? toInt(json['dbConnIdleInTx']),
      max: finite(conn?.max) ?? toInt(json['dbConnMax']),
      byApp: conn?.byApp ?? groups(json['dbConnByApplication']),
      byDb: conn?.byDb ?? groups(json['dbConnByDatabase']),
    }),
  });
}

/** Unknown `<<<pbx>>>` keys and unknown sections, as `agentExtensions` (FIELD-ADDITIVE-ONLY). */
function importExtensions(agent: AgentText, facts: Map<string, string>): unknown {
  const pbxLines = (sectionLines(agent, 'pbx') ?? []).filter((line) => {
    const key = /^([a-z][a-z0-9_]*) /.exec(line)?.[1];
    return key !== undefined && !MODELLED_PBX_KEYS.has(key) && facts.has(key);
  });
  const sections = agent.sections
    .filter((section) => !MODELLED_SECTIONS.has(section.name) && section.name.startsWith('pbx'))
    .map((section) => ({ name: section.name, lines: section.lines.filter((line) => line !== '') }));
  return { sections, extraLines: { pbx: pbxLines } };
}

function agentHostname(agent: AgentText): string | undefined {
  for (const line of sectionLines(agent, 'monitor_agent') ?? []) {
    const match = /^Hostname:\s*(.+)$/.exec(line);
    if (match) return match[1]?.trim();
  }
  return undefined;
}

function localHardwareId(agent: AgentText): string | undefined {
  for (const line of sectionLines(agent, 'local') ?? []) {
    const match = /Hardware ID (\S+)/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function mapFinite<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => typeof v !== 'number' || Number.isFinite(v)),
  ) as Partial<T>;
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

function toInt(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

function toNum(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}
