/**
 * What a token authorises and for how long (MAINT-TOKEN-NO-SCOPING, MAINT-TOKEN-NO-EXPIRY,
 * MAINT-TOKEN-EXPIRY-BOUNDARY, MAINT-TOKEN-REVOKE-IMMEDIATE), over tokens created through the
 * control plane and the PBX clock it moves.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertCommandList, assertExactAnswer } from './support/api-answers.ts';
import type { ApiAuth } from './support/api-exchange.ts';
import { clientAuth, commandPath, requestCommandList } from './support/api-requests.ts';
import { createTokenAsAdmin, withMaintenanceControl } from './support/maintenance-access.ts';
import { sendApiRequest } from './support/maintenance-client.ts';
import { maintenanceContext } from './support/maintenance-context.ts';
import {
  assertTokenAccepted,
  assertTokenRefused,
  createdByLabel,
  DAY_MS,
  EXPIRY_MARGIN_MS,
  generatedExpiry,
  generatedLabel,
  lastCreated,
  letRestartFinish,
} from './support/token-checks.ts';

Then(
  'each of these tokens is accepted by the command list and by a POST of every listed command',
  function (this: PbxWorld) {
    const { created } = maintenanceContext(this);
    return withMaintenanceControl(this, 'let a restart finish', async (controls) => {
      assert.ok(created.length > 1, 'fewer than two tokens were created');
      for (const token of created) {
        const auth: ApiAuth = { kind: 'bearer', token: token.secret };
        const names = assertCommandList(await requestCommandList(this, auth));
        const ordered = [
          ...names.filter((name) => name !== 'RestartPbx'),
          ...names.filter((name) => name === 'RestartPbx'),
        ];
        for (const name of ordered) {
          const answer = await sendApiRequest(this, {
            method: 'POST',
            path: commandPath(name),
            auth,
            body: '{}',
          });
          assertExactAnswer(answer, 200, { status: 'ok' });
        }
        await letRestartFinish(controls);
      }
    });
  },
);

Then(
  'every token created with a generated label and expiry is accepted by the command list and by a POST of a generated listed command \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'create API tokens', async (controls) => {
      // The system actions would restart or update the PBX on every run; the scenario above posts
      // them for each token.
      const names = assertCommandList(await requestCommandList(this, auth)).filter(
        (name) => name !== 'RestartPbx' && name !== 'UpdatePbx',
      );
      await assertLiveProperty(
        this,
        'every token authorises every endpoint',
        fc.asyncProperty(
          generatedLabel,
          generatedExpiry,
          fc.constantFrom(...names),
          async (label, expiresInMs, command) => {
            const now = (await controls.control.now()).now;
            const created = await createTokenAsAdmin(controls, this, {
              label,
              expiresAt: expiresInMs === null ? null : now + expiresInMs,
            });
            await assertTokenAccepted(this, created.secret, command);
          },
        ),
        runs,
      );
    });
  },
);

Then(
  'after each generated advance of the PBX clock the token is still accepted \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    const { secret } = lastCreated(this);
    return withMaintenanceControl(this, 'advance the PBX clock', async ({ control }) => {
      await assertLiveProperty(
        this,
        'a token without expiry stays valid',
        // Up to five years per run: a century over 20 runs.
        fc.asyncProperty(fc.integer({ min: 1, max: 1826 * DAY_MS }), async (advanceMs) => {
          await control.advanceClock({ ms: advanceMs });
          await assertTokenAccepted(this, secret);
        }),
        runs,
      );
    });
  },
);

Then(
  'every token created with a generated expiry is accepted before it and refused with 401 on both endpoints after it \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return withMaintenanceControl(this, 'create API tokens and advance the PBX clock', async (controls) => {
      const { control } = controls;
      const arbitrary = fc
        .record({
          lifetime: fc.integer({ min: EXPIRY_MARGIN_MS + 1, max: 400 * DAY_MS }),
          waitShare: fc.double({ min: 0, max: 1, noNaN: true }),
          after: fc.integer({ min: EXPIRY_MARGIN_MS, max: 30 * DAY_MS }),
        })
        .map(({ lifetime, waitShare, after }) => ({
          lifetime,
          // At least the margin before the expiry instant, and `after` at least the margin past it.
          wait: Math.floor(waitShare * (lifetime - EXPIRY_MARGIN_MS)),
          after,
        }));
      await assertLiveProperty(
        this,
        'expiry boundary',
        fc.asyncProperty(arbitrary, async ({ lifetime, wait, after }) => {
          const now = (await control.now()).now;
          const created = await createTokenAsAdmin(controls, this, {
            label: 'expiring',
            expiresAt: now + lifetime,
          });
          await control.advanceClock({ ms: wait });
          await assertTokenAccepted(this, created.secret, 'DeleteTemporaryFiles');
          await control.advanceClock({ ms: lifetime - wait + after });
          await assertTokenRefused(this, created.secret);
        }),
        runs,
      );
    });
  },
);

Then(
  'the tokens {names} are accepted and {string} gets 401',
  async function (this: PbxWorld, kept: string[], revoked: string) {
    for (const label of kept)
      await assertTokenAccepted(this, createdByLabel(this, label).secret, 'DeleteTemporaryFiles');
    await assertTokenRefused(this, createdByLabel(this, revoked).secret);
  },
);
