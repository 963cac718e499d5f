import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword } from '../../../../simulators/fleet-controller/model/password-hash.ts';
import { ANNA, basic, FAST_SCRYPT, fleetCore, SSO, TOKENS } from '../fleet-test-kit.ts';

test('FLEET-AUTH-BASIC: Basic credentials of a local account sign in; a remembered sign-in survives only while the password is unchanged', async () => {
  const { auth, state } = await fleetCore();
  assert.equal((await auth.basic(basic(ANNA)))?.id, ANNA.id);
  assert.equal((await auth.basic(basic(ANNA)))?.id, ANNA.id, 'remembered');
  state.access.requireAccount(ANNA.id).passwordHash = await hashPassword('neu', FAST_SCRYPT);
  assert.equal(await auth.basic(basic(ANNA)), null, 'old password after a change');
  assert.equal((await auth.basic(basic({ ...ANNA, password: 'neu' })))?.id, ANNA.id);
});

test('FLEET-AUTH-IDP-ONLY: malformed headers and identity-provider accounts never sign in', async () => {
  const { auth } = await fleetCore();
  for (const header of [
    undefined,
    '',
    'Basic',
    'Basic !!!',
    `Bearer ${TOKENS.annaRw}`,
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    basic(SSO),
  ]) {
    assert.equal(await auth.basic(header), null, String(header));
  }
});

test('MCP-UNSPEC-TRANSPORT: a Bearer token finds its account; unknown or revoked tokens do not', async () => {
  const { auth, state } = await fleetCore();
  const found = auth.bearer(`Bearer ${TOKENS.annaRw}`);
  assert.equal(found?.account.id, ANNA.id);
  assert.equal(found?.token.level, 'read-write');
  assert.equal(auth.bearer(`bearer  ${TOKENS.annaR}`)?.token.level, 'read');
  assert.equal(auth.bearer(`Bearer ${TOKENS.annaRw}x`), null);
  assert.equal(auth.bearer(basic(ANNA)), null);
  state.access.revokeToken('tok-anna-rw');
  assert.equal(auth.bearer(`Bearer ${TOKENS.annaRw}`), null);
  const issued = state.access.issueToken({ accountId: ANNA.id, level: 'read' });
  assert.equal(issued.secret.length, 43, '32 random bytes, base64url');
  assert.equal(auth.bearer(`Bearer ${issued.secret}`)?.token.id, issued.id);
  assert.ok(
    !JSON.stringify([...state.access.tokens.values()]).includes(issued.secret),
    'only the hash is stored',
  );
});
