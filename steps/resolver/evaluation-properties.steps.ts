/**
 * Live properties of the evaluation of an answer: body as text, matcher modes, parser order, first
 * match, formatter groups, HTML decoding, trimming, and the outcome by status
 * (RESOLVER-RESPONSE-AS-TEXT, RESOLVER-MATCHER-DOTALL, RESOLVER-MATCHER-MULTILINE,
 * RESOLVER-EVAL-PARSER-ORDER, RESOLVER-EVAL-FIRST-MATCH, RESOLVER-EVAL-GROUPS,
 * RESOLVER-EVAL-HTML-DECODE, RESOLVER-EVAL-TRIM, RESOLVER-RESOLVED, RESOLVER-NON-2XX-FAILED). The
 * index variables are read from the resolution the control plane reports.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxWorld } from '../support/world.ts';
import { evaluationTraces } from './support/body-evaluation.ts';
import { encodeWithReferences, referenceEncodableText } from './support/html-references.ts';
import { DEFAULT_BODY } from './support/provider-draft.ts';
import { resolveOnce } from './support/resolution-run.ts';
import { personName, word } from './support/resolver-arbitraries.ts';
import type { ResolverControl } from './support/resolver-control.ts';
import { resolverProperty } from './support/resolver-property.ts';
import type { ResolverScenario } from './support/resolver-scenario.ts';

type Parser = { matcher: string; formatter: string };

/** Runs one resolution with `body` and `parsers` and returns the index variables. */
async function variablesFor(
  control: ResolverControl,
  scenario: ResolverScenario,
  body: string,
  parsers: Parser[],
  contentType = 'text/plain; charset=utf-8',
): Promise<string[]> {
  const { answer } = await resolveOnce(control, scenario, {
    answer: { body, contentType },
    provider: (draft) => {
      draft.config.parsers = parsers;
    },
  });
  const attempt = answer.attempts[0];
  assert.ok(attempt, 'the resolution queried no provider');
  return attempt.variables;
}

const SNIPPET_PIECES = [
  '\\"',
  '\\\\',
  '\\u00e4',
  '\\n',
  '<![CDATA[',
  ']]>',
  '<b>',
  '</b>',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  'Anna',
  'x',
  '7',
];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/xml; charset=utf-8',
  'text/html; charset=utf-8',
  'text/plain; charset=utf-8',
];

Then(
  'for generated snippets in JSON, XML, HTML and plain-text bodies the index variable is the snippet as written \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'body read as text',
      runs,
      fc.record({
        snippet: fc
          .array(fc.constantFrom(...SNIPPET_PIECES), { minLength: 1, maxLength: 8 })
          .map((p) => p.join('')),
        contentType: fc.constantFrom(...CONTENT_TYPES),
      }),
      async ({ snippet, contentType }, control, scenario) => {
        const body = contentType.startsWith('application/json')
          ? `{"id": 1, "v": "<v>${snippet}</v>"}`
          : `<r><v>${snippet}</v></r>`;
        const variables = await variablesFor(
          control,
          scenario,
          body,
          [{ matcher: '<v>(.*?)</v>', formatter: '\\1' }],
          contentType,
        );
        assert.deepEqual(variables, [snippet]);
      },
    );
  },
);

Then(
  'for generated names and line breaks a matcher whose dots must cross the line breaks finds the name \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'DOTALL',
      runs,
      fc.record({
        name: personName(),
        before: fc.constantFrom('\n', '\r\n', '\n\n', '\r\n\r\n', '\n  \n'),
        after: fc.constantFrom('\n', '\r\n', '\n\n'),
      }),
      async ({ name, before, after }, control, scenario) => {
        const body = `Name:${before}${name}${after}End`;
        const variables = await variablesFor(control, scenario, body, [
          { matcher: 'Name:.+?([A-Z][a-z]+(?: [A-Z][a-z]+)*).+?End', formatter: '\\1' },
        ]);
        assert.deepEqual(variables, [name]);
      },
    );
  },
);

