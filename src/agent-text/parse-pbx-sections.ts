import { decodeToken, decodeValue } from './decode-value.ts';
import { type AgentText, parseAgentText, sectionLines } from './parse-agent-text.ts';

/** One run line of `<<<pbx_backups>>>`: `[<TYPE>]<location> <epoch ms> <result key>`. */
export interface BackupRunLine {
  type: string;
  location: string;
  time: number;
  result: string;
}

/**
 * One line of the engine's peer listing `<name> <ip> <flags …> <port> <status>`. `lastms` is the
 * latency of an `OK (21 ms)` / `LAGGED (310 ms)` status, else -1; `online` is `null` for an
 * unmonitored peer (its line does not tell).
 */
export interface PeerLine {
  name: string;
  ipaddr: string;
  flags: string[];
  port: number;
  status: string;
  lastms: number;
  monitored: boolean;
  online: boolean | null;
}

/** The engine's summary `N sip peers [Monitored: A online, B offline Unmonitored: C online, D offline]`. */
export interface PeerSummary {
  total: number;
  monitoredOnline: number;
  monitoredOffline: number;
  unmonitoredOnline: number;
  unmonitoredOffline: number;
}

/** One line of the registration listing: `<uri> <username> <refresh> <State>`. */
export interface RegistrationLine {
  uri: string;
  username: string;
  state: string;
  registered: boolean;
}

export interface ModuleLine {
  name: string;
  version: string;
  vendor: string;
  instances: string[];
}

export interface NamedCount {
  name: string;
  count: number;
}

/**
 * The values of the PBX sections, read back with the grammar of docs/agent-text-grammar.md (the
 * field's line shapes, field-line-shapes.md). A section that is absent is `undefined`; a number
 * that is missing or unreadable is `NaN` and the reason is in `problems`. Unknown keys are kept in
 * `facts` and otherwise ignored (the format grows additively).
 */
export interface PbxSectionsData {
  /**
   * `<<<pbx>>>`: every `key value` (decoded, the first one wins; the double quotes of
   * `appliance_type` and `owner` and the extra leading space of `engine_uptime` removed), the
   * RAID controller's table lines after `raid_status`, and the devices of `raid_devices`.
   */
  pbx?: { facts: Map<string, string>; raidTable: string[]; raidDevices: { name: string; state: string }[] };
  backups?: BackupRunLine[];
  /** `<N> max calls`, then one channel per line (`active` is their number). */
  channels?: { max: number; active: number; channels: string[] };
  /** `<<<pbx_calls>>>`: `last_5min_calls <N>`. */
  calls?: { last5MinCalls: number };
  accounts?: {
    total: number;
    admin: number;
    active: number;
    available: number;
    ringing: number;
    unavailable: number;
  };
  peers?: { peers: PeerLine[]; summary: PeerSummary | null };
  /** The registration listing and the count of its summary line `N SIP registrations.`. */
  sipProviders?: { registrations: RegistrationLine[]; summaryCount: number | null };
  modules?: ModuleLine[];
  database?: {
    openedConnections: number;
    closedConnections: number;
    activeConnections: number;
    idleConnections: number;
    databaseSize: number;
    cdrSize: number;
  };
  dbConnections?: {
    total: number;
    active: number;
    idle: number;
    idleInTx: number;
    max: number;
    byApp: NamedCount[];
    byDb: NamedCount[];
  };
  java?: {
    vmName: string;
    vmVendor: string;
    vmVersion: string;
    version: string;
    heapUsed: number;
    heapMax: number;
    nonHeapUsed: number;
    nonHeapMax: number;
    maxMemory: number;
  };
  /** Lines or keys that do not follow the grammar, as `<section>: <what>`. */
  problems: string[];
}

const PEER_SUMMARY =
  /^(\d+) sip peers \[Monitored: (\d+) online, (\d+) offline Unmonitored: (\d+) online, (\d+) offline\]$/;
const REGISTRATION_SUMMARY = /^(\d+) SIP registrations\.$/;
const BACKUP_LINE = /^\[([^\]]*)\]([^ ]*) (-?\d+) ([^ ]+)$/;
const CHANNELS_FIRST = /^(-?\d+) max calls$/;
const MODULE_LINE = /^([^:]*):([^:]*):([^:]*):<([^>]*)>$/;
const KEY = /^[a-z][a-z0-9_]*$/;
const INTEGER = /^-?\d+$/;
/** Keys of `<<<pbx>>>` whose value is written in double quotes. */
const QUOTED = new Set(['appliance_type', 'owner']);

