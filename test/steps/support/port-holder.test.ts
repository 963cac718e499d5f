import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FixtureError } from '../../../steps/support/fixture-error.ts';
import {
  freePortBelowEphemeral,
  type HeldPort,
  holdConsecutivePorts,
  holdPort,
  nonEphemeralRange,
  releasePorts,
  spareLoopbackAddress,
} from '../../../steps/support/port-holder.ts';

test('holds consecutive ports with the spare after them free', async () => {
  const held = await holdConsecutivePorts('127.0.0.1', 2, 1);
  try {
    assert.equal(held.length, 2);
    assert.equal(held[1]!.port, held[0]!.port + 1);
  } finally {
    await releasePorts(held);
  }
});

test('gives up with a FixtureError after its bounded tries when every base is taken', async () => {
  const { low, high } = nonEphemeralRange(2);
  let taken: HeldPort | undefined;
  for (let port = low + 1_000; taken === undefined; port += 7) {
    taken = await holdPort('127.0.0.1', port).catch(() => undefined);
  }
  try {
    // Every try draws the taken port as its base.
    const pinned = (taken.port - low + 0.5) / (high - low);
    await assert.rejects(
      holdConsecutivePorts('127.0.0.1', 1, 1, 3, () => pinned),
      (error: unknown) => error instanceof FixtureError && /in 3 tries/.test(error.message),
    );
  } finally {
    await releasePorts([taken]);
  }
});

test('an address that cannot be bound is a FixtureError at once', async () => {
  await assert.rejects(holdConsecutivePorts('192.0.2.1', 1, 1, 5), FixtureError);
});

test('bases lie below the ephemeral range', () => {
  const { low, high } = nonEphemeralRange(3);
  assert.ok(low >= 1024 && low < high);
});

test('a spare loopback address is outside 127.0.0.x and can be bound, where the OS allows it', async () => {
  const host = await spareLoopbackAddress();
  if (host === undefined) return;
  assert.match(host, /^127\.(?!0\.0\.)\d+\.\d+\.\d+$/);
  await releasePorts([await holdPort(host, 0)]);
});

test('a free port below the ephemeral range is free and below it; a taken pick is passed over', async () => {
  const { low, high } = nonEphemeralRange(1);
  const port = await freePortBelowEphemeral('127.0.0.1');
  assert.ok(port !== undefined && port >= low && port < high, `port ${port} outside [${low}, ${high})`);
  const taken = await holdPort('127.0.0.1', port);
  try {
    const pinned = (taken.port - low + 0.5) / (high - low);
    assert.equal(await freePortBelowEphemeral('127.0.0.1', 3, () => pinned), undefined);
  } finally {
    await releasePorts([taken]);
  }
});
