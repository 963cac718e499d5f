import { decodeToken, decodeValue } from './decode-value.ts';
import { type AgentText, parseAgentText, sectionLines } from './parse-agent-text.ts';

/** One run line of `<<<pbx_backups>>>`; a target that never ran has `time` -1 and `result` ''. */
export interface BackupRunLine {
  type: string;
  location: string;
  time: number;
  result: string;
}

export interface PeerLine {
  name: string;
  ipaddr: string;
  lastms: number;
  monitored: boolean;
  online: boolean;
}

/** The engine's summary `N sip peers [Monitored: A online, B offline Unmonitored: C online, D offline]`. */
export interface PeerSummary {
  total: number;
  monitoredOnline: number;
  monitoredOffline: number;
  unmonitoredOnline: number;
  unmonitoredOffline: number;
}

export interface NamedCount {
  name: string;
  count: number;
}

/**
 * The values of the PBX sections, read back with the grammar of docs/agent-text-grammar.md. A
 * section that is absent is `undefined`; a number that is missing or unreadable is `NaN` and the
 * reason is in `problems`. Unknown keys are ignored (the format grows additively).
 */
export interface PbxSectionsData {
  /** `<<<pbx>>>`: every `key: value` (decoded; the last one wins) and the RAID devices. */
  pbx?: { facts: Map<string, string>; raidDevices: { name: string; state: string }[] };
  backups?: BackupRunLine[];
  channels?: { max: number; active: number; last5MinCalls: number; channels: string[] };
  accounts?: {
    total: number;
    admin: number;
    active: number;
    available: number;
    ringing: number;
    unavailable: number;
  };
  peers?: { peers: PeerLine[]; summary: PeerSummary | null };
  sipProviders?: { index: number; uri: string; registered: boolean }[];
  modules?: { name: string; id: string; version: string; vendor: string; instances: string[] }[];
  database?: { databaseSize: number; cdrSize: number };
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
    version: string;
    heapUsed: number;
    heapMax: number;
    nonHeapUsed: number;
    maxMemory: number;
  };
  /** Lines or keys that do not follow the grammar, as `<section>: <what>`. */
  problems: string[];
}

const PEER_SUMMARY =
  /^(\d+) sip peers \[Monitored: (\d+) online, (\d+) offline Unmonitored: (\d+) online, (\d+) offline\]$/;
const BACKUP_LINE = /^\[([^\]]*)\]([^ ]*) ([^ ]+) ([^ ]+)$/;

/**
 * Reads the PBX sections `<<<pbx>>>` … `<<<pbx_java>>>` back into values (the inverse of the
 * simulator's renderer; usable on any target that follows docs/agent-text-grammar.md).
 */
export function parsePbxSections(input: string | AgentText): PbxSectionsData {
  const agent = typeof input === 'string' ? parseAgentText(input) : input;
  const problems: string[] = [];
  const data: PbxSectionsData = { problems };
  const lines = (name: string) => sectionLines(agent, name);

  const pbx = lines('pbx');
  if (pbx) {
    const kv = keyValues('pbx', pbx, problems);
    const raidDevices = (kv.all.get('raid_device') ?? []).map((value) => {
      const [name = '', state = ''] = value.split(' ');
      return { name: decodeToken(name), state: decodeToken(state) };
    });
    data.pbx = { facts: kv.decoded, raidDevices };
  }

  const backups = lines('pbx_backups');
  if (backups) {
    data.backups = backups.flatMap((line) => {
      const m = BACKUP_LINE.exec(line);
      if (!m) {
        problems.push(`pbx_backups: not [TYPE]location time result: ${JSON.stringify(line)}`);
        return [];
      }
      const time = Number(m[3]);
      if (!Number.isFinite(time)) problems.push(`pbx_backups: time '${m[3]}' is not a number`);
      return [
        {
          type: decodeValue(m[1] ?? ''),
          location: decodeValue(m[2] ?? ''),
          time,
          result: decodeToken(m[4] ?? ''),
        },
      ];
    });
  }

  const channels = lines('pbx_channels');
  if (channels) {
    const kv = keyValues('pbx_channels', channels, problems);
    data.channels = {
      max: kv.number('max'),
      active: kv.number('active'),
      last5MinCalls: kv.number('last_5min_calls'),
      channels: (kv.all.get('channel') ?? []).map(decodeValue),
    };
  }

  const accounts = lines('pbx_accounts');
  if (accounts) {
    const kv = keyValues('pbx_accounts', accounts, problems);
    data.accounts = {
      total: kv.number('total'),
      admin: kv.number('admin'),
      active: kv.number('active'),
      available: kv.number('available'),
      ringing: kv.number('ringing'),
      unavailable: kv.number('unavailable'),
    };
  }

  const peers = lines('pbx_peers');
  if (peers) data.peers = parsePeers(peers, problems);

  const providers = lines('pbx_sip_provider');
  if (providers) {
    data.sipProviders = providers.flatMap((line) => {
      const [index = '', uri = '', state = '', ...rest] = line.split(' ');
      if (rest.length > 0 || !/^\d+$/.test(index) || (state !== 'registered' && state !== 'unregistered')) {
        problems.push(`pbx_sip_provider: not <index> <uri> registered|unregistered: ${JSON.stringify(line)}`);
        return [];
      }
      return [{ index: Number(index), uri: decodeToken(uri), registered: state === 'registered' }];
    });
  }

  const modules = lines('pbx_modules');
  if (modules) data.modules = parseModules(modules, problems);

  const database = lines('pbx_database');
  if (database) {
    const kv = keyValues('pbx_database', database, problems);
    data.database = { databaseSize: kv.number('database_size'), cdrSize: kv.number('cdr_size') };
  }

  const connections = lines('pbx_db_connections');
  if (connections) {
    const kv = keyValues('pbx_db_connections', connections, problems);
    const groups = (key: string) =>
      (kv.all.get(key) ?? []).map((value) => {
        const cut = value.lastIndexOf(' ');
        const count = Number(value.slice(cut + 1));
        if (cut < 0 || !Number.isFinite(count))
          problems.push(`pbx_db_connections: ${key} '${value}' is not <name> <count>`);
        return {
          name: decodeToken(cut < 0 ? value : value.slice(0, cut)),
          count: cut < 0 ? Number.NaN : count,
        };
      });
    data.dbConnections = {
      total: kv.number('total'),
      active: kv.number('active'),
      idle: kv.number('idle'),
      idleInTx: kv.number('idle_in_transaction'),
      max: kv.number('max'),
      byApp: groups('by_app'),
      byDb: groups('by_db'),
    };
  }

  const java = lines('pbx_java');
  if (java) {
    const kv = keyValues('pbx_java', java, problems);
    data.java = {
      vmName: kv.text('vm_name'),
      version: kv.text('version'),
      heapUsed: kv.number('heap_used'),
      heapMax: kv.number('heap_max'),
      nonHeapUsed: kv.number('non_heap_used'),
      maxMemory: kv.number('max_memory'),
    };
  }
  return data;
}

