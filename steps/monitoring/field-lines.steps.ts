/**
 * The PBX sections in the line shapes of the earlier monitoring component (field-lines.feature,
 * field-line-shapes.md). The agent text is read the way check plug-ins in the field read it
 * (steps/support/agent-field-lines.ts): cut by the exact header up to the next `<<<`, rows found by
 * `row.startsWith(key)`, the value the rest after `key `, the peer summary split on single spaces.
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import {
  BACKUP_RESULT_KEYS,
  backupTargets,
  channelStates,
  fieldStateOverlay,
} from '../support/agent-field-arbitraries.ts';
import {
  backupRow,
  bareIntegerProblems,
  callsApartProblems,
  channelRows,
  cutSection,
  FIELD_SECTION_KEYS,
  fieldChannelReader,
  fieldValue,
  keyValueLineProblems,
  moduleRow,
  pbxKeyProblems,
  peerRows,
  peerSummaryProblems,
  prefixProblems,
  registrationSummaryProblems,
  rowOf,
} from '../support/agent-field-lines.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { latestAgentText, latestJson } from '../support/latest-snapshots.ts';
import { asNumber, findJsonFields, jsonField } from '../support/snapshot-values.ts';
import { changeState, withControl } from '../support/with-control.ts';
import type { PbxWorld } from '../support/world.ts';

/** A JSON list of the latest JSON snapshot (anywhere in it, MON-UNSPEC-JSON-PATHS), or undefined. */
function jsonList(world: PbxWorld, name: string): Record<string, unknown>[] | undefined {
  return findJsonFields(latestJson(world), name).find(Array.isArray) as Record<string, unknown>[] | undefined;
}

function rows(world: PbxWorld, name: string): string[] {
  const found = cutSection(latestAgentText(world), name);
  assert.ok(found, `the agent text has no section <<<${name}>>>`);
  return found;
}

/** Decodes the simulator's value encoding (`%XX`); text without it reads unchanged. */
function decoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A fresh agent text from the target, without evidence (property runs make many requests). */
async function fetchAgentText(world: PbxWorld): Promise<string> {
  return (await world.httpRequest('GET', '/checkmk', { evidence: false })).body.toString('utf8');
}

/** The checkers the generated-state runs apply, by what the scenario says. */
const PROPERTY_CHECKS: Record<string, (text: string) => string[]> = {
  'every row of a field key stays the key, one space and the value': keyValueLineProblems,
  'no key of a key/value section is a prefix of another': prefixProblems,
  'every count, limit, byte value and epoch millisecond stays a bare integer': (text) => {
    const { problems, checked } = bareIntegerProblems(text);
    return checked === 0 ? ['no number was found to check'] : problems;
  },
};

Then(
  /^for generated PBX states (every row of a field key stays the key, one space and the value|no key of a key\/value section is a prefix of another|every count, limit, byte value and epoch millisecond stays a bare integer) \((\d+) runs\)$/,
  async function (this: PbxWorld, what: string, runs: string) {
    const check = PROPERTY_CHECKS[what];
    assert.ok(check, `no check for "${what}"`);
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set generated PBX states'));
    const now = (await control.now()).now;
    await assertLiveProperty(
      this,
      what,
      fc.asyncProperty(fieldStateOverlay(now), async (overlay) => {
        await control.patchState(overlay);
        await control.invalidateSnapshot();
        assert.deepEqual(check(await fetchAgentText(this)), []);
      }),
      Number(runs),
    );
    return undefined;
  },
);

Then(
  'every row of a field key in pbx, pbx_accounts, pbx_database and pbx_java is the key, one space and the value',
  function (this: PbxWorld) {
    assert.deepEqual(keyValueLineProblems(latestAgentText(this)), []);
  },
);

Then(
  'no key of pbx, pbx_accounts, pbx_database or pbx_java is a prefix of another key',
  function (this: PbxWorld) {
    assert.deepEqual(prefixProblems(latestAgentText(this)), []);
  },
);

Then('every count, limit, byte value and epoch millisecond is a bare integer', function (this: PbxWorld) {
  const { problems, checked } = bareIntegerProblems(latestAgentText(this));
  assert.ok(checked >= 20, `only ${checked} numbers found to check`);
  assert.deepEqual(problems, []);
});

