import { createHash } from 'node:crypto';
import { type RecordedClose, type RecordedStream, toRecordedBytes } from '../../simulators/pbx/index.ts';
import { tcpExchange } from '../core/tcp-exchange.ts';

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
 * the server's FIN (`end`), a reset (`ECONNRESET`), or our own close after `timeoutMs` (or at
 * `maxBytes`). The exchange itself is the harness's one TCP exchanger (src/core/tcp-exchange.ts).
 */
export async function captureTcp(options: CaptureOptions): Promise<Captured> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outcome = await tcpExchange({
    host: options.host,
    port: options.port,
    timeoutMs,
    maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    ...(options.request ? { send: options.request } : {}),
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  if (!outcome.connected) {
    throw new CaptureError(
      outcome.errorCode === 'ETIMEDOUT'
        ? `no connection to ${options.host}:${options.port} within ${timeoutMs} ms`
        : `${options.host}:${options.port}: ${outcome.errorCode}`,
    );
  }
  const close: Omit<RecordedClose, 'atMs'> =
    outcome.end === 'peer-reset'
      ? { by: 'server', how: 'reset' }
      : outcome.end === 'peer-closed'
        ? { by: 'server', how: 'fin' }
        : { by: 'client', how: 'timeout' };
  return {
    bytes: outcome.bytes,
    connectMs: round(outcome.connectMs),
    chunks: outcome.chunks.map((chunk) => ({ atMs: round(chunk.atMs), length: chunk.length })),
    close: { ...close, atMs: round(outcome.endAtMs) },
  };
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
