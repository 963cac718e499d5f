import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { z } from 'zod';
import { controlClient, httpTransport } from '../../../../simulators/shared/control/control-client.ts';
import { ControlError, ControlRefusal } from '../../../../simulators/shared/control/control-error.ts';
import { fields, flag, integer, oneOf, text } from '../../../../simulators/shared/control/control-fields.ts';
import { defineOperations } from '../../../../simulators/shared/control/control-operation.ts';
import { inProcessClient } from '../../../../simulators/shared/control/in-process-client.ts';
import { serveOperations } from '../../../../simulators/shared/control/serve-operations.ts';
import { startControlServer } from '../../../../simulators/shared/http/control-server.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';

/** A small plane: a lamp per room, as a stand-in for any simulator's state. */
const LAMP = defineOperations({
  lamps: {
    method: 'GET',
    path: '/lamps',
    summary: 'All lamps',
    actsOn: 'lamps (reads)',
    output: z.record(z.string(), z.boolean()),
  },
  setLamp: {
    method: 'PUT',
    path: '/lamps/{room}',
    summary: 'Switch a lamp',
    actsOn: 'lamps',
    input: fields({ room: oneOf(['hall', 'kitchen']), on: flag() }),
  },
  history: {
    method: 'GET',
    path: '/history',
    summary: 'Switches after seq since',
    actsOn: 'history (reads)',
    input: fields({ since: integer(0, 1000).optional(), verbose: flag().optional() }),
    query: ['since', 'verbose'],
    output: z.object({ entries: z.array(z.string()) }),
  },
  rename: {
    method: 'POST',
    path: '/lamps/{room}/label',
    summary: 'Label a lamp, body is the label itself',
    actsOn: 'labels',
    input: fields({ room: text(20, 1), label: z.string().nullable() }),
    bodyField: 'label',
    status: 201,
    output: z.object({ room: z.string(), label: z.string().nullable() }),
  },
  gone: {
    method: 'DELETE',
    path: '/lamps/{room}',
    summary: 'Never works',
    actsOn: 'nothing',
    input: fields({ room: text(20, 1) }),
  },
});

function lampEffects() {
  const lamps: Record<string, boolean> = { hall: false, kitchen: false };
  const history: string[] = [];
  return {
    lamps: () => ({ ...lamps }),
    setLamp: ({ room, on }: { room: 'hall' | 'kitchen'; on: boolean }) => {
      lamps[room] = on;
      history.push(`${room} ${on}`);
    },
    history: ({ since, verbose }: { since?: number; verbose?: boolean }) => ({
      entries: history.slice(since ?? 0).map((e) => (verbose ? `switched ${e}` : e)),
    }),
    rename: ({ room, label }: { room: string; label: string | null }) => ({ room, label }),
    gone: ({ room }: { room: string }): void => {
      throw new ControlRefusal(404, 'not_found', `no lamp ${room}`);
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('one declaration gives the same answers in process and over HTTP', async (t) => {
  const local = inProcessClient(LAMP, lampEffects());
  const served = await startControlServer(serveOperations(LAMP, lampEffects()), {
    host: '127.0.0.1',
    port: 0,
  });
  t.after(() => served.close());
  const remote = controlClient(LAMP, httpTransport(served.url));
  for (const client of [local, remote]) {
    await client.setLamp({ room: 'hall', on: true });
    await client.setLamp({ room: 'kitchen', on: true });
    assert.deepEqual(await client.lamps(), { hall: true, kitchen: true });
    assert.deepEqual(await client.history({ since: 1, verbose: true }), {
      entries: ['switched kitchen true'],
    });
    assert.deepEqual(await client.history(), { entries: ['hall true', 'kitchen true'] });
    assert.deepEqual(await client.rename({ room: 'hall', label: null }), { room: 'hall', label: null });
    const refusals = [
      [
        client.setLamp({ room: 'attic' as 'hall', on: true }),
        400,
        /room must be one of hall, kitchen, got "attic"/,
      ],
      [
        client.setLamp({ room: 'hall', on: 'yes' as unknown as boolean }),
        400,
        /on must be true or false, got "yes"/,
      ],
      [client.history({ since: 1001 }), 400, /since must be an integer from 0 to 1000, got 1001/],
      [client.gone({ room: 'hall' }), 404, /no lamp hall/],
    ] as const;
    for (const [call, status, message] of refusals) {
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof ControlError);
        assert.equal(error.status, status);
        assert.match(error.message, message);
        return true;
      });
    }
  }
});

