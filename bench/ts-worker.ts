import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running a TypeScript module. Node 20 does not carry the main thread's
 * `--import tsx` loader into a worker (the worker's entry fails with "Unknown file extension
 * .ts"), so the worker starts from a one-line bootstrap that loads the module through tsx's API.
 * The module tells it is the worker by `isMainThread === false` and its `workerData`.
 */
export function startTsWorker(module: URL, workerData: unknown): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, workerData });
}
