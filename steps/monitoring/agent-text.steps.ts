/** The agent text's blocks and sections (agent-text.feature); no line grammar is assumed. */
import assert from 'node:assert/strict';
import { type DataTable, Given, Then } from '@cucumber/cucumber';
import { pbxSection, sectionNameOf, sectionText } from '../support/agent-sections.ts';
import { type AgentTextView, blockOf, blockOrderProblem, viewAgentText } from '../support/agent-text-view.ts';
import { latestAgentText, latestAgentView, latestJson, latestXmlRoot } from '../support/latest-snapshots.ts';
import { hasOwnRun, lineMentions, valuesWithoutOwnLine } from '../support/line-matching.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { BACKUP_TARGETS } from '../support/shared-memory-keys.ts';
import { asNumber, findJsonFields, jsonField, textGives, tokensOf } from '../support/snapshot-values.ts';
import { type ControlState, withControl } from '../support/with-control.ts';
import type { PbxWorld } from '../support/world.ts';
import { childrenNamed } from '../support/xml-document.ts';

const LABEL_VALUES = memoryKey<string[]>('labelValues');

/** The section with exactly this header line, as consumers cut it (test-vectors.md). */
function section(world: PbxWorld, header: string) {
  const found = latestAgentView(world).sections.find((s) => s.header === header);
  assert.ok(found, `the agent text has no section ${header}`);
  return found;
}

/** A JSON value that stands for "unknown" (`-1`), which agent text may show in its own way. */
function isSentinel(value: unknown): boolean {
  return asNumber(value) === -1;
}

/** Numeric text compares as a number (`"12"` gives `12 ms`), other text as a substring. */
function comparable(value: unknown): unknown {
  const n = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : undefined;
  return n ?? value;
}

Then('the agent text starts with the section {string}', function (this: PbxWorld, header: string) {
  assert.ok(latestAgentText(this).startsWith(`${header}\n`), `the agent text does not start with ${header}`);
});

Then(
  'its blocks come in the order agent header, standard Linux sections, PBX sections, local checks',
  function (this: PbxWorld) {
    const view = latestAgentView(this);
    assert.deepEqual(view.preamble, [], 'text before the first section');
    assert.deepEqual(view.problems, [], 'header lines that break the section grammar');
    const problem = blockOrderProblem(view);
    assert.equal(problem, undefined, problem);
  },
);

Then(
  'the section {string} has a line with the value {string}',
  function (this: PbxWorld, header: string, value: string) {
    const lines = section(this, header).lines;
    assert.ok(
      lines.some((line) => tokensOf(line).includes(value)),
      `no line of ${header} carries the value ${value}:\n${lines.join('\n')}`,
    );
  },
);

Then(
  'the section {string} has the line {string}',
  function (this: PbxWorld, header: string, expected: string) {
    const lines = section(this, header).lines;
    assert.ok(lines.includes(expected), `${header} has no line "${expected}":\n${lines.join('\n')}`);
  },
);

Then(
  'the section {string} has a line with the value of the JSON field {string}',
  function (this: PbxWorld, header: string, field: string) {
    const value = jsonField(latestJson(this), field);
    assert.ok(typeof value === 'string' && value !== '', `the JSON snapshot has no text field "${field}"`);
    const lines = section(this, header).lines;
    assert.ok(
      lines.some((line) => tokensOf(line).includes(value)),
      `no line of ${header} carries ${field} = ${value}:\n${lines.join('\n')}`,
    );
  },
);

Then('the agent header has the section {string}', function (this: PbxWorld, header: string) {
  const view = latestAgentView(this);
  const index = view.sections.findIndex((s) => s.header === header);
  assert.ok(index >= 0, `no section ${header}`);
  assert.ok(
    view.sections.slice(0, index + 1).every((s) => blockOf(s) === 'header'),
    `${header} is not part of the agent header`,
  );
});

Then(
  'each line of the section {string} is a JSON object of string values',
  function (this: PbxWorld, header: string) {
    const lines = section(this, header).lines.filter((l) => l !== '');
    assert.ok(lines.length > 0, `${header} is empty`);
    const labels: string[] = [];
    for (const line of lines) {
      const value: unknown = JSON.parse(line);
      assert.ok(
        value !== null && typeof value === 'object' && !Array.isArray(value),
        `not a JSON object: ${line}`,
      );
      for (const [key, v] of Object.entries(value)) {
        assert.equal(typeof v, 'string', `label ${key} is not a string: ${line}`);
        labels.push(v as string);
      }
    }
    this.memory.set(LABEL_VALUES, labels);
  },
);

