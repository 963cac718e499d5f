/**
 * Steps that change the PBX through its control plane. Each is phrased as something the operator
 * (or the PBX) does; on a target without a control plane it reports *not verifiable*.
 */
import { Given, When } from '@cucumber/cucumber';
import type { SnapshotFormat } from '../../simulators/pbx/index.ts';
import {
  activeChannels,
  BACKUP_FAILED,
  BACKUP_MOUNT_FAILED,
  BACKUP_SUCCESSFUL,
  backupTarget,
  EXACT_RAM_TOTAL,
  sipTrunks,
} from '../support/fixtures.ts';
import { BACKUP_TARGETS, CHANGED_ACCOUNTS_TOTAL } from '../support/shared-memory-keys.ts';
import { changeState, withControl } from '../support/with-control.ts';
import type { PbxWorld } from '../support/world.ts';

Given('the operator resets the PBX to its starting state', function (this: PbxWorld) {
  return withControl(this, 'reset the PBX', async (control) => {
    await control.reset();
    await control.invalidateSnapshot();
  });
});

Given('the operator puts the PBX into the {string} scenario', function (this: PbxWorld, name: string) {
  return withControl(this, `load the scenario "${name}"`, async (control) => {
    await control.loadScenario({ name });
    await control.invalidateSnapshot();
  });
});

Given('the endpoint tile is on and the licence is valid', function (this: PbxWorld) {
  return withControl(this, 'switch the endpoint tile on and validate the licence', async (control) => {
    await control.setTile({ on: true });
    await control.setLicence({ valid: true });
  });
});

When('the operator switches the endpoint tile off', function (this: PbxWorld) {
  return withControl(this, 'switch the endpoint tile off', (control) => control.setTile({ on: false }));
});

When('the operator withdraws the module licence', function (this: PbxWorld) {
  return withControl(this, 'withdraw the module licence', (control) => control.setLicence({ valid: false }));
});

Given('the operator sets the default format to {string}', function (this: PbxWorld, token: string) {
  return withControl(this, 'set the default format', (control) =>
    control.setDefaultFormat({ format: token as SnapshotFormat }),
  );
});

Given(
  'the operator sets the snapshot cache lifetime to {int} seconds',
  function (this: PbxWorld, seconds: number) {
    return withControl(this, 'set the snapshot cache lifetime', async (control) => {
      await control.setCacheLifetime({ ms: seconds * 1000 });
      await control.invalidateSnapshot();
    });
  },
);

When('{float} seconds pass on the PBX clock', function (this: PbxWorld, seconds: number) {
  return withControl(this, 'advance the PBX clock', (control) =>
    control.advanceClock({ ms: Math.round(seconds * 1000) }),
  );
});

Given('the operator names a module instance {string}', function (this: PbxWorld, name: string) {
  return changeState(this, 'rename a module instance', (state) => {
    const modules = structuredClone(state.modules);
    const instance = modules[0]?.instances[0];
    if (!instance) throw new Error('the PBX has no module instance to rename');
    instance.name = name;
    return { modules };
  });
});

Given('the operator makes the snapshot renderer fail', function (this: PbxWorld) {
  return withControl(this, 'inject a renderer failure', async (control) => {
    await control.injectFault({ name: 'render-error' });
    await control.invalidateSnapshot();
  });
});

Given('the operator makes JSON serialisation fail', function (this: PbxWorld) {
  return withControl(this, 'inject a JSON serialisation failure', async (control) => {
    await control.injectFault({ name: 'json-serialisation-error' });
    await control.invalidateSnapshot();
  });
});

When('the operator makes the agent script fail to run', function (this: PbxWorld) {
  return withControl(this, 'make the agent script fail', async (control) => {
    await control.injectFault({ name: 'linux-script-failure' });
    await control.invalidateSnapshot();
  });
});

Given('the operator makes data collection fail', function (this: PbxWorld) {
  this.watchModuleLog = true;
  return withControl(this, 'make XML-RPC data collection fail', async (control) => {
    await control.injectFault({ name: 'collection-error' });
    await control.invalidateSnapshot();
  });
});

