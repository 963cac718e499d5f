import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAgentText, sectionLines } from '../../../src/agent-text/parse-agent-text.ts';

test('splits sections at their headers and reads header options', () => {
  const agent = parseAgentText(
    '<<<check_mk>>>\nVersion: 2.5.0p6\n<<<local:sep(0)>>>\n0 "a" - ok\n<<<df:cached(1700000000,60):sep(32)>>>\n/ 1 2\n',
  );
  assert.deepEqual(
    agent.sections.map((s) => [s.name, s.options, s.lines, s.lineNumber]),
    [
      ['check_mk', {}, ['Version: 2.5.0p6'], 1],
      ['local', { sep: '0' }, ['0 "a" - ok'], 3],
      ['df', { cached: '1700000000,60', sep: '32' }, ['/ 1 2'], 5],
    ],
  );
  assert.deepEqual(agent.problems, []);
});

test('<<<>>> ends a section, lines outside sections are ignored, CRLF is accepted', () => {
  const agent = parseAgentText('stray\r\n<<<a>>>\r\nx\r\n<<<>>>\r\ny\r\n<<<b>>>\r\n\r\nz');
  assert.deepEqual(
    agent.sections.map((s) => [s.name, s.lines]),
    [
      ['a', ['x']],
      ['b', ['', 'z']],
    ],
  );
});

test('a header that breaks the grammar is a problem and its lines belong to no section', () => {
  const agent = parseAgentText('<<<bad name>>>\nx\n<<<ok:sep0>>>\ny\n<<<fine>>>\nz\n');
  assert.deepEqual(
    agent.problems.map((p) => p.lineNumber),
    [1, 3],
  );
  assert.match(agent.problems[0]?.message ?? '', /not \[A-Za-z0-9_\]\+/);
  assert.match(agent.problems[1]?.message ?? '', /:name\(value\)/);
  assert.deepEqual(
    agent.sections.map((s) => [s.name, s.lines]),
    [['fine', ['z']]],
  );
});

test('piggyback blocks are marked and sectionLines skips them', () => {
  const agent = parseAgentText(
    '<<<local>>>\n0 a - x\n<<<<other>>>>\n<<<local>>>\n2 b - y\n<<<<>>>>\n<<<local:sep(0)>>>\n1 c - z\n',
  );
  assert.deepEqual(
    agent.sections.map((s) => s.piggyback),
    [null, 'other', null],
  );
  assert.deepEqual(sectionLines(agent, 'local'), ['0 a - x', '1 c - z']);
  assert.equal(sectionLines(agent, 'absent'), undefined);
});
