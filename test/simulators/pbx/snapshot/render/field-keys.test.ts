import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkStateOverlay } from '../../../../../simulators/pbx/control/state-overlay-check.ts';
import { listScenarios } from '../../../../../simulators/pbx/load-scenario.ts';
import { agentExtensionProblems } from '../../../../../simulators/pbx/snapshot/render/agent-extensions.ts';
import { renderAgentText } from '../../../../../simulators/pbx/snapshot/render/agent-text.ts';
import {
  FIELD_KEYS,
  NEWER_KEYS,
  sectionKeys,
} from '../../../../../simulators/pbx/snapshot/render/pbx-section-keys.ts';
import { defaultState } from '../../../../../simulators/pbx/state/default-state.ts';
import { KEY_VALUE_SECTIONS } from '../../../../../simulators/pbx/state/types.ts';
import { deepMerge } from '../../../../../simulators/shared/deep-merge.ts';
import { ControlInputError } from '../../../../../simulators/shared/http/control-input-error.ts';
import { parseAgentText, sectionLines } from '../../../../../src/agent-text/parse-agent-text.ts';
import { parsePbxSections } from '../../../../../src/agent-text/parse-pbx-sections.ts';
import { scenarioState, snapshotOf } from './snapshot-of.ts';

function prefixPairs(keys: readonly string[]): string[] {
  const unique = [...new Set(keys)];
  return unique.flatMap((a) => unique.filter((b) => a !== b && b.startsWith(a)).map((b) => `${a} < ${b}`));
}

test('FIELD-KEY-PREFIX-FREE, FIELD-ADDITIVE-ONLY: no key of a section is a prefix of another, and no newer key starts with an earlier one', () => {
  for (const section of KEY_VALUE_SECTIONS) {
    assert.deepEqual(prefixPairs(sectionKeys(section)), [], section);
    const earlier = (FIELD_KEYS as Record<string, readonly string[]>)[section] ?? [];
    for (const key of NEWER_KEYS[section]) {
      assert.ok(!earlier.some((old) => key.startsWith(old) || old.startsWith(key)), `${section}: ${key}`);
      assert.match(key, /^[a-z][a-z0-9_]*$/);
    }
  }
});

test('FIELD-KEY-VALUE-LINES: every line of the key/value sections of every scenario is `key value` with a known key (besides the RAID table)', () => {
  for (const { name } of listScenarios()) {
    const state = scenarioState(name);
    const text = renderAgentText(snapshotOf(state));
    const data = parsePbxSections(text);
    assert.deepEqual(data.problems, [], name);
    const agent = parseAgentText(text);
    for (const section of KEY_VALUE_SECTIONS) {
      const table = section === 'pbx' ? new Set(data.pbx?.raidTable ?? []) : new Set<string>();
      const extra = state.agentExtensions.extraLines[section].map((l) => l.slice(0, l.indexOf(' ')));
      const keys = new Set([...sectionKeys(section), ...extra]);
      for (const line of sectionLines(agent, section) ?? []) {
        if (line === '' || table.has(line)) continue;
        const key = line.slice(0, line.indexOf(' '));
        assert.ok(keys.has(key), `${name} ${section}: ${JSON.stringify(line)}`);
        assert.ok(!key.endsWith(':'));
      }
    }
  }
});

test('FIELD-PEERS-SUMMARY: the summary of every scenario agrees with its listing', () => {
  for (const { name } of listScenarios()) {
    const peers = parsePbxSections(renderAgentText(snapshotOf(scenarioState(name)))).peers;
    assert.ok(peers?.summary, name);
    const s = peers.summary;
    assert.equal(s.total, peers.peers.length, name);
    assert.equal(
      s.monitoredOnline + s.monitoredOffline + s.unmonitoredOnline + s.unmonitoredOffline,
      s.total,
    );
    assert.equal(s.monitoredOnline, peers.peers.filter((p) => p.monitored && p.online).length, name);
    assert.equal(s.monitoredOffline, peers.peers.filter((p) => p.monitored && !p.online).length, name);
  }
});

