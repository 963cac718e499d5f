import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../../../simulators/pbx/maintenance/command-names.ts';
import { isPbxRestarting } from '../../../../simulators/pbx/state/pbx-restarting.ts';
import type { PbxState } from '../../../../simulators/pbx/state/types.ts';
import { createFixture, type MaintenanceFixture, START } from './maintenance-fixture.ts';
import { validatorFor } from './schema-validator.ts';

async function withFixture(
  run: (f: MaintenanceFixture) => Promise<void>,
  adjust?: (state: PbxState) => void,
) {
  const f = createFixture(adjust);
  try {
    await run(f);
  } finally {
    f.close();
  }
}

/** Posts one command, lets it run, returns its outcome entry and the events it brought. */
async function runCommand(f: MaintenanceFixture, command: string, body?: unknown) {
  const seen = f.outcomes().length;
  const eventsBefore = f.executor.events().length;
  assert.equal(f.post(command, body).status, 200);
  await f.settle();
  const outcomes = f.outcomes().slice(seen);
  assert.equal(outcomes.length, 1, `one log entry for ${command}`);
  return { outcome: outcomes[0]!, events: f.executor.events().slice(eventsBefore) };
}

async function executed(f: MaintenanceFixture, command: string, body?: unknown) {
  const { outcome, events } = await runCommand(f, command, body);
  assert.equal(outcome.message, 'maintenance command executed', JSON.stringify(outcome.data));
  return { result: outcome.data['result'] as Record<string, unknown>, events };
}

async function discarded(f: MaintenanceFixture, command: string, body: unknown, reason: string) {
  const before = structuredClone(f.store.read());
  const { outcome, events } = await runCommand(f, command, body);
  assert.equal(outcome.message, 'maintenance command discarded');
  assert.equal(outcome.data['reason'], reason);
  assert.deepEqual(events, [], 'no completion event');
  assert.deepEqual(f.store.read(), before, 'nothing changed');
}

test('MAINT-EXEC-ASYNC: the answer comes before the command runs; the event only afterwards', async () => {
  await withFixture(async (f) => {
    const response = f.post('HangupAllCalls');
    assert.equal(response.status, 200);
    assert.equal(f.store.read().channels.active.length, 7, 'not yet run');
    assert.deepEqual(f.executor.events(), []);
    assert.deepEqual(f.outcomes(), []);
    await f.settle();
    assert.equal(f.store.read().channels.active.length, 0);
    assert.equal(f.executor.events().length, 1);
  });
});

