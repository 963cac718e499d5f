import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { type PythonValue, toPythonLiteral } from '../../../../simulators/pbx/mkp/python-literal.ts';
import { hasCommand, run } from './system-tools.ts';

const noPython = hasCommand('python3') ? false : 'python3 is not installed';

/** Python reads each literal back (ast.literal_eval) and prints it as JSON, one per line. */
function readBackInPython(literals: string[]): unknown[] {
  const script =
    'import ast, json, sys\n' +
    'for line in sys.stdin.read().split("\\x1e"):\n' +
    '    print(json.dumps(ast.literal_eval(line), ensure_ascii=False))\n';
  const out = run('python3', ['-c', script], literals.join('\u001e')).toString('utf8');
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

test('None, booleans, numbers, strings, lists and dicts are written the Python way', () => {
  assert.equal(toPythonLiteral(null), 'None');
  assert.equal(toPythonLiteral(true), 'True');
  assert.equal(toPythonLiteral(false), 'False');
  assert.equal(toPythonLiteral(42), '42');
  assert.equal(toPythonLiteral("it's a \\ path\n"), "'it\\'s a \\\\ path\\n'");
  assert.equal(toPythonLiteral(['a', 1]), "['a', 1]");
  assert.equal(toPythonLiteral({ b: 1, a: { y: [], x: null } }), "{'a': {'x': None, 'y': []},\n 'b': 1}");
});

test('dict keys are sorted, as pprint writes a manifest', () => {
  const literal = toPythonLiteral({ version: '1', author: 'x', 'version.packaged': '2', files: {} });
  const keys = [...literal.matchAll(/^[{ ]'([^']+)':/gm)].map((m) => m[1]);
  assert.deepEqual(keys, ['author', 'files', 'version', 'version.packaged']);
});

test('Python reads every literal back to the same value', { skip: noPython }, () => {
  const json: fc.Arbitrary<PythonValue> = fc.letrec<{ value: PythonValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.string({ unit: 'binary' }),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  const samples = fc.sample(json, { numRuns: 200, seed: 4711 });
  const back = readBackInPython(samples.map((value) => toPythonLiteral(value)));
  assert.deepEqual(back, JSON.parse(JSON.stringify(samples)));
});

test('a number without a Python literal is refused', () => {
  assert.throws(() => toPythonLiteral(Number.NaN), RangeError);
  assert.throws(() => toPythonLiteral(Number.POSITIVE_INFINITY), RangeError);
});