test('agentExtensions: extra sections and extra key value lines are rendered; the section keys stay prefix-free', () => {
  const state = scenarioState('healthy');
  state.agentExtensions.sections = [{ name: 'vendor_inventory', lines: ['rack 4', 'slot 12'] }];
  state.agentExtensions.extraLines.pbx = ['vendor_cluster_role primary'];
  state.agentExtensions.extraLines.pbx_java = ['vendor_gc_pauses 17'];
  const text = renderAgentText(snapshotOf(state));
  const agent = parseAgentText(text);
  const names = agent.sections.map((s) => s.name);
  assert.ok(names.indexOf('vendor_inventory') < names.indexOf('pbx'));
  assert.ok(names.indexOf('vendor_inventory') > names.indexOf('labels'));
  assert.deepEqual(sectionLines(agent, 'vendor_inventory'), ['rack 4', 'slot 12']);
  assert.equal(sectionLines(agent, 'pbx')?.at(-1), 'vendor_cluster_role primary');
  assert.equal(sectionLines(agent, 'pbx_java')?.at(-1), 'vendor_gc_pauses 17');
  assert.deepEqual(parsePbxSections(text).problems, []);
});

test('agentExtensions: a key that clashes by prefix, a colon line, a line break or a reserved section name is refused', () => {
  const current = defaultState(0);
  const refuse = (overlay: unknown, pattern: RegExp) =>
    assert.throws(
      () => checkStateOverlay(current, overlay),
      (e: Error) => e instanceof ControlInputError && pattern.test(e.message),
    );
  checkStateOverlay(current, { agentExtensions: { extraLines: { pbx: ['vendor_x 1'] } } });
  checkStateOverlay(current, { agentExtensions: { sections: [{ name: 'vendor', lines: ['a b'] }] } });
  refuse(
    { agentExtensions: { extraLines: { pbx: ['known_phones_extra 1'] } } },
    /clashes with the key 'known_phones'/,
  );
  refuse({ agentExtensions: { extraLines: { pbx_java: ['java 1'] } } }, /clashes/);
  refuse({ agentExtensions: { extraLines: { pbx_accounts: ['vendor_x: 1'] } } }, /not a 'key value' line/);
  refuse({ agentExtensions: { extraLines: { pbx: ['vendor_a 1', 'vendor_ab 2'] } } }, /vendor_a/);
  refuse({ agentExtensions: { sections: [{ name: 'pbx_peers', lines: [] }] } }, /agent's own sections/);
  refuse({ agentExtensions: { sections: [{ name: 'x', lines: ['a\nb'] }] } }, /line break/);
  refuse({ agentExtensions: { sections: [{ name: 'x', lines: ['<<<y>>>'] }] } }, /<<</);
  assert.throws(() =>
    checkStateOverlay(current, { agentExtensions: { extraLines: { pbx_peers: ['a 1'] } } }),
  );
  // The renderer drops what the TypeScript API let through unchecked.
  const state = deepMerge(defaultState(0), {
    agentExtensions: { extraLines: { pbx: ['known_phones_x 1', 'ok_key 2'] } },
  });
  assert.equal(agentExtensionProblems(state.agentExtensions).length, 1);
  const lines = sectionLines(parseAgentText(renderAgentText(snapshotOf(state))), 'pbx') ?? [];
  assert.equal(lines.at(-1), 'ok_key 2');
  assert.ok(!lines.includes('known_phones_x 1'));
});

test('FIELD-BARE-INTEGERS: -1 stays a bare integer and non-integers in counts are rounded', () => {
  const state = scenarioState('values-unknown');
  state.java.heapUsed = 1_825_361_100.8;
  const lines = sectionLines(parseAgentText(renderAgentText(snapshotOf(state))), 'pbx_accounts') ?? [];
  assert.deepEqual(lines, [
    'total_accounts -1/0',
    'admin_accounts -1',
    'active_accounts -1',
    'available_accounts -1',
    'ringing_accounts -1',
    'unavailable_accounts -1',
  ]);
  const java = sectionLines(parseAgentText(renderAgentText(snapshotOf(state))), 'pbx_java') ?? [];
  assert.ok(java.includes('java_heap_memory 1825361101/-1'), java.join('\n'));
});

test('agentExtensions: extra sections go with the Linux sections when the agent script fails; extra lines stay', () => {
  const state = scenarioState('healthy-extended');
  const failed = parseAgentText(renderAgentText(snapshotOf(state, { linuxScriptFails: true })));
  assert.equal(sectionLines(failed, 'vendor_inventory'), undefined);
  assert.ok(sectionLines(failed, 'pbx')?.includes('vendor_cluster_role primary'));
  const ok = parseAgentText(renderAgentText(snapshotOf(state)));
  assert.deepEqual(sectionLines(ok, 'vendor_inventory'), ['rack 4', 'slot 12', 'asset_tag PBX-0042']);
});
