import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, verifyPassword } from '../../../../simulators/fleet-controller/model/password-hash.ts';
import { FAST_SCRYPT } from '../fleet-test-kit.ts';

test('hashPassword stores a salted scrypt hash that never contains the password', async () => {
  const a = await hashPassword('Geheim-123', FAST_SCRYPT);
  const b = await hashPassword('Geheim-123', FAST_SCRYPT);
  assert.match(a, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, b, 'two hashes of one password differ by their salt');
  assert.ok(!a.includes('Geheim'));
});

test('verifyPassword accepts the password and refuses others and malformed hashes', async () => {
  const stored = await hashPassword('pässwort 😀', FAST_SCRYPT);
  assert.equal(await verifyPassword('pässwort 😀', stored), true);
  assert.equal(await verifyPassword('pässwort 😀'.normalize('NFD'), stored), true, 'NFC-normalised');
  assert.equal(await verifyPassword('passwort', stored), false);
  assert.equal(await verifyPassword('', stored), false);
  for (const bad of [
    '',
    'plain',
    'scrypt$x$8$1$aa$bb',
    stored.slice(0, -2),
    stored.replace('scrypt', 'bcrypt'),
  ]) {
    assert.equal(await verifyPassword('pässwort 😀', bad), false, bad);
  }
});
