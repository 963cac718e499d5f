/**
 * Checks of the PBX sections as check plug-ins in the field read them (field-line-shapes.md,
 * the FIELD clauses): a section is cut out by its exact header line up to the next `<<<`, a line
 * is found by `row.startsWith(key)`, its value is the rest after `key `, and the peer summary is
 * split on single spaces. Every checker returns the problems it found (empty: the clause holds on
 * this text); none of them uses the project's own parser, so a target is judged the way the field
 * would read it.
 */

/**
 * The keys of the earlier component per key/value section, in field order (field-line-shapes.md).
 * Written out here from the spec, not imported from the simulator's `FIELD_KEYS`: a key the
 * simulator dropped or renamed must make these checks fail, not change what they expect.
 */
export const FIELD_SECTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  pbx: [
    'appliance_type',
    'appliance_serial_number',
    'appliance_max_users',
    'appliance_max_connections',
    'system_manufacturer',
    'system_product_name',
    'pbx_version',
    'pbx_build_date',
    'owner',
    'license_max_users',
    'raid_status',
    'raid_diagnosis',
    'password_check',
    'attack_detection',
    'blacklisted_hosts',
    'whitelisted_hosts',
    'autoprovisioning',
    'accept_all_macs',
    'automated_firmware_updates',
    'sip_status_localhost',
    'known_phones',
    'online_phones',
    'ip_changed_phones',
    'engine_uptime',
    'debug_mode',
  ],
  pbx_accounts: [
    'total_accounts',
    'admin_accounts',
    'active_accounts',
    'available_accounts',
    'ringing_accounts',
    'unavailable_accounts',
  ],
  pbx_database: ['opened_connections', 'closed_connections', 'active_connections', 'idle_connections'],
  pbx_java: [
    'java_vm_name',
    'java_vm_vendor',
    'java_vm_version',
    'java_version',
    'java_heap_memory',
    'java_non_heap_memory',
    'java_max_memory',
  ],
};

/** The sections whose lines are `key value` lines (FIELD-KEY-VALUE-LINES). */
export const FIELD_KEY_VALUE_SECTIONS = ['pbx', 'pbx_accounts', 'pbx_database', 'pbx_java'] as const;

/** Keys whose values consumers read as integers (FIELD-BARE-INTEGERS); `used/max` keys separately. */
const INTEGER_KEYS: Readonly<Record<string, readonly string[]>> = {
  pbx: [
    'appliance_max_users',
    'appliance_max_connections',
    'license_max_users',
    'blacklisted_hosts',
    'whitelisted_hosts',
    'known_phones',
    'online_phones',
    'ip_changed_phones',
  ],
  pbx_accounts: [
    'admin_accounts',
    'active_accounts',
    'available_accounts',
    'ringing_accounts',
    'unavailable_accounts',
  ],
  pbx_database: FIELD_SECTION_KEYS['pbx_database'] ?? [],
  pbx_java: ['java_max_memory'],
};

const BARE_INTEGER = /^-?\d+$/;

/**
 * The lines of the section with exactly the header `<<<name>>>`, up to the next `<<<`, as
 * consumers cut it; `undefined` when the header line is missing.
 */
export function cutSection(text: string, name: string): string[] | undefined {
  const header = `<<<${name}>>>`;
  const lines = text.split('\n');
  const start = lines.indexOf(header);
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1).join('\n');
  const end = rest.indexOf('<<<');
  const body = (end < 0 ? rest : rest.slice(0, end)).split('\n');
  if (body.at(-1) === '') body.pop();
  return body;
}

/** The first row that starts with `key`, as `row.startswith(key)` finds it. */
export function rowOf(rows: readonly string[], key: string): string | undefined {
  return rows.find((row) => row.startsWith(key));
}

/** The value of `key`: the rest of its row after `key ` (`undefined` when no row starts with it). */
export function fieldValue(rows: readonly string[], key: string): string | undefined {
  const row = rowOf(rows, key);
  return row === undefined ? undefined : row.slice(key.length + 1);
}