test('MAINT-EXEC-ASYNC: under the fault command-execution-held accepted commands wait, unrun, until it is cleared', async () => {
  await withFixture(async (f) => {
    f.store.injectFault('command-execution-held');
    assert.equal(f.post('HangupAllCalls').status, 200);
    assert.equal(f.post('DeleteBackups').status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(f.executor.pending(), 2);
    assert.equal(f.store.read().channels.active.length, 7, 'held: not run');
    assert.deepEqual(f.executor.events(), []);
    f.store.clearFault('command-execution-held');
    await f.settle();
    assert.equal(f.executor.pending(), 0);
    assert.equal(f.store.read().channels.active.length, 0);
    assert.deepEqual(
      f.executor.events().map((event) => event.command),
      ['HangupAllCalls', 'DeleteBackups'],
      'run once each, in acceptance order',
    );
  });
});

test('MAINT-EXEC-COMPLETION-EVENT: a maintenance action reports completion with command, trigger, parameters and result', async () => {
  await withFixture(async (f) => {
    f.clock.advance(1234);
    const { events } = await executed(f, 'DeleteLogs', { scope: 'support', startTime: 1, trigger: 'ERP' });
    assert.equal(events.length, 1);
    const event = events[0]!;
    assert.ok(validatorFor('completion-event')(event));
    assert.ok(validatorFor('completion-event-list')(f.executor.events()));
    assert.equal(event.name, 'MaintenanceCompleted');
    assert.equal(event.command, 'DeleteLogs');
    assert.equal(event.trigger, 'API');
    assert.equal(event.at, START + 1234);
    assert.deepEqual(event.parameters, { trigger: 'API', scope: 'support', startTime: 1 });
    assert.deepEqual(event.result, { scope: 'support', deleted: { logBytes: 209_715_200 } });
  });
});

test('MAINT-EXEC-COMPLETION-EVENT: every maintenance action reports, the system actions do not', async () => {
  await withFixture(async (f) => {
    const bodies: Record<string, unknown> = {
      DeleteCallData: { confirmed: true },
      ProvisionDevices: { type: 'sip' },
    };
    for (const command of COMMAND_NAMES) {
      const { events } = await executed(f, command, bodies[command]);
      const system = command === 'RestartPbx' || command === 'UpdatePbx';
      assert.equal(events.length, system ? 0 : 1, command);
      if (!system) assert.equal(events[0]?.command, command);
    }
  });
});

test('HangupAllCalls empties the active channels and the call counters', async () => {
  await withFixture(async (f) => {
    const { result } = await executed(f, 'HangupAllCalls');
    const state = f.store.read();
    assert.deepEqual(state.channels.active, []);
    assert.deepEqual(
      [
        state.traffic.linkedCalls,
        state.traffic.parkedCalls,
        state.traffic.conferenceCalls,
        state.rtp.activeChannels,
      ],
      [0, 0, 0, 0],
    );
    assert.deepEqual(result, { hungUpChannels: 7 });
  });
});

test('DeleteBackups clears every target: runs, size, message; local ones free the disk', async () => {
  await withFixture(async (f) => {
    const before = structuredClone(f.store.read());
    const { result } = await executed(f, 'DeleteBackups');
    const state = f.store.read();
    for (const backup of state.backups) {
      assert.deepEqual([backup.runs, backup.sizeBytes, backup.message], [[], 0, 'Backups deleted']);
    }
    const hdd = before.backups.find((b) => b.type === 'HDD')!.sizeBytes;
    assert.equal(state.os.diskRootFreeBytes, before.os.diskRootFreeBytes + hdd);
    assert.deepEqual(result, {
      targets: 2,
      deleted: { backupBytes: before.backups[0]!.sizeBytes + before.backups[1]!.sizeBytes, backupRuns: 3 },
    });
  });
});

test('ReRegisterTrunks registers every SIP provider', async () => {
  await withFixture(
    async (f) => {
      const { result } = await executed(f, 'ReRegisterTrunks');
      assert.ok(f.store.read().sipProviders.every((p) => p.registered));
      assert.deepEqual(result, { trunks: 2, newlyRegistered: 2 });
    },
    (state) => {
      for (const provider of state.sipProviders) provider.registered = false;
    },
  );
});

test('the delete commands shrink their counters and free the disk for files', async () => {
  await withFixture(async (f) => {
    const before = structuredClone(f.store.read());
    const cases: [string, unknown, (s: Readonly<PbxState>) => number, number, boolean][] = [
      [
        'DeleteSystemMessages',
        undefined,
        (s) => s.system.systemMessages,
        before.system.systemMessages,
        false,
      ],
      ['DeleteTemporaryFiles', undefined, (s) => s.system.tempFileBytes, before.system.tempFileBytes, true],
      ['DeleteRecordings', undefined, (s) => s.system.recordingBytes, before.system.recordingBytes, true],
      ['DeleteFaxes', undefined, (s) => s.system.faxes, before.system.faxes, false],
      ['DeleteFirmware', undefined, (s) => s.system.firmwareBytes, before.system.firmwareBytes, true],
      ['DeleteCallData', { confirmed: true }, (s) => s.database.cdrSize, before.database.cdrSize, false],
    ];
    for (const [command, body, read, held, file] of cases) {
      const freeBefore = f.store.read().os.diskRootFreeBytes;
      assert.ok(read(f.store.read()) > 0);
      const { result } = await executed(f, command, body);
      assert.equal(read(f.store.read()), 0, command);
      assert.equal(Object.values(result['deleted'] as object)[0], held, command);
      assert.equal(
        f.store.read().os.diskRootFreeBytes,
        Math.min(before.os.diskRootTotalBytes, freeBefore + (file ? held : 0)),
      );
    }
    assert.equal(
      f.store.read().database.databaseSize,
      before.database.databaseSize - before.database.cdrSize,
    );
    assert.equal(f.store.read().system.faxQueue, before.system.faxQueue, 'queued faxes stay');
  });
});

test('MAINT-PARAM-SCOPE: DeleteLogs runs with the scope given', async () => {
  for (const [scope, logBytes, supportLogBytes] of [
    [undefined, 0, 0],
    ['all', 0, 0],
    ['support', 734_003_200 - 209_715_200, 0],
    ['pbx', 209_715_200, 209_715_200],
  ] as const) {
    await withFixture(async (f) => {
      const { result } = await executed(f, 'DeleteLogs', scope === undefined ? {} : { scope });
      assert.deepEqual(
        [f.store.read().system.logBytes, f.store.read().system.supportLogBytes],
        [logBytes, supportLogBytes],
      );
      assert.equal(result['scope'], scope ?? 'all');
    });
  }
  await withFixture(async (f) => {
    await discarded(f, 'DeleteLogs', { scope: 'everything' }, 'invalid-scope');
    await discarded(f, 'DeleteLogs', { scope: 3 }, 'invalid-scope');
  });
});

test('RunAutoCleanup standard and full delete their documented sets', async () => {
  await withFixture(async (f) => {
    const before = structuredClone(f.store.read());
    const { result } = await executed(f, 'RunAutoCleanup');
    const s = f.store.read().system;
    assert.deepEqual([s.systemMessages, s.tempFileBytes, s.logBytes, s.firmwareBytes], [0, 0, 0, 0]);
    assert.deepEqual([s.faxes, s.recordingBytes], [before.system.faxes, before.system.recordingBytes]);
    assert.equal(result['mode'], 'standard');
    assert.deepEqual(f.store.read().backups, before.backups);
    assert.equal(f.store.read().database.cdrSize, before.database.cdrSize);
    const full = await executed(f, 'RunAutoCleanup', { mode: 'full' });
    assert.deepEqual([f.store.read().system.faxes, f.store.read().system.recordingBytes], [0, 0]);
    assert.equal(full.result['mode'], 'full');
  });
});

test('MAINT-PARAM-TYPE: ProvisionDevices with a type marks the phones provisioned', async () => {
  await withFixture(
    async (f) => {
      const { result } = await executed(f, 'ProvisionDevices', { type: 'sip' });
      assert.equal(f.store.read().sip.provisionedPhones, f.store.read().sip.knownPhones);
      assert.deepEqual(result, { type: 'sip', provisionedPhones: 148 });
      const other = await executed(f, 'ProvisionDevices', { type: 'dect' });
      assert.deepEqual(other.result, { type: 'dect', provisionedPhones: 0 });
    },
    (state) => {
      state.sip.provisionedPhones = 10;
    },
  );
});

test('MAINT-PARAM-CONFIRMED, MAINT-DISCARD-CALLDATA-UNCONFIRMED: DeleteCallData runs only with confirmed true', async () => {
  await withFixture(async (f) => {
    await discarded(f, 'DeleteCallData', undefined, 'not-confirmed');
    await discarded(f, 'DeleteCallData', {}, 'not-confirmed');
    await discarded(f, 'DeleteCallData', { confirmed: false }, 'not-confirmed');
    await discarded(f, 'DeleteCallData', { confirmed: 'true' }, 'wrong-type');
    await discarded(f, 'DeleteCallData', { confirmed: 1 }, 'wrong-type');
    await discarded(f, 'DeleteCallData', '{"confirmed": true', 'not-confirmed');
    await discarded(f, 'DeleteCallData', '[{"confirmed": true}]', 'not-confirmed');
    await executed(f, 'DeleteCallData', { confirmed: true });
    assert.equal(f.store.read().database.cdrSize, 0);
  });
});

test('MAINT-DISCARD-PROVISION-NO-TYPE, MAINT-POST-INVALID-JSON-REQUIRED: ProvisionDevices without a type is discarded', async () => {
  await withFixture(
    async (f) => {
      await discarded(f, 'ProvisionDevices', undefined, 'type-missing');
      await discarded(f, 'ProvisionDevices', { type: '' }, 'type-missing');
      await discarded(f, 'ProvisionDevices', { type: null }, 'type-missing');
      await discarded(f, 'ProvisionDevices', { type: 5 }, 'wrong-type');
      await discarded(f, 'ProvisionDevices', { type: 'x'.repeat(65) }, 'invalid-type');
      await discarded(f, 'ProvisionDevices', '{type: sip}', 'type-missing');
      await discarded(f, 'ProvisionDevices', '"sip"', 'type-missing');
    },
    (state) => {
      state.sip.provisionedPhones = 0;
    },
  );
});

test('MAINT-DISCARD-INVALID-MODE: a mode outside the command’s modes is discarded; commands without modes ignore it', async () => {
  await withFixture(async (f) => {
    await discarded(f, 'RunAutoCleanup', { mode: 'turbo' }, 'invalid-mode');
    await discarded(f, 'RunAutoCleanup', { mode: true }, 'invalid-mode');
    await discarded(f, 'UpdatePbx', { mode: 'reinstall', version: '12.4.2.0' }, 'invalid-mode');
    await executed(f, 'HangupAllCalls', { mode: 'turbo' });
  });
});

test('MAINT-LICENCE-NEEDED-TO-EXECUTE, MAINT-LICENCE-NOT-NEEDED-TO-ACCEPT: without a licence every command is accepted and dropped', async () => {
  await withFixture(
    async (f) => {
      for (const command of COMMAND_NAMES) {
        await discarded(f, command, { confirmed: true, type: 'sip' }, 'licence-invalid');
      }
      assert.deepEqual(f.executor.events(), []);
    },
    (state) => {
      state.licence.valid = false;
    },
  );
});

test('MAINT-POST-INVALID-JSON-NO-PARAMS, MAINT-UNSPEC-NON-OBJECT-BODY: invalid and non-object JSON run without parameters', async () => {
  await withFixture(async (f) => {
    for (const [body, kind] of [
      ['{"scope": "support"', 'invalid-json'],
      ['["support"]', 'non-object'],
      ['null', 'non-object'],
      ['42', 'non-object'],
      [new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), 'invalid-json'],
      ['  \n', 'empty'],
    ] as const) {
      const { outcome } = await runCommand(f, 'DeleteLogs', body);
      assert.equal(outcome.message, 'maintenance command executed');
      assert.equal(outcome.data['body'], kind);
      assert.deepEqual(outcome.data['parameters'], { trigger: 'API' });
      assert.equal((outcome.data['result'] as { scope: string }).scope, 'all');
    }
  });
});

