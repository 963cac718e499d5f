import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { readLinuxSections } from '../../../../../simulators/pbx/monitoring/render/linux-sections.ts';
import { parseAgentText } from '../../../../../src/agent-text/parse-agent-text.ts';
import { scenarioState } from './snapshot-of.ts';

test('synthetic Linux sections are deterministic and follow the Checkmk agent shapes', () => {
  const state = scenarioState('ram-warning');
  const text = readLinuxSections(state);
  assert.equal(readLinuxSections(state), text);
  const agent = parseAgentText(text);
  assert.deepEqual(agent.problems, []);
  assert.deepEqual(
    agent.sections.map((s) => s.header),
    ['<<<cpu>>>', '<<<mem>>>', '<<<df>>>', '<<<uptime>>>', '<<<lnx_if:sep(58)>>>', '<<<ps_lnx>>>'],
  );
  const mem = agent.sections.find((s) => s.name === 'mem')?.lines ?? [];
  assert.match(mem.find((l) => l.startsWith('MemTotal:')) ?? '', /^MemTotal:\s+8388608 kB$/);
  assert.match(mem.find((l) => l.startsWith('MemAvailable:')) ?? '', /^MemAvailable:\s+2097152 kB$/);
  assert.match(agent.sections[0]?.lines[0] ?? '', /^0\.42 0\.51 0\.48 \d+\/\d+ \d+ \d+$/);
  assert.match(agent.sections[2]?.lines[0] ?? '', /^\S+ \S+ \d+ \d+ \d+ \d+% \/$/);
  assert.equal(agent.sections[3]?.lines[0], '1209600.00 4354560.00');
});

test('synthetic sections whose numbers are unknown (-1) are left out', () => {
  const names = parseAgentText(readLinuxSections(scenarioState('values-unknown'))).sections.map(
    (s) => s.name,
  );
  assert.deepEqual(names, ['lnx_if', 'ps_lnx']);
});

test('host Linux sections read this machine and never throw', { skip: !existsSync('/proc/meminfo') }, () => {
  const state = scenarioState('healthy');
  state.os.linuxSectionsSource = 'host';
  const agent = parseAgentText(readLinuxSections(state));
  assert.deepEqual(agent.problems, []);
  const names = agent.sections.map((s) => s.name);
  for (const name of ['cpu', 'mem', 'df', 'uptime']) assert.ok(names.includes(name), name);
  const mem = agent.sections.find((s) => s.name === 'mem')?.lines ?? [];
  assert.ok(mem.some((l) => /^MemTotal:\s+\d+ kB$/.test(l)));
  assert.match(
    agent.sections.find((s) => s.name === 'cpu')?.lines[0] ?? '',
    /^[\d.]+ [\d.]+ [\d.]+ \d+\/\d+ \d+ \d+$/,
  );
});
