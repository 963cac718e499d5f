import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

/** How a TCP exchange ended, as the client saw it. */
export type TcpEnd =
  /** Connected, then the peer closed its side (FIN). */
  | 'peer-closed'
  /** Connected, then the peer reset the connection. */
  | 'peer-reset'
  /** Connected, and the bytes so far make a whole answer (`isComplete`); the client closed. */
  | 'complete'
  /** Connected (`connectOnly`); nothing was sent or read. */
  | 'connected'
  /** Connected, but the peer neither closed nor answered fully within the time limit. */
  | 'timeout'
  /** The connection was never established (refused, unreachable, or no answer to the SYN). */
  | 'connect-failed'
  /** `maxBytes` arrived; the client stopped reading. */
  | 'too-large';

export interface TcpExchangeOptions {
  host: string;
  port: number;
  /** Local address to connect from, to pose as a listed or unlisted client. */
  localAddress?: string;
  family?: 4 | 6;
  /** Bytes to send right after connecting; nothing is sent when absent (raw mode). */
  send?: Buffer | string;
  /** Half-close after sending, as a raw client that has said all it will say. */
  endWrite?: boolean;
  /** Real-time limit for the whole exchange (connect and read to the end). */
  timeoutMs: number;
  /** Stop reading once this many bytes arrived (bounded memory). Default 32 MiB. */
  maxBytes?: number;
  /** Whether the bytes so far are a whole answer, so a peer that keeps the connection open is no hang. */
  isComplete?: (bytes: Buffer) => boolean;
  /** Close as soon as the connection is up: only whether it can be made. */
  connectOnly?: boolean;
  /**
   * Only without `send`: called right after connecting and every few ms after that while nothing
   * has arrived. Against the embedded simulator it advances the PBX's duration clock, so the
   * raw-mode grace a silent client waits for passes without sleeping.
   */
  whileSilent?: () => void;
}

/** How often `whileSilent` is called while a silent client waits (real ms). */
const SILENT_TICK_MS = 2;

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export interface TcpOutcome {
  connected: boolean;
  /** e.g. `ECONNREFUSED`, `ETIMEDOUT`, `EADDRNOTAVAIL`, `ECONNRESET`. */
  errorCode?: string;
  bytes: Buffer;
  end: TcpEnd;
  /** Real ms from connect() to the connection being up (0 when it never was). */
  connectMs: number;
  /** Each chunk as it arrived: real ms after the request was written (after the connect without one). */
  chunks: { atMs: number; length: number }[];
  /** Real ms from the same origin as `chunks` to the end. */
  endAtMs: number;
  /** Whole real ms from connect() to the end (evidence only; never asserted). */
  elapsedMs: number;
}

/**
 * The one TCP exchanger of the harness (record's captures, fuzz's wire, the steps' raw clients):
 * connects, optionally sends (and half-closes), and reads until the peer closes, the answer is
 * whole, the byte bound is reached or the real-time limit passes; the harness never waits on a
 * simulator's virtual clock. Never throws: every ending is an outcome.
 */
export function tcpExchange(options: TcpExchangeOptions): Promise<TcpOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const started = performance.now();
  let origin = started;
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const chunks: TcpOutcome['chunks'] = [];
    let size = 0;
    let connected = false;
    let connectMs = 0;
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
      const now = performance.now();
      resolve({
        connected,
        ...(errorCode ? { errorCode } : {}),
        bytes: Buffer.concat(parts),
        end,
        connectMs,
        chunks,
        endAtMs: now - origin,
        elapsedMs: Math.round(now - started),
      });
    };
    const timer = setTimeout(() => {
      if (!connected) finish('connect-failed', 'ETIMEDOUT');
      else finish(options.isComplete?.(Buffer.concat(parts)) ? 'complete' : 'timeout');
    }, options.timeoutMs);
    socket.once('connect', () => {
      connected = true;
      connectMs = performance.now() - started;
      origin = performance.now();
      if (options.connectOnly) return finish('connected');
      if (options.send !== undefined) {
        socket.write(options.send);
        origin = performance.now();
        if (options.endWrite) socket.end();
      } else if (options.whileSilent) {
        const tick = options.whileSilent;
        tick();
        if (!settled && size === 0) silence = setInterval(tick, SILENT_TICK_MS);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      clearInterval(silence);
      chunks.push({ atMs: performance.now() - origin, length: chunk.length });
      parts.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) finish('too-large');
      else if (options.isComplete?.(Buffer.concat(parts))) finish('complete');
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
export async function canConnect(
  host: string,
  port: number,
  localAddress: string,
  timeoutMs: number,
): Promise<{ connected: boolean; errorCode?: string }> {
  const outcome = await tcpExchange({ host, port, localAddress, timeoutMs, connectOnly: true });
  return outcome.connected
    ? { connected: true }
    : { connected: false, errorCode: outcome.errorCode ?? 'ERROR' };
}
