import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { exchange, startEndpoint } from './endpoint-harness.ts';

/** Polls until `check` holds, at most about 20 s (a bound on a busy machine, not a timing assertion). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), what);
}

/**
 * Opens `count` connections from `localAddress` that never send and never close their side
 * (half-open allowed: the server's end of an answer does not close them). `ended` counts those
 * the server has ended, served or refused.
 */
async function openIdle(
  port: number,
  localAddress: string,
  count: number,
): Promise<{ sockets: Socket[]; ended: () => number }> {
  const sockets: Socket[] = [];
  let ended = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: true }, () =>
            resolve(),
          );
          socket.on('error', () => resolve());
          socket.on('data', () => {});
          socket.once('end', () => {
            ended++;
          });
          sockets.push(socket);
        }),
    ),
  );
  return { sockets, ended: () => ended };
}

// Issue 12, defect 4: 600 idle connections from one address used to take all 512 slots.
test('data endpoint: 1,000 idle connections from one listed address do not lock out another', async () => {
  const pbx = await startEndpoint((state) => {
    state.monitoring.hosts = [
      { entry: '127.0.0.2/32', active: true },
      { entry: '127.0.0.3/32', active: true },
    ];
  });
  let idle: Socket[] = [];
  try {
    const opened = await openIdle(pbx.port(), '127.0.0.2', 1000);
    idle = opened.sockets;
    // Refused at once or served after the raw grace time: the server has ended every one of them,
    // and holds the served ones until the client closes (which these never do).
    await eventually(() => opened.ended() === 1000, 'the server has ended all 1,000');
    const { bytes } = await exchange(pbx.port(), { localAddress: '127.0.0.3' });
    assert.match(bytes.toString('latin1'), /^<<<\w+>>>\n/);
    assert.ok(pbx.store.moduleLog().some((e) => /per address.*127\.0\.0\.2/.test(e.message)));
  } finally {
    for (const socket of idle) socket.destroy();
    await pbx.close();
  }
});

test('data endpoint: a closed connection stops counting for its address at once', async () => {
  const pbx = await startEndpoint(
    (state) => {
      state.monitoring.hosts = [{ entry: '127.0.0.2/32', active: true }];
      // The three stay unanswered, so they count (answered ones do not: connection-table.test.ts).
      state.monitoring.rawGraceMs = 60_000;
    },
    { limits: { maxConnectionsPerAddress: 3 } },
  );
  let idle: Socket[] = [];
  try {
    idle = (await openIdle(pbx.port(), '127.0.0.2', 3)).sockets;
    await eventually(() => pbx.endpoint.openConnections() === 3, 'three held');
    const refused = await exchange(pbx.port(), { localAddress: '127.0.0.2' });
    assert.equal(refused.bytes.length, 0);
    for (const socket of idle) socket.destroy();
    await eventually(() => pbx.endpoint.openConnections() === 0, 'the three are gone');
    const served = await exchange(pbx.port(), { localAddress: '127.0.0.2' });
    assert.match(served.bytes.toString('latin1'), /^<<<\w+>>>\n/);
  } finally {
    for (const socket of idle) socket.destroy();
    await pbx.close();
  }
});