/** Indexes of the RAID controller's table rows: after `raid_status`, up to `raid_diagnosis`. */
function raidTableRows(rows: readonly string[]): Set<number> {
  const start = rows.findIndex((r) => r === 'raid_status' || r.startsWith('raid_status '));
  if (start < 0) return new Set();
  const end = rows.findIndex((r, i) => i > start && r.startsWith('raid_diagnosis'));
  const last = end < 0 ? rows.length : end;
  return new Set(Array.from({ length: last - start - 1 }, (_, i) => start + 1 + i));
}

/** The key of a row: the text up to the first space. */
function keyOfRow(row: string): string {
  const space = row.indexOf(' ');
  return space < 0 ? row : row.slice(0, space);
}

function missingSection(name: string): string {
  return `the agent text has no section <<<${name}>>>`;
}

/**
 * The four key/value sections of `text`, each with its rows and the rows of the RAID table (in
 * `pbx` only, after `raid_status`); a section that is missing is reported in `problems` instead.
 */
function keyValueSections(
  text: string,
  problems: string[],
): { name: string; rows: string[]; table: Set<number> }[] {
  return FIELD_KEY_VALUE_SECTIONS.flatMap((name) => {
    const rows = cutSection(text, name);
    if (!rows) {
      problems.push(missingSection(name));
      return [];
    }
    return [{ name, rows, table: name === 'pbx' ? raidTableRows(rows) : new Set<number>() }];
  });
}

/**
 * FIELD-KEY-VALUE-LINES: in the four key/value sections every row of a field key is the key, ONE
 * space, the value (no colon, no second space before the value; `engine_uptime` has its two
 * spaces by design; a value may be empty, `raid_status` is); other rows are empty, additional
 * `key value` rows, or the RAID table after `raid_status`.
 */
export function keyValueLineProblems(text: string): string[] {
  const problems: string[] = [];
  for (const { name, rows, table } of keyValueSections(text, problems)) {
    const fieldKeys = FIELD_SECTION_KEYS[name] ?? [];
    rows.forEach((row, i) => {
      if (row === '' || table.has(i)) return;
      const fieldKey = fieldKeys.find((k) => row.startsWith(k));
      if (fieldKey !== undefined) {
        const after = row.slice(fieldKey.length);
        if (fieldKey === 'raid_status' && after === '') return;
        // engine_uptime: two spaces, then the engine's text (field-line-shapes.md).
        const shape = fieldKey === 'engine_uptime' ? /^ {2}(?:\S.*)?$/ : /^ (?:\S.*)?$/;
        if (!shape.test(after))
          problems.push(
            `${name}: ${fieldKey} is not followed by one space and its value: ${JSON.stringify(row)}`,
          );
        return;
      }
      if (!/^[A-Za-z][A-Za-z0-9_.-]* /.test(row))
        problems.push(
          `${name}: neither a field key nor an additional 'key value' row: ${JSON.stringify(row)}`,
        );
    });
  }
  return problems;
}

/** FIELD-KEY-PREFIX-FREE: within each key/value section no key is a prefix of another key. */
export function prefixProblems(text: string): string[] {
  const problems: string[] = [];
  for (const { name, rows, table } of keyValueSections(text, problems)) {
    const keys = [...new Set(rows.filter((r, i) => r !== '' && !table.has(i)).map(keyOfRow))];
    for (const a of keys)
      for (const b of keys)
        if (a !== b && b.startsWith(a)) problems.push(`${name}: the key '${a}' is a prefix of '${b}'`);
  }
  return problems;
}

/**
 * FIELD-BARE-INTEGERS: counts, limits, byte values and epoch milliseconds are bare integers (a
 * sign allowed for the sentinel -1): the integer keys, `total_accounts <A>/0`, the `used/max`
 * java values, the backup times and the channel maximum. Returns the problems and how many
 * values were checked.
 */
