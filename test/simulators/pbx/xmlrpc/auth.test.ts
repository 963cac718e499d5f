import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import type { PbxUser } from '../../../../simulators/pbx/state/types.ts';
import { verifyXmlRpcAuth, xmlrpcAuthValue } from '../../../../simulators/pbx/xmlrpc/auth.ts';

/** Computed here with node:crypto, independently of the code under test. */
function sha512(text: string): string {
  return createHash('sha512').update(Buffer.from(text, 'utf8')).digest('hex');
}

function userOf(login: string, password: string): PbxUser {
  return { login, passwordSha512: sha512(password), admin: false };
}

const VECTORS = [
  {
    login: '123',
    password: 'Pass123',
    value:
      '123:81d8af78c98b153485f7d48e3437eb735ba37f0f013c5e06ba74536776c5945694e7cde71e2effbed7b5a1d1a4566fadcd847ef4098c234052fdfd288e8b6ced',
  },
  {
    login: 'admin',
    password: 'secret',
    value:
      'admin:5b49f112384aedb874cd6777bd396629b61ebed8c8ded2839e537df22d2a7288f6b42054e5f70d310fb587b74a7e52dc440eb74f820a0b47265cc3a67a1b38ee',
  },
];
const USERS = VECTORS.map((v) => userOf(v.login, v.password));

test('xmlrpcAuthValue reproduces both credential test vectors', () => {
  for (const v of VECTORS) assert.equal(xmlrpcAuthValue(v.login, v.password), v.value);
});

test('verifyXmlRpcAuth accepts both test vectors', () => {
  for (const v of VECTORS) assert.deepEqual(verifyXmlRpcAuth(v.value, USERS), { ok: true, login: v.login });
});

test('verifyXmlRpcAuth reports a missing or empty value as missing', () => {
  assert.deepEqual(verifyXmlRpcAuth(null, USERS), { ok: false, reason: 'missing' });
  assert.deepEqual(verifyXmlRpcAuth('', USERS), { ok: false, reason: 'missing' });
});

test('verifyXmlRpcAuth reports a value without login as malformed and does not echo it', () => {
  const secretOnly = VECTORS[0]!.value.split(':')[1]!;
  assert.deepEqual(verifyXmlRpcAuth(secretOnly, USERS), { ok: false, reason: 'malformed' });
  assert.deepEqual(verifyXmlRpcAuth(`:${secretOnly}`, USERS), { ok: false, reason: 'malformed' });
});

test('verifyXmlRpcAuth rejects an unknown login even with a well-formed secret', () => {
  const value = xmlrpcAuthValue('nobody', 'Pass123');
  assert.deepEqual(verifyXmlRpcAuth(value, USERS), { ok: false, reason: 'unknown-login', login: 'nobody' });
});

test('verifyXmlRpcAuth rejects the secret of another user', () => {
  const adminSecret = VECTORS[1]!.value.split(':')[1]!;
  assert.deepEqual(verifyXmlRpcAuth(`123:${adminSecret}`, USERS), {
    ok: false,
    reason: 'bad-secret',
    login: '123',
  });
});

test('verifyXmlRpcAuth rejects upper-case hex, truncated and extended secrets', () => {
  const [login, secret] = VECTORS[0]!.value.split(':') as [string, string];
  for (const bad of [secret.toUpperCase(), secret.slice(0, -1), `${secret}0`, `${secret}${secret}`, 'x']) {
    assert.deepEqual(verifyXmlRpcAuth(`${login}:${bad}`, USERS), { ok: false, reason: 'bad-secret', login });
  }
});

test('verifyXmlRpcAuth splits at the last colon so logins may contain colons', () => {
  const users = [userOf('sip:alice', 'pw')];
  assert.deepEqual(verifyXmlRpcAuth(xmlrpcAuthValue('sip:alice', 'pw'), users), {
    ok: true,
    login: 'sip:alice',
  });
});

test('verifyXmlRpcAuth matches logins case-sensitively', () => {
  const users = [userOf('Admin', 'secret')];
  const value = `admin:${xmlrpcAuthValue('Admin', 'secret').split(':')[1]}`;
  assert.equal(verifyXmlRpcAuth(value, users).ok, false);
});

const login = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 });
const password = fc.string({ unit: 'grapheme', maxLength: 32 });

test('XMLRPC-AUTH-PARAM: an independently computed value for any login and password is accepted', () => {
  fc.assert(
    fc.property(login, password, (l, p) => {
      const value = `${l}:${sha512(`${l}*${sha512(p)}`)}`;
      assert.equal(xmlrpcAuthValue(l, p), value);
      assert.deepEqual(verifyXmlRpcAuth(value, [userOf(l, p)]), { ok: true, login: l });
    }),
  );
});

test('XMLRPC-ERR-BAD-LOGIN: changing any one hex digit of the secret is rejected', () => {
  fc.assert(
    fc.property(login, password, fc.nat(127), fc.integer({ min: 1, max: 15 }), (l, p, position, delta) => {
      const secret = sha512(`${l}*${sha512(p)}`);
      const digit = ((Number.parseInt(secret[position]!, 16) + delta) % 16).toString(16);
      const mutated = secret.slice(0, position) + digit + secret.slice(position + 1);
      assert.notEqual(mutated, secret);
      const result = verifyXmlRpcAuth(`${l}:${mutated}`, [userOf(l, p)]);
      assert.deepEqual(result, { ok: false, reason: 'bad-secret', login: l });
    }),
  );
});

test('XMLRPC-ERR-BAD-LOGIN: a login that is not a user is rejected whatever the secret', () => {
  fc.assert(
    fc.property(login, password, (l, p) => {
      fc.pre(!USERS.some((u) => u.login === l));
      const result = verifyXmlRpcAuth(`${l}:${sha512(`${l}*${sha512(p)}`)}`, USERS);
      assert.deepEqual(result, { ok: false, reason: 'unknown-login', login: l });
    }),
  );
});
