/**
 * A busy neighbour for bench/port-fixtures-under-load.ts: keeps about `LISTENERS` listening
 * sockets on random ports (port 0 on 127.0.0.1, random fixed ports on 127.0.0.1 below and in the
 * ephemeral range, and a few on 0.0.0.0, which block that port on every loopback address) and
 * opens and closes client connections to them without pause, so the ports the OS hands out and
 * the ports next to them are often taken, as on a CI machine running other suites.
 * Runs until killed.
 */
import { connect, createServer, type Server } from 'node:net';

const LISTENERS = Number(process.env['CHURN_LISTENERS'] ?? 1500);
const WILDCARD_SHARE = 0.1;
const servers: Server[] = [];

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

void churnListeners();
void churnClients();
process.stdout.write('churning\n');
