import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { FIXTURE_ERROR_NAME } from '../../../src/core/fixture-error-name.ts';
import type { CertificationSpec } from './certification-spec.ts';
import { CERTIFICATION_THREAD, type ThreadAnswer, type ThreadRequest } from './certification-thread.ts';
import { certifyInProcess } from './certify-in-process.ts';

/**
 * The certification thread's entry (issue 31 §1): makes each certification it is sent
 * (certify-in-process.ts: the scenario PBXs, the plug-in runs, the judging and the report), any
 * number at once as their run slots allow, and answers each with its result or its error. It runs
 * off the features' main thread, so a certification made in the background while the other
 * features run (prefetch.ts) leaves that thread its core. Cucumber loads every file under steps/
 * as support code on the main thread as well: there this module does nothing.
 */
if (!isMainThread && workerData === CERTIFICATION_THREAD && parentPort) {
  const port = parentPort;
  port.on('message', ({ id, spec }: ThreadRequest) => {
    certifyInProcess(spec as CertificationSpec).then(
      (done) => port.postMessage({ id, done } satisfies ThreadAnswer),
      (error: unknown) =>
        port.postMessage({
          id,
          error: {
            fixture: error instanceof Error && error.name === FIXTURE_ERROR_NAME,
            message: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? (error.stack ?? '') : '',
          },
        } satisfies ThreadAnswer),
    );
  });
}
