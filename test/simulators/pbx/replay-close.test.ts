import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import { serveConnection } from '../../../simulators/pbx/monitoring/endpoint/serve-connection.ts';
import { timed } from '../../../simulators/pbx/replay.ts';
import { durationClock } from '../../../simulators/shared/clock.ts';
import { captureTcp, toStream } from '../../../src/record/capture-tcp.ts';

/**
 * Issue 29 item 15: a replay ends its connection the way the recorded one ended. A data endpoint
 * under a fault that ends the connection by a reset, by a half-close (its FIN while it still
 * reads), or not at all (the recorder gives up: timeout) is recorded; the recording is replayed
 * by the simulator's endpoint (serve-connection.ts, as `simulate --recording` does); the replay
 * is recorded again, and both must say the same bytes and the same close.
 */

const AGENT = Buffer.from('<<<check_mk>>>\nVersion: 2.3.0\nAgentOS: pbx\n<<<pbx>>>\nonline_phones 139\n');
const RECORDER_TIMEOUT_MS = 1_500;

type Fault = 'reset' | 'half-close' | 'timeout';

/** A data endpoint that answers at once, in two pieces, then ends the connection by `fault`. */
function faultyEndpoint(fault: Fault): Server {
  return createServer({ allowHalfOpen: true }, (socket: Socket) => {
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('end', () => socket.destroy());
    socket.write(AGENT.subarray(0, 20));
    setTimeout(() => {
      if (socket.destroyed) return;
      socket.write(AGENT.subarray(20));
      setTimeout(() => {
        if (socket.destroyed) return;
        if (fault === 'reset') socket.resetAndDestroy();
        else if (fault === 'half-close') socket.end();
        // timeout: nothing; the recorder gives up.
      }, 60);
    }, 30);
  });
}

function replayServer(stream: ReturnType<typeof toStream>): Server {
  const clock = durationClock();
  const server = createServer({ allowHalfOpen: true }, (socket) =>
    serveConnection(socket, {
      limits: { maxHeadBytes: 8192, headTimeoutMs: 10_000, answerTimeoutMs: 10_000 },
      rawGraceMs: 0,
      durationClock: clock,
      isAllowed: () => true,
      answer: () => timed(stream, AGENT, 0, { timing: 'recorded' }),
    }),
  );
  server.once('close', () => clock.dispose());
  return server;
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

const EXPECTED: Record<Fault, { by: string; how: string }> = {
  reset: { by: 'server', how: 'reset' },
  'half-close': { by: 'server', how: 'fin' },
  timeout: { by: 'client', how: 'timeout' },
};

for (const fault of ['reset', 'half-close', 'timeout'] as const) {
  test(`a connection ended by ${fault} is recorded so, and its replay ends the same way`, async () => {
    const original = faultyEndpoint(fault);
    const recorded = await captureTcp({
      host: '127.0.0.1',
      port: await listening(original),
      timeoutMs: RECORDER_TIMEOUT_MS,
    }).finally(() => closed(original));
    assert.deepEqual(
      { by: recorded.close.by, how: recorded.close.how },
      EXPECTED[fault],
      'the recorder saw the fault',
    );
    assert.ok(recorded.bytes.equals(AGENT));
    const replay = replayServer(toStream(recorded));
    const port = await listening(replay);
    try {
      const again = await captureTcp({ host: '127.0.0.1', port, timeoutMs: RECORDER_TIMEOUT_MS });
      assert.ok(again.bytes.equals(AGENT), 'the replay serves the recorded bytes');
      assert.deepEqual(
        { by: again.close.by, how: again.close.how },
        { by: recorded.close.by, how: recorded.close.how },
        'the replay ends as the recording did',
      );
      // The close comes about as long after the last byte as it did when recorded.
      const gap = (capture: typeof recorded) => capture.close.atMs - (capture.chunks.at(-1)?.atMs ?? 0);
      assert.ok(Math.abs(gap(again) - gap(recorded)) < 500, `close gap ${gap(again)} vs ${gap(recorded)} ms`);
    } finally {
      await closed(replay);
    }
  });
}