Given('the operator configures a RAID on the PBX', function (this: PbxWorld) {
  return changeState(this, 'configure a RAID', {
    raid: {
      level: 'raid1',
      status: 'degraded',
      devices: [
        { name: 'sda', state: 'active' },
        { name: 'sdb', state: 'faulty' },
      ],
    },
  });
});

When('the operator removes the RAID configuration', function (this: PbxWorld) {
  return changeState(this, 'remove the RAID configuration', { raid: null });
});

Given('the PBX has {int} active channels', function (this: PbxWorld, count: number) {
  return changeState(this, 'set the active channels', { channels: { active: activeChannels(count) } });
});

/** What "cannot determine" means for each value, as state the control plane takes (-1 = unknown). */
const UNKNOWN_VALUES: Record<string, Record<string, unknown>> = {
  'the Linux uptime': { appliance: { uptimeLinuxMs: -1 } },
  'the memory figures': { os: { memTotalBytes: -1, memAvailableBytes: -1 } },
  'the database size': { database: { databaseSize: -1 } },
  'the runtime heap usage': { java: { heapUsed: -1 } },
};

Given('the PBX cannot determine {}', function (this: PbxWorld, what: string) {
  const overlay = UNKNOWN_VALUES[what];
  if (!overlay) throw new Error(`no state for "cannot determine ${what}"`);
  return changeState(this, `make ${what} undeterminable`, overlay);
});

Given(
  'the operator sets distinctive account counts, maximum channels and database sizes',
  function (this: PbxWorld) {
    return changeState(this, 'set distinctive counts', {
      accounts: { total: 4711, admin: 13, active: 4007, available: 2999, ringing: 17, unavailable: 1008 },
      channels: { max: 97 },
      database: { databaseSize: 3_221_225_473, cdrSize: 805_306_369 },
    });
  },
);

When('the PBX state changes while the snapshot is cached', function (this: PbxWorld) {
  return changeState(
    this,
    'change the PBX state',
    (state) => {
      const total = state.accounts.total + 1000;
      this.memory.set(CHANGED_ACCOUNTS_TOTAL, total);
      return { accounts: { total } };
    },
    { invalidate: false },
  );
});

Given('the PBX has {int} backup targets', function (this: PbxWorld, count: number) {
  return withControl(this, 'set the backup targets', async (control) => {
    const now = (await control.now()).now;
    const backups = Array.from({ length: count }, (_, i) =>
      backupTarget('SMB', `192.0.2.${10 + i}:/backup${i}`, 'Backup completed successfully', [
        { time: now - (i + 1) * 3_600_000, result: BACKUP_SUCCESSFUL },
      ]),
    );
    await control.patchState({ backups });
    await control.invalidateSnapshot();
  });
});

Given(
  'the operator sets two backup targets with distinctive locations, times and status messages',
  function (this: PbxWorld) {
    return withControl(this, 'set the backup targets', async (control) => {
      const now = (await control.now()).now;
      // Distinct messages and result keys: the spec's "status message" may be either (test-vectors.md
      // shows result keys in the earlier component's backup lines).
      const targets = [
        {
          location: '198.51.100.7:/nightly',
          time: now - 4_321_000,
          message: 'Nightly run 4711 completed',
          result: BACKUP_SUCCESSFUL,
        },
        {
          location: '203.0.113.9:/weekly',
          time: now - 98_765_000,
          message: 'Weekly run 815 could not mount the share',
          result: BACKUP_MOUNT_FAILED,
        },
      ];
      this.memory.set(BACKUP_TARGETS, targets);
      const backups = targets.map((t) =>
        backupTarget('SMB', t.location, t.message, [
          { time: t.time - 86_400_000, result: BACKUP_SUCCESSFUL },
          { time: t.time, result: t.result },
        ]),
      );
      await control.patchState({ backups });
      await control.invalidateSnapshot();
    });
  },
);

