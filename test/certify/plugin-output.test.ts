import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crashReason, parseOutput, stateOfExitCode } from '../../src/certify/plugin-output.ts';

const valid = [
  'OK - fine',
  'OK - fine |',
  "OK - fine | 'backup_targets'=2;;;0",
  'OK | a=1 b=2.5 c=-3 d=.5',
  "OK | 'with space'=1 'it''s'=2",
  'OK | time=0.017398s;;;0.000000;10.000000 size=4736B;;;0;',
  'OK | p=12%;80;90 u=U c=42c t=3ms;@10:20;~:5;0;100',
  'OK | load1=0.5;1:;:2;;',
  'OK - first\nlong line one\nlong line two | x=1\ny=2',
  'OK | umläut=1',
];

const invalid: [string, RegExp][] = [
  ['', /no output/],
  [' | x=1', /no text before its perfdata/],
  ['OK | x', /no '='/],
  ['OK | x=', /value '' is not a number/],
  ['OK | x=1,5', /value '1,5'/],
  ['OK | x=1e5', /value '1e5' is in scientific notation/],
  ['OK | x=5 kB', /no '='/],
  ['OK | x=5kb', /unit 'kb'/],
  ['OK | x=1;a', /warn 'a' is not a threshold range/],
  ['OK | x=1;;;z', /min 'z'/],
  ['OK | x=1;;;;;', /more than value/],
  ["OK | 'open=1", /not closed/],
  ["OK | it's=1", /must be quoted/],
  ["OK | 'a=b'=1", /holds '='/],
  ['OK | x=1 x=2', /appears twice/],
  ["OK | ''=1", /empty label/],
];

test('the perfdata grammar accepts what the monitoring-plugin guidelines allow', () => {
  for (const output of valid) assert.deepEqual(parseOutput(`${output}\n`).problems, [], output);
});

test('the perfdata grammar rejects what they do not', () => {
  for (const [output, reason] of invalid) {
    const { problems } = parseOutput(output);
    assert.ok(problems.length > 0, `accepted: ${output}`);
    assert.match(problems.map((p) => p.message).join('; '), reason, output);
  }
});

test('perfdata items are parsed into their fields, quoted labels unquoted', () => {
  const parsed = parseOutput("WARN - x | 'it''s'=3.5ms;1;2;0;10 b=1\nmore\n");
  assert.equal(parsed.firstLine, 'WARN - x');
  assert.deepEqual(parsed.perfdata[0], {
    label: "it's",
    value: '3.5',
    uom: 'ms',
    warn: '1',
    crit: '2',
    min: '0',
    max: '10',
  });
  assert.equal(parsed.perfdata[1]?.label, 'b');
  assert.equal(parsed.text, 'WARN - x \nmore');
});

test('a traceback or a signal is a crash, whatever the exit code', () => {
  const py = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nValueError: bad\n';
  assert.match(crashReason({ signal: null, stdout: '', stderr: py }) ?? '', /Python traceback/);
  const js = 'TypeError: x is undefined\n    at main (/opt/check.js:12:5)\n    at node:internal/main:1:1\n';
  assert.match(crashReason({ signal: null, stdout: js, stderr: '' }) ?? '', /stack trace/);
  assert.match(crashReason({ signal: 'SIGSEGV', stdout: 'OK', stderr: '' }) ?? '', /signal SIGSEGV/);
  assert.equal(
    crashReason({ signal: null, stdout: 'CRITICAL - at 12:00 the backup failed', stderr: '' }),
    null,
  );
});

test('exit codes 0-3 are states, others are not', () => {
  assert.deepEqual([0, 1, 2, 3].map(stateOfExitCode), ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN']);
  assert.equal(stateOfExitCode(4), null);
  assert.equal(stateOfExitCode(127), null);
  assert.equal(stateOfExitCode(null), null);
});
