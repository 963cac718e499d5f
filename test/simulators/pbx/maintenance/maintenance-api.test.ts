import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../../../simulators/pbx/maintenance/command-names.ts';
import {
  MAINTENANCE_BASE_PATH,
  MAX_BODY_BYTES,
  SYSTEM_FUNCTIONS_PATH,
} from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import type { MaintenanceResponse } from '../../../../simulators/pbx/maintenance/maintenance-responses.ts';
import { createFixture, json, type MaintenanceFixture } from './maintenance-fixture.ts';
import { validatorFor } from './schema-validator.ts';

const UNAUTHORIZED = { status: 'error', message: 'invalid or missing API token' };
const UNKNOWN_ENDPOINT = { status: 'error', message: 'unknown endpoint' };
const UNKNOWN_COMMAND = { status: 'error', message: 'unknown command' };

function withFixture(run: (f: MaintenanceFixture) => void | Promise<void>) {
  return async () => {
    const f = createFixture();
    try {
      await run(f);
    } finally {
      f.close();
    }
  };
}

function call(
  f: MaintenanceFixture,
  method: string,
  target: string,
  headers: Record<string, string | string[] | undefined> = { authorization: `Bearer ${f.secret}` },
  body?: Uint8Array,
): MaintenanceResponse {
  return f.api.handle(body ? { method, target, headers, body } : { method, target, headers });
}

function assertAnswer(response: MaintenanceResponse, status: number, body: unknown): void {
  assert.equal(response.status, status);
  assert.equal(response.headers['content-type'], 'application/json');
  assert.deepEqual(json(response), body);
}

test(
  'MAINT-GET-COMMANDS, MAINT-COMMAND-NAMES: GET system-functions lists the 14 names',
  withFixture((f) => {
    const response = call(f, 'GET', SYSTEM_FUNCTIONS_PATH);
    assertAnswer(response, 200, { commands: [...COMMAND_NAMES] });
    assert.equal(COMMAND_NAMES.length, 14);
    assert.ok(validatorFor('command-list')(json(response)));
  }),
);

test(
  'MAINT-POST-ACCEPTED, MAINT-POST-EMPTY-BODY: every listed command is accepted with an empty body',
  withFixture((f) => {
    const listed = (json(call(f, 'GET', SYSTEM_FUNCTIONS_PATH)) as { commands: string[] }).commands;
    for (const name of listed) {
      const response = f.post(name);
      assertAnswer(response, 200, { status: 'ok' });
      assert.ok(validatorFor('ok')(json(response)));
    }
    assert.equal(f.executor.pending(), listed.length);
  }),
);

test(
  'MAINT-AUTH-401-MISSING, MAINT-AUTH-401-OTHER-SCHEME: no token or another scheme gets 401 on both endpoints',
  withFixture((f) => {
    const variants: Record<string, string | string[] | undefined>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}` },
      { authorization: f.secret },
      { authorization: `Token ${f.secret}` },
      { authorization: `Bearer ${f.secret} extra` },
      { authorization: [`Bearer ${f.secret}`, `Bearer ${f.secret}`] },
      { cookie: `token=${f.secret}` },
      { 'x-api-token': f.secret },
    ];
    for (const headers of variants) {
      for (const [method, target] of [
        ['GET', SYSTEM_FUNCTIONS_PATH],
        ['POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`],
        ['GET', `${SYSTEM_FUNCTIONS_PATH}?access_token=${f.secret}`],
      ] as const) {
        const response = call(f, method, target, headers);
        assertAnswer(response, 401, UNAUTHORIZED);
        assert.equal(response.headers['www-authenticate'], 'Bearer');
        assert.ok(validatorFor('error')(json(response)));
      }
    }
    assert.equal(f.executor.pending(), 0);
  }),
);

test(
  'MAINT-UNSPEC-BEARER-SYNTAX: the scheme is case-insensitive and whitespace around the token is allowed',
  withFixture((f) => {
    for (const header of [
      `bearer ${f.secret}`,
      `BEARER ${f.secret}`,
      `Bearer   ${f.secret}`,
      `Bearer\t${f.secret} `,
    ]) {
      assert.equal(call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: header }).status, 200, header);
    }
  }),
);

