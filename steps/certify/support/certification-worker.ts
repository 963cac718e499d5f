import { FIXTURE_ERROR_NAME } from '../../../src/core/fixture-error-name.ts';
import {
  CERTIFICATION_PROCESS,
  CERTIFICATION_ROLE,
  type ThreadAnswer,
  type ThreadRequest,
} from './certification-process.ts';
import type { CertificationSpec } from './certification-spec.ts';
import { certifyInProcess } from './certify-in-process.ts';

/**
 * The certification process's entry (issue 31 §1, certification-process.ts): makes each
 * certification it is sent (certify-in-process.ts: the scenario PBXs, the plug-in runs, the judging
 * and the report), any number at once as their run slots allow, and answers each with its result
 * or its error. Cucumber loads every file under steps/ as support code in the harness's process as
 * well: there this module does nothing. It ends with the harness (its channel closing).
 */
if (process.env[CERTIFICATION_ROLE] === CERTIFICATION_PROCESS && process.send) {
  delete process.env[CERTIFICATION_ROLE];
  const send = (answer: ThreadAnswer) => process.send?.(answer);
  process.on('disconnect', () => process.exit(0));
  process.on('message', ({ id, spec }: ThreadRequest) => {
    certifyInProcess(spec as CertificationSpec).then(
      (done) => send({ id, done }),
      (error: unknown) =>
        send({
          id,
          error: {
            fixture: error instanceof Error && error.name === FIXTURE_ERROR_NAME,
            message: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? (error.stack ?? '') : '',
          },
        }),
    );
  });
}
