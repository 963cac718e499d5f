import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maintenanceEffects } from '../../../../simulators/pbx/maintenance/maintenance-effects.ts';
import { MAINTENANCE_CONTROL_OPERATIONS } from '../../../../simulators/pbx/maintenance/maintenance-operations.ts';
import { controlClient, httpTransport } from '../../../../simulators/shared/control/control-client.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';
import { inProcessClient } from '../../../../simulators/shared/control/in-process-client.ts';
import { serveOperations } from '../../../../simulators/shared/control/serve-operations.ts';
import { startControlPlane } from '../../../../simulators/shared/control/start-control-plane.ts';
import { createControlDispatcher } from '../../../../simulators/shared/http/control-dispatch.ts';
import { createFixture, type MaintenanceFixture } from './maintenance-fixture.ts';
import { validatorFor } from './schema-validator.ts';

async function withDispatcher(
  run: (f: MaintenanceFixture, dispatch: ReturnType<typeof createControlDispatcher>) => Promise<void>,
) {
  const f = createFixture();
  try {
    await run(
      f,
      createControlDispatcher(
        serveOperations(MAINTENANCE_CONTROL_OPERATIONS, maintenanceEffects(f.tokens, f.executor)),
      ),
    );
  } finally {
    f.close();
  }
}

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

test('MAINT-TOKEN-SECRET-SHOWN-ONCE: POST /maintenance/tokens answers 201 with the secret, the list never has it', async () => {
  await withDispatcher(async (f, dispatch) => {
    const created = await dispatch({
      method: 'POST',
      url: '/maintenance/tokens',
      body: body({ label: 'erp', expiresAt: f.clock.now() + 60_000, actor: 'admin' }),
    });
    assert.equal(created.status, 201);
    const token = JSON.parse(created.body!);
    assert.ok(validatorFor('token-created')(token));
    assert.ok(f.tokens.verify(token.secret));
    const listed = await dispatch({ method: 'GET', url: '/maintenance/tokens?actor=admin' });
    assert.equal(listed.status, 200);
    assert.ok(validatorFor('token-list')(JSON.parse(listed.body!)));
    assert.ok(!listed.body!.includes(token.secret));
    const deleted = await dispatch({ method: 'DELETE', url: `/maintenance/tokens/${token.id}?actor=admin` });
    assert.equal(deleted.status, 204);
    assert.equal(f.tokens.verify(token.secret), null);
  });
});

test('MAINT-TOKEN-ADMIN-RIGHT, MAINT-TOKEN-LABEL-REQUIRED: 403 for non-admins, 400 for bad input, 404 for unknown ids', async () => {
  await withDispatcher(async (_f, dispatch) => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/maintenance/tokens', { label: 'x', actor: '123' }, 403, 'forbidden'],
      ['GET', '/maintenance/tokens?actor=123', undefined, 403, 'forbidden'],
      ['DELETE', '/maintenance/tokens/abc?actor=nobody', undefined, 403, 'forbidden'],
      ['POST', '/maintenance/tokens', { actor: 'admin' }, 400, 'invalid_request'],
      ['POST', '/maintenance/tokens', { label: '  ', actor: 'admin' }, 400, 'invalid_request'],
      ['POST', '/maintenance/tokens', { label: 'x' }, 400, 'invalid_request'],
      ['POST', '/maintenance/tokens', { label: 'x', actor: 'admin', scope: 'all' }, 400, 'invalid_request'],
      ['GET', '/maintenance/tokens', undefined, 400, 'invalid_request'],
      ['DELETE', '/maintenance/tokens/abc?actor=admin', undefined, 404, 'not_found'],
      ['GET', '/maintenance/events?since=x', undefined, 400, 'invalid_request'],
    ];
    for (const [method, url, value, status, error] of cases) {
      const answer = await dispatch(
        value === undefined ? { method, url } : { method, url, body: body(value) },
      );
      assert.equal(answer.status, status, `${method} ${url}`);
      assert.equal(JSON.parse(answer.body!).error, error, `${method} ${url}`);
    }
  });
});

test('GET /maintenance/events lists completion events since a sequence number', async () => {
  await withDispatcher(async (f, dispatch) => {
    f.post('DeleteFaxes');
    f.post('HangupAllCalls');
    const waited = await dispatch({ method: 'POST', url: '/maintenance/queue/wait-idle' });
    assert.deepEqual(JSON.parse(waited.body!), { pending: 0 });
    const all = JSON.parse((await dispatch({ method: 'GET', url: '/maintenance/events' })).body!);
    assert.ok(validatorFor('completion-event-list')(all));
    assert.deepEqual(
      all.map((e: { command: string }) => e.command),
      ['DeleteFaxes', 'HangupAllCalls'],
    );
    const later = JSON.parse(
      (await dispatch({ method: 'GET', url: `/maintenance/events?since=${all[0].seq}` })).body!,
    );
    assert.deepEqual(
      later.map((e: { command: string }) => e.command),
      ['HangupAllCalls'],
    );
  });
});

test('the in-process and HTTP clients behave alike', async () => {
  const f = createFixture();
  const effects = maintenanceEffects(f.tokens, f.executor);
  const plane = await startControlPlane(MAINTENANCE_CONTROL_OPERATIONS, effects, {
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const http = controlClient(MAINTENANCE_CONTROL_OPERATIONS, httpTransport(plane.url));
    for (const control of [inProcessClient(MAINTENANCE_CONTROL_OPERATIONS, effects), http]) {
      const created = await control.createToken({ label: 'same', actor: 'admin' });
      assert.equal(created.expiresAt, null);
      assert.ok((await control.listTokens({ actor: 'admin' })).some((t) => t.id === created.id));
      await control.deleteToken({ id: created.id, actor: 'admin' });
      assert.ok(!(await control.listTokens({ actor: 'admin' })).some((t) => t.id === created.id));
      f.post('DeleteFaxes');
      assert.deepEqual(await control.waitIdle(), { pending: 0 });
      assert.ok((await control.completionEvents()).length > 0);
      await assert.rejects(
        control.listTokens({ actor: '123' }),
        (error: unknown) =>
          error instanceof ControlError && error.status === 403 && error.code === 'forbidden',
      );
    }
  } finally {
    await plane.close();
    f.close();
  }
});
