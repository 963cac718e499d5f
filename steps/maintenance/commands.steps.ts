/**
 * Commands of interface A: the list, acceptance, background execution, completion events and
 * silent discards (maintenance-and-fleet-api.md, part A). Effects and events are read through the
 * control plane; without one those steps report not verifiable.
 */
import assert from 'node:assert/strict';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertCommandList, assertExactAnswer } from './support/api-answers.ts';
import type { ApiExchange } from './support/api-exchange.ts';
import { clientAuth, postCommand, requestCommandList } from './support/api-requests.ts';
import {
  listedCommands,
  marksOf,
  quietPost,
  RUNNABLE_BODY,
  SYSTEM_ACTIONS,
} from './support/command-posting.ts';
import { probeFor } from './support/command-probes.ts';
import {
  awaitCompletionEvents,
  eventsSince,
  eventsWhileWatching,
  logSince,
  settle,
} from './support/completion-watch.ts';
import { type MaintenanceControls, withMaintenanceControl } from './support/maintenance-access.ts';
import { invalidJsonText, unknownFields } from './support/maintenance-arbitraries.ts';
import { lastExchange, maintenanceContext } from './support/maintenance-context.ts';

const POSTED_EVERY_COMMAND = memoryKey<ApiExchange[]>('postedEveryCommand');

Then('the command list contains the names', function (this: PbxWorld, table: DataTable) {
  const names = assertCommandList(lastExchange(this));
  for (const [expected] of table.raw()) {
    assert.ok(names.includes(expected!), `"${expected}" is not in the command list ${JSON.stringify(names)}`);
  }
});

When(
  'the API client posts every command the list returns, the system actions last',
  async function (this: PbxWorld) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const names = assertCommandList(await requestCommandList(this, auth));
    const ordered = [
      ...names.filter((name) => !SYSTEM_ACTIONS.includes(name)),
      ...SYSTEM_ACTIONS.filter((name) => names.includes(name)),
    ];
    const exchanges: ApiExchange[] = [];
    for (const name of ordered) exchanges.push(await postCommand(this, name, auth, '{}'));
    this.memory.set(POSTED_EVERY_COMMAND, exchanges);
    return undefined;
  },
);

Then(
  'every one of them is answered {int} with the JSON body {string}',
  function (this: PbxWorld, status: number, body: string) {
    const exchanges = this.memory.get(POSTED_EVERY_COMMAND);
    assert.ok(exchanges && exchanges.length > 0, 'no command was posted');
    for (const exchange of exchanges) assertExactAnswer(exchange, status, JSON.parse(body));
  },
);

Then(
  'every generated command from the list, posted with generated unknown fields, is answered 200 with status ok \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const names = await listedCommands(this, auth, SYSTEM_ACTIONS);
    await assertLiveProperty(
      this,
      'every listed command is accepted',
      fc.asyncProperty(fc.constantFrom(...names), unknownFields, async (name, fields) => {
        assertExactAnswer(await quietPost(this, name, auth, JSON.stringify(fields)), 200, { status: 'ok' });
      }),
      runs,
    );
    return undefined;
  },
);

Then('a completion event for {string} follows', function (this: PbxWorld, command: string) {
  return withMaintenanceControl(this, 'read the completion events', async (controls) => {
    const events = await awaitCompletionEvents(controls, marksOf(this), command);
    assert.ok(events.length > 0, `no completion event for ${command} followed the command`);
    maintenanceContext(this).event = events.at(-1);
  });
});

Then('the completion event was recorded after the command was posted', function (this: PbxWorld) {
  const { event, marks } = maintenanceContext(this);
  assert.ok(event && marks, 'no completion event was found');
  assert.ok(event.seq > marks.eventSeq, `event ${event.seq} is not newer than the command`);
  assert.ok(event.acceptedAt >= marks.at, `accepted at ${event.acceptedAt}, before the post at ${marks.at}`);
  assert.ok(event.at >= event.acceptedAt, `completed at ${event.at}, before it was accepted`);
});

Then('the restart the command started has not finished yet', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the restart state', async (controls) => {
    await settle(controls);
    const [state, now] = await Promise.all([
      controls.control.getState(),
      controls.control.now().then((c) => c.now),
    ]);
    assert.ok(
      state.maintenance.restartingUntil > now,
      `the PBX is not restarting (restartingUntil ${state.maintenance.restartingUntil}, now ${now})`,
    );
  });
});

Given('the operator holds the execution of accepted commands', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'hold the command queue', ({ control }) =>
    control.injectFault({ name: 'command-execution-held' }),
  );
});

When('the operator releases the execution of accepted commands', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'release the command queue', ({ control }) =>
    control.clearFault({ name: 'command-execution-held' }),
  );
});

Then('{string} has not run yet', function (this: PbxWorld, command: string) {
  return withMaintenanceControl(this, 'read the PBX state and the completion events', async (controls) => {
    const context = maintenanceContext(this);
    assert.ok(context.probes.has(command), `the PBX was not prepared for ${command}`);
    const probe = probeFor(command);
    const [state, events] = await Promise.all([
      controls.control.getState(),
      eventsSince(controls, marksOf(this)),
    ]);
    assert.deepStrictEqual(
      probe.read(state),
      context.probes.get(command),
      `${command} already changed ${probe.what} before the queue was released`,
    );
    assert.deepEqual(
      events.map((event) => event.command),
      [],
      'a completion event was recorded before the queue was released',
    );
  });
});

