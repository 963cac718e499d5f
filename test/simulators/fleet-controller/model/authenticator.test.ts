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

test('FLEET-AUTH-BASIC: a remembered sign-in answers at once only for the same header, while e-mail and password hash are unchanged, and keeps neither header nor password', async () => {
  const { auth, state } = await fleetCore();
  const header = basic(ANNA);
  assert.equal(auth.rememberedBasic(header), undefined, 'not yet checked');
  assert.equal((await auth.basic(header))?.id, ANNA.id);
  assert.equal(auth.rememberedBasic(header)?.id, ANNA.id, 'remembered');
  assert.equal(auth.rememberedBasic(basic({ ...ANNA, password: `${ANNA.password}x` })), undefined);
  assert.equal(auth.rememberedBasic(`${header} `), undefined, 'another spelling is checked afresh');
  assert.equal((await auth.basic(`${header} `))?.id, ANNA.id, 'and then signs in');
  const memory = JSON.stringify([...(auth as unknown as { remembered: Map<string, unknown> }).remembered]);
  for (const secret of [ANNA.password, header.slice(6), Buffer.from(ANNA.password).toString('base64')])
    assert.ok(!memory.includes(secret), 'no plaintext credential in the memory');
  const account = state.access.requireAccount(ANNA.id);
  account.email = 'anna.neu@nordlicht.example';
  assert.equal(auth.rememberedBasic(header), undefined, 'e-mail changed');
  account.email = ANNA.email;
  assert.equal(auth.rememberedBasic(header)?.id, ANNA.id);
  account.passwordHash = await hashPassword('neu', FAST_SCRYPT);
  assert.equal(auth.rememberedBasic(header), undefined, 'password changed');
  assert.equal(await auth.basic(header), null);
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
