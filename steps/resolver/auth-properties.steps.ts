/** Live properties of Basic and Digest authentication (RESOLVER-AUTH-BASIC, RESOLVER-AUTH-DIGEST-VALID). */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxWorld } from '../support/world.ts';
import { headerValues } from './support/browser-headers.ts';
import { resolveOnce } from './support/resolution-run.ts';
import { asciiPassword, basicUser } from './support/resolver-arbitraries.ts';
import { resolverProperty } from './support/resolver-property.ts';

Then(
  'for generated ASCII user names and passwords the first request carries Basic credentials the endpoint accepts \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'Basic credentials',
      runs,
      fc.record({ username: basicUser(), password: asciiPassword() }),
      async ({ username, password }, control, scenario) => {
        const { records, answer } = await resolveOnce(control, scenario, {
          answer: { auth: { scheme: 'Basic', username, password } },
          provider: (draft) => {
            draft.config.authentication = 'Basic';
            draft.config.fields = { username: { value: username }, password: { value: password } };
          },
        });
        const first = records[0];
        assert.ok(first, 'no request');
        const [value] = headerValues(first, 'authorization');
        const m = /^basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(value ?? '');
        assert.ok(m, 'the first request carries no Basic credentials');
        assert.equal(Buffer.from(m[1] as string, 'base64').toString('utf8'), `${username}:${password}`);
        assert.equal(first.auth, 'ok', 'the endpoint refused the first request');
        assert.equal(answer.state, 'resolved');
      },
    );
  },
);

Then(
  "for generated user names and passwords the endpoint verifies the PBX's digest authorisation \\({int} runs)",
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'Digest authorisation verifies',
      runs,
      fc.record({
        username: fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/),
        password: asciiPassword(1).filter((p) => !p.includes('"') && !p.includes('\\')),
        order: fc.constantFrom<('MD5' | 'SHA-256')[]>(['SHA-256', 'MD5'], ['MD5', 'SHA-256']),
      }),
      async ({ username, password, order }, control, scenario) => {
        const { records, answer } = await resolveOnce(control, scenario, {
          answer: { auth: { scheme: 'Digest', username, password, algorithms: order, qop: 'auth' } },
          provider: (draft) => {
            draft.config.authentication = 'Digest';
            draft.config.fields = { username: { value: username }, password: { value: password } };
          },
        });
        const at = records.findIndex((r) => r.status === 401);
        assert.ok(at >= 0, 'the endpoint never challenged');
        const repeat = records[at + 1];
        assert.ok(repeat, 'the PBX did not repeat the challenged request');
        assert.match(headerValues(repeat, 'authorization')[0] ?? '', /^digest\s/i);
        assert.equal(repeat.auth, 'ok', "the endpoint's digest verifier refused the authorisation");
        assert.equal(answer.state, 'resolved');
      },
    );
  },
);
