/**
 * A busy neighbour for bench/port-fixtures-under-load.ts: keeps about `LISTENERS` listening
 * sockets on random ports (port 0 on 127.0.0.1, random fixed ports on 127.0.0.1 below and in the
 * ephemeral range, and a few on 0.0.0.0, which block that port on every loopback address) and
 * opens and closes client connections to them without pause, so the ports the OS hands out and
 * the ports next to them are often taken, as on a CI machine running other suites.
 * Unless CHURN_DENSE=0, it first also takes every second port of the kernel's ephemeral range on
 * 127.0.0.1 (as a machine with thousands of outgoing connections does), so that no two
 * consecutive ports there are free: the situation in which the old fixture reported
 * `found no 2 consecutive free ports with 1 free after them on 127.0.0.1`.
 * Runs until killed.
 */
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';

const LISTENERS = Number(process.env['CHURN_LISTENERS'] ?? 1500);
const WILDCARD_SHARE = 0.1;
const servers: Server[] = [];
const dense: Server[] = [];

function randomPort(): number {
  return 1_025 + Math.floor(Math.random() * 64_000);
}

function listen(): Promise<void> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.end('x'));
    server.on('error', () => resolve());
    const roll = Math.random();
    const host = roll < WILDCARD_SHARE ? '0.0.0.0' : '127.0.0.1';
    const port = roll < 0.5 ? 0 : randomPort();
    server.listen({ host, port }, () => {
      servers.push(server);
      resolve();
    });
  });
}

async function churnListeners(): Promise<void> {
  for (;;) {
    while (servers.length < LISTENERS) await listen();
    // Replace a tenth of them, so which ports are taken keeps changing.
    for (const server of servers.splice(0, Math.ceil(LISTENERS / 10))) server.close();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function churnClients(): Promise<void> {
  for (;;) {
    const batch = servers.slice(-50).map(
      (server) =>
        new Promise<void>((resolve) => {
          const address = server.address();
          if (address === null || typeof address === 'string') return resolve();
          const socket = connect({ host: '127.0.0.1', port: address.port });
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.resume();
        }),
    );
    await Promise.all(batch);
    await new Promise((r) => setImmediate(r));
  }
}

async function takeEverySecondEphemeralPort(): Promise<void> {
  let [low, high] = [32_768, 60_999];
  try {
    [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number) as [number, number];
  } catch {
    // keep Linux's default range
  }
  for (let port = low + 1; port <= high; port += 2) {
    await new Promise<void>((resolve) => {
      const server = createServer((socket) => socket.destroy());
      server.on('error', () => resolve());
      server.listen({ host: '127.0.0.1', port }, () => {
        dense.push(server);
        resolve();
      });
    });
  }
}

if (process.env['CHURN_DENSE'] !== '0') await takeEverySecondEphemeralPort();
void churnListeners();
void churnClients();
process.stdout.write(`churning (${dense.length} ports of the ephemeral range held)\n`);