export function bareIntegerProblems(text: string): { problems: string[]; checked: number } {
  const problems: string[] = [];
  let checked = 0;
  const check = (where: string, value: string | undefined) => {
    if (value === undefined) return;
    checked += 1;
    if (!BARE_INTEGER.test(value)) problems.push(`${where}: ${JSON.stringify(value)} is not a bare integer`);
  };
  for (const [name, keys] of Object.entries(INTEGER_KEYS)) {
    const rows = cutSection(text, name);
    if (!rows) continue;
    for (const key of keys) check(`${name} ${key}`, fieldValue(rows, key));
  }
  const accounts = cutSection(text, 'pbx_accounts');
  const total = accounts && fieldValue(accounts, 'total_accounts');
  if (total !== undefined) {
    const [a, b, ...more] = total.split('/');
    if (b !== '0' || more.length > 0)
      problems.push(`pbx_accounts total_accounts: ${JSON.stringify(total)} is not <A>/0`);
    check('pbx_accounts total_accounts', a);
  }
  const java = cutSection(text, 'pbx_java');
  for (const key of ['java_heap_memory', 'java_non_heap_memory']) {
    const value = java && fieldValue(java, key);
    if (value === undefined) continue;
    const parts = value.split('/');
    if (parts.length !== 2) problems.push(`pbx_java ${key}: ${JSON.stringify(value)} is not <used>/<max>`);
    for (const part of parts) check(`pbx_java ${key}`, part);
  }
  for (const row of (cutSection(text, 'pbx_backups') ?? []).filter((r) => r !== '')) {
    check('pbx_backups epoch milliseconds', row.split(' ').at(-2));
  }
  const channels = (cutSection(text, 'pbx_channels') ?? []).filter((r) => r !== '');
  if (channels[0] !== undefined) check('pbx_channels <N> max calls', channels[0].split(' ')[0]);
  const calls = cutSection(text, 'pbx_calls');
  const last5 = calls && fieldValue(calls, 'last_5min_calls');
  if (last5 !== undefined) check('pbx_calls last_5min_calls', last5);
  return { problems, checked };
}

const ON_OFF = /^(enabled|disabled)$/;

/**
 * FIELD-PBX-KEYS: the fifteen keys of the clause are in `<<<pbx>>>` with their value shapes, and
 * `raid_status` / `raid_diagnosis` appear together (`raid` tells whether a RAID is configured when
 * it is known: `true`, `false`, or `undefined` for "cannot tell").
 */
export function pbxKeyProblems(text: string, raid?: boolean): string[] {
  const rows = cutSection(text, 'pbx');
  if (!rows) return [missingSection('pbx')];
  const problems: string[] = [];
  const shapes: [string, RegExp, string][] = [
    ['appliance_type', /^".*"$/, 'text in double quotes'],
    ['appliance_serial_number', /^\S.*$/, 'text or n/a'],
    ['appliance_max_users', BARE_INTEGER, 'an integer'],
    ['appliance_max_connections', BARE_INTEGER, 'an integer'],
    ['pbx_version', /^\d+\.\d+\.\d+\.\d+$/, 'a dotted four-part version'],
    ['owner', /^".*"$/, 'text in double quotes'],
    ['license_max_users', BARE_INTEGER, 'an integer'],
    ['password_check', ON_OFF, 'enabled or disabled'],
    ['attack_detection', ON_OFF, 'enabled or disabled'],
    ['sip_status_localhost', /^\S+$/, 'one word (OK when healthy)'],
    ['known_phones', BARE_INTEGER, 'an integer'],
    ['online_phones', BARE_INTEGER, 'an integer'],
    ['ip_changed_phones', BARE_INTEGER, 'an integer'],
    ['engine_uptime', /^ \S.*$/, 'two spaces, then the uptime text'],
    ['debug_mode', ON_OFF, 'enabled or disabled'],
  ];
  for (const [key, shape, what] of shapes) {
    const value = fieldValue(rows, key);
    if (value === undefined) problems.push(`pbx: no row starts with ${key}`);
    else if (!shape.test(value)) problems.push(`pbx: ${key} ${JSON.stringify(value)} is not ${what}`);
  }
  const status = rowOf(rows, 'raid_status');
  const diagnosis = fieldValue(rows, 'raid_diagnosis');
  if ((status === undefined) !== (diagnosis === undefined))
    problems.push('pbx: raid_status and raid_diagnosis do not appear together');
  if (diagnosis !== undefined && !/^[A-Z][A-Z0-9_]*$/.test(diagnosis))
    problems.push(`pbx: raid_diagnosis ${JSON.stringify(diagnosis)} is not one word (HEALTHY when healthy)`);
  if (raid === true && status === undefined)
    problems.push('pbx: a RAID is configured, but there is no raid_status');
  if (raid === false && status !== undefined)
    problems.push('pbx: no RAID is configured, but there is a raid_status');
  return problems;
}

