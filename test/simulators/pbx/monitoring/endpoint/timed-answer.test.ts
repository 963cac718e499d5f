import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  serveConnection,
  type TimedAnswer,
} from '../../../../../simulators/pbx/monitoring/endpoint/serve-connection.ts';
import { durationClock } from '../../../../../simulators/shared/clock.ts';
import { exchange } from './endpoint-harness.ts';

/**
 * A timed answer (how `simulate --recording` replays a recorded stream) is written chunk by
 * chunk: every byte arrives, in order, however many chunks there are and however they are
 * delayed, and the connection ends as the answer says (issue 29 item 1).
 */

async function timedServer(answer: () => TimedAnswer): Promise<{ server: Server; port: number }> {
  const clock = durationClock();
  const server = createServer({ allowHalfOpen: true }, (socket) =>
    serveConnection(socket, {
      limits: { maxHeadBytes: 8192, headTimeoutMs: 5_000, answerTimeoutMs: 5_000 },
      rawGraceMs: 0,
      durationClock: clock,
      isAllowed: () => true,
      answer: () => answer(),
    }),
  );
  server.once('close', () => clock.dispose());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

test('tens of thousands of chunks due at the same moment are written without overflowing the stack', async () => {
  const bytes = Buffer.alloc(50_000, 'x');
  const chunks = [...bytes].map((_, index) => ({ delayMs: 0, bytes: bytes.subarray(index, index + 1) }));
  const { server, port } = await timedServer(() => ({ chunks, close: 'end' }));
  try {
    const got = await exchange(port, { timeoutMs: 20_000 });
    assert.equal(got.ending, 'end');
    assert.equal(got.bytes.length, bytes.length);
    assert.ok(got.bytes.equals(bytes));
  } finally {
    await closeServer(server);
  }
});

test('property: any chunk list is delivered whole and in order, then ended', async () => {
  let current: TimedAnswer = { chunks: [], close: 'end' };
  const { server, port } = await timedServer(() => current);
  const chunk = fc.record({
    delayMs: fc.constantFrom(0, 0, 0, 1, 3),
    bytes: fc.uint8Array({ minLength: 0, maxLength: 16 }).map((array) => Buffer.from(array)),
  });
  // Short lists with mixed delays, and long runs of zero-delay chunks (thousands at one moment).
  const chunkList = fc.oneof(
    fc.array(chunk, { maxLength: 40 }),
    fc
      .tuple(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 0, max: 255 }))
      .map(([count, value]) =>
        Array.from({ length: count }, () => ({ delayMs: 0, bytes: Buffer.from([value]) })),
      ),
  );
  try {
    await fc.assert(
      fc.asyncProperty(chunkList, async (chunks) => {
        current = { chunks, close: 'end' };
        const expected = Buffer.concat(chunks.map((one) => one.bytes));
        const got = await exchange(port, { timeoutMs: 20_000 });
        assert.equal(got.ending, 'end');
        assert.ok(got.bytes.equals(expected), `${got.bytes.length} of ${expected.length} bytes`);
      }),
      { numRuns: 40 },
    );
  } finally {
    await closeServer(server);
  }
});