test('a group mounts under a prefix with parameters, its effects chosen by them', async (t) => {
  const sites = new Map([['site-1', lampEffects()]]);
  const routes = serveOperations(
    LAMP,
    ({ siteId }) => {
      const effects = sites.get(siteId ?? '');
      if (!effects) throw new ControlRefusal(404, 'not_found', `no site ${siteId}`);
      return effects;
    },
    { prefix: '/pbx/{siteId}' },
  );
  assert.deepEqual(
    routes.map((r) => `${r.method} ${r.path}`),
    Object.values(LAMP).map((o) => `${o.method} /pbx/{siteId}${o.path}`),
  );
  const served = await startControlServer(routes, { host: '127.0.0.1', port: 0 });
  t.after(() => served.close());
  const one = controlClient(LAMP, httpTransport(`${served.url}/pbx/site-1`));
  await one.setLamp({ room: 'kitchen', on: true });
  assert.deepEqual(await one.lamps(), { hall: false, kitchen: true });
  const other = controlClient(LAMP, httpTransport(`${served.url}/pbx/site-2`));
  await assert.rejects(
    other.lamps(),
    (error: unknown) => error instanceof ControlError && error.status === 404,
  );
});

test('a declaration naming a path parameter its input lacks is refused at once', () => {
  assert.throws(
    () => defineOperations({ bad: { method: 'GET', path: '/x/{id}', summary: 's', actsOn: 'a' } }),
    /id is not a field of its object input/,
  );
});

test('a server that never answers is given up after the real-time timeout', async (t) => {
  const server = createServer(() => {
    // Never answers.
  });
  t.after(() => closeServer(server));
  const client = controlClient(LAMP, httpTransport(await listen(server), { timeoutMs: 200 }));
  await assert.rejects(client.lamps(), (error: Error) => error instanceof ControlError && error.status === 0);
});

test('a closed port is reported as unreachable', async () => {
  const server = createServer();
  const url = await listen(server);
  await closeServer(server);
  const client = controlClient(LAMP, httpTransport(url));
  await assert.rejects(client.lamps(), (error: Error) => {
    return error instanceof ControlError && error.code === 'unreachable' && error.message.includes(url);
  });
});

test('an error answer that is not the JSON error body still carries its text', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway\nupstream down');
  });
  t.after(() => closeServer(server));
  const client = controlClient(LAMP, httpTransport(await listen(server)));
  await assert.rejects(client.lamps(), (error: Error) => {
    return (
      error instanceof ControlError &&
      error.status === 502 &&
      error.message.endsWith('Bad gateway upstream down')
    );
  });
});

test('a base URL with a path prefix and a trailing slash is joined, parameters encoded', async (t) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${body}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"entries":[]}');
    });
  });
  t.after(() => closeServer(server));
  const client = controlClient(LAMP, httpTransport(`${await listen(server)}/control/`, { token: 't0k' }));
  await client.history({ since: 12 });
  await client.rename({ room: 'a b/c', label: 'x' });
  await client.setLamp({ room: 'hall', on: false });
  assert.deepEqual(seen, [
    'GET /control/history?since=12 Bearer t0k ',
    'POST /control/lamps/a%20b%2Fc/label Bearer t0k "x"',
    'PUT /control/lamps/hall Bearer t0k {"on":false}',
  ]);
});