Given(
  'the PBX has one backup target whose earlier run succeeded and whose most recent run failed',
  function (this: PbxWorld) {
    return withControl(this, 'set a failed backup', async (control) => {
      const now = (await control.now()).now;
      const backups = [
        backupTarget('SMB', '192.0.2.6:/Backup', 'Backup finished', [
          { time: now - 60 * 3_600_000, result: BACKUP_SUCCESSFUL },
          { time: now - 2 * 3_600_000, result: BACKUP_FAILED },
        ]),
      ];
      await control.patchState({ backups });
      await control.invalidateSnapshot();
    });
  },
);

Given(
  'the PBX has one backup target whose most recent run succeeded but whose status message reads {string}',
  function (this: PbxWorld, message: string) {
    return withControl(this, 'set a backup with an error message', async (control) => {
      const now = (await control.now()).now;
      const backups = [
        backupTarget('SMB', '192.0.2.6:/Backup', message, [
          { time: now - 2 * 3_600_000, result: BACKUP_SUCCESSFUL },
        ]),
      ];
      await control.patchState({ backups });
      await control.invalidateSnapshot();
    });
  },
);

Given(
  'the PBX has SIP trunks with the registrations {names}',
  function (this: PbxWorld, registrations: string[]) {
    return changeState(this, 'set the SIP trunks', {
      sipProviders: sipTrunks(registrations.map((r) => r === 'registered')),
    });
  },
);

Given('the operator renames the monitoring instance to {string}', function (this: PbxWorld, name: string) {
  return withControl(this, 'rename the monitoring instance', (control) => control.setInstanceName({ name }));
});

Given('the operator sets directory sign-in {word}', function (this: PbxWorld, state: string) {
  if (state !== 'active' && state !== 'inactive')
    throw new Error(`directory sign-in is active or inactive, not ${state}`);
  return changeState(this, 'switch directory sign-in', {
    directory: { activeDirectoryEnabled: state === 'active' },
  });
});

Given(
  'the PBX has {int} bytes of RAM with {int} available and a root disk {int} % full',
  function (this: PbxWorld, total: number, available: number, diskPercent: number) {
    const diskTotal = 100 * 1_073_741_824;
    return changeState(this, 'set the memory and disk figures', {
      os: {
        memTotalBytes: total,
        memAvailableBytes: available,
        diskRootTotalBytes: diskTotal,
        diskRootFreeBytes: (diskTotal / 100) * (100 - diskPercent),
      },
    });
  },
);

Given('the PBX uses exactly {int} % of its RAM', function (this: PbxWorld, percent: number) {
  return changeState(this, 'set the RAM use', {
    os: { memTotalBytes: EXACT_RAM_TOTAL, memAvailableBytes: (EXACT_RAM_TOTAL / 100) * (100 - percent) },
  });
});

/** The named scenarios of the control plane that make an update available (or none). */
const UPDATE_SCENARIOS: Record<string, string> = {
  'no PBX update is available': 'healthy',
  'a major PBX update is available': 'update-major',
  'a minor PBX update is available': 'update-minor',
};

Given(
  /^(no PBX update is available|a major PBX update is available|a minor PBX update is available)$/,
  function (this: PbxWorld, situation: string) {
    const scenario = UPDATE_SCENARIOS[situation]!;
    return withControl(this, `load the scenario "${scenario}"`, async (control) => {
      await control.loadScenario({ name: scenario });
      await control.invalidateSnapshot();
    });
  },
);

Given(
  'the PBX knows {int} phones of which {int} are online',
  function (this: PbxWorld, known: number, online: number) {
    return changeState(this, 'set the phone counts', { sip: { knownPhones: known, onlinePhones: online } });
  },
);

Given(
  'the PBX has the user {string} with the password {string}',
  function (this: PbxWorld, login: string, password: string) {
    const { login: fixtureLogin, password: fixturePassword } = this.pbx.xmlrpc;
    const users = [{ login, password }];
    if (fixtureLogin !== login) users.push({ login: fixtureLogin, password: fixturePassword });
    return withControl(this, 'set the PBX users', (control) => control.setUsers(users));
  },
);
