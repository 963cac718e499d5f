import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type RecordedClose, type RecordedStream, toRecordedBytes } from '../../simulators/pbx/index.ts';

export interface CaptureOptions {
  host: string;
  port: number;
  /** Bytes to send once connected (an HTTP request); nothing for a raw fetch. */
  request?: Buffer;
  /** Give up (close from our side) this long after the connect; default 10 s. */
  timeoutMs?: number;
  /** Stop reading after this many bytes; default 64 MiB. */
  maxBytes?: number;
  localAddress?: string;
}

/** What one TCP exchange gave, before redaction. */
export interface Captured {
  bytes: Buffer;
  connectMs: number;
  chunks: { atMs: number; length: number }[];
  close: RecordedClose;
}

/** A connection that could not be made (refused, unreachable, timed out). */
export class CaptureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaptureError';
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Connects, sends `request` (if any), and keeps every byte with the time it arrived: for a raw
 * fetch from the connect, for a request from the moment it was written. Notes who closed and how:
 * the server's FIN (`end`), a reset (`ECONNRESET`), or our own close after `timeoutMs`.
 */
export function captureTcp(options: CaptureOptions): Promise<Captured> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let origin = started;
    let connectMs = 0;
    let connected = false;
    const parts: Buffer[] = [];
    const chunks: Captured['chunks'] = [];
    let length = 0;
    let settled = false;
    const socket = connect({
      host: options.host,
      port: options.port,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const finish = (close: Omit<RecordedClose, 'atMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        bytes: Buffer.concat(parts),
        connectMs,
        chunks,
        close: { ...close, atMs: round(performance.now() - origin) },
      });
    };
    const timer = setTimeout(() => {
      if (!connected) {
        settled = true;
        socket.destroy();
        reject(new CaptureError(`no connection to ${options.host}:${options.port} within ${timeoutMs} ms`));
      } else finish({ by: 'client', how: 'timeout' });
    }, timeoutMs);
    socket.once('connect', () => {
      connected = true;
      connectMs = round(performance.now() - started);
      origin = performance.now();
      if (options.request) {
        socket.write(options.request);
        origin = performance.now();
      }
    });
    socket.on('data', (chunk: Buffer) => {
      if (length >= maxBytes) return;
      chunks.push({ atMs: round(performance.now() - origin), length: chunk.length });
      parts.push(chunk);
      length += chunk.length;
      if (length >= maxBytes) finish({ by: 'client', how: 'timeout' });
    });
    socket.on('end', () => finish({ by: 'server', how: 'fin' }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return finish({ by: 'server', how: error.code === 'ECONNRESET' ? 'reset' : 'fin' });
      settled = true;
      clearTimeout(timer);
      reject(new CaptureError(`${options.host}:${options.port}: ${error.code ?? error.message}`));
    });
    socket.on('close', () => finish({ by: 'server', how: 'fin' }));
  });
}

/** A captured exchange as a recorded stream (after redaction the caller passes the new bytes). */
export function toStream(captured: Captured, bytes: Buffer = captured.bytes): RecordedStream {
  return {
    bytes: toRecordedBytes(bytes),
    sha256: sha256(bytes),
    length: bytes.length,
    connectMs: captured.connectMs,
    chunks: resizeChunks(captured.chunks, bytes.length),
    close: captured.close,
  };
}

/** Chunk lengths that add up to `total` again after redaction changed the length (the last one absorbs it). */
export function resizeChunks(
  chunks: { atMs: number; length: number }[],
  total: number,
): { atMs: number; length: number }[] {
  const result: { atMs: number; length: number }[] = [];
  let left = total;
  chunks.forEach((chunk, index) => {
    const length = index === chunks.length - 1 ? left : Math.min(chunk.length, left);
    result.push({ atMs: chunk.atMs, length });
    left -= length;
  });
  return result;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
