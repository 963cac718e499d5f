/**
 * Parameters of interface A's commands: trigger, periods, version and executeAt
 * (maintenance-and-fleet-api.md, "Command parameters seen in the interface"), read back through
 * the completion events and the installed version on the control plane.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertExactAnswer } from './support/api-answers.ts';
import { clientAuth, postCommand } from './support/api-requests.ts';
import {
  listedCommands,
  postAndWatch,
  quietPost,
  RUNNABLE_BODY,
  SYSTEM_ACTIONS,
} from './support/command-posting.ts';
import { settle } from './support/completion-watch.ts';
import { type MaintenanceControls, withMaintenanceControl } from './support/maintenance-access.ts';
import { clientTrigger, epochMs, localDateTime, unknownFields } from './support/maintenance-arbitraries.ts';
import { maintenanceContext } from './support/maintenance-context.ts';

const DAY_MS = 86_400_000;

/** Commands that take a period, per docs/maintenance-api.md (MAINT-UNSPEC-COMMAND-PARAMETERS). */
const PERIOD_COMMANDS: Record<string, Record<string, unknown>> = {
  DeleteSystemMessages: {},
  DeleteLogs: {},
  DeleteRecordings: {},
  DeleteFaxes: {},
  DeleteCallData: { confirmed: true },
};

Then(
  'for generated client triggers and unknown fields every command runs with the trigger API and the parameters it runs with without them \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'read the completion events', async (controls) => {
      const names = await listedCommands(this, auth, SYSTEM_ACTIONS);
      await assertLiveProperty(
        this,
        'trigger is API and unknown fields change nothing',
        fc.asyncProperty(
          fc.constantFrom(...names),
          clientTrigger,
          unknownFields,
          async (name, trigger, fields) => {
            const base = RUNNABLE_BODY[name] ?? {};
            const plain = await postAndWatch(this, controls, auth, name, base);
            const noisy = await postAndWatch(this, controls, auth, name, { ...fields, trigger, ...base });
            assertExactAnswer(noisy.exchange, 200, { status: 'ok' });
            assert.equal(plain.events.length, 1, `${name} without extra fields: one completion event`);
            assert.equal(noisy.events.length, 1, `${name} with extra fields: one completion event`);
            const [before, after] = [plain.events[0]!, noisy.events[0]!];
            assert.equal(after.trigger, 'API');
            assert.equal(after.parameters.trigger, 'API');
            assert.deepStrictEqual(after.parameters, before.parameters);
          },
        ),
        runs,
      );
    });
  },
);

Then(
  'for generated startTime and endTime numbers every command that takes a period runs with exactly those numbers \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'read the completion events', async (controls) => {
      await assertLiveProperty(
        this,
        'startTime and endTime used as given',
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(PERIOD_COMMANDS)),
          epochMs,
          epochMs,
          async (name, a, b) => {
            const [startTime, endTime] = a <= b ? [a, b] : [b, a];
            const { exchange, events } = await postAndWatch(this, controls, auth, name, {
              ...PERIOD_COMMANDS[name],
              startTime,
              endTime,
            });
            assertExactAnswer(exchange, 200, { status: 'ok' });
            assert.equal(events.length, 1, `${name}: one completion event`);
            const parameters = events[0]!.parameters as Record<string, unknown>;
            assert.strictEqual(parameters['startTime'], startTime);
            assert.strictEqual(parameters['endTime'], endTime);
          },
        ),
        runs,
      );
    });
  },
);

Given(
  'the PBX offers the update versions {string} and {string}',
  function (this: PbxWorld, first: string, second: string) {
    return withMaintenanceControl(this, 'offer update versions', async ({ control }) => {
      const state = await control.getState();
      const installed = state.appliance.pbxVersion;
      await control.patchState({
        update: { availableVersions: [installed, first, second], latestVersion: second },
      });
      await control.invalidateSnapshot();
      maintenanceContext(this).probes.set('installedVersion', installed);
    });
  },
);

async function installedVersion(controls: MaintenanceControls): Promise<string> {
  await settle(controls);
  return (await controls.control.getState()).appliance.pbxVersion;
}

Then(
  /^(?:once the command has run )?the PBX runs version "([^"]*)"$/,
  function (this: PbxWorld, version: string) {
    return withMaintenanceControl(this, 'read the installed version', async (controls) => {
      assert.equal(await installedVersion(controls), version, 'the installed PBX version');
    });
  },
);

Then(/^(?:once the command has run )?the PBX still runs its previous version$/, function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the installed version', async (controls) => {
    const previous = maintenanceContext(this).probes.get('installedVersion');
    assert.ok(typeof previous === 'string', 'the installed version was not noted');
    assert.equal(await installedVersion(controls), previous, 'the installed PBX version');
  });
});

Then('no update is scheduled on the PBX', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the scheduled update', async (controls) => {
    await settle(controls);
    const { scheduledUpdate } = (await controls.control.getState()).maintenance;
    assert.equal(scheduledUpdate.version, '', `an update to ${scheduledUpdate.version} is scheduled`);
  });
});

When(
  'the API client schedules {string} to version {string} at the local time {int} days ahead',
  async function (this: PbxWorld, command: string, version: string, days: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'read the PBX clock', async ({ control }) => {
      // The PBX's time zone is not stated; days ahead in UTC stay ahead in every zone (≤ 14 h off).
      const executeAt = localDateTime((await control.now()).now + days * DAY_MS);
      await postCommand(this, command, auth, JSON.stringify({ version, executeAt }));
    });
  },
);

Then(
  'every generated executeAt of the shape yyyy-mm-ddThh:mm at least 2 days ahead schedules the update, which installs once the clock has passed it \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'schedule updates on the PBX clock', async (controls) => {
      const { control } = controls;
      const offered = (await control.getState()).update.availableVersions;
      await assertLiveProperty(
        this,
        'executeAt schedules the update',
        fc.asyncProperty(fc.integer({ min: 2 * 24 * 60, max: 400 * 24 * 60 }), async (minutesAhead) => {
          const before = await installedVersion(controls);
          const version = offered.find((candidate) => candidate !== before);
          assert.ok(version, 'no offered version other than the installed one');
          const executeAt = localDateTime((await control.now()).now + minutesAhead * 60_000);
          const answer = await quietPost(this, 'UpdatePbx', auth, JSON.stringify({ version, executeAt }));
          assertExactAnswer(answer, 200, { status: 'ok' });
          assert.equal(await installedVersion(controls), before, `installed before ${executeAt}`);
          // Past the due time in every time zone (offsets stay within a day).
          await control.advanceClock({ ms: minutesAhead * 60_000 + DAY_MS });
          assert.equal(await installedVersion(controls), version, `not installed after ${executeAt}`);
        }),
        runs,
      );
    });
  },
);
