import { connect, createServer, type Server, type Socket } from 'node:net';

export interface AnswerProxyOptions {
  /** The data endpoint the proxy stands in front of. */
  upstream: { host: string; port: number };
  /** Address the proxy listens on (an ephemeral port). */
  host: string;
  /**
   * Hold the upstream's answer back for this long after the client connected, then pass it on
   * (the "slow answer" field situation). The upstream is asked at once, so only the delay differs.
   */
  delayMs?: number;
  /**
   * Rewrite the upstream's whole answer before it is passed on (the "sections missing" field
   * situation): the answer is held until the upstream has sent all of it.
   */
  rewrite?: (answer: Buffer) => Buffer;
}

/**
 * A small TCP proxy in front of the simulator's data endpoint, for the field situations the
 * simulator has no switch for: a slow answer (close to the fetcher's usual 8 s read timeout) and an
 * answer without the sections a plug-in reads (`rewrite`, see sections-missing.ts). Everything else is relayed byte for byte in both directions,
 * half-closes included; a connection the upstream closes without a byte (an unlisted host) is
 * closed without a byte too.
 */
export class AnswerProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: AnswerProxyOptions) {}

  async start(): Promise<{ host: string; port: number }> {
    const server = createServer({ allowHalfOpen: true }, (client) => this.relay(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.options.host, () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
    return { host: this.options.host, port: address.port };
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    const { upstream: target, delayMs = 0 } = this.options;
    const upstream = connect({ host: target.host, port: target.port, allowHalfOpen: true });
    this.track(client);
    this.track(upstream);
    const held: Buffer[] = [];
    let released = delayMs <= 0;
    let upstreamEnded = false;
    let forwardedAny = false;
    const { rewrite } = this.options;
    const flush = () => {
      if (!released || client.destroyed) return;
      // A rewritten answer goes out whole, once the upstream has sent all of it.
      if (rewrite && !upstreamEnded) return;
      if (rewrite && held.length > 0) held.splice(0, held.length, rewrite(Buffer.concat(held)));
      for (const chunk of held) client.write(chunk);
      forwardedAny ||= held.length > 0;
      held.length = 0;
      if (upstreamEnded) client.end();
    };
    if (!released) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        released = true;
        flush();
      }, delayMs);
      this.timers.add(timer);
    }
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('data', (chunk: Buffer) => {
      held.push(chunk);
      flush();
    });
    upstream.on('end', () => {
      upstreamEnded = true;
      flush();
    });
    upstream.on('close', () => {
      upstreamEnded = true;
      // Closed without a byte (unlisted host, refused): the client sees the same.
      if (!forwardedAny && held.length === 0) client.destroy();
      else flush();
    });
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => {
      upstreamEnded = true;
      if (!forwardedAny && held.length === 0) client.destroy();
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }
}

/**
 * Reads what a monitoring fetcher reads: connect, send nothing, read until the server closes.
 * Resolves with the text (possibly empty) or `null` when the connection is refused or times out.
 */
export function fetchRaw(
  address: { host: string; port: number },
  timeoutMs = 15_000,
): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port, allowHalfOpen: true });
    // Sending nothing and closing the sending side asks for the raw answer at once, without
    // waiting out the endpoint's grace period for silent clients (MON-RAW-MODE).
    socket.on('connect', () => socket.end());
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (value: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    socket.on('close', () => finish(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(error.code === 'ECONNREFUSED' ? null : Buffer.concat(chunks).toString('utf8')),
    );
  });
}
