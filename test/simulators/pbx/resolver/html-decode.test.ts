import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { evaluateBody } from '../../../../simulators/pbx/resolver/evaluate-body.ts';
import { decodeHtml } from '../../../../simulators/pbx/resolver/html-decode.ts';

test('named, decimal and hex references decode; unknown or unterminated ones stay; one pass only', async () => {
  assert.equal(
    decodeHtml('M&uuml;ller &amp; S&ouml;hne &#8364; &#x1F600; &apos;x&quot;'),
    'Müller & Söhne € 😀 \'x"',
  );
  assert.equal(
    decodeHtml('&amp;lt; &nosuch; &amp &#0; &#xD800; &#128;'),
    '&lt; &nosuch; &amp \uFFFD \uFFFD €',
  );
});

const ENCODABLE: [string, string][] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
  ['ä', '&auml;'],
  ['ß', '&szlig;'],
  ['€', '&euro;'],
  ['😀', '&#x1F600;'],
];

test('RESOLVER-EVAL-HTML-DECODE: encoding generated text with references and decoding gives it back', async () => {
  const chars = fc.constantFrom('a', 'Z', ' ', '1', ...ENCODABLE.map(([c]) => c));
  fc.assert(
    fc.property(
      fc.array(chars, { maxLength: 30 }),
      fc.array(fc.boolean(), { maxLength: 30 }),
      (text, encodeFlags) => {
        const encoded = text
          .map((c, i) =>
            encodeFlags[i] ? (ENCODABLE.find(([x]) => x === c)?.[1] ?? c) : c === '&' ? '&amp;' : c,
          )
          .join('');
        assert.equal(decodeHtml(encoded), text.join(''));
      },
    ),
  );
  // A sample across the HTML 4.01 table that Java unescapers know, plus HTML5's `&apos;`.
  const sample: [string, string][] = [
    ['nbsp', '\u00a0'],
    ['copy', '©'],
    ['eacute', 'é'],
    ['Omega', 'Ω'],
    ['hearts', '♥'],
    ['ndash', '–'],
    ['rsquo', '’'],
    ['apos', "'"],
    ['Uuml', 'Ü'],
    ['thetasym', 'ϑ'],
  ];
  for (const [name, text] of sample) assert.equal(decodeHtml(`&${name};`), text);
});

test('RESOLVER-EVAL-TRIM RESOLVER-EVAL-HTML-DECODE: the parser result is decoded, then trimmed', async () => {
  const space = fc.constantFrom(' ', '\t', '\n', '\r\n', '&#32;', '&nbsp;');
  const word = fc.stringMatching(/^[A-Za-z][A-Za-z &;]{0,10}[A-Za-z]$/).filter((w) => !/&[A-Za-z]*;/.test(w));
  await fc.assert(
    fc.asyncProperty(
      fc.array(space, { maxLength: 3 }),
      word,
      fc.array(space, { maxLength: 3 }),
      async (before, core, after) => {
        const raw = `${before.join('')}${core.replace(/&/g, '&amp;')}${after.join('')}`;
        const evaluation = await evaluateBody(
          `<n>${raw}</n>`,
          [{ matcher: '<n>(.*?)</n>', formatter: '\\1' }],
          { firstName: '', lastName: '{0}', company: '' },
          { matcherMs: 1000 },
        );
        assert.equal(evaluation.variables[0], core);
      },
    ),
  );
});
