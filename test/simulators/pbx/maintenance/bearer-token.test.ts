import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bearerToken } from '../../../../simulators/pbx/maintenance/bearer-token.ts';

test('MAINT-UNSPEC-BEARER-SYNTAX: the token follows Bearer in any case, after spaces or tabs', () => {
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('bEaReR \t abc  '), 'abc');
  assert.equal(bearerToken(' Bearer abc'), 'abc');
});

test('MAINT-AUTH-401-OTHER-SCHEME: other schemes, empty tokens and repeated headers give no token', () => {
  for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearerabc', 'Bearer a b', 'abc']) {
    assert.equal(bearerToken(header), null, String(header));
  }
  assert.equal(bearerToken(['Bearer a', 'Bearer a']), null);
});

test('MAINT-AUTH-BEARER: any whitespace-free token round-trips through the header', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[\x21-\x7e]{1,80}$/), (token) => {
      assert.equal(bearerToken(`Bearer ${token}`), token);
    }),
  );
});
