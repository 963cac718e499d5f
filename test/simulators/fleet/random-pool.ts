import { createServer } from 'node:net';
import { type AddressPool, addressAt, parseAddressPool } from '../../../simulators/fleet/address-pool.ts';
import { probeBind } from '../../../simulators/fleet/fleet-preflight.ts';
import { nonEphemeralRange } from '../../../steps/support/port-holder.ts';

/**
 * A random /24 loopback block (127.150-249.x.0/24) and a random port below the ephemeral range that
 * is free on its first `count` addresses, so two test runs on one machine do not collide.
 * `undefined` where such addresses cannot be bound (not Linux).
 */
export async function randomPool(
  count: number,
): Promise<{ pool: AddressPool; port: number; port2: number } | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const pool = parseAddressPool(
      `127.${150 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 256)}.0/24`,
    );
    const { low, high } = nonEphemeralRange(2);
    const port = low + Math.floor(Math.random() * (high - low));
    let free = true;
    for (let i = 0; i < count && free; i++) {
      const address = addressAt(pool, i);
      const first = await probeBind(address, port);
      if (first === 'EADDRNOTAVAIL') return undefined;
      free = first === null && (await probeBind(address, port + 1)) === null;
    }
    if (free) return { pool, port, port2: port + 1 };
  }
  return undefined;
}

/** A block and two ports `randomPool` picked. */
export type PickedPool = NonNullable<Awaited<ReturnType<typeof randomPool>>>;

/** The `simulate` options that put a fleet's (or a shard's) PBXs on the picked block and ports. */
export function poolOptions(picked: PickedPool): string[] {
  return [
    '--address-pool',
    picked.pool.spec,
    '--port',
    String(picked.port),
    '--web-port',
    String(picked.port2),
  ];
}

/** A listener holding `address:port` until closed. */
export function holdAddressPort(address: string, port: number): Promise<{ close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: address, port, exclusive: true }, () =>
      resolve({ close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}
