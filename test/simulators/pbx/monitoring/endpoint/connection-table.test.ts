import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { eventually, exchange, parseHttp, request, startEndpoint } from './endpoint-harness.ts';

/**
 * Issue 20, item 1: with the monitoring-hosts list at 127.0.0.0/8, silent sockets from many
 * addresses filled the 512 slots and kept a fresh client out for seconds. A full table now closes
 * the connection that has come least far, so a listed client with a request to make is served.
 */

/** A /16 of loopback addresses of this run's own (other test runs pick theirs at random too). */
function addressBlock(): (index: number) => string {
  const second = randomInt(2, 255);
  return (index) => `127.${second}.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

interface Crowd {
  sockets: Socket[];
  /** Sockets that have seen an answer byte from the server. */
  answered(): number;
  /** Sockets the server has closed or refused. */
  closed(): number;
}

/** Opens one connection from each address; they send `send` if given, and never close their side. */
async function openCrowd(port: number, addresses: string[], send?: string): Promise<Crowd> {
  const sockets: Socket[] = [];
  let answered = 0;
  let closed = 0;
  await Promise.all(
    addresses.map(
      (localAddress) =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: true }, () => {
            if (send !== undefined) socket.write(send);
            resolve();
          });
          let seen = false;
          socket.on('data', () => {
            if (!seen) answered++;
            seen = true;
          });
          socket.on('error', () => resolve());
          socket.once('close', () => {
            closed++;
          });
          sockets.push(socket);
        }),
    ),
  );
  return { sockets, answered: () => answered, closed: () => closed };
}

test('data endpoint: 1,000 silent sockets from 1,000 listed addresses do not keep a client with a request out', async () => {
  const pbx = await startEndpoint((state) => {
    state.monitoring.hosts = [{ entry: '127.0.0.0/8', active: true }];
    // Nobody's grace passes during the test: every held socket stays silent and unanswered.
    state.monitoring.rawGraceMs = 60_000;
  });
  const address = addressBlock();
  let crowd: Crowd | undefined;
  try {
    crowd = await openCrowd(
      pbx.port(),
      Array.from({ length: 1000 }, (_, i) => address(i)),
    );
    await eventually(() => pbx.endpoint.openConnections() === 512, 'the table is full');
    const { bytes } = await exchange(pbx.port(), {
      send: request('GET', '/checkmk'),
      localAddress: address(1000),
    });
    const answer = parseHttp(bytes);
    assert.equal(answer.status, 200);
    assert.match(answer.body.toString('latin1'), /^<<<\w+>>>\n/);
    assert.ok(pbx.endpoint.openConnections() <= 512, `${pbx.endpoint.openConnections()} held`);
    assert.ok(pbx.store.moduleLog().some((e) => /connection limit 512 reached/.test(e.message)));
  } finally {
    for (const socket of crowd?.sockets ?? []) socket.destroy();
    await pbx.close();
  }
});

test('data endpoint: answered sockets that never close do not keep a client with a request out', async () => {
  const pbx = await startEndpoint(
    (state) => {
      state.monitoring.hosts = [{ entry: '127.0.0.0/8', active: true }];
    },
    { limits: { maxConnections: 40 } },
  );
  const address = addressBlock();
  let crowd: Crowd | undefined;
  try {
    crowd = await openCrowd(
      pbx.port(),
      Array.from({ length: 40 }, (_, i) => address(i)),
      request('GET', '/checkmk'),
    );
    const held = crowd;
    // Each got its answer and is held until its client closes, which these never do.
    await eventually(() => held.answered() === 40, 'all forty answered');
    assert.equal(pbx.endpoint.openConnections(), 40);
    const { bytes } = await exchange(pbx.port(), {
      send: request('GET', '/checkmk'),
      localAddress: address(40),
    });
    assert.equal(parseHttp(bytes).status, 200);
    assert.ok(pbx.endpoint.openConnections() <= 40, `${pbx.endpoint.openConnections()} held`);
  } finally {
    for (const socket of crowd?.sockets ?? []) socket.destroy();
    await pbx.close();
  }
});

test('data endpoint: a full table closes a partial request head before it refuses a newcomer', async () => {
  const pbx = await startEndpoint(undefined, { limits: { maxConnections: 5 } });
  const held: Socket[] = [];
  const closed = new Set<Socket>();
  try {
    for (let i = 0; i < 5; i++) {
      const socket = connect({ host: '127.0.0.1', port: pbx.port() });
      socket.on('error', () => {});
      socket.on('close', () => closed.add(socket));
      socket.resume();
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /');
      held.push(socket);
      await eventually(
        () => pbx.endpoint.connectionPhases().filter((phase) => phase === 'receiving').length === i + 1,
        `${i + 1} held with part of a head`,
      );
    }
    const first = held[0] as Socket;
    const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json') });
    assert.equal(parseHttp(bytes).status, 200);
    await eventually(() => closed.has(first), 'the oldest partial head was closed');
    assert.equal(closed.size, 1, 'the younger ones are kept');
    assert.ok(pbx.store.moduleLog().some((e) => e.message.includes('connection limit 5 reached')));
  } finally {
    for (const socket of held) socket.destroy();
    await pbx.close();
  }
});

test('data endpoint: only connections still waiting for their answer count against the per-address cap', async () => {
  // A poller at concurrency 32 opens its next connection when it has read an answer, often before
  // the server has seen that connection close; it must not be refused (issue 20, item 1).
  const pbx = await startEndpoint(
    (state) => {
      state.monitoring.hosts = [{ entry: '127.0.0.0/8', active: true }];
    },
    { limits: { maxConnectionsPerAddress: 3 } },
  );
  const address = addressBlock()(0);
  let crowd: Crowd | undefined;
  try {
    crowd = await openCrowd(pbx.port(), [address, address, address], request('GET', '/checkmk'));
    const held = crowd;
    await eventually(() => held.answered() === 3, 'three answered and held');
    assert.equal(pbx.endpoint.openConnections(), 3);
    const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json'), localAddress: address });
    assert.equal(parseHttp(bytes).status, 200);
  } finally {
    for (const socket of crowd?.sockets ?? []) socket.destroy();
    await pbx.close();
  }
});
