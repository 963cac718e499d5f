import { connect } from 'node:net';

/** How a TCP exchange ended, as the client saw it. */
export type TcpEnd =
  /** Connected, then the peer closed its side (FIN). */
  | 'peer-closed'
  /** Connected, then the peer reset the connection. */
  | 'peer-reset'
  /** Connected, but the peer neither closed nor answered fully within the time limit. */
  | 'timeout'
  /** The connection was never established (refused, unreachable, or no answer to the SYN). */
  | 'connect-failed'
  /** More than `maxBytes` arrived; the client stopped reading. */
  | 'too-large';

export interface TcpExchangeOptions {
  host: string;
  port: number;
  /** Local address to connect from, to pose as a listed or unlisted monitoring host. */
  localAddress?: string;
  family?: 4 | 6;
  /** Bytes to send right after connecting; nothing is sent when absent (raw mode). */
  send?: Buffer | string;
  /** Real-time limit for the whole exchange (connect and read to EOF). */
  timeoutMs: number;
  /** Stop reading after this many bytes (bounded memory). Default 32 MiB. */
  maxBytes?: number;
  /**
   * Only without `send`: called right after connecting and every few ms after that while nothing
   * has arrived. Against the embedded simulator it advances the PBX's duration clock, so the
   * raw-mode grace a silent client waits for passes without sleeping (world.ts).
   */
  whileSilent?: () => void;
}

/** How often `whileSilent` is called while a silent client waits (real ms). */
const SILENT_TICK_MS = 2;

export interface TcpOutcome {
  connected: boolean;
  /** e.g. `ECONNREFUSED`, `ETIMEDOUT`, `EADDRNOTAVAIL`. */
  errorCode?: string;
  bytes: Buffer;
  end: TcpEnd;
  /** Real milliseconds from connect() to the end (evidence only; never asserted). */
  elapsedMs: number;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Connects, optionally sends, and reads until the peer closes, with a real-time limit (the
 * harness never waits on the simulator's virtual clock). Never throws: every ending is an outcome.
 */
export function tcpExchange(options: TcpExchangeOptions): Promise<TcpOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let connected = false;
    let settled = false;
    const socket = connect({
      host: options.host,
      port: options.port,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      ...(options.family ? { family: options.family } : {}),
    });
    let silence: NodeJS.Timeout | undefined;
    const finish = (end: TcpEnd, errorCode?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(silence);
      socket.destroy();
      resolve({
        connected,
        ...(errorCode ? { errorCode } : {}),
        bytes: Buffer.concat(chunks),
        end,
        elapsedMs: Math.round(performance.now() - started),
      });
    };
    const timer = setTimeout(
      () => finish(connected ? 'timeout' : 'connect-failed', connected ? undefined : 'ETIMEDOUT'),
      options.timeoutMs,
    );
    socket.on('connect', () => {
      connected = true;
      if (options.send !== undefined) socket.write(options.send);
      else if (options.whileSilent) {
        const tick = options.whileSilent;
        tick();
        if (!settled && size === 0) silence = setInterval(tick, SILENT_TICK_MS);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      clearInterval(silence);
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) finish('too-large');
    });
    socket.on('end', () => finish('peer-closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) finish('connect-failed', error.code ?? 'ERROR');
      else finish(error.code === 'ECONNRESET' ? 'peer-reset' : 'peer-closed', error.code);
    });
    socket.on('close', () => finish(connected ? 'peer-closed' : 'connect-failed'));
  });
}

/** One-line description of an outcome, for evidence and assertion messages. */
export function describeTcpOutcome(outcome: TcpOutcome): string {
  const how = outcome.connected
    ? `connected, ${outcome.end}`
    : `not connected (${outcome.errorCode ?? 'unknown'})`;
  return `${how}; ${outcome.bytes.length} bytes received; ${outcome.elapsedMs} ms`;
}

/** Whether a TCP connection from `localAddress` to `host:port` is established; nothing is sent. */
export function canConnect(
  host: string,
  port: number,
  localAddress: string,
  timeoutMs: number,
): Promise<{ connected: boolean; errorCode?: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, localAddress });
    const done = (result: { connected: boolean; errorCode?: string }) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ connected: false, errorCode: 'ETIMEDOUT' }), timeoutMs);
    socket.once('connect', () => done({ connected: true }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({ connected: false, errorCode: error.code ?? error.message }),
    );
  });
}
