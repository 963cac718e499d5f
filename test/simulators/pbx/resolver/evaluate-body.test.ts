import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { evaluateBody } from '../../../../simulators/pbx/resolver/evaluate-body.ts';
import { composeName, fillMapping } from '../../../../simulators/pbx/resolver/field-mappings.ts';
import type { FieldMappings, ResolverParser } from '../../../../simulators/pbx/state/provider-config.ts';

const LAST: FieldMappings = { firstName: '', lastName: '{0}', company: '' };
const evaluate = (body: string, parsers: ResolverParser[], mappings = LAST, countUpTo = 1) =>
  evaluateBody(body, parsers, mappings, { matcherMs: 1000, countUpTo });

test('RESOLVER-MATCHER-DOTALL: . matches line breaks', async () => {
  const e = await evaluate('<name>Anna\nMüller</name>', [{ matcher: '<name>(.*)</name>', formatter: '\\1' }]);
  assert.equal(e.variables[0], 'Anna\nMüller');
});

test('RESOLVER-MATCHER-MULTILINE: ^ and $ match at every line', async () => {
  const e = await evaluate('id=1\nname=Anna\ncity=Berlin', [{ matcher: '^name=(.*?)$', formatter: '\\1' }]);
  assert.equal(e.variables[0], 'Anna');
});

test('RESOLVER-EVAL-PARSER-ORDER RESOLVER-EVAL-FIELD-MAPPINGS: variables follow parser order and mappings compose the name', async () => {
  const body = '{"first":"Anna","last":"Müller","company":"ACME &amp; Co"}';
  const parsers = ['first', 'last', 'company'].map((k) => ({ matcher: `"${k}":"(.*?)"`, formatter: '\\1' }));
  const e = await evaluate(body, parsers, { firstName: '{0}', lastName: '{1}', company: '{2}' });
  assert.deepEqual(e.variables, ['Anna', 'Müller', 'ACME & Co']);
  assert.deepEqual(e.name, {
    firstName: 'Anna',
    lastName: 'Müller',
    company: 'ACME & Co',
    displayName: 'Anna Müller (ACME & Co)',
  });
  assert.equal(
    composeName({ firstName: '', lastName: '{1} ({2})', company: '' }, ['x', 'Müller', '']).lastName,
    'Müller',
  );
  assert.equal(fillMapping('{0} ({1})', ['A', 'B']), 'A (B)');
});

test('RESOLVER-RESOLVED RESOLVER-NO-RESULT: one non-empty parser result resolves; all empty does not', async () => {
  assert.equal(
    (await evaluate('{"name":"  "}', [{ matcher: '"name":"(.*?)"', formatter: '\\1' }])).resolved,
    false,
  );
  const e = await evaluate('{"x":"1"}', [
    { matcher: '"name":"(.*?)"', formatter: '\\1' },
    { matcher: '"x":"(.*?)"', formatter: '\\1', optionUi: true },
  ]);
  assert.equal(e.resolved, true);
  assert.deepEqual(e.uiValues, { '1': '1' });
});

test('a matcher JavaScript cannot run yields nothing and says why; a runaway one is stopped', async () => {
  const e = await evaluate('aaaa', [{ matcher: '(a++)', formatter: '\\1' }]);
  assert.equal(e.resolved, false);
  assert.match(e.hits[0]?.error ?? '', /possessive/);
  const slow = await evaluateBody(`${'a'.repeat(40)}!`, [{ matcher: '(a+)+$', formatter: '\\1' }], LAST, {
    matcherMs: 50,
  });
  assert.match(slow.hits[0]?.error ?? '', /longer than 50 ms/);
  const bad = await evaluate('x', [{ matcher: '(', formatter: '\\1' }]);
  assert.match(bad.hits[0]?.error ?? '', /cannot compile/);
});

test('a leading (?i) is applied, \\Q…\\E and \\A are translated so they match as in Java', async () => {
  const e = await evaluate('NAME=Anna.x', [
    { matcher: '(?i)name=(\\w+)', formatter: '\\1' },
    { matcher: '\\Qa.x\\E', formatter: '\\0' },
    { matcher: '\\ANAME', formatter: '\\0' },
  ]);
  assert.deepEqual(e.variables, ['Anna', 'a.x', 'NAME']);
});

test('RESOLVER-EVAL-FIRST-MATCH: of several records only the first counts', async () => {
  const record = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,15}[A-Za-z]$/);
  await fc.assert(
    fc.asyncProperty(
      fc.array(record, { minLength: 1, maxLength: 20 }),
      fc.constantFrom('json', 'xml', 'lines'),
      async (names, shape) => {
        const body =
          shape === 'json'
            ? `[${names.map((n) => `{"name":"${n}"}`).join(',')}]`
            : shape === 'xml'
              ? `<r>${names.map((n) => `<name>${n}</name>`).join('\n')}</r>`
              : names.map((n) => `name=${n}`).join('\n');
        const matcher =
          shape === 'json' ? '"name":"(.*?)"' : shape === 'xml' ? '<name>(.*?)</name>' : '^name=(.*?)$';
        const e = await evaluate(body, [{ matcher, formatter: '\\1' }], LAST, 100);
        assert.equal(e.variables[0], names[0]?.trim());
        assert.equal(e.hits[0]?.matchCount, names.length);
      },
    ),
  );
});

test('RESOLVER-RESPONSE-AS-TEXT: a JSON body is matched as raw text, not parsed', async () => {
  const e = await evaluate('{"name": "Anna",\n "nested": {"name":"Inner"}}', [
    { matcher: '"name": "(.*?)"', formatter: '\\1' },
  ]);
  assert.equal(e.variables[0], 'Anna');
  const escaped = await evaluate('{"name":"A\\u00e4"}', [{ matcher: '"name":"(.*?)"', formatter: '\\1' }]);
  assert.equal(escaped.variables[0], 'A\\u00e4');
});