test(
  'MAINT-AUTH-401-INVALID, MAINT-AUTH-401-REVOKED, MAINT-AUTH-401-EXPIRED: unknown, deleted and expired tokens get 401',
  withFixture((f) => {
    const unknown = Buffer.alloc(32, 7).toString('base64url');
    assertAnswer(
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${unknown}` }),
      401,
      UNAUTHORIZED,
    );
    const doomed = f.tokens.create({ label: 'doomed' }, 'admin');
    assert.equal(
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${doomed.secret}` }).status,
      200,
    );
    f.tokens.delete(doomed.id, 'admin');
    assertAnswer(
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${doomed.secret}` }),
      401,
      UNAUTHORIZED,
    );
    const brief = f.tokens.create({ label: 'brief', expiresAt: f.clock.now() + 1000 }, 'admin');
    assert.equal(
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${brief.secret}` }).status,
      200,
    );
    f.clock.advance(1000);
    assertAnswer(
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${brief.secret}` }),
      401,
      UNAUTHORIZED,
    );
  }),
);

test(
  'MAINT-AUTH-401-NOT-EXECUTED: a POST refused with 401 is not executed and brings no event',
  withFixture(async (f) => {
    const before = f.store.read().channels.active.length;
    call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, { authorization: 'Bearer nope' });
    await f.settle();
    assert.equal(f.store.read().channels.active.length, before);
    assert.deepEqual(f.executor.events(), []);
    assert.deepEqual(f.outcomes(), []);
  }),
);

test(
  'MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH: PBX user credentials in any form get 401',
  withFixture((f) => {
    const basic = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
    assertAnswer(call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: basic }), 401, UNAUTHORIZED);
    const query = `${SYSTEM_FUNCTIONS_PATH}?de.vendor.pbx.auth=${encodeURIComponent('admin:secret')}`;
    assertAnswer(call(f, 'GET', query, { cookie: 'JSESSIONID=abc' }), 401, UNAUTHORIZED);
  }),
);

test(
  'MAINT-ERR-404-UNKNOWN-PATH, MAINT-ERR-404-WRONG-METHOD: unknown paths and wrong methods get unknown endpoint',
  withFixture((f) => {
    const cases: [string, string][] = [
      ['GET', MAINTENANCE_BASE_PATH],
      ['GET', `${MAINTENANCE_BASE_PATH}/`],
      ['GET', `${MAINTENANCE_BASE_PATH}/v1/system-functions`],
      ['GET', `${MAINTENANCE_BASE_PATH}/System-Functions`],
      ['GET', `${SYSTEM_FUNCTIONS_PATH}/`],
      ['GET', `${MAINTENANCE_BASE_PATH}//system-functions`],
      ['POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls/`],
      ['POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls/now`],
      ['POST', SYSTEM_FUNCTIONS_PATH],
      ['PUT', SYSTEM_FUNCTIONS_PATH],
      ['DELETE', SYSTEM_FUNCTIONS_PATH],
      ['HEAD', SYSTEM_FUNCTIONS_PATH],
      ['GET', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`],
      ['PUT', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`],
      ['DELETE', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`],
      ['PATCH', `${SYSTEM_FUNCTIONS_PATH}/NoSuchCommand`],
    ];
    for (const [method, target] of cases) {
      assertAnswer(call(f, method, target), 404, UNKNOWN_ENDPOINT);
    }
  }),
);

test(
  'MAINT-ERR-404-UNKNOWN-COMMAND, MAINT-UNSPEC-NAME-MATCHING: names match exactly, case-sensitively, undecoded',
  withFixture((f) => {
    for (const name of [
      'hangupallcalls',
      'HANGUPALLCALLS',
      'Hangup',
      'Run%41utoCleanup',
      'HangupAllCalls%20',
      'x',
    ]) {
      assertAnswer(f.post(name), 404, UNKNOWN_COMMAND);
    }
    assert.equal(f.executor.pending(), 0);
  }),
);

test(
  'MAINT-UNSPEC-NAME-MATCHING: the query string is ignored',
  withFixture((f) => {
    assert.equal(call(f, 'GET', `${SYSTEM_FUNCTIONS_PATH}?page=2`).status, 200);
    assert.equal(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/DeleteFaxes?x=1&trigger=USER`).status, 200);
  }),
);

test(
  'MAINT-ERR-413-BODY-TOO-LARGE, MAINT-POST-BODY-UP-TO-1MIB: 1 MiB is accepted, one byte more gets the 413 shape',
  withFixture((f) => {
    assertAnswer(f.post('DeleteFaxes', new Uint8Array(MAX_BODY_BYTES).fill(0x20)), 200, { status: 'ok' });
    const tooLarge = f.post('DeleteFaxes', new Uint8Array(MAX_BODY_BYTES + 1).fill(0x20));
    assertAnswer(tooLarge, 413, { ok: false, error: 'body-too-large' });
    assert.ok(validatorFor('body-too-large')(json(tooLarge)));
    assert.equal(f.executor.pending(), 1);
  }),
);