Then('the labels include the values {names}', function (this: PbxWorld, values: string[]) {
  const labels = this.memory.require(LABEL_VALUES);
  const missing = values.filter((v) => !labels.includes(v));
  assert.deepEqual(missing, [], `label values ${JSON.stringify(labels)}`);
});

Then(
  'at least one standard Linux section follows the agent header, before the PBX sections',
  function (this: PbxWorld) {
    const view = latestAgentView(this);
    const blocks = view.sections.map(blockOf);
    const firstPbx = blocks.indexOf('pbx');
    const lastHeader = blocks.lastIndexOf('header');
    const between = blocks.slice(lastHeader + 1, firstPbx === -1 ? undefined : firstPbx);
    assert.ok(
      between.length > 0 && between.every((b) => b === 'linux'),
      `sections: ${view.sections.map((s) => s.header).join(' ')}`,
    );
  },
);

Then('the agent text has no standard Linux sections', function (this: PbxWorld) {
  const linux = latestAgentView(this).sections.filter((s) => blockOf(s) === 'linux');
  assert.deepEqual(
    linux.map((s) => s.header),
    [],
  );
});

Then(
  'it still has the agent header, every PBX section and the local checks it had before',
  function (this: PbxWorld) {
    const before = this.replies.find((r) => r.body.toString('utf8').startsWith('<<<monitor_agent>>>'));
    assert.ok(before, 'no earlier agent text');
    const others = (view: AgentTextView) => view.sections.filter((s) => blockOf(s) !== 'linux');
    const earlier = others(viewAgentText(before.body.toString('utf8')));
    const now = others(latestAgentView(this));
    assert.deepEqual(
      now.map((s) => s.header),
      earlier.map((s) => s.header),
      'the sections other than the Linux ones changed',
    );
    const local = (sections: typeof now) => sections.find((s) => s.name === 'local')?.lines.length ?? 0;
    assert.equal(local(now), local(earlier), 'the local checks changed');
    assert.ok(local(now) > 0, 'no local checks');
  },
);

Then('the agent text has the section {string}', function (this: PbxWorld, header: string) {
  assert.ok(
    latestAgentView(this).sections.some((s) => s.header === header),
    `no section ${header}`,
  );
});

/**
 * Each field's JSON value must be on a line of the section, and fields must not share a line: the
 * spec's PBX sections are key/value lines, one value each, so two fields with the same value need
 * two lines (`valuesWithoutOwnLine`). Scenarios make the values pairwise distinct first where they
 * can, so a line cannot stand in for a field it does not carry.
 */
Then(
  'the section {string} gives the values of the JSON fields',
  function (this: PbxWorld, header: string, table: DataTable) {
    const json = latestJson(this);
    const lines = section(this, header).lines;
    const problems: string[] = [];
    const wanted: { label: string; values: unknown[] }[] = [];
    for (const field of table
      .raw()
      .flat()
      .filter((f) => f !== '')) {
      const values = findJsonFields(json, field);
      if (values.length === 0) problems.push(`JSON has no ${field}`);
      else if (!isSentinel(values[0]))
        wanted.push({ label: `${field} = ${JSON.stringify(values[0])}`, values: [comparable(values[0])] });
    }
    problems.push(...valuesWithoutOwnLine(lines, wanted));
    assert.deepEqual(problems, [], `${header} does not give each on a line of its own:\n${lines.join('\n')}`);
  },
);

/**
 * Each field's JSON value must be a numeric token of the section, and fields must not share a
 * token: two fields with equal values need two occurrences. For `<<<pbx_channels>>>`, whose field
 * shape `<N> max calls` carries the maximum without a key.
 */
Then(
  'the section {string} gives the values of the JSON fields, each as a number of its own',
  function (this: PbxWorld, header: string, table: DataTable) {
    const json = latestJson(this);
    const lines = section(this, header).lines;
    const tokens = lines.flatMap((line) =>
      tokensOf(line)
        .map(Number)
        .filter((n) => Number.isFinite(n)),
    );
    const problems: string[] = [];
    for (const field of table
      .raw()
      .flat()
      .filter((f) => f !== '')) {
      const value = asNumber(findJsonFields(json, field)[0]);
      if (value === undefined) problems.push(`JSON has no number ${field}`);
      else if (value !== -1) {
        const at = tokens.indexOf(value);
        if (at < 0) problems.push(`${field} = ${value} is not a number of its own in the section`);
        else tokens.splice(at, 1);
      }
    }
    assert.deepEqual(problems, [], `${header}:\n${lines.join('\n')}`);
  },
);