interface KeyValues {
  /** Raw (still encoded) values per key, in order. */
  all: Map<string, string[]>;
  /** Decoded value per key, the last one winning. */
  decoded: Map<string, string>;
  number(key: string): number;
  text(key: string): string;
}

function keyValues(section: string, lines: string[], problems: string[]): KeyValues {
  const all = new Map<string, string[]>();
  const decoded = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      problems.push(`${section}: not a key: value line: ${JSON.stringify(line)}`);
      continue;
    }
    const key = line.slice(0, colon).trim();
    const raw = line.slice(colon + 1).replace(/^ /, '');
    all.set(key, [...(all.get(key) ?? []), raw]);
    decoded.set(key, decodeValue(raw));
  }
  return {
    all,
    decoded,
    number(key) {
      const value = decoded.get(key);
      const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
      if (!Number.isFinite(n))
        problems.push(
          `${section}: ${key} is ${value === undefined ? 'missing' : `'${value}', not a number`}`,
        );
      return n;
    },
    text(key) {
      const value = decoded.get(key);
      if (value === undefined) problems.push(`${section}: ${key} is missing`);
      return value ?? '';
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
    const fields = line.split(' ');
    const [name = '', ipaddr = '', lastms = '', monitored = '', online = ''] = fields;
    const lastmsValue = Number(lastms);
    if (
      fields.length !== 5 ||
      lastms === '' ||
      !Number.isFinite(lastmsValue) ||
      (monitored !== 'monitored' && monitored !== 'unmonitored') ||
      (online !== 'online' && online !== 'offline')
    ) {
      problems.push(
        `pbx_peers: not <name> <ipaddr> <lastms> monitored|unmonitored online|offline: ${JSON.stringify(line)}`,
      );
      continue;
    }
    peers.push({
      name: decodeToken(name),
      ipaddr: decodeToken(ipaddr),
      lastms: lastmsValue,
      monitored: monitored === 'monitored',
      online: online === 'online',
    });
  }
  if (!summary) problems.push('pbx_peers: the summary line `N sip peers [...]` is missing');
  return { peers, summary };
}

function parseModules(lines: string[], problems: string[]): NonNullable<PbxSectionsData['modules']> {
  const modules: NonNullable<PbxSectionsData['modules']> = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon);
    const value = decodeValue(line.slice(colon + 1).replace(/^ /, ''));
    if (key === 'module') {
      modules.push({ name: value, id: '', version: '', vendor: '', instances: [] });
      continue;
    }
    const current = modules.at(-1);
    if (!current || colon < 0) {
      problems.push(`pbx_modules: line outside a module group: ${JSON.stringify(line)}`);
      continue;
    }
    if (key === 'id' || key === 'version' || key === 'vendor') current[key] = value;
    else if (key === 'instance') current.instances.push(value);
  }
  return modules;
}
