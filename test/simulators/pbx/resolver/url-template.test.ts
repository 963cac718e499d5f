import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  buildUrl,
  encodeTemplateText,
  encodeValue,
  UrlTemplateError,
} from '../../../../simulators/pbx/resolver/url-template.ts';

const RESERVED = ":/?#[]@!$&'()*,;=%";

test('RESOLVER-PH-TEL RESOLVER-URL-PLUS: {tel} becomes the number with a literal +', () => {
  const url = buildUrl('https://crm.example/lookup?tel={tel}', '+49301234567');
  assert.equal(url.url, 'https://crm.example/lookup?tel=+49301234567');
  assert.equal(url.origin, 'https://crm.example');
  assert.equal(url.path, '/lookup?tel=+49301234567');
});

test('RESOLVER-PH-FIELD RESOLVER-PH-PREFIX-SUFFIX: a field becomes prefix, value, suffix; an empty one becomes nothing', () => {
  const fields = {
    user: { value: 'ann', prefix: 'u-', suffix: '-x' },
    empty: { value: '', prefix: 'p', suffix: 's' },
  };
  const url = buildUrl('http://h/{user}/q?a={empty}&t={tel}', '0301', fields);
  assert.equal(url.path, '/u-ann-x/q?a=&t=0301');
});

test('RESOLVER-UNSPEC-EMPTY-PLACEHOLDER: a placeholder naming no field stays and is encoded as template text', () => {
  const url = buildUrl('http://h/q?x={nofield}&t={tel}', '1');
  assert.equal(url.path, '/q?x=%7Bnofield%7D&t=1');
  assert.deepEqual(url.unknownPlaceholders, ['nofield']);
});

test('template text keeps its URL structure and a valid %XX, and encodes what a URL cannot carry', () => {
  const url = buildUrl('http://h/a b/ü?q=1&r=%41&s=%zz#frag', '1');
  assert.equal(url.path, '/a%20b/%C3%BC?q=1&r=%41&s=%25zz');
});

test('a secret field is masked in the display URL but sent in the real one', () => {
  const url = buildUrl(
    'http://h/q?t={tel}&key={apiKey}',
    '+491',
    { apiKey: { value: 's3 cret' } },
    new Set(['apiKey']),
  );
  assert.equal(url.path, '/q?t=+491&key=s3%20cret');
  assert.equal(url.displayUrl, 'http://h/q?t=+491&key=***');
  assert.equal(url.substitutedUrl, 'http://h/q?t=+491&key=***');
});

test('a template that is no http(s) URL, or carries user information, is refused', () => {
  assert.throws(() => buildUrl('ftp://h/{tel}', '1'), UrlTemplateError);
  assert.throws(() => buildUrl('{tel}', '1'), UrlTemplateError);
  assert.throws(() => buildUrl('http://user:pw@h/{tel}', '1'), /user information/);
});

test('RESOLVER-URL-ENCODING RESOLVER-URL-PLUS: + is never percent-encoded, every other reserved character of a value is', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(...`${RESERVED}+ abcXYZ019-._~äß€😀`), maxLength: 30 }),
      (value) => {
        const encoded = encodeValue(value);
        assert.ok(!encoded.includes('%2B'), 'no %2B');
        assert.equal(encoded.split('+').length, value.split('+').length, 'every + stays');
        for (const char of RESERVED) assert.ok(!encoded.includes(char) || char === '%', `${char} is encoded`);
        assert.ok(/^([A-Za-z0-9\-._~+]|%[0-9A-F]{2})*$/.test(encoded));
        assert.equal(decodeURIComponent(encoded), value);
      },
    ),
  );
});

test('RESOLVER-PH-FIELD RESOLVER-PH-TEL: replacement is literal, never a regex replacement string, and never scanned again', () => {
  const tricky = fc.constantFrom('$&', '$1', "$'", '$`', '$$', '{tel}', '{f}', '\\1', '.*');
  fc.assert(
    fc.property(
      fc.array(tricky, { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
      fc.constantFrom('+4930', '0030'),
      (value, tel) => {
        const url = buildUrl('http://h/q?f={f}&t={tel}', tel, { f: { value } });
        assert.equal(url.path, `/q?f=${encodeValue(value)}&t=${tel}`);
        const query = url.path.slice(url.path.indexOf('?') + 1);
        assert.equal(decodeURIComponent(query.split('&')[0]?.slice(2) ?? ''), value);
      },
    ),
  );
});

/** The encodings character by character, as written before their fast paths (issue 31 §3). */
function byCharacter(text: string, keep: RegExp): string {
  const chars = [...text];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const validEscape = /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? ''));
    if (keep.source.includes(':') && char === '%' && validEscape) out += char;
    else if (keep.test(char)) out += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

test('value and template encodings give, with their fast paths, exactly what encoding each character gives', () => {
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom(...`abcXYZ019-._~+:/?#[]@!$&'()*,;=`),
      fc.constantFrom(' ', '%', '"', '{', '}', 'ä', '😀', '\u0000', '%4', 'A'),
    ),
    maxLength: 24,
  });
  fc.assert(
    fc.property(text, (s) => {
      assert.equal(encodeValue(s), byCharacter(s, /[A-Za-z0-9\-._~+]/));
      assert.equal(encodeTemplateText(s), byCharacter(s, /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/));
    }),
    { numRuns: 500 },
  );
});
