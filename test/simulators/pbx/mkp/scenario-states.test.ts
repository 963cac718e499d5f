import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listScenarioFiles } from '../../../../simulators/pbx/load-scenario.ts';
import { renderAgentText } from '../../../../simulators/pbx/snapshot/render/agent-text.ts';
import { scenarioState, snapshotOf } from '../snapshot/render/snapshot-of.ts';
import { runPackageOn } from './agent-plugins.ts';
import { hasCommand } from './system-tools.ts';

const noPython = hasCommand('python3') ? false : 'python3 is not installed';

/** Checkmk's order of service states: OK < WARN < UNKNOWN < CRIT. */
const NAMES = ['OK', 'WARN', 'CRIT', 'UNKNOWN'] as const;
const RANK: Record<number, number> = { 0: 0, 1: 1, 3: 2, 2: 3 };

interface Service {
  name: string;
  state: 0 | 1 | 2 | 3;
}

function services(scenario: string): Service[] {
  const text = renderAgentText(snapshotOf(scenarioState(scenario)));
  return runPackageOn(text).services as Service[];
}

test('every named scenario states the worst state the MKP plug-ins report, in its description and as mkpWorstState', {
  skip: noPython,
}, () => {
  const files = listScenarioFiles();
  assert.ok(files.length >= 12, `only ${files.length} scenarios`);
  const problems: string[] = [];
  for (const file of files) {
    const expected = file.mkpWorstState;
    if (expected === undefined) {
      problems.push(`${file.name}: no mkpWorstState`);
      continue;
    }
    const said = /MKP[^.]*?\b(OK|WARN|UNKNOWN|CRIT)\b/.exec(file.description)?.[1];
    if (said !== expected)
      problems.push(
        `${file.name}: the description says ${said ?? 'nothing'} about the MKP, mkpWorstState ${expected}`,
      );
    const all = services(file.name);
    const worst = all.reduce((w, s) => (RANK[s.state]! > RANK[w]! ? s.state : w), 0 as number);
    const actual = NAMES[worst];
    if (actual !== expected) {
      const culprits = all.filter((s) => s.state === worst).map((s) => s.name);
      problems.push(
        `${file.name}: the plug-ins report ${actual} (${culprits.slice(0, 5).join(', ')}), expected ${expected}`,
      );
    }
  }
  assert.deepEqual(problems, []);
});

test('healthy is healthy: every service the MKP discovers is OK', { skip: noPython }, () => {
  const notOk = services('healthy').filter((s) => s.state !== 0);
  assert.deepEqual(notOk, []);
});
