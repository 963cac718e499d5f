import { connect } from 'node:net';

/** One request/response over a fresh TCP connection; resolves with the bytes read until EOF. */
export function exchange(host: string, port: number, request: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const socket = connect({ host, port }, () => {
      if (request !== null) socket.write(request);
    });
    socket.on('data', (chunk) => {
      bytes += chunk.length;
    });
    socket.on('end', () => resolve(bytes));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('bench exchange timed out')));
  });
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  errors: number;
}

/** Runs `concurrency` loops of `task` for `durationMs` of wall time; counts completions. */
export async function runLoad(
  task: () => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<LoadResult> {
  const started = performance.now();
  const deadline = started + durationMs;
  let requests = 0;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await task();
        requests++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { requests, seconds, perSecond: requests / seconds, errors };
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
