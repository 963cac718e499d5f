import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  COMMENT_MAX_CHARS,
  charCount,
  DESCRIPTION_MAX_CHARS,
  SUBJECT_MAX_CHARS,
  truncateChars,
} from '../../../../simulators/fleet-controller/model/text-limits.ts';

/** Code points of every width: ASCII, BMP, astral (two UTF-16 units), combining marks. */
const codePoint = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('a', 'ß', '€', '\u0301', '😀', '𝄞', '🇩', '\u{10FFFF}'),
);

/** A string of exactly `n` code points. */
function stringOf(n: number) {
  return fc.array(codePoint, { minLength: n, maxLength: n }).map((cps) => cps.join(''));
}

test('charCount counts code points: an astral character is one character', () => {
  assert.equal(charCount('a😀b'), 3);
  assert.equal('a😀b'.length, 4);
  assert.equal(charCount(''), 0);
  assert.equal(charCount('\uD800'), 1);
});

test('FLEET-UNSPEC-CHARACTER-COUNT: truncation keeps a prefix of min(length, max) code points and never splits a pair', () => {
  fc.assert(
    fc.property(fc.string({ unit: codePoint, maxLength: 60 }), fc.nat({ max: 70 }), (text, max) => {
      const cut = truncateChars(text, max);
      assert.ok(text.startsWith(cut));
      assert.equal(charCount(cut), Math.min(charCount(text), max));
      if (charCount(text) <= max) assert.equal(cut, text);
      assert.equal([...cut].join(''), cut);
      const last = cut.charCodeAt(cut.length - 1);
      if (cut.length > 0 && cut.length < text.length)
        assert.ok(!(last >= 0xd800 && last <= 0xdbff), 'ends in a high surrogate');
    }),
  );
});

for (const [clause, max] of [
  ['FLEET-ITEM-SUBJECT-LIMIT', SUBJECT_MAX_CHARS],
  ['FLEET-ITEM-DESCRIPTION-LIMIT', DESCRIPTION_MAX_CHARS],
  ['FLEET-ACK-COMMENT-MAX', COMMENT_MAX_CHARS],
] as const) {
  test(`${clause}: at the ${max}-character boundary, ${max - 1} and ${max} stay whole and ${max + 1} loses exactly its last code point`, () => {
    const around = fc
      .constantFrom(max - 1, max, max + 1)
      .chain((n) => stringOf(n).map((text) => ({ n, text })));
    fc.assert(
      fc.property(around, ({ n, text }) => {
        const cut = truncateChars(text, max);
        if (n <= max) assert.equal(cut, text);
        else assert.equal(cut, [...text].slice(0, max).join(''));
        assert.ok(charCount(cut) <= max);
      }),
      { numRuns: 30 },
    );
  });
}

test('FLEET-UNSPEC-CHARACTER-COUNT: 200 emoji are within the subject limit although they take 400 UTF-16 units', () => {
  const emoji = '😀'.repeat(200);
  assert.equal(truncateChars(emoji, SUBJECT_MAX_CHARS), emoji);
  assert.equal(truncateChars(`${emoji}x`, SUBJECT_MAX_CHARS), emoji);
  assert.equal(truncateChars(`${'a'.repeat(199)}😀😀`, SUBJECT_MAX_CHARS), `${'a'.repeat(199)}😀`);
});
