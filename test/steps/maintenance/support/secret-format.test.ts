import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { isSecretOf32Bytes, secretFormat } from '../../../../steps/maintenance/support/secret-format.ts';

test('MAINT-TOKEN-SECRET-FORMAT: any 32 bytes as Base64url, padded or not, are recognised', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
      const unpadded = Buffer.from(bytes).toString('base64url');
      assert.equal(unpadded.length, 43);
      assert.ok(isSecretOf32Bytes(unpadded));
      assert.ok(isSecretOf32Bytes(`${unpadded}=`));
      assert.equal(secretFormat(unpadded).decodedBytes, 32);
    }),
  );
});

test('refuses other lengths, the standard Base64 alphabet and stray bits in the last character', () => {
  assert.equal(isSecretOf32Bytes(randomBytes(31).toString('base64url')), false);
  assert.equal(isSecretOf32Bytes(randomBytes(33).toString('base64url')), false);
  const standard = Buffer.from(new Uint8Array(32).fill(0xfb)).toString('base64');
  assert.match(standard, /[+/]/);
  assert.equal(isSecretOf32Bytes(standard), false);
  // 43 characters ending in "B": the last 2 bits would be set, which no 32-byte value encodes to.
  assert.equal(isSecretOf32Bytes(`${'A'.repeat(42)}B`), false);
  assert.equal(isSecretOf32Bytes(`${'A'.repeat(43)}==`), false);
  assert.equal(secretFormat('abc!').base64url, false);
});
