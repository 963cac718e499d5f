import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodesTo, nonUrlCharacters, placeholderTexts } from '../../../steps/resolver/support/url-values.ts';

test('RESOLVER-URL-ENCODING: characters a URL may not carry are found, valid percent-escapes are not', () => {
  assert.deepEqual(nonUrlCharacters("/a/b?c=d&e=f+g%20h~!$'()*,;=:@[]"), []);
  assert.deepEqual(nonUrlCharacters('/a b/"x"{y}ä%zz'), [' ', '"', '"', '{', '}', 'ä', '%']);
  assert.deepEqual(nonUrlCharacters('/😀'), ['😀']);
});

test('placeholder texts are read from a target by the template around them', () => {
  assert.deepEqual(placeholderTexts('/f/{a}/x?tel={tel}&v={a}', '/f/A%20B/x?tel=+491&v=A+B'), [
    { name: 'a', raw: 'A%20B' },
    { name: 'tel', raw: '+491' },
    { name: 'a', raw: 'A+B' },
  ]);
  assert.equal(placeholderTexts('/f/{a}?tel={tel}', '/g/1?tel=2'), null);
});

test('RESOLVER-UNSPEC-URL-ENCODING: a value decodes from UTF-8 or Latin-1 escapes, a space from %20 or +', () => {
  assert.ok(decodesTo('Bad%20S%C3%A4ckingen', 'Bad Säckingen'));
  assert.ok(decodesTo('Bad+S%E4ckingen', 'Bad Säckingen'));
  assert.ok(decodesTo('%24%26', '$&'));
  assert.ok(decodesTo('$&', '$&'));
  assert.ok(!decodesTo('a+b', 'a+c'));
  assert.ok(!decodesTo('a%2Bb', 'a b'), 'an encoded + is no space');
  assert.ok(!decodesTo('a+b', 'a b+'), 'with a + in the value, + is not read as a space');
  assert.ok(!decodesTo('%7Btel%7D', '+49301234567'), 'a replacement is never scanned for placeholders');
});