test('RestartPbx makes the PBX restart for the configured time, then resets the uptime; no event', async () => {
  await withFixture(
    async (f) => {
      const { result, events } = await executed(f, 'RestartPbx');
      assert.deepEqual(events, []);
      assert.equal(result['restartingUntil'], START + 5000);
      assert.ok(isPbxRestarting(f.store.read(), f.clock.now()));
      assert.deepEqual(f.store.read().channels.active, [], 'calls drop');
      f.clock.advance(4999);
      assert.ok(isPbxRestarting(f.store.read(), f.clock.now()));
      assert.notEqual(f.store.read().appliance.uptimeLinuxMs, 0);
      f.clock.advance(1);
      assert.equal(isPbxRestarting(f.store.read(), f.clock.now()), false);
      assert.equal(f.store.read().appliance.uptimeLinuxMs, 0);
      assert.equal(f.store.read().maintenance.restartingUntil, 0);
      assert.ok(f.store.moduleLog().some((e) => e.message === 'PBX restart finished'));
      assert.equal(f.clock.pendingTimers(), 0);
    },
    (state) => {
      state.maintenance.restartDurationMs = 5000;
    },
  );
});

test('RestartPbx uses 60 s by default and a second restart extends the first', async () => {
  await withFixture(async (f) => {
    await executed(f, 'RestartPbx');
    f.clock.advance(30_000);
    await executed(f, 'RestartPbx');
    f.clock.advance(59_999);
    assert.ok(isPbxRestarting(f.store.read(), f.clock.now()));
    f.clock.advance(1);
    assert.equal(isPbxRestarting(f.store.read(), f.clock.now()), false);
    assert.equal(f.clock.pendingTimers(), 0);
  });
});