Then(
  'the section {string} gives the value of the JSON field {string} or {string}',
  function (this: PbxWorld, header: string, first: string, second: string) {
    const json = latestJson(this);
    const lines = section(this, header).lines;
    const given = [first, second].some((f) => {
      const value = jsonField(json, f);
      return (
        value !== undefined && !isSentinel(value) && lines.some((line) => textGives(line, comparable(value)))
      );
    });
    assert.ok(given, `${header} gives neither ${first} nor ${second}`);
  },
);

/**
 * Pairwise-distinct values for the fields a PBX section gives, set through the control plane, so
 * that a section that drops one field cannot pass on another field's equal value. The numbers are
 * unusual on purpose: no other line of the section is likely to carry them.
 */
const DISTINCT_VALUES: Record<string, (state: ControlState) => Record<string, unknown>> = {
  pbx: () => ({
    sip: { knownPhones: 3407, onlinePhones: 3319, ipChangedPhones: 293 },
    traffic: {
      webSessions: 5309,
      appConnections: 6101,
      linkedCalls: 3701,
      parkedCalls: 709,
      conferenceCalls: 1103,
    },
    rtp: {
      avgJitterMs: 12.34,
      medianJitterMs: 11.29,
      avgPacketLossPercent: 1.37,
      avgRttMs: 43.21,
      estimatedMos: 4.13,
      medianMos: 4.07,
    },
    licence: { maxUsers: 4421 },
  }),
  pbx_db_connections: () => ({
    database: {
      connections: {
        total: 9311,
        active: 7193,
        idle: 1907,
        idleInTx: 211,
        max: 9973,
        byApp: [
          { name: 'pbx-core', count: 4177 },
          { name: 'management', count: 4253 },
          { name: 'monitoring', count: 4349 },
          { name: 'web', count: 4451 },
        ],
        byDb: [
          { name: 'pbx', count: 4513 },
          { name: 'cdr', count: 4621 },
        ],
      },
    },
  }),
  pbx_java: () => ({
    java: {
      heapUsed: 734_003_211,
      heapMax: 1_610_612_741,
      nonHeapUsed: 201_326_603,
      maxMemory: 2_147_483_659,
    },
  }),
  pbx_modules: (state) => ({
    modules: state.modules.map((m, i) => ({
      ...m,
      version: `${31 + i}.${7 * i + 3}.${11 * i + 5}`,
      vendor: `Vendor No ${i + 1} AG`,
    })),
  }),
};

Given(
  'the values the section {string} gives are made pairwise distinct where the target has a control plane',
  async function (this: PbxWorld, header: string) {
    const overlay = DISTINCT_VALUES[sectionNameOf(header)];
    assert.ok(overlay, `no distinct values are defined for ${header}`);
    const control = this.control;
    if (!control) {
      // Not a reason to skip: the per-line checks still hold the target's own values to one line each.
      this.evidence({
        exchange: `distinct values for ${header}`,
        details: {
          skipped: this.noControlReason('set distinct values'),
          compared: "the target's own values",
        },
      });
      return;
    }
    const change = overlay(await control.getState());
    await control.patchState(change);
    await control.invalidateSnapshot();
    this.evidence({ exchange: `distinct values for ${header}`, details: change });
  },
);

/** The scalar values inside a list element whose shape the spec leaves open (MON-UNSPEC-JSON-PATHS). */
function scalarLeaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(scalarLeaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(scalarLeaves);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [value] : [];
}

Then(
  'every element of the JSON list {string} has its own line with {string} in the section {string}',
  function (this: PbxWorld, name: string, label: string, header: string) {
    const items = findJsonFields(latestJson(this), name).find(Array.isArray) as unknown[] | undefined;
    assert.ok(items, `the JSON snapshot has no list ${name}`);
    const lines = section(this, header).lines;
    const wanted = items.map((item) => ({
      label: JSON.stringify(item),
      values: scalarLeaves(item)
        .filter((v) => !isSentinel(v))
        .map(comparable),
    }));
    const missing = valuesWithoutOwnLine(lines, wanted, (line) => lineMentions(line, label));
    assert.deepEqual(
      missing,
      [],
      `elements of ${name} without a "${label}" line of their own in ${header}:\n${lines.join('\n')}`,
    );
  },
);

