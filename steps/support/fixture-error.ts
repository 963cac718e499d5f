import { FIXTURE_ERROR_NAME } from '../../src/core/fixture-error-name.ts';

/**
 * The harness could not set up a fixture of its own (a port, an address, a temporary file, a
 * certificate, a helper server): the target did nothing wrong. A step that throws it (directly or
 * from a helper) makes its scenario *not verifiable* with this message as the reason, never a
 * failure: the report builder recognises the exception by its class name
 * ({@link FIXTURE_ERROR_NAME}, src/report/scenario-results.ts).
 */
export class FixtureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = FIXTURE_ERROR_NAME;
  }
}