const KEY = fc.stringMatching(/^[a-z]{3,6}$/).filter((k) => !k.endsWith('name'));
const LINE = fc.tuple(KEY, fc.stringMatching(/^[A-Za-z0-9 ]{0,10}$/)).map(([k, v]) => `${k}=${v}`);

Then(
  'for generated key-value lines a matcher anchored with ^ and $ finds the value of its line \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'MULTILINE',
      runs,
      fc.record({
        before: fc.array(LINE, { minLength: 1, maxLength: 4 }),
        after: fc.array(LINE, { minLength: 1, maxLength: 4 }),
        name: personName(),
      }),
      async ({ before, after, name }, control, scenario) => {
        // A decoy line that only an unanchored matcher would take.
        const body = [...before, 'surname=Decoy', `name=${name}`, ...after].join('\n');
        const variables = await variablesFor(control, scenario, body, [
          { matcher: '^name=(.*?)$', formatter: '\\1' },
        ]);
        assert.deepEqual(variables, [name]);
      },
    );
  },
);

const FIELDS = ['alpha', 'beta', 'gamma', 'delta'] as const;

Then(
  'for generated orders of parsers the index variables follow that order \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'parser order',
      runs,
      fc.record({
        values: fc.tuple(personName(), personName(), personName(), personName()),
        order: fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 2 }),
      }),
      async ({ values, order }, control, scenario) => {
        const record: Record<string, string> = {};
        FIELDS.forEach((f, i) => {
          record[f] = values[i] as string;
        });
        // Index 4 names a field the body lacks: its parser yields the empty string.
        const parsers = order.map((i) => ({
          matcher: `"${FIELDS[i] ?? 'missing'}":"([^"]*)"`,
          formatter: '\\1',
        }));
        const variables = await variablesFor(
          control,
          scenario,
          JSON.stringify(record),
          parsers,
          'application/json; charset=utf-8',
        );
        assert.deepEqual(
          variables,
          order.map((i) => (i < 4 ? (values[i] as string) : '')),
        );
      },
    );
  },
);

Then(
  "for generated lists of several records the index variable is the first record's \\({int} runs)",
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'first match only',
      runs,
      fc.uniqueArray(personName(), { minLength: 2, maxLength: 5 }),
      async (names, control, scenario) => {
        const body = JSON.stringify(names.map((name, i) => ({ id: i + 1, name })));
        const variables = await variablesFor(
          control,
          scenario,
          body,
          [{ matcher: '"name":"([^"]*)"', formatter: '\\1' }],
          'application/json; charset=utf-8',
        );
        assert.deepEqual(variables, [names[0]]);
      },
    );
  },
);

/** Literal formatter text: no backslash, digit, white space or `&` (those belong to other clauses). */
const LITERAL = fc.constantFrom(',', '-', ':', '/', '(', ')', '[', ']', '|', '.', '!', '=', 'x');

Then(
  'for generated capture groups and formatters the formatter result takes the groups it references \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'formatter back-references',
      runs,
      fc.array(word(), { minLength: 1, maxLength: 3 }).chain((groups) =>
        fc.record({
          groups: fc.constant(groups),
          tokens: fc.array(fc.oneof(fc.integer({ min: 0, max: groups.length }), LITERAL), {
            minLength: 1,
            maxLength: 6,
          }),
        }),
      ),
      async ({ groups, tokens }, control, scenario) => {
        const tags = ['a', 'b', 'c'];
        const body = `<r>${groups.map((g, i) => `<${tags[i]}>${g}</${tags[i]}>`).join('')}</r>`;
        const matcher = groups.map((_, i) => `<${tags[i]}>(\\w+)</${tags[i]}>`).join('');
        const whole = groups.map((g, i) => `<${tags[i]}>${g}</${tags[i]}>`).join('');
        const formatter = tokens.map((t) => (typeof t === 'number' ? `\\${t}` : t)).join('');
        const expected = tokens
          .map((t) => (typeof t === 'number' ? (t === 0 ? whole : (groups[t - 1] as string)) : t))
          .join('');
        const variables = await variablesFor(control, scenario, body, [{ matcher, formatter }]);
        assert.deepEqual(variables, [expected], `formatter ${formatter}`);
      },
    );
  },
);

