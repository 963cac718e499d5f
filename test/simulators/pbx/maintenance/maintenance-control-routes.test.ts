import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ControlPlaneError } from '../../../../simulators/pbx/control/control-plane-error.ts';
import { HttpMaintenanceControl } from '../../../../simulators/pbx/maintenance/http-maintenance-control.ts';
import {
  InProcessMaintenanceControl,
  type MaintenanceControl,
} from '../../../../simulators/pbx/maintenance/maintenance-control.ts';
import { maintenanceControlRoutes } from '../../../../simulators/pbx/maintenance/maintenance-control-routes.ts';
import { createControlDispatcher } from '../../../../simulators/shared/http/control-dispatch.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
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
        maintenanceControlRoutes(new InProcessMaintenanceControl(f.tokens, f.executor)),
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

test('HttpMaintenanceControl and InProcessMaintenanceControl behave alike', async () => {
  const f = createFixture();
  const inProcess = new InProcessMaintenanceControl(f.tokens, f.executor);
  const dispatch = createControlDispatcher(maintenanceControlRoutes(inProcess));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void dispatch({ method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks) }).then(
        (answer) => {
          res.writeHead(answer.status, answer.headers).end(answer.body);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const http = new HttpMaintenanceControl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    for (const control of [inProcess, http] as MaintenanceControl[]) {
      const created = await control.createToken({ label: 'same' }, 'admin');
      assert.equal(created.expiresAt, null);
      assert.ok((await control.listTokens('admin')).some((t) => t.id === created.id));
      await control.deleteToken(created.id, 'admin');
      assert.ok(!(await control.listTokens('admin')).some((t) => t.id === created.id));
      f.post('DeleteFaxes');
      assert.deepEqual(await control.waitIdle(), { pending: 0 });
      assert.ok((await control.completionEvents()).length > 0);
    }
    await assert.rejects(
      http.listTokens('123'),
      (error: unknown) =>
        error instanceof ControlPlaneError && error.status === 403 && error.code === 'forbidden',
    );
  } finally {
    await closeServer(server);
    f.close();
  }
});

test('every control route is documented in schemas/maintenance-api.openapi.yaml', () => {
  const document = parse(
    readFileSync(new URL('../../../../schemas/maintenance-api.openapi.yaml', import.meta.url), 'utf8'),
  ) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const documented = Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/maintenance/'))
    .flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete']
        .filter((m) => m in item)
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
  const served = maintenanceControlRoutes({} as MaintenanceControl)
    .map((route) => `${route.method} ${route.path}`)
    .sort();
  assert.deepEqual(documented, served);
});