/** The settings of `<<<pbx>>>` that no other format carries, and how the operator changes each. */
const PBX_SETTING_CHANGES: Record<
  string,
  (s: ControlState) => { overlay: Record<string, unknown>; value?: number }
> = {
  'the password check': (s) => ({ overlay: { security: { passwordCheck: !s.security.passwordCheck } } }),
  'the attack detection': (s) => ({
    overlay: { security: { attackDetection: !s.security.attackDetection } },
  }),
  'the maximum jitter': () => ({ overlay: { rtp: { maxJitterMs: 87.65 } }, value: 87.65 }),
  'the median packet loss': () => ({ overlay: { rtp: { medianPacketLossPercent: 2.71 } }, value: 2.71 }),
  'the maximum packet loss': () => ({ overlay: { rtp: { maxPacketLossPercent: 7.43 } }, value: 7.43 }),
  'the median round-trip time': () => ({ overlay: { rtp: { medianRttMs: 77.3 } }, value: 77.3 }),
  'the maximum round-trip time': () => ({ overlay: { rtp: { maxRttMs: 913.5 } }, value: 913.5 }),
  'the worst MOS': () => ({ overlay: { rtp: { minMos: 2.07 } }, value: 2.07 }),
};

Then(
  'the section {string} follows changes the operator makes to',
  function (this: PbxWorld, header: string, table: DataTable) {
    const name = sectionNameOf(header);
    return withControl(this, `change settings shown in ${header}`, async (control) => {
      const problems: string[] = [];
      for (const setting of table
        .raw()
        .flat()
        .filter((s) => s !== '')) {
        const change = PBX_SETTING_CHANGES[setting];
        assert.ok(change, `no change defined for "${setting}"`);
        await control.invalidateSnapshot();
        const before = sectionText(
          viewAgentText((await this.httpRequest('GET', '/checkmk')).body.toString('utf8')),
          name,
        );
        const { overlay, value } = change(await control.getState());
        await control.patchState(overlay);
        await control.invalidateSnapshot();
        const after = sectionText(
          viewAgentText((await this.httpRequest('GET', '/checkmk')).body.toString('utf8')),
          name,
        );
        assert.ok(before !== undefined && after !== undefined, `no section ${header}`);
        if (before === after) problems.push(`${setting}: the section did not change`);
        else if (value !== undefined && !textGives(after, value))
          problems.push(`${setting}: the section does not give ${value}`);
      }
      assert.deepEqual(problems, [], `${header} does not follow every change`);
    });
  },
);

Then(
  'the section {string} has a line that mentions RAID with the status {string}',
  function (this: PbxWorld, header: string, status: string) {
    const lines = section(this, header).lines;
    assert.ok(
      lines.some((l) => /raid/i.test(l) && l.includes(status)),
      `no line of ${header} mentions RAID with "${status}":\n${lines.join('\n')}`,
    );
  },
);

Then('no line of the section {string} mentions RAID', function (this: PbxWorld, header: string) {
  const lines = section(this, header).lines.filter((l) => /raid/i.test(l));
  assert.deepEqual(lines, [], `${header} mentions RAID`);
});

/** Whether `line` gives the epoch-ms time `time`: as epoch ms, epoch s, or an ISO date-time. */
function lineGivesTime(line: string, time: number): boolean {
  if (textGives(line, time) || textGives(line, Math.floor(time / 1000))) return true;
  const iso =
    line.match(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g) ?? [];
  return iso.some((text) => Math.abs(Date.parse(text) - time) < 1000);
}

Then(
  'for each backup target the section {string} has a line with its location, its time and its status message',
  function (this: PbxWorld, header: string) {
    const targets = this.memory.get(BACKUP_TARGETS);
    assert.ok(targets, 'no backup targets were set');
    const lines = section(this, header).lines;
    for (const t of targets) {
      const ok = lines.some(
        (l) =>
          l.includes(t.location) &&
          lineGivesTime(l, t.time) &&
          (l.includes(t.message) || l.includes(t.result)),
      );
      assert.ok(
        ok,
        `no line of ${header} gives ${t.location}, ${t.time} and "${t.message}" or "${t.result}":\n${lines.join('\n')}`,
      );
    }
  },
);

