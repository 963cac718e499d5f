import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

export interface ListenOptions {
  port: number;
  host: string;
  /** Do not share the port with cluster workers (the data endpoint's port-busy detection). */
  exclusive?: boolean;
}

/**
 * Starts `server` listening and resolves with the address it got (port 0: any free port). A
 * listen failure (port in use, address not available) rejects with Node's error, whose `code`
 * (`EADDRINUSE`, `EADDRNOTAVAIL`, `EACCES`) callers turn into their own message; the server's
 * error listener is removed either way.
 */
export function listen(server: Server, options: ListenOptions): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port: options.port, host: options.host, exclusive: options.exclusive ?? false }, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** `http://host:port` of an address, with IPv6 hosts in brackets. */
export function httpUrl(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Closes a server and resolves once it has closed; an HTTP server drops its idle and active
 * keep-alive connections at once (a raw TCP server's owner destroys its sockets itself).
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    const http = server as Partial<HttpServer>;
    if (typeof http.closeAllConnections === 'function') http.closeAllConnections();
  });
}
