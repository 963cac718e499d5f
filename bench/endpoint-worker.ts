import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { bareHttpServer } from './http-load.ts';
import { startTsWorker } from './ts-worker.ts';

const ROLE = 'bench-endpoint-worker';

/**
 * A bare node:http endpoint (fixed 200 body, `bareHttpServer`) on its own thread: for benches
 * whose system under test is a client (the web resolver), so the endpoint's work runs on another
 * core than the client's and is not charged to it, nor to the plain undici loop it is held against.
 */
export async function startEndpointWorker(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const worker = startTsWorker(new URL(import.meta.url), { role: ROLE, body });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    close: async () => {
      await worker.terminate();
    },
  };
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE && parentPort) {
  const { url } = await bareHttpServer((workerData as { body: string }).body);
  parentPort.postMessage(url);
}