test('MAINT-PARAM-VERSION: UpdatePbx installs an available version now, without an event', async () => {
  await withFixture(async (f) => {
    const { result, events } = await executed(f, 'UpdatePbx', { version: '13.0.0.1' });
    assert.equal(f.store.read().appliance.pbxVersion, '13.0.0.1');
    assert.deepEqual(events, []);
    assert.deepEqual(result, {
      mode: 'install',
      installed: '13.0.0.1',
      previousVersion: '12.4.1.3',
      replaced: null,
    });
  });
});

test('UpdatePbx without a version installs the latest version', async () => {
  await withFixture(
    async (f) => {
      await executed(f, 'UpdatePbx');
      assert.equal(f.store.read().appliance.pbxVersion, '12.4.2.0');
      assert.equal(f.store.read().update.kind, 'none');
    },
    (state) => {
      state.update.kind = 'minor';
      state.update.latestVersion = '12.4.2.0';
    },
  );
});

test('MAINT-DISCARD-UNAVAILABLE-VERSION, MAINT-ERR-200-UNAVAILABLE-VERSION: an unavailable version is discarded after a 200', async () => {
  await withFixture(async (f) => {
    await discarded(f, 'UpdatePbx', { version: '99.9.9' }, 'version-unavailable');
    await discarded(f, 'UpdatePbx', { version: '13.0.0.1 ' }, 'version-unavailable');
    await discarded(
      f,
      'UpdatePbx',
      { version: '99.9.9', executeAt: '2026-02-01T00:00' },
      'version-unavailable',
    );
    await discarded(f, 'UpdatePbx', { version: 13 }, 'wrong-type');
    assert.equal(f.clock.pendingTimers(), 0);
  });
});

