import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { readLinuxSections } from '../../../../../simulators/pbx/snapshot/render/linux-sections.ts';
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

// Issue 12, defect 6: the ps section published the host's process table (command lines with ports
// and possibly secrets). The Linux sections come from the PBX state unless host data is opted in.
test('the default state renders the Linux sections from the PBX state, never the host', async () => {
  const { defaultState } = await import('../../../../../simulators/pbx/state/default-state.ts');
  const state = defaultState(Date.UTC(2026, 9, 1));
  assert.equal(state.os.linuxSectionsSource, 'synthetic');
  const text = readLinuxSections(state);
  assert.equal(readLinuxSections(defaultState(Date.UTC(2026, 9, 2))), text, 'deterministic');
  for (const arg of process.argv) assert.ok(!text.includes(arg), `host command line ${arg}`);
});

test('ps_lnx follows the PBX state: the Java heap and the Linux uptime show in the PBX process', () => {
  const state = scenarioState('healthy');
  state.os.linuxSectionsSource = 'synthetic';
  const ps = (s: typeof state) =>
    parseAgentText(readLinuxSections(s)).sections.find((x) => x.name === 'ps_lnx')?.lines ?? [];
  const before = ps(state);
  const java = before.find((l) => l.includes('java'));
  assert.ok(java, before.join('\n'));
  state.java.heapUsed += 100 * 1024 * 1024;
  state.appliance.uptimeLinuxMs += 86_400_000;
  const after = ps(state).find((l) => l.includes('java'));
  assert.notEqual(after, java);
  assert.match(after ?? '', /^- pbx \d+ \d+ \d\d:\d\d:\d\d \d+-\d\d:\d\d:\d\d \d+ \/usr\/bin\/java /);
});

test('host mode (documented opt-in) still never publishes the host process table', {
  skip: !existsSync('/proc/meminfo'),
}, () => {
  const state = scenarioState('healthy');
  state.os.linuxSectionsSource = 'host';
  const text = readLinuxSections(state);
  for (const arg of process.argv) assert.ok(!text.includes(arg), `host command line ${arg}`);
});