/** The peer listing's rows: everything but empty rows, a `Name/username` header and the summary. */
export function peerRows(rows: readonly string[]): string[] {
  return rows.filter((r) => r !== '' && !r.includes(' sip peers ') && !r.startsWith('Name/username '));
}

/**
 * FIELD-PEERS-SUMMARY: one summary row found by ` sip peers `, split on single spaces into
 * `N sip peers [Monitored: a online, b offline Unmonitored: c online, d offline]`, with N the
 * number of peer rows and a+b+c+d = N. `expectedPeers`, when known, is the number of peers of
 * the JSON snapshot.
 */
export function peerSummaryProblems(text: string, expectedPeers?: number): string[] {
  const rows = cutSection(text, 'pbx_peers');
  if (!rows) return [missingSection('pbx_peers')];
  const summaries = rows.filter((r) => r.includes(' sip peers '));
  if (summaries.length !== 1)
    return [`pbx_peers: ${summaries.length} rows contain " sip peers ", one expected`];
  const t = summaries[0]!.split(' ');
  const shape =
    t.length === 13 &&
    t[1] === 'sip' &&
    t[2] === 'peers' &&
    t[3] === '[Monitored:' &&
    t[5] === 'online,' &&
    t[7] === 'offline' &&
    t[8] === 'Unmonitored:' &&
    t[10] === 'online,' &&
    t[12] === 'offline]' &&
    [0, 4, 6, 9, 11].every((i) => /^\d+$/.test(t[i] ?? ''));
  if (!shape)
    return [
      `pbx_peers: the summary is not 'N sip peers [Monitored: a online, b offline Unmonitored: c online, d offline]': ${JSON.stringify(summaries[0])}`,
    ];
  const [n, a, b, c, d] = [0, 4, 6, 9, 11].map((i) => Number(t[i]));
  const listed = peerRows(rows).length;
  const problems: string[] = [];
  if (n !== listed)
    problems.push(`pbx_peers: the summary says ${n} sip peers, ${listed} peer rows are listed`);
  if (a! + b! + c! + d! !== n) problems.push(`pbx_peers: ${a}+${b}+${c}+${d} is not ${n}`);
  if (expectedPeers !== undefined && listed !== expectedPeers)
    problems.push(`pbx_peers: ${listed} peer rows, the JSON snapshot has ${expectedPeers} peers`);
  return problems;
}

/** FIELD-SIP-PROVIDER-SUMMARY: the last row is `N SIP registrations.` with N the rows listed. */
export function registrationSummaryProblems(text: string, expected?: number): string[] {
  const rows = cutSection(text, 'pbx_sip_provider');
  if (!rows) return [missingSection('pbx_sip_provider')];
  const filled = rows.filter((r) => r !== '');
  const last = filled.at(-1) ?? '';
  const m = /^(\d+) SIP registrations\.$/.exec(last);
  if (!m) return [`pbx_sip_provider: the last row is not 'N SIP registrations.': ${JSON.stringify(last)}`];
  const listed = filled.slice(0, -1).filter((r) => !r.startsWith('Host ')).length;
  const problems: string[] = [];
  if (Number(m[1]) !== listed)
    problems.push(`pbx_sip_provider: the summary says ${m[1]}, ${listed} registrations are listed`);
  if (expected !== undefined && listed !== expected)
    problems.push(
      `pbx_sip_provider: ${listed} registrations listed, the JSON snapshot has ${expected} trunks`,
    );
  return problems;
}