test(
  'MAINT-UNSPEC-CHECK-ORDER: version gate, then token, then path, then command, then body size, then hand-over',
  withFixture((f) => {
    const huge = new Uint8Array(MAX_BODY_BYTES + 1);
    const none = {};
    assertAnswer(call(f, 'POST', `${MAINTENANCE_BASE_PATH}/nowhere`, none, huge), 401, UNAUTHORIZED);
    assertAnswer(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/Nope`, none, huge), 401, UNAUTHORIZED);
    assertAnswer(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, none, huge), 401, UNAUTHORIZED);
    assertAnswer(call(f, 'POST', `${MAINTENANCE_BASE_PATH}/nowhere`, undefined, huge), 404, UNKNOWN_ENDPOINT);
    assertAnswer(call(f, 'GET', `${SYSTEM_FUNCTIONS_PATH}/Nope`, undefined, huge), 404, UNKNOWN_ENDPOINT);
    assertAnswer(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/Nope`, undefined, huge), 404, UNKNOWN_COMMAND);
    f.store.injectFault('command-handover-failure');
    assertAnswer(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, undefined, huge), 413, {
      ok: false,
      error: 'body-too-large',
    });
    assertAnswer(f.post('Nope'), 404, UNKNOWN_COMMAND);
    assertAnswer(f.post('HangupAllCalls'), 500, { status: 'error', message: 'command failed' });
    f.store.patch({ maintenance: { moduleVersion: '26.7.28' } });
    assert.equal(call(f, 'POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, none, huge).status, 404);
  }),
);

test(
  'MAINT-ERR-500-COMMAND-FAILED: with the hand-over fault a known command gets 500 and is not queued',
  withFixture(async (f) => {
    f.store.injectFault('command-handover-failure');
    const failed = f.post('HangupAllCalls');
    assertAnswer(failed, 500, { status: 'error', message: 'command failed' });
    assert.ok(validatorFor('error')(json(failed)));
    assert.equal(call(f, 'GET', SYSTEM_FUNCTIONS_PATH).status, 200, 'the list does not hand anything over');
    await f.settle();
    assert.deepEqual(f.outcomes(), []);
    f.store.clearFault('command-handover-failure');
    assert.equal(f.post('HangupAllCalls').status, 200);
  }),
);

test('MAINT-MODULE-VERSION-GATE: up to 26.7.28 the base path is an unknown path of the web server', () => {
  for (const [version, present] of [
    ['26.7.28', false],
    ['26.7.27', false],
    ['25.12.1', false],
    ['26.7', false],
    ['26.7.28.0', false],
    ['26.7.28.1', true],
    ['26.7.29', true],
    ['26.8.0', true],
    ['26.10.1', true],
    ['27', true],
  ] as const) {
    const f = createFixture((state) => {
      state.maintenance.moduleVersion = version;
    });
    try {
      for (const [method, target, headers] of [
        ['GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${f.secret}` }],
        ['POST', `${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, { authorization: `Bearer ${f.secret}` }],
        ['GET', `${MAINTENANCE_BASE_PATH}/nowhere`, {}],
      ] as const) {
        const response = call(f, method, target, headers);
        if (present) {
          assert.equal(response.headers['content-type'], 'application/json', version);
        } else {
          assert.equal(response.status, 404, version);
          assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8', version);
          assert.equal(response.body, 'not found\n');
        }
      }
      assert.equal(f.executor.pending(), present ? 1 : 0, version);
    } finally {
      f.close();
    }
  }
});

test(
  'MAINT-TOKEN-LIST-FIELDS: a successful call updates the last use on the virtual clock',
  withFixture((f) => {
    assert.equal(f.tokens.list('admin')[0]?.lastUsedAt, null);
    f.clock.advance(5000);
    call(f, 'GET', SYSTEM_FUNCTIONS_PATH);
    assert.equal(f.tokens.list('admin')[0]?.lastUsedAt, f.clock.now());
    f.clock.advance(5000);
    f.post('HangupAllCalls');
    assert.equal(f.tokens.list('admin')[0]?.lastUsedAt, f.clock.now());
  }),
);

test(
  'MAINT-NO-RATE-LIMIT: a rapid series of calls is never refused',
  withFixture((f) => {
    for (let i = 0; i < 2000; i++) {
      assert.equal(f.post(COMMAND_NAMES[i % COMMAND_NAMES.length]!).status, 200);
    }
  }),
);

test(
  'MAINT-AUTH-FAILURES-NOT-REPORTED: failed token checks leave no trace in the log or the security state',
  withFixture((f) => {
    const logBefore = f.store.moduleLog().length;
    const security = structuredClone(f.store.read().security);
    for (let i = 0; i < 50; i++)
      call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer wrong-${i}` });
    assert.equal(f.store.moduleLog().length, logBefore);
    assert.deepEqual(f.store.read().security, security);
    assert.deepEqual(f.store.warnings(), []);
  }),
);

test(
  'MAINT-OUTSIDE-PBX-LOGIN: a valid token alone is served and never redirected',
  withFixture((f) => {
    const response = call(f, 'GET', SYSTEM_FUNCTIONS_PATH, { authorization: `Bearer ${f.secret}` });
    assert.equal(response.status, 200);
    assert.equal(response.headers['location'], undefined);
  }),
);