/**
 * Reads the PBX sections `<<<pbx>>>` … `<<<pbx_java>>>` back into values (the inverse of the
 * simulator's renderer; usable on any target that writes the field's line shapes).
 */
export function parsePbxSections(input: string | AgentText): PbxSectionsData {
  const agent = typeof input === 'string' ? parseAgentText(input) : input;
  const problems: string[] = [];
  const data: PbxSectionsData = { problems };
  const lines = (name: string) => sectionLines(agent, name)?.filter((line) => line !== '');

  const pbxRaw = sectionLines(agent, 'pbx');
  if (pbxRaw) data.pbx = parsePbx(pbxRaw, problems);

  const backups = lines('pbx_backups');
  if (backups) {
    data.backups = backups.flatMap((line) => {
      const m = BACKUP_LINE.exec(line);
      if (!m) {
        problems.push(`pbx_backups: not [TYPE]location epoch-ms result-key: ${JSON.stringify(line)}`);
        return [];
      }
      return [
        {
          type: decodeValue(m[1] ?? ''),
          location: decodeValue(m[2] ?? ''),
          time: Number(m[3]),
          result: decodeToken(m[4] ?? ''),
        },
      ];
    });
  }

  const channels = lines('pbx_channels');
  if (channels) {
    const first = CHANNELS_FIRST.exec(channels[0] ?? '');
    if (!first)
      problems.push(`pbx_channels: the first line is not '<N> max calls': ${JSON.stringify(channels[0])}`);
    const names = (first ? channels.slice(1) : channels).map((line) => {
      if (line.includes(' '))
        problems.push(`pbx_channels: a channel name with a space: ${JSON.stringify(line)}`);
      return decodeToken(line);
    });
    data.channels = { max: first ? Number(first[1]) : Number.NaN, active: names.length, channels: names };
  }

  const calls = lines('pbx_calls');
  if (calls)
    data.calls = { last5MinCalls: keyValues('pbx_calls', calls, problems).integer('last_5min_calls') };

  const accounts = lines('pbx_accounts');
  if (accounts) {
    const kv = keyValues('pbx_accounts', accounts, problems);
    const total = kv.text('total_accounts');
    const totalMatch = /^(-?\d+)\/0$/.exec(total);
    if (!totalMatch) problems.push(`pbx_accounts: total_accounts '${total}' is not <A>/0`);
    data.accounts = {
      total: totalMatch ? Number(totalMatch[1]) : Number.NaN,
      admin: kv.integer('admin_accounts'),
      active: kv.integer('active_accounts'),
      available: kv.integer('available_accounts'),
      ringing: kv.integer('ringing_accounts'),
      unavailable: kv.integer('unavailable_accounts'),
    };
  }

  const peers = lines('pbx_peers');
  if (peers) data.peers = parsePeers(peers, problems);

  const providers = lines('pbx_sip_provider');
  if (providers) data.sipProviders = parseRegistrations(providers, problems);

  const modules = lines('pbx_modules');
  if (modules) {
    data.modules = modules.flatMap((line) => {
      const m = MODULE_LINE.exec(line);
      if (!m) {
        problems.push(`pbx_modules: not <name>:<version>:<vendor>:<<instances>>: ${JSON.stringify(line)}`);
        return [];
      }
      const instances = m[4] ?? '';
      return [
        {
          name: decodeValue(m[1] ?? ''),
          version: decodeValue(m[2] ?? ''),
          vendor: decodeValue(m[3] ?? ''),
          instances: instances === '' ? [] : instances.split(',').map(decodeToken),
        },
      ];
    });
  }

  const database = lines('pbx_database');
  if (database) {
    const kv = keyValues('pbx_database', database, problems);
    data.database = {
      openedConnections: kv.integer('opened_connections'),
      closedConnections: kv.integer('closed_connections'),
      activeConnections: kv.integer('active_connections'),
      idleConnections: kv.integer('idle_connections'),
      databaseSize: kv.integer('database_size'),
      cdrSize: kv.integer('cdr_size'),
    };
  }

  const connections = lines('pbx_db_connections');
  if (connections) {
    const kv = keyValues('pbx_db_connections', connections, problems);
    const groups = (key: string) =>
      (kv.all.get(key) ?? []).map((value) => {
        const cut = value.lastIndexOf(' ');
        const countText = value.slice(cut + 1);
        if (cut < 0 || !INTEGER.test(countText))
          problems.push(`pbx_db_connections: ${key} '${value}' is not <name> <count>`);
        return {
          name: decodeToken(cut < 0 ? value : value.slice(0, cut)),
          count: cut < 0 ? Number.NaN : Number(countText),
        };
      });
    data.dbConnections = {
      total: kv.integer('total_connections'),
      active: kv.integer('active_connections'),
      idle: kv.integer('idle_connections'),
      idleInTx: kv.integer('idle_in_transaction_connections'),
      max: kv.integer('max_connections'),
      byApp: groups('by_app'),
      byDb: groups('by_db'),
    };
  }

  const java = lines('pbx_java');
  if (java) {
    const kv = keyValues('pbx_java', java, problems);
    const [heapUsed, heapMax] = kv.usedMax('java_heap_memory');
    const [nonHeapUsed, nonHeapMax] = kv.usedMax('java_non_heap_memory');
    data.java = {
      vmName: kv.text('java_vm_name'),
      vmVendor: kv.text('java_vm_vendor'),
      vmVersion: kv.text('java_vm_version'),
      version: kv.text('java_version'),
      heapUsed,
      heapMax,
      nonHeapUsed,
      nonHeapMax,
      maxMemory: kv.integer('java_max_memory'),
    };
  }
  return data;
}

