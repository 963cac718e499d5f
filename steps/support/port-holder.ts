import { createServer, type Server } from 'node:net';

/** A TCP port the harness holds open to play "another program" on the PBX host. */
export interface HeldPort {
  host: string;
  port: number;
  server: Server;
}

/** Listens on `host:port` (port 0: any free one); rejects with the listen error (EADDRINUSE, EADDRNOTAVAIL). */
export function holdPort(host: string, port: number): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('no address'));
        return;
      }
      resolve({ host, port: address.port, server });
    });
  });
}

/** Whether `host:port` can be bound right now (checked by binding and releasing it). */
export async function isPortFree(host: string, port: number): Promise<boolean> {
  try {
    const held = await holdPort(host, port);
    await releasePorts([held]);
    return true;
  } catch {
    return false;
  }
}

/** A port that was free a moment ago (races are possible but harmless: the step then fails loudly). */
export async function freePort(host: string): Promise<number> {
  const held = await holdPort(host, 0);
  await releasePorts([held]);
  return held.port;
}

/**
 * Holds a run of `count` consecutive free ports (`port`, `port + 1`, …) and also checks that the
 * `spare` ports after them are free. Tries a few random bases; throws when none fits.
 */
export async function holdConsecutivePorts(host: string, count: number, spare: number): Promise<HeldPort[]> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = await freePort(host);
    if (base + count + spare > 65_535) continue;
    const held: HeldPort[] = [];
    try {
      for (let i = 0; i < count; i++) held.push(await holdPort(host, base + i));
      let spareFree = true;
      for (let i = 0; i < spare; i++) spareFree &&= await isPortFree(host, base + count + i);
      if (spareFree) return held;
    } catch {
      // a port of the run is taken; try another base
    }
    await releasePorts(held);
  }
  throw new Error(`found no ${count} consecutive free ports with ${spare} free after them on ${host}`);
}

/** Closes every held port (the list is emptied). */
export async function releasePorts(ports: HeldPort[]): Promise<void> {
  const all = ports.splice(0);
  await Promise.all(all.map((p) => new Promise<void>((resolve) => p.server.close(() => resolve()))));
}
