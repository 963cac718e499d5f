/** Live properties of redirects, compression and the timeout range (RESOLVER-REDIRECTS, -RESPONSE-COMPRESSED, -TIMEOUT-RANGE). */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxWorld } from '../support/world.ts';
import { resolveOnce } from './support/resolution-run.ts';
import { pathAndQuery, personName, redirectStatus } from './support/resolver-arbitraries.ts';
import { resolverProperty } from './support/resolver-property.ts';

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

Then(
  'for generated timeouts from {int} to {int} ms the PBX works with the configured timeout \\({int} runs)',
  function (this: PbxWorld, min: number, max: number, runs: number) {
    return resolverProperty(
      this,
      'timeout in range is taken',
      runs,
      fc.integer({ min, max }),
      async (timeoutMs, control, scenario) => {
        const { answer } = await resolveOnce(control, scenario, {
          provider: (draft) => {
            draft.config.timeoutMs = timeoutMs;
          },
        });
        assert.equal(answer.attempts[0]?.timing?.timeoutMs, timeoutMs);
      },
    );
  },
);