function parsePbx(raw: string[], problems: string[]): NonNullable<PbxSectionsData['pbx']> {
  // The RAID controller's table follows `raid_status` verbatim, up to `raid_diagnosis`.
  const start = raw.findIndex((line) => line === 'raid_status' || line.startsWith('raid_status '));
  const end = start < 0 ? -1 : raw.findIndex((line, i) => i > start && line.startsWith('raid_diagnosis '));
  const raidTable = start < 0 ? [] : raw.slice(start + 1, end < 0 ? raw.length : end);
  while (raidTable.at(-1) === '') raidTable.pop();
  const rest = raw.filter((line, i) => line !== '' && (start < 0 || i <= start || (end >= 0 && i >= end)));
  const kv = keyValues('pbx', rest, problems);
  const facts = new Map<string, string>();
  for (const [key, values] of kv.all) {
    let value = values[0] ?? '';
    if (key === 'engine_uptime') value = value.replace(/^ /, '');
    if (QUOTED.has(key)) {
      if (/^".*"$/.test(value)) value = value.slice(1, -1);
      else problems.push(`pbx: ${key} is not in double quotes: ${JSON.stringify(value)}`);
    }
    facts.set(key, decodeValue(value));
  }
  const raidDevices = (kv.all.get('raid_devices')?.[0] ?? '')
    .split(' ')
    .filter((token) => token !== '')
    .map((token) => {
      const [name = '', state = ''] = token.split('=');
      return { name: decodeToken(name), state: decodeToken(state) };
    });
  return { facts, raidTable, raidDevices };
}

interface KeyValues {
  /** Raw (still encoded) values per key, in order: the rest of the line after `key `. */
  all: Map<string, string[]>;
  integer(key: string): number;
  text(key: string): string;
  usedMax(key: string): [number, number];
}

/**
 * `key value` lines as field consumers read them: the key up to the first space, the value the
 * rest of the line after `key ` (the first value of a repeated key wins for single values).
 */
function keyValues(section: string, lines: string[], problems: string[]): KeyValues {
  const all = new Map<string, string[]>();
  for (const line of lines) {
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    if (!KEY.test(key)) {
      problems.push(`${section}: not a 'key value' line: ${JSON.stringify(line)}`);
      continue;
    }
    all.set(key, [...(all.get(key) ?? []), space < 0 ? '' : line.slice(space + 1)]);
  }
  const first = (key: string) => all.get(key)?.[0];
  const integerOf = (key: string, text: string | undefined) => {
    if (text === undefined || !INTEGER.test(text)) {
      problems.push(
        `${section}: ${key} is ${text === undefined ? 'missing' : `'${text}', not a bare integer`}`,
      );
      return Number.NaN;
    }
    return Number(text);
  };
  return {
    all,
    integer: (key) => integerOf(key, first(key)),
    text(key) {
      const value = first(key);
      if (value === undefined) problems.push(`${section}: ${key} is missing`);
      return decodeValue(value ?? '');
    },
    usedMax(key) {
      const value = first(key);
      const [used, max, ...more] = (value ?? '').split('/');
      if (value === undefined || more.length > 0 || max === undefined) {
        problems.push(
          `${section}: ${key} is ${value === undefined ? 'missing' : `'${value}', not <used>/<max>`}`,
        );
        return [Number.NaN, Number.NaN];
      }
      return [integerOf(key, used), integerOf(key, max)];
    },
  };
}

