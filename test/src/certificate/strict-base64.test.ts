import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeStrictBase64 } from '../../../src/certificate/strict-base64.ts';

test('standard and URL-safe Base64 both decode, with or without padding (DSSE envelope v1.0.2)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const data = Buffer.from(bytes);
      const standard = data.toString('base64');
      assert.deepEqual(decodeStrictBase64(standard), data);
      assert.deepEqual(decodeStrictBase64(standard.replace(/=+$/, '')), data);
      assert.deepEqual(decodeStrictBase64(data.toString('base64url')), data);
    }),
  );
});

test('a text that is not the one encoding of its bytes is refused', () => {
  assert.deepEqual(decodeStrictBase64('aGVsbG8='), Buffer.from('hello'));
  // Node would read each of these as "hello" too.
  for (const text of ['aGVsbG9=', 'aGVs!bG8=', 'aGVs bG8=', 'aGVsbG8==', 'aGVsbG8=x', 'aGVs+G8_', 'a'])
    assert.equal(decodeStrictBase64(text), null, text);
});
