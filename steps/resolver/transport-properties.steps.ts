/**
 * Live properties of redirects, compression and the timeout range (RESOLVER-REDIRECTS,
 * RESOLVER-RESPONSE-COMPRESSED, RESOLVER-TIMEOUT-RANGE).
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxWorld } from '../support/world.ts';
import { resolveOnce } from './support/resolution-run.ts';
import { pathAndQuery, personName, redirectStatus } from './support/resolver-arbitraries.ts';
import { resolverProperty } from './support/resolver-property.ts';
import { isTimeoutWarning } from './support/timeout-warning.ts';

Then(
  "for generated redirect statuses and locations the PBX's next request goes to the location \\({int} runs)",
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'redirects are followed',
      runs,
      fc.record({
        status: redirectStatus(),
        target: pathAndQuery().filter((p) => !p.startsWith('/lookup')),
        absolute: fc.boolean(),
      }),
      async ({ status, target, absolute }, control, scenario) => {
        const endpoint = scenario.endpoints.get('main');
        assert.ok(endpoint, 'no customer endpoint');
        const location = absolute ? `${endpoint.base}${target}` : target;
        const { records, answer } = await resolveOnce(control, scenario, {
          routes: { '/lookup': { redirect: { location, status } } },
        });
        assert.equal(records[0]?.path, '/lookup', 'the first request was not for the provider URL');
        assert.equal(
          records[1]?.target,
          target,
          `after ${status} to ${location} the PBX requested ${records[1]?.target}`,
        );
        assert.equal(records[1]?.method, 'GET');
        assert.equal(answer.state, 'resolved', 'the answer at the new location was not evaluated');
      },
    );
  },
);

Then(
  'for generated names compressed with gzip, deflate or br the PBX resolves the name \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'compressed answers are evaluated',
      runs,
      fc.record({
        name: personName(),
        coding: fc.constantFrom('gzip', 'deflate', 'br') as fc.Arbitrary<'gzip' | 'deflate' | 'br'>,
      }),
      async ({ name, coding }, control, scenario) => {
        const { answer } = await resolveOnce(control, scenario, {
          answer: { body: JSON.stringify({ name }), compression: coding },
        });
        assert.equal(answer.state, 'resolved', `a ${coding} answer was not resolved`);
        assert.deepEqual(answer.attempts[0]?.variables, [name]);
      },
    );
  },
);

/** How far from the timeout the answers of the timeout property come: well after it, well before it. */
const LATE_BY_MS = 250;
const EARLY_BY_MS = 300;

Then(
  'for generated timeouts from {int} to {int} ms the PBX works with the configured timeout, warning after it and not well before it \\({int} runs)',
  function (this: PbxWorld, min: number, max: number, runs: number) {
    return resolverProperty(
      this,
      'timeout in range is taken and governs the warning',
      runs,
      fc.record({ timeoutMs: fc.integer({ min, max }), late: fc.boolean() }).map(({ timeoutMs, late }) => ({
        timeoutMs,
        // An answer well before a timeout below this margin would have to be instant: answer late.
        late: late || timeoutMs < EARLY_BY_MS + 100,
      })),
      async ({ timeoutMs, late }, control, scenario) => {
        const delayMs = late ? timeoutMs + LATE_BY_MS : timeoutMs - EARLY_BY_MS;
        const { answer } = await resolveOnce(control, scenario, {
          answer: { delayMs },
          provider: (draft) => {
            draft.config.timeoutMs = timeoutMs;
          },
        });
        assert.equal(answer.attempts[0]?.timing?.timeoutMs, timeoutMs);
        assert.equal(answer.state, 'resolved', `an answer after ${delayMs} ms was not evaluated`);
        const log = (await control.resolverSearchLog()).filter((l) => l.resolution === answer.resolution);
        assert.equal(
          log.some(isTimeoutWarning),
          late,
          `timeout ${timeoutMs} ms, answer after ${delayMs} ms: ${late ? 'no' : 'a'} timeout warning`,
        );
      },
    );
  },
);
