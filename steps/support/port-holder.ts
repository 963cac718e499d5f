import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { FixtureError } from './fixture-error.ts';

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

/**
 * A port that was free a moment ago. A failure to bind is the harness's fault: it throws
 * {@link FixtureError}, so the scenario is not verifiable rather than failed.
 */
export async function freePort(host: string): Promise<number> {
  let held: HeldPort;
  try {
    held = await holdPort(host, 0);
  } catch (error) {
    throw new FixtureError(`the harness cannot open a port on ${host} (${errorCode(error)})`, {
      cause: error,
    });
  }
  await releasePorts([held]);
  return held.port;
}

/**
 * A port below the kernel's ephemeral range that was free a moment ago, for a listener whose port
 * a scenario later checks is closed again (tile off, no licence, empty hosts list). A port the
 * kernel hands out for `listen(0)` goes back into the pool when it is closed, and on a busy
 * machine, or beside a second suite, another program's `listen(0)` took it within the second the
 * check needed: the harness then saw a foreign listener and blamed the target. Below the range
 * only a program that names the port can take it. `undefined` when none of `attempts` random
 * picks was free (the caller falls back to an ephemeral port).
 */
export async function freePortBelowEphemeral(
  host: string,
  attempts = 20,
  random: () => number = Math.random,
): Promise<number | undefined> {
  const { low, high } = nonEphemeralRange(1);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = low + Math.floor(random() * (high - low));
    if (await isPortFree(host, port)) return port;
  }
  return undefined;
}

/** How many bases {@link holdConsecutivePorts} tries before giving up (each try costs a few binds). */
export const CONSECUTIVE_PORT_ATTEMPTS = 40;

/**
 * Holds a run of `count` consecutive free ports (`port`, `port + 1`, …) on `host` and also checks
 * that the `spare` ports after them are free. The bases are drawn at random below the kernel's
 * ephemeral range, where outgoing connections and `listen(0)` of other programs do not land, so a
 * busy machine rarely has them taken; a base whose run is not free is simply replaced by another
 * (sound: any free run proves the same thing), up to {@link CONSECUTIVE_PORT_ATTEMPTS} times.
 * When none fits, throws {@link FixtureError}: the fixture could not be set up, which makes the
 * scenario not verifiable (MON-STATE-PORT-FALLBACK, MON-STATE-BOTH-PORTS-BUSY), never failed.
 */
export async function holdConsecutivePorts(
  host: string,
  count: number,
  spare: number,
  attempts = CONSECUTIVE_PORT_ATTEMPTS,
  random: () => number = Math.random,
): Promise<HeldPort[]> {
  const { low, high } = nonEphemeralRange(count + spare);
  let lastProblem = 'every base tried was taken';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const base = low + Math.floor(random() * (high - low));
    const held: HeldPort[] = [];
    try {
      for (let i = 0; i < count; i++) held.push(await holdPort(host, base + i));
      let spareFree = true;
      for (let i = 0; i < spare && spareFree; i++) spareFree = await isPortFree(host, base + count + i);
      if (spareFree) return held;
    } catch (error) {
      const code = errorCode(error);
      // Not "taken" but "this address cannot be bound here": no other base will do better.
      if (code !== 'EADDRINUSE' && code !== 'EACCES') {
        await releasePorts(held);
        throw new FixtureError(`the harness cannot open ports on ${host} (${code})`, { cause: error });
      }
      lastProblem = `last try: port ${base + held.length} ${code}`;
    }
    await releasePorts(held);
  }
  throw new FixtureError(
    `found no ${count} consecutive free ports with ${spare} free after them on ${host} in ${attempts} tries (${lastProblem})`,
  );
}

/**
 * A loopback address of its own for a scenario that must own a run of consecutive ports: Linux
 * routes all of 127.0.0.0/8 to the loopback interface, and almost nothing else listens on, say,
 * 127.83.17.201, so every port there is free except those of programs bound to 0.0.0.0.
 * 127.0.0.x is left out (the harness's listed and unlisted client addresses live there).
 * Returns `undefined` where such addresses cannot be bound (macOS, Windows: only 127.0.0.1).
 */
export async function spareLoopbackAddress(random: () => number = Math.random): Promise<string | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const octet = (min: number) => min + Math.floor(random() * (255 - min));
    const host = `127.${octet(1)}.${octet(0)}.${octet(1)}`;
    try {
      await releasePorts([await holdPort(host, 0)]);
      return host;
    } catch (error) {
      if (errorCode(error) === 'EADDRNOTAVAIL') return undefined;
    }
  }
  return undefined;
}

/**
 * Ports `[low, high)` where a run of `length` ports can start without touching the ephemeral
 * range (Linux: /proc/sys/net/ipv4/ip_local_port_range, usually 32768-60999; elsewhere IANA's
 * 49152-65535).
 */
export function nonEphemeralRange(length: number): { low: number; high: number } {
  let ephemeralLow = 49_152;
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const parsed = Number(first);
    if (Number.isInteger(parsed) && parsed > 2_048) ephemeralLow = parsed;
  } catch {
    // not Linux: keep the IANA range
  }
  const low = Math.min(20_000, Math.floor(ephemeralLow / 2));
  return { low, high: ephemeralLow - length };
}

/** Closes every held port (the list is emptied). */
export async function releasePorts(ports: HeldPort[]): Promise<void> {
  const all = ports.splice(0);
  await Promise.all(all.map((p) => new Promise<void>((resolve) => p.server.close(() => resolve()))));
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
