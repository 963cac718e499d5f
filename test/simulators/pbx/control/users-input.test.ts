import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkUsers, sha512Hex } from '../../../../simulators/pbx/control/users-input.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { ControlInputError } from '../../../../simulators/shared/http/control-input-error.ts';

test('passwords are kept as the SHA-512 hex the default users carry', () => {
  const known = defaultState(0).users;
  const users = checkUsers([
    { login: '123', password: 'Pass123' },
    { login: 'admin', password: 'secret', admin: true },
  ]);
  assert.deepEqual(users, known);
});

test('the clear password is not kept anywhere in the result', () => {
  const users = checkUsers([{ login: 'op', password: 'Hunter2-clear' }]);
  assert.ok(!JSON.stringify(users).includes('Hunter2-clear'));
  assert.equal(users[0]?.passwordSha512, sha512Hex('Hunter2-clear'));
  assert.match(users[0]?.passwordSha512 ?? '', /^[0-9a-f]{128}$/);
  assert.equal(users[0]?.admin, false);
});

test('bad logins, duplicates and bad types are refused without echoing the password', () => {
  for (const login of ['', 'a:b', 'with space', 'tab\t', 7]) {
    assert.throws(() => checkUsers([{ login, password: 'pw' }]), ControlInputError, String(login));
  }
  assert.throws(
    () =>
      checkUsers([
        { login: 'x', password: 'a' },
        { login: 'x', password: 'b' },
      ]),
    /appears twice/,
  );
  assert.throws(
    () => checkUsers([{ login: 'x', password: 12345678 }]),
    (error: Error) => error.message === 'users[0].password must be a string',
  );
  assert.throws(
    () => checkUsers([{ login: 'x', password: 'p', admin: 'yes' }]),
    /admin must be true or false/,
  );
  assert.throws(() => checkUsers([{ login: 'x', password: 'p', role: 'admin' }]), /unknown field "role"/);
  assert.throws(() => checkUsers('x'), /users must be an array/);
});