test('MAINT-PARAM-EXECUTEAT: UpdatePbx with a future executeAt is scheduled and installs when the clock gets there', async () => {
  await withFixture(async (f) => {
    const due = Date.UTC(2026, 0, 1, 2, 30);
    const { result } = await executed(f, 'UpdatePbx', { version: '12.4.2.0', executeAt: '2026-01-01T02:30' });
    assert.deepEqual(result['scheduled'], { version: '12.4.2.0', executeAt: '2026-01-01T02:30', dueAt: due });
    assert.deepEqual(f.store.read().maintenance.scheduledUpdate, result['scheduled']);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
    f.clock.set(due - 1);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
    f.clock.advance(1);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.2.0');
    assert.equal(f.store.read().maintenance.scheduledUpdate.version, '');
    assert.ok(f.store.moduleLog().some((e) => e.message === 'scheduled update installed'));
    assert.deepEqual(f.executor.events(), []);
  });
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: a new schedule replaces the pending one, cancel removes it', async () => {
  await withFixture(async (f) => {
    await executed(f, 'UpdatePbx', { version: '12.4.2.0', executeAt: '2026-01-02T00:00' });
    const second = await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-03T00:00' });
    assert.deepEqual(second.result['replaced'], {
      version: '12.4.2.0',
      executeAt: '2026-01-02T00:00',
      dueAt: Date.UTC(2026, 0, 2),
    });
    assert.equal(f.clock.pendingTimers(), 1);
    f.clock.set(Date.UTC(2026, 0, 2, 12));
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3', 'the replaced one never runs');
    const cancel = await executed(f, 'UpdatePbx', { mode: 'cancel', version: 'ignored' });
    assert.equal((cancel.result['cancelled'] as { version: string }).version, '13.0.0.1');
    assert.equal(f.clock.pendingTimers(), 0);
    f.clock.set(Date.UTC(2026, 0, 4));
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
    const nothing = await executed(f, 'UpdatePbx', { mode: 'cancel' });
    assert.equal(nothing.result['cancelled'], null);
  });
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: a past executeAt is caught up at once; an immediate update drops the schedule', async () => {
  await withFixture(async (f) => {
    const past = await executed(f, 'UpdatePbx', { version: '12.4.2.0', executeAt: '2025-12-31T23:59' });
    assert.equal(past.result['caughtUp'], true);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.2.0');
    const now = await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-01T00:00' });
    assert.equal(now.result['installed'], '13.0.0.1', 'now counts as missed');
    await executed(f, 'UpdatePbx', { version: '12.4.2.0', executeAt: '2026-06-01T00:00' });
    await executed(f, 'UpdatePbx', { version: '12.4.1.3' });
    assert.equal(f.store.read().maintenance.scheduledUpdate.version, '');
    f.clock.set(Date.UTC(2026, 6, 1));
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
  });
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: a clock jump past the due time installs it (catch-up)', async () => {
  await withFixture(async (f) => {
    await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-10T08:00' });
    f.clock.advance(365 * 86_400_000);
    assert.equal(f.store.read().appliance.pbxVersion, '13.0.0.1');
  });
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: licence or version gone by the due time discards the scheduled update', async () => {
  await withFixture(async (f) => {
    await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-01T01:00' });
    f.store.update((state) => {
      state.licence.valid = false;
    });
    f.clock.advance(3_600_000);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
    const entry = f.store.moduleLog().find((e) => e.message === 'scheduled update discarded');
    assert.equal(entry?.data?.['reason'], 'licence-invalid');
    f.store.update((state) => {
      state.licence.valid = true;
    });
    await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-01T02:00' });
    f.store.update((state) => {
      state.update.availableVersions = ['12.4.2.0'];
    });
    f.clock.advance(3_600_000);
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
    assert.equal(f.store.read().maintenance.scheduledUpdate.version, '');
  });
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: executeAt is read in the configured time zone', async () => {
  await withFixture(
    async (f) => {
      const { result } = await executed(f, 'UpdatePbx', {
        version: '13.0.0.1',
        executeAt: '2026-07-01T12:00',
      });
      assert.equal((result['scheduled'] as { dueAt: number }).dueAt, Date.UTC(2026, 6, 1, 10));
    },
    (state) => {
      state.maintenance.timeZone = 'Europe/Berlin';
    },
  );
  await withFixture(
    async (f) => {
      await discarded(
        f,
        'UpdatePbx',
        { version: '13.0.0.1', executeAt: '2026-07-01T12:00' },
        'time-zone-unknown',
      );
    },
    (state) => {
      state.maintenance.timeZone = 'Mars/Olympus';
    },
  );
});