Then(
  'the section {string} gives the active channels of the JSON field {string}',
  function (this: PbxWorld, header: string, field: string) {
    const channels = findJsonFields(latestJson(this), field).find(Array.isArray) as unknown[] | undefined;
    assert.ok(channels, `the JSON snapshot has no list ${field}`);
    const text = section(this, header).lines.join('\n');
    const all = channels.every((c) => typeof c === 'string' && text.includes(c));
    assert.ok(
      all || textGives(text, channels.length),
      `${header} gives neither the active channels nor their number`,
    );
  },
);

Then(
  'for each element of the JSON list {string} the section {string} has a line with its {names}',
  function (this: PbxWorld, name: string, header: string, members: string[]) {
    const items = findJsonFields(latestJson(this), name).find(Array.isArray) as
      | Record<string, unknown>[]
      | undefined;
    assert.ok(items && items.length > 0, `the JSON snapshot has no elements in ${name}`);
    const lines = section(this, header).lines;
    for (const item of items) {
      const wanted = members.map((m) => item[m]).filter((v) => !isSentinel(v));
      const ok = lines.some((l) => wanted.every((v) => textGives(l, comparable(v))));
      assert.ok(ok, `no line of ${header} gives ${JSON.stringify(item)}:\n${lines.join('\n')}`);
    }
  },
);

Then(
  "the line of each trunk in the section {string} changes when the operator flips that trunk's registration",
  function (this: PbxWorld, header: string) {
    const name = sectionNameOf(header);
    return withControl(this, 'flip trunk registrations', async (control) => {
      const original = (await control.getState()).sipProviders;
      assert.ok(original.length > 0, 'the PBX has no SIP trunk');
      const lineOf = async (uri: string) => {
        await control.invalidateSnapshot();
        const view = viewAgentText((await this.httpRequest('GET', '/checkmk')).body.toString('utf8'));
        return (pbxSection(view, name)?.lines ?? []).filter((l) => l.includes(uri)).join('\n');
      };
      for (const [i, trunk] of original.entries()) {
        const before = await lineOf(trunk.uri);
        const flipped = original.map((t, j) => (j === i ? { ...t, registered: !t.registered } : t));
        await control.patchState({ sipProviders: flipped });
        const after = await lineOf(trunk.uri);
        assert.ok(
          before !== '' && before !== after,
          `the line of ${trunk.uri} did not follow its registration:\n${before}`,
        );
        await control.patchState({ sipProviders: original });
      }
    });
  },
);

/**
 * Per module: its name, version, vendor and instance names must all come from one run of
 * consecutive lines that names no other module (`hasOwnRun`), so a module's values cannot be
 * borrowed from a neighbour that shares its version or vendor.
 */
Then(
  'for each {string} of the XML snapshot the section {string} gives its name, version, vendor and instance names',
  function (this: PbxWorld, child: string, header: string) {
    const modules = childrenNamed(latestXmlRoot(this), 'modules').flatMap((m) => childrenNamed(m, child));
    assert.ok(modules.length > 0, 'the XML snapshot lists no modules');
    const lines = section(this, header).lines;
    const names = modules.map((m) => m.attributes['name'] ?? '');
    const problems: string[] = [];
    modules.forEach((m, i) => {
      const wanted = [
        m.attributes['name'],
        m.attributes['version'],
        m.attributes['vendor'],
        ...childrenNamed(m, 'instance').map((inst) => inst.text.trim() || inst.attributes['name']),
      ];
      if (wanted.some((w) => w === undefined || w === '')) {
        problems.push(`module ${names[i]} lacks a value in the XML snapshot`);
        return;
      }
      const others = names.filter((n, j) => j !== i && n !== '' && n !== names[i]);
      if (!lines.some((line) => lineMentions(line, names[i]!)))
        problems.push(`module ${names[i]}: no line names it`);
      else if (!hasOwnRun(lines, wanted, others))
        problems.push(`module ${names[i]}: ${JSON.stringify(wanted)} do not all come from its own lines`);
    });
    assert.deepEqual(problems, [], `${header} does not give every module:\n${lines.join('\n')}`);
  },
);

Then(
  'the section {string} has lines with {names}',
  function (this: PbxWorld, header: string, texts: string[]) {
    const lines = section(this, header).lines;
    const missing = texts.filter((t) => !lines.some((l) => l.includes(t)));
    assert.deepEqual(missing, [], `${header} lacks lines`);
  },
);