Then(
  'the section <<<pbx>>> carries the field keys in their value shapes, with the RAID keys exactly when the JSON snapshot has a RAID',
  function (this: PbxWorld) {
    const raid = findJsonFields(latestJson(this), 'raid');
    const configured = raid.length === 0 ? undefined : raid[0] !== null;
    if (configured === undefined)
      this.evidence({ exchange: 'RAID keys', details: { skipped: 'the JSON snapshot has no raid field' } });
    assert.deepEqual(pbxKeyProblems(latestAgentText(this), configured), []);
    const status = fieldValue(rows(this, 'pbx'), 'sip_status_localhost');
    const json = jsonField(latestJson(this), 'sipStatusLocalhost');
    if (typeof json === 'string')
      assert.equal(status, json, 'sip_status_localhost and sipStatusLocalhost differ');
  },
);

Then(
  'with a degraded RAID the section <<<pbx>>> has raid_status and a raid_diagnosis other than HEALTHY, with a clean one HEALTHY',
  function (this: PbxWorld) {
    return withControl(this, 'configure RAIDs', async (control) => {
      const devices = [
        { name: 'sda', state: 'active' },
        { name: 'sdb', state: 'faulty' },
      ];
      const seen: Record<string, string | undefined> = {};
      for (const status of ['degraded', 'clean']) {
        await control.patchState({ raid: { level: 'raid1', status, devices } });
        await control.invalidateSnapshot();
        const text = await fetchAgentText(this);
        assert.deepEqual(pbxKeyProblems(text, true), [], status);
        seen[status] = fieldValue(cutSection(text, 'pbx') ?? [], 'raid_diagnosis');
      }
      this.evidence({ exchange: 'raid_diagnosis', details: seen });
      assert.notEqual(seen['degraded'], 'HEALTHY', 'a degraded RAID is diagnosed HEALTHY');
      assert.equal(seen['clean'], 'HEALTHY', 'a clean RAID is not diagnosed HEALTHY');
    });
  },
);

Then(
  'known_phones, online_phones, ip_changed_phones, license_max_users and pbx_version of <<<pbx>>> equal the JSON snapshot',
  function (this: PbxWorld) {
    const pbx = rows(this, 'pbx');
    const json = latestJson(this);
    const problems: string[] = [];
    for (const [key, field] of [
      ['known_phones', 'knownPhones'],
      ['online_phones', 'onlinePhones'],
      ['ip_changed_phones', 'ipChangedPhones'],
      ['license_max_users', 'licenseMaxUsers'],
    ] as const) {
      const value = fieldValue(pbx, key);
      const expected = asNumber(jsonField(json, field));
      if (expected === undefined) problems.push(`the JSON snapshot has no number ${field}`);
      else if (value === undefined || !/^-?\d+$/.test(value) || Number(value) !== expected)
        problems.push(`${key} ${JSON.stringify(value)} is not ${field} = ${expected}`);
    }
    const version = fieldValue(pbx, 'pbx_version');
    const expectedVersion = jsonField(json, 'pbxVersion');
    if (version === undefined || decoded(version) !== expectedVersion)
      problems.push(
        `pbx_version ${JSON.stringify(version)} is not pbxVersion = ${JSON.stringify(expectedVersion)}`,
      );
    assert.deepEqual(problems, []);
  },
);

/** Problems of the backup rows against the runs of the state (time and whether it succeeded). */
function backupProblems(text: string, runs: { time: number; successful: boolean }[]): string[] {
  const lines = (cutSection(text, 'pbx_backups') ?? []).filter((r) => r !== '');
  const problems: string[] = [];
  const parsed = lines.map((line) => {
    const row = backupRow(line);
    if (!row || !/^\d+$/.test(row.time))
      problems.push(`not [TYPE]location epoch-ms result-key: ${JSON.stringify(line)}`);
    return row;
  });
  for (const run of runs) {
    const row = parsed.find((r) => r && Number(r.time) === run.time);
    if (!row) problems.push(`no row for the run at ${run.time}`);
    else if (row.result.endsWith('successful') !== run.successful)
      problems.push(
        `the run at ${run.time} ${run.successful ? 'succeeded' : 'failed'}, its key is ${row.result}`,
      );
  }
  return problems;
}

