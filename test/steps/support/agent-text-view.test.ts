import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockOrderProblem, blockSequence, viewAgentText } from '../../../steps/support/agent-text-view.ts';

const TEXT = [
  '<<<monitor_agent>>>',
  'Version: 2.5.0p6',
  '<<<labels:sep(0)>>>',
  '{"a":"linux"}',
  '<<<cpu>>>',
  '1 2 3',
  '<<<pbx>>>',
  'k: v',
  '<<<pbx_java>>>',
  '<<<local:sep(0)>>>',
  '0 "PBX update" - ok',
  '',
].join('\n');

test('MON-TEXT-BLOCK-ORDER: sections group into header, Linux, PBX and local blocks', () => {
  const view = viewAgentText(TEXT);
  assert.deepEqual(view.preamble, []);
  assert.deepEqual(blockSequence(view), ['header', 'linux', 'pbx', 'local']);
  assert.deepEqual(
    view.sections.map((s) => s.header),
    [
      '<<<monitor_agent>>>',
      '<<<labels:sep(0)>>>',
      '<<<cpu>>>',
      '<<<pbx>>>',
      '<<<pbx_java>>>',
      '<<<local:sep(0)>>>',
    ],
  );
});

test('MON-TEXT-BLOCK-ORDER: a Linux section after the PBX sections shows as a second Linux block', () => {
  const view = viewAgentText('<<<monitor_agent>>>\n<<<pbx>>>\n<<<cpu>>>\n<<<local>>>\n');
  assert.deepEqual(blockSequence(view), ['header', 'pbx', 'linux', 'local']);
});

test('reports text before the first section', () => {
  assert.deepEqual(viewAgentText('hello\n<<<monitor_agent>>>\n').preamble, ['hello']);
});

test('MON-TEXT-BLOCK-ORDER: the reason says what is wrong before it lists every section', () => {
  assert.equal(blockOrderProblem(viewAgentText(TEXT)), undefined);
  const many = Array.from({ length: 40 }, (_, i) => `<<<linux_${i}>>>`);
  const swapped = ['<<<monitor_agent>>>', '<<<pbx>>>', ...many, '<<<pbx_java>>>', ''].join('\n');
  const reason = blockOrderProblem(viewAgentText(swapped)) ?? '';
  assert.match(
    reason,
    /^blocks come as header, pbx, linux, pbx, not header, linux, pbx, local: no local block; <<<linux_0>>> \(linux\) after <<<pbx>>> \(pbx\); sections: <<<monitor_agent>>> <<<pbx>>> <<<linux_0>>>/,
  );
  assert.ok(reason.indexOf('no local block') < 120, 'the problem comes first');
});