/** One module row split the way plug-ins split it, or `undefined` when it has not the shape. */
export function moduleRow(
  row: string,
): { name: string; version: string; vendor: string; instances: string[] } | undefined {
  const parts = row.split(':');
  if (parts.length < 4) return undefined;
  const [name = '', version = '', vendor = ''] = parts;
  const rest = parts.slice(3).join(':');
  if (!rest.startsWith('<') || !rest.endsWith('>') || parts.length !== 4) return undefined;
  const inner = rest.slice(1, -1);
  return { name, version, vendor, instances: inner === '' ? [] : inner.split(',') };
}

/** FIELD-CHANNELS-MAX-LINE: exactly `<N> max calls` first, then only channel rows. */
export function channelRows(text: string): { max: number; channels: string[] } | { problem: string } {
  const rows = cutSection(text, 'pbx_channels');
  if (!rows) return { problem: missingSection('pbx_channels') };
  const filled = rows.filter((r) => r !== '');
  const m = /^(-?\d+) max calls$/.exec(filled[0] ?? '');
  if (!m)
    return {
      problem: `pbx_channels: the first row is not exactly '<N> max calls': ${JSON.stringify(filled[0])}`,
    };
  return { max: Number(m[1]), channels: filled.slice(1) };
}

/**
 * `<<<pbx_channels>>>` read the way the field's channel counters read it (field-line-shapes.md):
 * the maximum is the line that ends with `max calls`, its number the line minus ` max calls`;
 * every other non-empty line is one active channel, counted by technology prefix (`SIP/`,
 * `DAHDI/`, other). `max` is `undefined` when no line ends with `max calls`.
 */
export function fieldChannelReader(
  text: string,
): { max: number | undefined; channels: number; byTechnology: Record<string, number> } | undefined {
  const rows = cutSection(text, 'pbx_channels');
  if (!rows) return undefined;
  let max: number | undefined;
  let channels = 0;
  const byTechnology: Record<string, number> = {};
  for (const row of rows) {
    if (row === '') continue;
    if (row.endsWith('max calls')) {
      max = Number(row.slice(0, -' max calls'.length));
      continue;
    }
    channels += 1;
    const technology = row.startsWith('SIP/') ? 'SIP' : row.startsWith('DAHDI/') ? 'DAHDI' : 'other';
    byTechnology[technology] = (byTechnology[technology] ?? 0) + 1;
  }
  return { max, channels, byTechnology };
}

/**
 * FIELD-CHANNELS-CALLS-APART: `<<<pbx_calls>>>` holds `last_5min_calls <N>` with N the JSON
 * snapshot's figure, and no line of `<<<pbx_channels>>>` mentions `last_5min_calls`.
 */
export function callsApartProblems(text: string, expected: number | undefined): string[] {
  const problems: string[] = [];
  const calls = cutSection(text, 'pbx_calls');
  if (!calls) problems.push(missingSection('pbx_calls'));
  else {
    const value = fieldValue(calls, 'last_5min_calls');
    if (value === undefined) problems.push('pbx_calls: no line last_5min_calls <N>');
    else if (!BARE_INTEGER.test(value))
      problems.push(`pbx_calls: last_5min_calls ${JSON.stringify(value)} is not a bare integer`);
    else if (expected !== undefined && Number(value) !== expected)
      problems.push(`pbx_calls: last_5min_calls ${value}, the JSON snapshot says ${expected}`);
  }
  for (const row of cutSection(text, 'pbx_channels') ?? []) {
    if (row.includes('last_5min_calls'))
      problems.push(`pbx_channels: a row carries the calls: ${JSON.stringify(row)}`);
  }
  return problems;
}

/** Backup rows as `[<TYPE>]<location> <epoch ms> <result key>`, split on the last two spaces. */
export function backupRow(row: string): { target: string; time: string; result: string } | undefined {
  const m = /^(\[[^\]\s]+\]\S*) (\S+) (\S+)$/.exec(row);
  return m ? { target: m[1]!, time: m[2]!, result: m[3]! } : undefined;
}