Then(
  "every row of <<<pbx_backups>>> is [TYPE]location epoch-ms result-key, and each target's newest run ends in successful exactly when the JSON snapshot says it succeeded",
  function (this: PbxWorld) {
    const text = latestAgentText(this);
    const lines = (cutSection(text, 'pbx_backups') ?? []).filter((r) => r !== '');
    assert.ok(lines.length > 0, 'the PBX lists no backup run');
    const targets = jsonList(this, 'backups') ?? [];
    const runs = targets.flatMap((b) => {
      const time = asNumber(b['time']);
      const info = b['runInfo'] as { successful?: unknown } | undefined;
      return time !== undefined && time >= 0 && typeof info?.successful === 'boolean'
        ? [{ time, successful: info.successful }]
        : [];
    });
    if (runs.length === 0)
      this.evidence({
        exchange: 'backup runs',
        details: { skipped: 'the JSON snapshot shows no run results' },
      });
    assert.deepEqual(backupProblems(text, runs), []);
  },
);

Then(
  'for generated backup runs every row is [TYPE]location epoch-ms result-key and ends in successful exactly for the runs that succeeded \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set generated backup runs'));
    const now = (await control.now()).now;
    await assertLiveProperty(
      this,
      'backup lines',
      fc.asyncProperty(backupTargets(now), async (targets) => {
        await control.patchState({
          backups: targets.map((b) => ({ ...b, message: 'generated', sizeBytes: 0 })),
        });
        await control.invalidateSnapshot();
        const expected = targets.flatMap((b) =>
          b.runs.map((r) => ({ time: r.time, successful: r.result === BACKUP_RESULT_KEYS[0] })),
        );
        const text = await fetchAgentText(this);
        const lines = (cutSection(text, 'pbx_backups') ?? []).filter((r) => r !== '');
        assert.equal(lines.length, expected.length, 'one row per run');
        assert.deepEqual(backupProblems(text, expected), []);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  '<<<pbx_channels>>> starts with exactly "<N> max calls" for the JSON channel maximum, followed by exactly the active channels, one per row',
  function (this: PbxWorld) {
    const result = channelRows(latestAgentText(this));
    assert.ok(!('problem' in result), 'problem' in result ? result.problem : '');
    const json = latestJson(this);
    assert.equal(result.max, asNumber(jsonField(json, 'channelsMax')), 'N is not channelsMax');
    const active = findJsonFields(json, 'channelsActive').find(Array.isArray) as unknown[] | undefined;
    assert.ok(active, 'the JSON snapshot has no list channelsActive');
    assert.deepEqual(result.channels.map(decoded).sort(), active.map(String).sort());
  },
);

Then(
  '<<<pbx_accounts>>> has total_accounts <A>\\/0 and the five counts, equal to the JSON snapshot',
  function (this: PbxWorld) {
    const accounts = rows(this, 'pbx_accounts');
    const json = latestJson(this);
    const problems: string[] = [];
    const total = fieldValue(accounts, 'total_accounts');
    const match = /^(-?\d+)\/0$/.exec(total ?? '');
    if (!match) problems.push(`total_accounts ${JSON.stringify(total)} is not <A>/0`);
    else if (Number(match[1]) !== asNumber(jsonField(json, 'accountsTotal')))
      problems.push(`total_accounts ${match[1]} is not accountsTotal`);
    for (const kind of ['admin', 'active', 'available', 'ringing', 'unavailable']) {
      const key = `${kind}_accounts`;
      const value = fieldValue(accounts, key);
      const field = `accounts${kind[0]!.toUpperCase()}${kind.slice(1)}`;
      if (value === undefined || !/^-?\d+$/.test(value))
        problems.push(`${key} ${JSON.stringify(value)} is not an integer`);
      else if (Number(value) !== asNumber(jsonField(json, field)))
        problems.push(`${key} ${value} is not ${field}`);
    }
    assert.deepEqual(problems, []);
  },
);

Then(
  '<<<pbx_peers>>> lists one row per peer of the JSON snapshot and a summary line that agrees with them',
  function (this: PbxWorld) {
    const peers = jsonList(this, 'peers');
    assert.deepEqual(peerSummaryProblems(latestAgentText(this), peers?.length), []);
    const listed = peerRows(rows(this, 'pbx_peers')).map((r) => decoded(r.split(' ')[0] ?? ''));
    const names = (peers ?? []).map((p) => String(p['name']));
    if (peers) assert.deepEqual(listed.sort(), names.sort(), 'the peer rows do not name the JSON peers');
  },
);

Given(
  'the operator sets peers of every kind: monitored online and offline, unmonitored online and offline',
  function (this: PbxWorld) {
    const peer = (name: string, monitored: boolean, online: boolean, lastms: number) => ({
      name,
      ipaddr: online ? `192.0.2.${10 + name.length}` : '(Unspecified)',
      lastms,
      monitored,
      online,
    });
    return changeState(this, 'set peers of every kind', {
      peers: [
        peer('301', true, true, 17),
        peer('302', true, true, 44),
        peer('303', true, false, -1),
        peer('trunk-a', false, true, -1),
        peer('304', false, false, -1),
        peer('305', false, false, -1),
      ],
    });
  },
);

Then(
  'the summary of <<<pbx_peers>>> says {int} sip peers, {int} monitored online, {int} monitored offline, {int} unmonitored online and {int} unmonitored offline',
  function (this: PbxWorld, n: number, a: number, b: number, c: number, d: number) {
    assert.deepEqual(peerSummaryProblems(latestAgentText(this), n), []);
    const summary = rows(this, 'pbx_peers').find((r) => r.includes(' sip peers ')) ?? '';
    const t = summary.split(' ');
    assert.deepEqual([t[0], t[4], t[6], t[9], t[11]].map(Number), [n, a, b, c, d], summary);
  },
);

Then(
  '<<<pbx_sip_provider>>> ends with "<N> SIP registrations." counting the registrations listed, one per trunk of the JSON snapshot',
  function (this: PbxWorld) {
    const trunks = jsonList(this, 'sipProviderEntries');
    assert.deepEqual(registrationSummaryProblems(latestAgentText(this), trunks?.length), []);
  },
);

Then(
  'every row of <<<pbx_modules>>> is <name>:<version>:<vendor>:<<instances>>, one per module of the JSON snapshot',
  function (this: PbxWorld) {
    const lines = rows(this, 'pbx_modules').filter((r) => r !== '');
    const problems: string[] = [];
    const parsed = lines.map((line) => {
      const row = moduleRow(line);
      if (!row) problems.push(`not <name>:<version>:<vendor>:<<instances>>: ${JSON.stringify(line)}`);
      return row;
    });
    const modules = jsonList(this, 'modules');
    assert.ok(modules, 'the JSON snapshot has no list modules');
    if (lines.length !== modules.length) problems.push(`${lines.length} rows for ${modules.length} modules`);
    for (const m of modules) {
      const instances = ((m['instances'] as unknown[]) ?? []).map((i) =>
        typeof i === 'string' ? i : String((i as Record<string, unknown>)['name']),
      );
      const found = parsed.find(
        (r) =>
          r &&
          decoded(r.name) === m['name'] &&
          decoded(r.version) === m['version'] &&
          decoded(r.vendor) === m['vendor'] &&
          JSON.stringify(r.instances.map((i) => (i === '-' ? '' : decoded(i)))) === JSON.stringify(instances),
      );
      if (!found)
        problems.push(`no row gives module ${JSON.stringify(m['name'])} with version, vendor and instances`);
    }
    assert.deepEqual(problems, []);
  },
);

Then(
  '<<<pbx_database>>> has the four connection counters, then the database size and the call-record size of the JSON snapshot as additional keys',
  function (this: PbxWorld) {
    const database = rows(this, 'pbx_database').filter((r) => r !== '');
    const json = latestJson(this);
    const counters = FIELD_SECTION_KEYS['pbx_database'] ?? [];
    const problems: string[] = [];
    const positions = counters.map((key) => database.findIndex((r) => r.startsWith(key)));
    counters.forEach((key, i) => {
      const value = fieldValue(database, key);
      if (value === undefined || !/^-?\d+$/.test(value))
        problems.push(`${key} ${JSON.stringify(value)} is not an integer`);
      if (positions[i] !== i) problems.push(`${key} is not row ${i + 1}`);
    });
    const additional = database.slice(counters.length).filter((r) => !counters.some((k) => r.startsWith(k)));
    for (const field of ['databaseSize', 'cdrSize']) {
      const expected = asNumber(jsonField(json, field));
      const row = additional.find((r) => r.split(' ').slice(1).join(' ') === String(expected));
      if (expected === undefined) problems.push(`the JSON snapshot has no ${field}`);
      else if (!row || !/^[a-z][a-z0-9_]* /.test(row))
        problems.push(`no additional 'key value' row gives ${field} = ${expected}`);
    }
    assert.deepEqual(problems, []);
  },
);

Then(
  '<<<pbx_java>>> has the seven java keys, used\\/max memory as integers, equal to the JSON snapshot',
  function (this: PbxWorld) {
    const java = rows(this, 'pbx_java');
    const json = latestJson(this);
    const problems: string[] = [];
    for (const key of FIELD_SECTION_KEYS['pbx_java'] ?? [])
      if (rowOf(java, key) === undefined) problems.push(`no row starts with ${key}`);
    const pair = (key: string) => {
      const m = /^(-?\d+)\/(-?\d+)$/.exec(fieldValue(java, key) ?? '');
      if (!m)
        problems.push(`${key} ${JSON.stringify(fieldValue(java, key))} is not <used>/<max> in integers`);
      return m ? [Number(m[1]), Number(m[2])] : [];
    };
    const [heapUsed, heapMax] = pair('java_heap_memory');
    const [nonHeapUsed] = pair('java_non_heap_memory');
    const maxMemory = fieldValue(java, 'java_max_memory');
    if (!/^-?\d+$/.test(maxMemory ?? ''))
      problems.push(`java_max_memory ${JSON.stringify(maxMemory)} is not an integer`);
    const same = (what: string, actual: unknown, field: string) => {
      const expected = jsonField(json, field);
      if (expected !== undefined && actual !== expected)
        problems.push(`${what} ${String(actual)} is not ${field} = ${String(expected)}`);
    };
    same('heap used', heapUsed, 'javaHeapUsed');
    same('heap max', heapMax, 'javaHeapMax');
    same('non-heap used', nonHeapUsed, 'javaNonHeapUsed');
    same('java_max_memory', Number(maxMemory), 'javaMaxMemory');
    same('java_vm_name', decoded(fieldValue(java, 'java_vm_name') ?? ''), 'javaVmName');
    same('java_version', decoded(fieldValue(java, 'java_version') ?? ''), 'javaVersion');
    assert.deepEqual(problems, []);
  },
);

/** Newer content of `<<<pbx>>>` the JSON snapshot also carries (server traffic, RTP quality). */
const NEWER_PBX_FIELDS = [
  'appWebSessions',
  'appConnectedClients',
  'currentLinkedCalls',
  'currentParkedCalls',
  'currentConferenceCalls',
  'rtpAvgJitterMs',
  'rtpAvgPacketLossPercent',
  'rtpAvgRttMs',
  'rtpEstimatedMos',
];

/** Rows of a section whose key is none of the earlier keys (the additional lines). */
function additionalRows(section: string, lines: string[]): string[] {
  const earlier = FIELD_SECTION_KEYS[section] ?? [];
  return lines.filter((r) => r !== '' && !earlier.some((k) => r.startsWith(k)));
}

Then(
  "the spec's newer content of <<<pbx>>> and <<<pbx_database>>> is on additional 'key value' rows whose keys start with no earlier key",
  function (this: PbxWorld) {
    const json = latestJson(this);
    const problems: string[] = [];
    const check = (section: string, fields: string[]) => {
      const extra = additionalRows(section, rows(this, section)).filter((r) => /^[a-z][a-z0-9_]* \S/.test(r));
      for (const field of fields) {
        const expected = asNumber(jsonField(json, field));
        if (expected === undefined || expected === -1) continue;
        if (!extra.some((r) => Number(r.slice(r.indexOf(' ') + 1)) === expected))
          problems.push(`${section}: no additional row gives ${field} = ${expected}`);
      }
    };
    check('pbx', NEWER_PBX_FIELDS);
    check('pbx_database', ['databaseSize', 'cdrSize']);
    problems.push(...keyValueLineProblems(latestAgentText(this)), ...prefixProblems(latestAgentText(this)));
    assert.deepEqual(problems, []);
  },
);

Then(
  'when the operator changes server traffic, RTP quality and the database sizes, every row of an earlier key stays as it was',
  function (this: PbxWorld) {
    return withControl(this, 'change newer content', async (control) => {
      const earlierRows = (text: string) =>
        Object.entries(FIELD_SECTION_KEYS).flatMap(([section, keys]) =>
          (cutSection(text, section) ?? []).filter((r) => keys.some((k) => r.startsWith(k))),
        );
      await control.invalidateSnapshot();
      const before = await fetchAgentText(this);
      await control.patchState({
        traffic: { webSessions: 4111, appConnections: 4127, linkedCalls: 4133 },
        rtp: { avgJitterMs: 41.39, maxRttMs: 4153, estimatedMos: 2.11 },
        database: { databaseSize: 41_616_161, cdrSize: 41_717_171 },
      });
      await control.invalidateSnapshot();
      const after = await fetchAgentText(this);
      assert.notEqual(before, after, 'the agent text did not change');
      assert.ok(additionalRows('pbx', cutSection(after, 'pbx') ?? []).some((r) => r.endsWith(' 4111')));
      assert.deepEqual(earlierRows(after), earlierRows(before));
    });
  },
);

/**
 * Compares the field-way channel reader with the JSON snapshot of the same state: the maximum
 * and the number of active channels (FIELD-CHANNELS-MAX-LINE, read as the field reads it).
 */
function fieldReaderProblems(text: string, json: unknown): string[] {
  const read = fieldChannelReader(text);
  if (!read) return ['the agent text has no section <<<pbx_channels>>>'];
  const max = asNumber(jsonField(json, 'channelsMax'));
  const active = findJsonFields(json, 'channelsActive').find(Array.isArray) as unknown[] | undefined;
  const problems: string[] = [];
  if (read.max !== max) problems.push(`the field reader finds the maximum ${read.max}, the JSON says ${max}`);
  if (!active) problems.push('the JSON snapshot has no list channelsActive');
  else if (read.channels !== active.length)
    problems.push(`the field reader counts ${read.channels} channels, the JSON lists ${active.length}`);
  return problems;
}

async function fetchJson(world: PbxWorld): Promise<unknown> {
  return JSON.parse((await world.httpRequest('GET', '/json', { evidence: false })).body.toString('utf8'));
}

Then(
  'a reader that takes the line ending in "max calls" as the maximum and counts every other line as a channel agrees with the JSON snapshot in every named scenario',
  function (this: PbxWorld) {
    return withControl(this, 'load the named scenarios', async (control) => {
      const scenarios = await control.listScenarios();
      assert.ok(scenarios.length > 0, 'the control plane lists no scenario');
      const problems: string[] = [];
      let read = 0;
      for (const { name } of scenarios) {
        await control.loadScenario({ name });
        await control.invalidateSnapshot();
        const text = await fetchAgentText(this);
        // A scenario without a running endpoint (no licence) serves no agent text to read.
        if (!text.includes('<<<pbx_channels>>>')) continue;
        read += 1;
        for (const problem of fieldReaderProblems(text, await fetchJson(this)))
          problems.push(`${name}: ${problem}`);
      }
      this.evidence({ exchange: 'field channel reader', details: { scenarios: scenarios.length, read } });
      assert.ok(read > 0, 'no scenario served a channels section');
      assert.deepEqual(problems, []);
    });
  },
);

Then(
  'a reader that takes the line ending in "max calls" as the maximum and counts every other line as a channel agrees with the JSON snapshot for generated channel states \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set generated channel states'));
    await assertLiveProperty(
      this,
      'field channel reader',
      fc.asyncProperty(channelStates, async (channels) => {
        await control.patchState({ channels });
        await control.invalidateSnapshot();
        assert.deepEqual(fieldReaderProblems(await fetchAgentText(this), await fetchJson(this)), []);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  '<<<pbx_calls>>> has "last_5min_calls <N>" for the JSON snapshot\'s calls of the last 5 minutes, and no row of <<<pbx_channels>>> carries them',
  function (this: PbxWorld) {
    const expected = asNumber(jsonField(latestJson(this), 'channelsLast5MinCalls'));
    assert.notEqual(expected, undefined, 'the JSON snapshot has no number channelsLast5MinCalls');
    assert.deepEqual(callsApartProblems(latestAgentText(this), expected), []);
  },
);
