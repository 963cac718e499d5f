import { createServer, type Server } from 'node:net';

/** A TCP server on 127.0.0.1 that accepts and closes connections; `close()` ends it. */
export interface ListeningPort {
  port: number;
  close(): Promise<void>;
}

export async function listeningPort(): Promise<ListeningPort> {
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A port on 127.0.0.1 that nothing listens on: bound once, noted, closed. */
export async function closedPort(): Promise<number> {
  const { port, close } = await listeningPort();
  await close();
  return port;
}

/** A target description that matches schemas/target.schema.json, on 127.0.0.1. */
export function sampleTarget(
  ports: { web: number; monitoring: number; control?: number },
  name = 'lab',
): Record<string, unknown> {
  return {
    name,
    pbx: {
      webUrl: `http://127.0.0.1:${ports.web}`,
      monitoring: { host: '127.0.0.1', port: ports.monitoring },
      xmlrpc: { path: '/xml-rpc', instanceName: 'pbx', authParam: 'auth', login: 'admin', password: 'pw' },
      ...(ports.control === undefined ? {} : { controlUrl: `http://127.0.0.1:${ports.control}/` }),
      listedClientAddress: '127.0.0.1',
    },
  };
}
