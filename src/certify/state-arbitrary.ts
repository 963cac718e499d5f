import fc from 'fast-check';

/**
 * A scenario file (schemas/pbx-scenario.schema.json) drawn by fast-check for `certify-plugin
 * --runs`: an overlay of the default state over what PBX plug-ins read (accounts, channels,
 * phones, licence, database and Java figures, backup runs with every result key seen in the
 * field, ages from minutes to months) with the sentinel -1 and 0 among the numbers, plus list
 * sizes for the simulator's own generated peers, modules, trunks and active channels (`generate`).
 * Lists are drawn through `generate` wherever the simulator has it, so the file stays valid when
 * the state's item shapes grow. Every figure a plug-in reads (traffic and RTP included) is drawn:
 * fast-check keeps an optional key in about four states of five, so over a few states every
 * figure moves, and figure tracking (PLUGIN-FIGURES-FOLLOW-SERVED) tells a label that stays put
 * while its figure moves from one that follows it. Shrinking goes towards the default state
 * (empty overlay).
 */
export interface GeneratedScenarioFile {
  name: string;
  description: string;
  state: Record<string, unknown>;
  generate: Record<string, number>;
}

const count = fc.oneof(
  { weight: 1, arbitrary: fc.constant(-1) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.nat({ max: 500 }) },
  { weight: 1, arbitrary: fc.nat({ max: 2 ** 40 }) },
);

/** A decimal figure with two places (RTP times and loss), 0 to max/100. */
const hundredths = (max: number) => fc.nat({ max }).map((n) => n / 100);
/** A mean opinion score, 1.00 to 4.50. */
const mos = fc.integer({ min: 100, max: 450 }).map((n) => n / 100);

const RESULT_KEYS = [
  'de.vendor.backup.successful',
  'de.vendor.backup.mountfail',
  'de.vendor.backup.alreadyRunning',
  'de.vendor.backup.mailtobig',
  'de.vendor.backup.sftpRightProblem',
];

const LOCATIONS: Record<string, string[]> = {
  HDD: [''],
  USB: ['', 'sdb1'],
  SMB: ['192.0.2.6:/Backup', '//nas.example/Sicherung Büro'],
  SFTP: ['backup@192.0.2.7:/srv/pbx'],
  MAIL: ['user@example.org'],
  ALL: [''],
};

/**
 * A backup target as a PBX has one: its message says what its newest run did (the PBX's own
 * judgement, `PBX Backup …` in `<<<local>>>`, reads the message too), and each of its runs has a
 * time of its own (two runs of one target in the same millisecond do not happen, and which of them
 * is the newest would be anyone's guess).
 */
const backup = fc.constantFrom(...Object.keys(LOCATIONS)).chain((type) =>
  fc
    .record({
      type: fc.constant(type),
      location: fc.constantFrom(...(LOCATIONS[type] as string[])),
      failedMessage: fc.constantFrom('Backup failed', 'Sicherung fehlgeschlagen'),
      runs: fc.uniqueArray(
        fc.record({
          ageMinutes: fc.oneof(fc.nat({ max: 60 * 48 }), fc.nat({ max: 60 * 24 * 120 })),
          result: fc.constantFrom(...RESULT_KEYS),
        }),
        { maxLength: 4, selector: (run) => run.ageMinutes },
      ),
      sizeBytes: fc.nat({ max: 2 ** 40 }),
    })
    .map(({ failedMessage, ...target }) => {
      const newest = [...target.runs].sort((a, b) => a.ageMinutes - b.ageMinutes)[0];
      const message =
        newest === undefined
          ? ''
          : newest.result.endsWith('successful')
            ? 'Backup completed successfully'
            : failedMessage;
      return { ...target, message };
    }),
);

const channelName = fc.oneof(
  fc.nat({ max: 0xffff }).map((n) => `SIP/${200 + (n % 60)}-${n.toString(16).padStart(8, '0')}`),
  fc.nat({ max: 0xffff }).map((n) => `SIP/trunk-telekom-${n.toString(16).padStart(8, '0')}`),
  fc.nat({ max: 0xffff }).map((n) => `DAHDI/i1/0791234567-${n.toString(16)}`),
  fc.constantFrom('IAX2/remote-1234', 'Local/200@default-0000001;1'),
);

/** Parts of the overlay, each optional so that shrinking can drop it. */
const overlayParts = fc.record(
  {
    accounts: fc.record(
      { total: count, admin: count, active: count, available: count, ringing: count, unavailable: count },
      { requiredKeys: [] },
    ),
    channels: fc.record(
      { max: count, active: fc.array(channelName, { maxLength: 8 }), last5MinCalls: count },
      { requiredKeys: [] },
    ),
    sip: fc.record(
      { knownPhones: count, onlinePhones: count, ipChangedPhones: count, provisionedPhones: count },
      { requiredKeys: [] },
    ),
    traffic: fc.record(
      {
        webSessions: count,
        appConnections: count,
        linkedCalls: count,
        parkedCalls: count,
        conferenceCalls: count,
      },
      { requiredKeys: [] },
    ),
    rtp: fc.record(
      {
        activeChannels: count,
        avgJitterMs: hundredths(50_000),
        medianJitterMs: hundredths(50_000),
        maxJitterMs: hundredths(50_000),
        avgPacketLossPercent: hundredths(10_000),
        medianPacketLossPercent: hundredths(10_000),
        maxPacketLossPercent: hundredths(10_000),
        avgRttMs: hundredths(200_000),
        medianRttMs: hundredths(200_000),
        maxRttMs: hundredths(200_000),
        estimatedMos: mos,
        medianMos: mos,
        minMos: mos,
      },
      { requiredKeys: [] },
    ),
    licence: fc.record({ maxUsers: count }, { requiredKeys: [] }),
    appliance: fc.record(
      { maxUsers: count, maxConnections: count, uptimeLinuxMs: count },
      { requiredKeys: [] },
    ),
    security: fc.record({ blockedIps: count, whitelistedHosts: count }, { requiredKeys: [] }),
    database: fc.record({ databaseSize: count, cdrSize: count }, { requiredKeys: [] }),
    java: fc.record(
      { heapUsed: count, heapMax: count, nonHeapUsed: count, maxMemory: count },
      { requiredKeys: [] },
    ),
    // One target per type and location: two alike would be one line-stream in <<<pbx_backups>>>.
    backups: fc.uniqueArray(backup, { maxLength: 5, selector: (b) => `${b.type} ${b.location}` }),
  },
  { requiredKeys: [] },
);

const generateParts = fc.record(
  {
    peers: fc.nat({ max: 40 }),
    modules: fc.nat({ max: 12 }),
    sipProviders: fc.nat({ max: 6 }),
    activeChannels: fc.nat({ max: 40 }),
  },
  { requiredKeys: [] },
);

/** A generated scenario file; `name` is set by the caller when it is written out. */
export const generatedScenarioArbitrary: fc.Arbitrary<GeneratedScenarioFile> = fc
  .tuple(overlayParts, generateParts)
  .map(([state, generate]) => ({
    name: 'generated',
    description: 'A PBX state drawn by certify-plugin --runs.',
    state: state as Record<string, unknown>,
    generate: generate as Record<string, number>,
  }));
