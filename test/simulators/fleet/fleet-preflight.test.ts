import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { addressAt, parseAddressPool } from '../../../simulators/fleet/address-pool.ts';
import {
  descriptorsNeeded,
  FDS_PER_LINKED_SITE,
  FDS_PER_PBX,
  FDS_PER_SHARD_PBX,
  largestFleetUnder,
  openFileShortfall,
  preflightFleet,
  readOpenFileLimit,
} from '../../../simulators/fleet/fleet-preflight.ts';
import { holdAddressPort, randomPool } from './random-pool.ts';

test('the open-file limit is read from a limits file; a file without one reads as no limit', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-limits-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'limits');
  await writeFile(
    file,
    'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n',
  );
  assert.deepEqual(readOpenFileLimit(file), { soft: 1024, hard: 524288 });
  await writeFile(file, 'Max open files            unlimited            unlimited            files\n');
  assert.deepEqual(readOpenFileLimit(file), {
    soft: Number.POSITIVE_INFINITY,
    hard: Number.POSITIVE_INFINITY,
  });
  await writeFile(file, 'nothing here\n');
  assert.equal(readOpenFileLimit(file), null);
  assert.equal(readOpenFileLimit(join(dir, 'missing')), null);
});

test('a fleet that does not fit under the open-file limit gets one line naming the limit and the command that raises it', () => {
  const need = descriptorsNeeded(10_000);
  assert.equal(need, 10_000 * FDS_PER_PBX + 256);
  const soft = openFileShortfall(10_000, { soft: 1_024, hard: 1_048_576 });
  assert.equal(
    soft,
    `the open-file limit 1024 is below the ${need} descriptors 10000 PBXs need in one process (2 each: its data endpoint and web listeners); raise it with \`ulimit -n ${need}\` in the shell that runs simulate`,
  );
  // This machine's case: only root raises the hard limit, and the line says how many fit below it.
  const hard = openFileShortfall(10_000, { soft: 20_000, hard: 20_000 });
  assert.equal(
    hard,
    `the hard open-file limit 20000 is below the ${need} descriptors 10000 PBXs need in one process (2 each: its data endpoint and web listeners; at most 9872 fit); raise it as root with \`ulimit -n ${need}\` in the shell that runs simulate (a container: --ulimit nofile=${need}), or split the fleet into processes with simulate --fleet-only and --shard i/N`,
  );
  assert.equal(largestFleetUnder(20_000), 9_872);
  assert.equal(openFileShortfall(9_872, { soft: 20_000, hard: 20_000 }), null);
  assert.ok(openFileShortfall(9_873, { soft: 20_000, hard: 20_000 }));
  // A shard's PBX holds its listeners alone (its link is a channel of the shard's one connection);
  // a site whose PBX links on its own connection holds that link's end in the controller.
  assert.match(
    openFileShortfall(6_000, { soft: 4_096, hard: 4_096 }, FDS_PER_SHARD_PBX) ?? '',
    /12256 descriptors 6000 PBXs need in one process \(2 each: its data endpoint and web listeners; at most 1920 fit\);.*, or split the fleet into processes with simulate --fleet-only and --shard i\/N$/,
  );
  assert.match(
    openFileShortfall(30_000, { soft: 20_000, hard: 20_000 }, FDS_PER_LINKED_SITE, 'linked sites') ?? '',
    /30256 descriptors 30000 linked sites need in one process \(1 each: its PBX's ingest link; at most 19744 fit\); raise it as root with `ulimit -n 30256` in the shell that runs simulate \(a container: --ulimit nofile=30256\)$/,
  );
  for (const line of [soft, hard]) assert.doesNotMatch(line ?? '', /\n/);
  assert.equal(openFileShortfall(100, null), null);
});

test('preflight refuses a pool smaller than the fleet and a port already taken on an address of the fleet', async (t) => {
  const tooSmall = await preflightFleet({ count: 5, pool: parseAddressPool('127.1.1.0/30'), ports: [6556] });
  assert.match(tooSmall ?? '', /holds 3 addresses, fewer than the 5 PBXs/);
  const picked = await randomPool(3);
  if (!picked) return t.skip('no spare loopback block on this system');
  assert.equal(
    await preflightFleet({ count: 3, pool: picked.pool, ports: [picked.port, picked.port2] }),
    null,
  );
  const held = await holdAddressPort(addressAt(picked.pool, 2), picked.port2);
  t.after(() => held.close());
  const busy = await preflightFleet({ count: 3, pool: picked.pool, ports: [picked.port, picked.port2] });
  assert.equal(
    busy,
    `port ${picked.port2} on ${addressAt(picked.pool, 2)} is not free (EADDRINUSE); stop what holds it or choose other ports`,
  );
});