test('MAINT-UNSPEC-WRONG-TYPES: an executeAt of another shape is discarded', async () => {
  await withFixture(async (f) => {
    for (const executeAt of [
      '2026-07-01 12:00',
      '2026-07-01T12:00:00',
      '2026-02-30T12:00',
      '2026-07-01T24:00',
      20260701,
    ]) {
      await discarded(f, 'UpdatePbx', { version: '13.0.0.1', executeAt }, 'invalid-execute-at');
    }
  });
});

test('a store reset leaves a pending scheduled update without effect', async () => {
  await withFixture(async (f) => {
    await executed(f, 'UpdatePbx', { version: '13.0.0.1', executeAt: '2026-01-05T00:00' });
    f.store.reset();
    f.clock.set(Date.UTC(2026, 0, 6));
    assert.equal(f.store.read().appliance.pbxVersion, '12.4.1.3');
  });
});

test('each accepted command ends in exactly one log entry, in acceptance order', async () => {
  await withFixture(async (f) => {
    for (let i = 0; i < 1000; i++)
      f.post(COMMAND_NAMES[i % COMMAND_NAMES.length]!, i % 3 === 0 ? 'x' : undefined);
    await f.settle();
    const ids = f.outcomes().map((o) => o.data['commandId']);
    assert.deepEqual(
      ids,
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    assert.equal(f.executor.pending(), 0);
  });
});

test('a failure inside a command is logged as a discard, and later commands still run', async () => {
  await withFixture(async (f) => {
    f.store.update((state) => {
      (state as { backups: unknown }).backups = null;
    });
    const { outcome } = await runCommand(f, 'DeleteBackups');
    assert.equal(outcome.data['reason'], 'internal-error');
    assert.equal(f.store.moduleLog().at(-1)?.level, 'error');
    await executed(f, 'HangupAllCalls');
  });
});

test('reset drops queued commands and events; close makes hand-overs fail', async () => {
  await withFixture(async (f) => {
    await executed(f, 'DeleteFaxes');
    f.post('HangupAllCalls');
    f.executor.reset();
    await f.settle();
    assert.deepEqual(f.executor.events(), []);
    assert.equal(f.store.read().channels.active.length, 7);
    f.executor.close();
    assert.equal(f.post('HangupAllCalls').status, 500);
  });
});

test('a module log entry never holds a long parameter whole', async () => {
  await withFixture(async (f) => {
    const { outcome } = await runCommand(f, 'DeleteLogs', { scope: 'x'.repeat(100_000) });
    const shown = (outcome.data['parameters'] as { scope: string }).scope;
    assert.ok(shown.length <= 200);
  });
});

test('a batch of commands ends in one state change, made after all of them ran', async () => {
  await withFixture(async (f) => {
    const seenAtChange: number[] = [];
    f.store.on('change', () => seenAtChange.push(f.outcomes().length));
    for (const command of ['HangupAllCalls', 'DeleteFaxes', 'ReRegisterTrunks', 'DeleteTemporaryFiles'])
      f.post(command);
    await f.settle();
    assert.deepEqual(seenAtChange, [4]);
    assert.equal(f.store.read().channels.active.length, 0);
    assert.equal(f.store.read().system.faxes, 0);
  });
});

test('MAINT-EXEC-COMPLETION-EVENT: a listener gets its own copy of the event; the kept one stays as it was', async () => {
  await withFixture(async (f) => {
    f.executor.on('completed', (event) => {
      event.parameters.scope = 'changed';
      event.result['deleted'] = 'changed';
    });
    await executed(f, 'DeleteLogs', { scope: 'pbx' });
    const [kept] = f.executor.events();
    assert.equal(kept?.parameters.scope, 'pbx');
    assert.notEqual(kept?.result['deleted'], 'changed');
  });
});
