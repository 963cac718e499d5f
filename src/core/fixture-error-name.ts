/**
 * The exception type (class name) Cucumber records for a step that threw the harness's
 * `FixtureError` (steps/support/fixture-error.ts): such a scenario is not verifiable, not failed.
 */
export const FIXTURE_ERROR_NAME = 'FixtureError';
