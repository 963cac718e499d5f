import fc from 'fast-check';
import { defaultState } from '../../../../../simulators/pbx/state/default-state.ts';
import type {
  BackupState,
  ModuleState,
  PbxState,
  PeerState,
  UpdateKind,
} from '../../../../../simulators/pbx/state/types.ts';
import { NOW } from './snapshot-of.ts';

/**
 * Characters that break naive line formats: quotes, line breaks of every kind, header brackets,
 * percent signs, separators, a literal backslash-n, a lone surrogate, plus ordinary and
 * non-ASCII graphemes.
 */
const nastyUnit = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('"', "'", ' ', '\n', '\r\n', '\t', '<', '<<<', '>>>', '%', '%41', '|', '\\n'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '[',
      ']',
      '-',
      ':',
      ';',
      '=',
      '\u2028',
      '\u0085',
      '\u0000',
      '\u000b',
      '\uD800',
    ),
  },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.constantFrom('a', 'B', '7', 'é', '😀', 'ß') },
);

/** Arbitrary text, including everything that breaks line formats. */
export const nastyString = (maxLength = 12) => fc.string({ unit: nastyUnit, maxLength });

/** A count, a size or the sentinel -1. */
export const count = fc.oneof(fc.constant(-1), fc.nat({ max: 1000 }), fc.nat({ max: 2 ** 45 }));

/** A measurement, possibly fractional, or -1. */
export const measure = fc.oneof(
  fc.constant(-1),
  fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 1e-6, noNaN: true, noDefaultInfinity: true }),
);

const peer: fc.Arbitrary<PeerState> = fc.record({
  name: nastyString(),
  ipaddr: nastyString(),
  lastms: fc.oneof(fc.constant(-1), fc.nat({ max: 5000 })),
  monitored: fc.boolean(),
  online: fc.boolean(),
});

const module: fc.Arbitrary<ModuleState> = fc.record({
  name: nastyString(),
  id: nastyString(),
  version: nastyString(),
  vendor: nastyString(),
  instances: fc.array(
    fc.record({
      name: nastyString(),
      status: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
      statusText: nastyString(),
    }),
    { maxLength: 3 },
  ),
});

const resultKey = fc.oneof(
  fc.constantFrom(
    'de.vendor.backup.successful',
    'de.vendor.backup.mountfail',
    'de.vendor.backup.failed',
    'successful',
  ),
  nastyString(),
);

const backup: fc.Arbitrary<BackupState> = fc.record({
  type: nastyString(6),
  location: nastyString(),
  message: fc.oneof(
    fc.constantFrom(
      'Backup completed successfully',
      'Backup failed',
      'ERROR: disk full',
      'Fehler beim Sichern',
    ),
    nastyString(),
  ),
  runs: fc.array(
    fc.record({ time: fc.integer({ min: NOW - 400 * 86_400_000, max: NOW }), result: resultKey }),
    { maxLength: 4 },
  ),
  sizeBytes: fc.nat(),
});

/**
 * PbxStates with arbitrary names, messages and numbers in every field the renderers write:
 * the default state with its renderable parts replaced. Linux sections are synthetic so the
 * output is deterministic.
 */
export const pbxStateArbitrary: fc.Arbitrary<PbxState> = fc
  .record({
    hostname: nastyString(),
    type: nastyString(),
    serial: nastyString(),
    owner: nastyString(),
    pbxVersion: fc.oneof(fc.constantFrom('12.4.1.3', '13.0', '1.2.3.4-beta'), nastyString()),
    updateKind: fc.constantFrom<UpdateKind>('none', 'minor', 'major'),
    debugMode: fc.boolean(),
    knownPhones: fc.oneof(fc.constant(-1), fc.constant(0), fc.nat({ max: 500 })),
    onlinePhones: fc.oneof(fc.constant(-1), fc.constant(0), fc.nat({ max: 500 })),
    accounts: fc.record({
      total: count,
      admin: count,
      active: count,
      available: count,
      ringing: count,
      unavailable: count,
    }),
    channelsMax: count,
    last5MinCalls: count,
    active: fc.array(nastyString(), { maxLength: 5 }),
    peers: fc.array(peer, { maxLength: 6 }),
    providers: fc.array(fc.record({ uri: nastyString(), registered: fc.boolean() }), { maxLength: 4 }),
    modules: fc.array(module, { maxLength: 4 }),
    backups: fc.array(backup, { maxLength: 4 }),
    databaseSize: count,
    cdrSize: count,
    byApp: fc.array(fc.record({ name: nastyString(), count }), { maxLength: 3 }),
    byDb: fc.array(fc.record({ name: nastyString(), count }), { maxLength: 3 }),
    vmName: nastyString(),
    heapUsed: count,
    heapMax: count,
    jitter: measure,
    mos: measure,
    raid: fc.option(
      fc.record({
        level: nastyString(),
        status: nastyString(),
        devices: fc.array(fc.record({ name: nastyString(), state: nastyString() }), { maxLength: 3 }),
      }),
    ),
    faxQueue: count,
    logText: nastyString(),
  })
  .map((g) => {
    const s = defaultState(NOW);
    s.os.linuxSectionsSource = 'synthetic';
    s.appliance.hostname = g.hostname;
    s.appliance.type = g.type;
    s.appliance.serial = g.serial;
    s.appliance.pbxVersion = g.pbxVersion;
    s.appliance.debugMode = g.debugMode;
    s.licence.owner = g.owner;
    s.update.kind = g.updateKind;
    s.sip.knownPhones = g.knownPhones;
    s.sip.onlinePhones = g.onlinePhones;
    s.accounts = g.accounts;
    s.channels = { max: g.channelsMax, active: g.active, last5MinCalls: g.last5MinCalls };
    s.peers = g.peers;
    s.sipProviders = g.providers;
    s.modules = g.modules;
    s.backups = g.backups;
    s.database.databaseSize = g.databaseSize;
    s.database.cdrSize = g.cdrSize;
    s.database.connections.byApp = g.byApp;
    s.database.connections.byDb = g.byDb;
    s.java.vmName = g.vmName;
    s.java.heapUsed = g.heapUsed;
    s.java.heapMax = g.heapMax;
    s.rtp.avgJitterMs = g.jitter;
    s.rtp.estimatedMos = g.mos;
    s.raid = g.raid;
    s.system.faxQueue = g.faxQueue;
    s.system.logStatus.text = g.logText;
    return s;
  });

/** fast-check options of the render properties: the failing assertion shows in the report. */
export const PROPERTY_RUN = { includeErrorInReport: true } as const;
