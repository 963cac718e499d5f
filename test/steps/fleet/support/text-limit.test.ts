import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { asciiText } from '../../../../steps/fleet/support/ascii-text.ts';
import { codePoints, limitProblem } from '../../../../steps/fleet/support/text-limit.ts';

test('FLEET-ITEM-SUBJECT-LIMIT: ASCII text within the limit must come back unchanged', () => {
  const text = asciiText(200);
  assert.equal(limitProblem(text, text, 200), null);
  assert.match(limitProblem(text.slice(0, 199), text, 200) ?? '', /came back changed/);
});

test('FLEET-ITEM-SUBJECT-LIMIT: longer ASCII text must be cut to the limit, keeping its start', () => {
  const text = asciiText(201);
  assert.equal(limitProblem(text.slice(0, 200), text, 200), null);
  assert.equal(limitProblem(`${text.slice(0, 199)}…`, text, 200), null, 'a marker may end the cut text');
  assert.match(limitProblem(text, text, 200) ?? '', /not cut to 200/);
  assert.match(limitProblem(text.slice(0, 150), text, 200) ?? '', /not cut to 200/);
  assert.match(limitProblem(asciiText(200, 5), text, 200) ?? '', /does not start with/);
  assert.match(limitProblem(undefined, text, 200) ?? '', /missing/);
});

test('FLEET-ITEM-SUBJECT-LIMIT, FLEET-UNSPEC-CHARACTER-COUNT: only the last 3 characters of the cut text may differ, for a marker', () => {
  const text = asciiText(260, 7);
  assert.equal(limitProblem(`${text.slice(0, 197)}...`, text, 200), null, 'a three-character marker');
  assert.equal(limitProblem(`${text.slice(0, 197)}[…]`, text, 200), null);
  assert.match(limitProblem(`${text.slice(0, 196)}…………`, text, 200) ?? '', /first 197 characters/);
  const changedEarly = `${text.slice(0, 150)}#${text.slice(151, 200)}`;
  assert.match(
    limitProblem(changedEarly, text, 200) ?? '',
    /does not start with/,
    'a change past the first half',
  );
});

test('FLEET-UNSPEC-CHARACTER-COUNT: the prefix is compared in the unit the text was cut in', () => {
  const text = `${'😀'.repeat(150)}${'a'.repeat(150)}`; // 300 code points, 450 UTF-16 units
  const byCodePoints = [...text].slice(0, 200).join('');
  const byUnits = text.slice(0, 200);
  assert.equal(limitProblem(byCodePoints, text, 200), null);
  assert.equal(limitProblem(byUnits, text, 200), null);
  assert.equal(limitProblem(`${[...text].slice(0, 199).join('')}…`, text, 200), null);
  assert.equal(limitProblem(`${text.slice(0, 198)}..`, text, 200), null);
  assert.match(
    limitProblem(`${text.slice(0, 100)}${'b'.repeat(100)}`, text, 200) ?? '',
    /does not start with/,
  );
});

test('FLEET-UNSPEC-CHARACTER-COUNT: a text whose fate depends on the counting unit is not judged', () => {
  const text = `${'a'.repeat(199)}😀`; // 200 code points, 201 UTF-16 units
  assert.equal(codePoints(text), 200);
  assert.equal(limitProblem(text.slice(0, 199), text, 200), null);
  assert.equal(limitProblem(text, text, 200), null);
});

test('FLEET-ITEM-DESCRIPTION-LIMIT: a plain cut of any ASCII text passes, any other length fails', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5000 }), fc.nat(100), (length, salt) => {
      const text = asciiText(length, salt);
      assert.equal(limitProblem(text.slice(0, 4000), text, 4000), null);
      if (length > 4000) assert.notEqual(limitProblem(text.slice(0, 3999), text, 4000), null);
    }),
  );
});

test('asciiText has the asked length, is printable ASCII and differs with the salt', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3000 }), fc.nat(50), (length, salt) => {
      const text = asciiText(length, salt);
      assert.equal(text.length, length);
      assert.match(text, /^[\x20-\x7e]*$/);
    }),
  );
  assert.notEqual(asciiText(50, 1), asciiText(50, 2));
});