Given('the operator watches the PBX through its control plane', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'watch the PBX', async () => {});
});

Given('the PBX has something for {string} to act on', function (this: PbxWorld, command: string) {
  const probe = probeFor(command);
  return withMaintenanceControl(this, `prepare the PBX for ${command}`, async ({ control }) => {
    await control.patchState(probe.prepare(await control.getState()));
    await control.invalidateSnapshot();
    maintenanceContext(this).probes.set(command, probe.read(await control.getState()));
  });
});

async function probeAfter(world: PbxWorld, controls: MaintenanceControls, command: string) {
  const context = maintenanceContext(world);
  assert.ok(context.probes.has(command), `the PBX was not prepared for ${command}`);
  await settle(controls);
  const probe = probeFor(command);
  return { probe, before: context.probes.get(command), after: probe.read(await controls.control.getState()) };
}

Then('{string} has acted on the PBX', function (this: PbxWorld, command: string) {
  return withMaintenanceControl(this, 'read the PBX state', async (controls) => {
    const { probe, before, after } = await probeAfter(this, controls, command);
    assert.notDeepStrictEqual(after, before, `${command} left ${probe.what} at ${JSON.stringify(before)}`);
  });
});

Then('{string} has changed nothing on the PBX', function (this: PbxWorld, command: string) {
  return withMaintenanceControl(this, 'read the PBX state', async (controls) => {
    const { probe, before, after } = await probeAfter(this, controls, command);
    assert.deepStrictEqual(after, before, `${command} changed ${probe.what}`);
  });
});

Then('no completion event follows', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the completion events', async (controls) => {
    const events = await eventsWhileWatching(controls, marksOf(this));
    assert.deepEqual(
      events.map((event) => event.command),
      [],
      'completion events followed the command',
    );
  });
});

Then('a module-log entry is written', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the module log', async (controls) => {
    await settle(controls);
    const entries = await logSince(controls, marksOf(this));
    assert.ok(entries.length > 0, 'the module log has no entry written after the command');
  });
});

Then('the command ran with the trigger {string}', function (this: PbxWorld, trigger: string) {
  const { event } = maintenanceContext(this);
  assert.ok(event, 'no completion event was found');
  assert.equal(event.trigger, trigger, 'the trigger of the completion event');
  assert.equal(event.parameters.trigger, trigger, 'the trigger among the parameters it ran with');
});

Then(
  'the command ran with the parameter {string} set to the JSON value {string}',
  function (this: PbxWorld, name: string, json: string) {
    const { event } = maintenanceContext(this);
    assert.ok(event, 'no completion event was found');
    const parameters = event.parameters as Record<string, unknown>;
    assert.deepStrictEqual(parameters[name], JSON.parse(json), `parameter "${name}" it ran with`);
  },
);

Then(
  'it ran with the same parameters as {string} posted with an empty body',
  async function (this: PbxWorld, command: string) {
    const first = maintenanceContext(this).event;
    assert.ok(first, 'no completion event was found');
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    return withMaintenanceControl(this, 'read the completion events', async (controls) => {
      await postCommand(this, command, auth, undefined, { 'Content-Length': '0' });
      const events = await awaitCompletionEvents(controls, marksOf(this), command);
      const plain = events.at(-1);
      assert.ok(plain, `no completion event for ${command} with an empty body`);
      assert.deepStrictEqual(
        first.parameters,
        plain.parameters,
        'parameters with invalid JSON vs. empty body',
      );
    });
  },
);

Then(
  'for generated unknown fields every command from the list is answered as without them \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const names = await listedCommands(this, auth, SYSTEM_ACTIONS);
    await assertLiveProperty(
      this,
      'unknown fields do not change the answer',
      fc.asyncProperty(fc.constantFrom(...names), unknownFields, async (name, fields) => {
        const base = RUNNABLE_BODY[name] ?? {};
        const plain = await quietPost(this, name, auth, JSON.stringify(base));
        const noisy = await quietPost(this, name, auth, JSON.stringify({ ...fields, ...base }));
        assertExactAnswer(plain, 200, { status: 'ok' });
        assert.equal(noisy.status, plain.status, `${name}: status with unknown fields`);
        assert.deepStrictEqual(noisy.json, plain.json, `${name}: body with unknown fields`);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  'every generated syntactically invalid JSON body posted with a command from the list is answered 200 with status ok \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const names = await listedCommands(this, auth, SYSTEM_ACTIONS);
    await assertLiveProperty(
      this,
      'invalid JSON is accepted',
      fc.asyncProperty(fc.constantFrom(...names), invalidJsonText, async (name, body) => {
        assertExactAnswer(await quietPost(this, name, auth, body), 200, { status: 'ok' });
      }),
      runs,
    );
    return undefined;
  },
);
