import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeText } from '../../../../simulators/pbx/resolver/body-decoder.ts';

/** Every byte from 0x80 to 0xFF, after `name=`. */
const HIGH = Buffer.concat([
  Buffer.from('name=', 'latin1'),
  Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)),
]);
const HIGH_AS_LATIN1 = `name=${Array.from({ length: 128 }, (_, i) => String.fromCharCode(0x80 + i)).join('')}`;

for (const label of [
  'iso-8859-1',
  'ISO-8859-1',
  'latin1',
  'l1',
  'iso_8859-1',
  'iso8859-1',
  'cp819',
  '"iso-8859-1"',
]) {
  test(`RESOLVER-RESPONSE-CHARSET: charset=${label} decodes as ISO-8859-1, byte n to U+00nn also from 0x80 to 0x9F`, () => {
    const decoded = decodeText(HIGH, `text/plain; charset=${label}`);
    assert.equal(decoded.text, HIGH_AS_LATIN1);
    assert.equal(decoded.text.charCodeAt(5), 0x80, 'byte 0x80 is U+0080, not € (windows-1252)');
    assert.equal(decoded.encoding, 'iso-8859-1');
    assert.equal(decoded.replaced, false);
    assert.equal(decoded.fallbackReason, null);
  });
}

test('RESOLVER-RESPONSE-CHARSET: charset=windows-1252 still decodes as windows-1252 (0x80 is €)', () => {
  const decoded = decodeText(Buffer.from([0x80, 0x96, 0xe4]), 'text/plain; charset=windows-1252');
  assert.equal(decoded.text, '€–ä');
  assert.equal(decoded.encoding, 'windows-1252');
});

test('RESOLVER-RESPONSE-CHARSET: a byte windows-1252 leaves undefined is invalid, replaced and reported, as in Java', () => {
  const decoded = decodeText(Buffer.from([0x41, 0x81, 0x42]), 'text/plain; charset=windows-1252');
  assert.deepEqual([decoded.text, decoded.replaced], ['A\uFFFDB', true]);
  const clean = decodeText(Buffer.from([0x41, 0x9f]), 'text/plain; charset=windows-1252');
  assert.deepEqual([clean.text, clean.replaced], ['AŸ', false]);
});

test('RESOLVER-RESPONSE-CHARSET: charset=us-ascii decodes 7-bit text; a byte from 0x80 is invalid, replaced and reported', () => {
  const ascii = decodeText(Buffer.from('name=Anna', 'latin1'), 'text/plain; charset=US-ASCII');
  assert.deepEqual([ascii.text, ascii.encoding, ascii.replaced], ['name=Anna', 'us-ascii', false]);
  const high = decodeText(Buffer.from([0x41, 0x80, 0xe4, 0x42]), 'text/plain; charset=ascii');
  assert.deepEqual([high.text, high.encoding, high.replaced], ['A\uFFFD\uFFFDB', 'us-ascii', true]);
});

test('RESOLVER-UNSPEC-CHARSET: other labels as the WHATWG standard says; none or an unknown one reads UTF-8', () => {
  assert.equal(decodeText(Buffer.from('Jörg', 'utf16le'), 'text/plain; charset=utf-16le').text, 'Jörg');
  const none = decodeText(Buffer.from('\uFEFFJörg', 'utf8'), 'text/plain');
  assert.deepEqual([none.text, none.encoding, none.declared], ['Jörg', 'utf-8', null]);
  const unknown = decodeText(Buffer.from('Jörg', 'utf8'), 'text/plain; charset=x-klingon');
  assert.deepEqual(
    [unknown.text, unknown.encoding, unknown.fallbackReason],
    ['Jörg', 'utf-8', 'unknown charset x-klingon'],
  );
  const invalid = decodeText(Buffer.from([0x4a, 0xf6, 0x72, 0x67]), 'text/plain; charset=utf-8');
  assert.deepEqual([invalid.text, invalid.replaced], ['J\uFFFDrg', true]);
});