function parsePeers(lines: string[], problems: string[]): { peers: PeerLine[]; summary: PeerSummary | null } {
  const peers: PeerLine[] = [];
  let summary: PeerSummary | null = null;
  for (const line of lines) {
    const m = PEER_SUMMARY.exec(line);
    if (m) {
      const [total, mOn, mOff, uOn, uOff] = m.slice(1).map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      summary = {
        total,
        monitoredOnline: mOn,
        monitoredOffline: mOff,
        unmonitoredOnline: uOn,
        unmonitoredOffline: uOff,
      };
      continue;
    }
    if (line.startsWith('Name/username ')) continue;
    const peer = peerLine(line);
    if (!peer) {
      problems.push(`pbx_peers: not <name> <ip> <flags> <port> <status>: ${JSON.stringify(line)}`);
      continue;
    }
    peers.push(peer);
  }
  if (!summary) problems.push('pbx_peers: the summary line `N sip peers [...]` is missing');
  return { peers, summary };
}

/** One line of the engine's peer listing, or `undefined` when it has not that shape. */
export function peerLine(line: string): PeerLine | undefined {
  const tokens = line.split(/ +/).filter((t) => t !== '');
  let status: string;
  let lastms = -1;
  let before: string[];
  const latency =
    tokens.length >= 6 && tokens.at(-1) === 'ms)' ? /^\((\d+)$/.exec(tokens.at(-2) ?? '') : null;
  if (latency) {
    status = `${tokens.at(-3)} (${latency[1]} ms)`;
    lastms = Number(latency[1]);
    before = tokens.slice(0, -3);
  } else {
    status = tokens.at(-1) ?? '';
    before = tokens.slice(0, -1);
  }
  const [name, ipaddr, ...flagsAndPort] = before;
  const port = flagsAndPort.at(-1);
  if (name === undefined || ipaddr === undefined || port === undefined || !INTEGER.test(port))
    return undefined;
  const word = status.split(' ')[0] ?? '';
  const monitored = word !== 'Unmonitored';
  return {
    name: decodeToken(name),
    ipaddr: decodeToken(ipaddr),
    flags: flagsAndPort.slice(0, -1),
    port: Number(port),
    status,
    lastms,
    monitored,
    online: monitored ? word === 'OK' || word === 'LAGGED' : null,
  };
}

function parseRegistrations(
  lines: string[],
  problems: string[],
): { registrations: RegistrationLine[]; summaryCount: number | null } {
  const registrations: RegistrationLine[] = [];
  let summaryCount: number | null = null;
  lines.forEach((line, i) => {
    const m = REGISTRATION_SUMMARY.exec(line);
    if (m) {
      summaryCount = Number(m[1]);
      if (i !== lines.length - 1) problems.push('pbx_sip_provider: the summary line is not the last line');
      return;
    }
    if (line.startsWith('Host ')) return;
    const tokens = line.split(/ +/).filter((t) => t !== '');
    if (tokens.length < 2) {
      problems.push(`pbx_sip_provider: not a registration line: ${JSON.stringify(line)}`);
      return;
    }
    const state = tokens.at(-1) ?? '';
    registrations.push({
      uri: decodeToken(tokens[0] ?? ''),
      username: tokens.length >= 4 ? decodeToken(tokens[1] ?? '') : '',
      state,
      registered: state === 'Registered',
    });
  });
  if (summaryCount === null)
    problems.push('pbx_sip_provider: the summary line `N SIP registrations.` is missing');
  else if (summaryCount !== registrations.length)
    problems.push(
      `pbx_sip_provider: the summary says ${summaryCount} registrations, ${registrations.length} are listed`,
    );
  return { registrations, summaryCount };
}