Then(
  'for generated text written with named, decimal and hexadecimal character references the index variable is the decoded text \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'HTML decoding',
      runs,
      referenceEncodableText().chain((text) =>
        fc.record({ text: fc.constant(text), encoded: encodeWithReferences(text) }),
      ),
      async ({ text, encoded }, control, scenario) => {
        const variables = await variablesFor(
          control,
          scenario,
          `<td class="v">${encoded}</td>`,
          [{ matcher: '<td class="v">(.*?)</td>', formatter: '\\1' }],
          'text/html; charset=utf-8',
        );
        assert.deepEqual(variables, [text], `encoded as ${encoded}`);
      },
    );
  },
);

const EDGE_SPACE = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r\n'), { minLength: 1, maxLength: 4 })
  .map((s) => s.join(''));

Then(
  'for generated names with spaces, tabs and line breaks around them the index variable is the bare name \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'trim',
      runs,
      fc.record({ name: personName(), before: EDGE_SPACE, after: EDGE_SPACE, padFormatter: fc.boolean() }),
      async ({ name, before, after, padFormatter }, control, scenario) => {
        const variables = await variablesFor(control, scenario, `<v>${before}${name}${after}</v>`, [
          { matcher: '<v>(.*?)</v>', formatter: padFormatter ? ' \\1 ' : '\\1' },
        ]);
        assert.deepEqual(variables, [name]);
      },
    );
  },
);

type Outcome = 'value' | 'empty' | 'absent';

Then(
  'for generated 2xx statuses and parsers of which at least one yields a value the number is resolved \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'resolved',
      runs,
      fc.record({
        status: fc.constantFrom(200, 201, 202, 203),
        outcomes: fc
          .array(fc.constantFrom<Outcome>('value', 'empty', 'absent'), { minLength: 1, maxLength: 4 })
          .filter((o) => o.includes('value')),
        name: personName(),
      }),
      async ({ status, outcomes, name }, control, scenario) => {
        const record: Record<string, string> = {};
        outcomes.forEach((o, i) => {
          if (o !== 'absent') record[`f${i}`] = o === 'value' ? name : '';
        });
        const { answer } = await resolveOnce(control, scenario, {
          answer: { status, body: JSON.stringify(record) },
          provider: (draft) => {
            draft.config.parsers = outcomes.map((_, i) => ({
              matcher: `"f${i}":"([^"]*)"`,
              formatter: '\\1',
            }));
          },
        });
        assert.equal(answer.state, 'resolved', `status ${status} with ${JSON.stringify(record)}`);
        const callerId = await control.resolverCallerId();
        assert.equal(callerId?.state, 'resolved');
      },
    );
  },
);

const FAILURE_STATUSES = [
  400, 402, 403, 404, 405, 406, 409, 410, 415, 418, 422, 429, 451, 500, 501, 502, 503, 504, 507,
];

Then(
  'for generated 4xx and 5xx statuses with a matching body the lookup fails without evaluating it \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'non-2xx fails',
      runs,
      fc.constantFrom(...FAILURE_STATUSES),
      async (status, control, scenario) => {
        const { answer } = await resolveOnce(control, scenario, { answer: { status, body: DEFAULT_BODY } });
        assert.equal(answer.state, 'failed', `status ${status} ended ${answer.state}`);
        assert.ok(answer.attempts.length > 0, `status ${status}: the resolution queried no provider`);
        const log = (await control.resolverSearchLog()).filter((l) => l.resolution === answer.resolution);
        assert.deepEqual(evaluationTraces(answer, log), [], `status ${status}: the body was evaluated`);
        const callerId = await control.resolverCallerId();
        assert.equal(callerId?.state, 'failed');
        assert.equal(callerId?.name, null);
        assert.deepEqual(callerId?.uiValues, {});
      },
    );
  },
);
