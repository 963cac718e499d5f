/**
 * Generated PBX state overlays for the FIELD property runs (field-lines.feature): everything the
 * key/value sections and the backup lines are written from, with texts that break naive line
 * formats (colons, quotes, percent signs, `<<<`, line breaks, leading spaces, non-ASCII), counts
 * that are -1, 0, large or not whole, an optional RAID with verbatim controller lines that look
 * like keys, and extra `key value` lines (agentExtensions). Applied with `PATCH /state`.
 */
import * as fc from 'fast-check';

const awkwardUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(':', ' ', '"', '%', '<<<', '\n', '\t', '=', '/', ',', '<', '>') },
  { weight: 1, arbitrary: fc.constantFrom('known_phones', 'owner ', 'raid_diagnosis ', '-1', '42 ms') },
  { weight: 4, arbitrary: fc.constantFrom('a', 'Z', '7', 'é', 'ß', '😀', 'Ω') },
);

/** Text with what breaks line formats. */
export const awkwardText = (maxLength = 10) => fc.string({ unit: awkwardUnit, maxLength });

/** A count: the sentinel -1, small, large or (rarely) not whole. */
export const fieldCount = fc.oneof(
  { weight: 2, arbitrary: fc.constant(-1) },
  { weight: 4, arbitrary: fc.nat({ max: 5000 }) },
  { weight: 2, arbitrary: fc.nat({ max: 2 ** 45 }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true }) },
);

/** Result keys seen in the field: the first is a successful run, the others failed ones. */
export const BACKUP_RESULT_KEYS = [
  'de.vendor.backup.successful',
  'de.vendor.backup.mountfail',
  'de.vendor.backup.alreadyRunning',
  'de.vendor.backup.mailtobig',
  'de.vendor.backup.sftpRightProblem',
] as const;

export interface GeneratedBackup {
  type: string;
  location: string;
  runs: { time: number; result: string }[];
}

/** Backup targets with field types, awkward locations and runs of every result (times distinct). */
export function backupTargets(now: number): fc.Arbitrary<GeneratedBackup[]> {
  return fc.array(
    fc.record({
      type: fc.constantFrom('HDD', 'SMB', 'SFTP', 'MAIL', 'USB', 'ALL'),
      location: awkwardText(12),
      runs: fc.uniqueArray(
        fc.record({
          time: fc.integer({ min: now - 400 * 86_400_000, max: now }),
          result: fc.constantFrom(...BACKUP_RESULT_KEYS),
        }),
        { maxLength: 3, selector: (r) => r.time },
      ),
    }),
    { maxLength: 4 },
  );
}

/** Extra lines with keys that clash with nothing the simulator writes, nor with each other. */
const extraLines = fc.subarray(['vendor_alpha 1', 'vendor_beta two words', 'vendor_gamma -1']);

/** A deep-partial state overlay for the key/value sections and the backup lines. */
export function fieldStateOverlay(now: number): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      type: awkwardText(),
      serial: awkwardText(),
      manufacturer: awkwardText(),
      productName: awkwardText(),
      engineUptime: awkwardText(16),
      owner: awkwardText(),
      maxUsers: fieldCount,
      maxConnections: fieldCount,
      licenceMaxUsers: fieldCount,
      debugMode: fc.boolean(),
      blockedIps: fieldCount,
      whitelistedHosts: fieldCount,
      knownPhones: fieldCount,
      onlinePhones: fieldCount,
      ipChangedPhones: fieldCount,
      localhostStatus: fc.constantFrom('OK', 'ERROR', 'TIMEOUT'),
      accounts: fc.record({
        total: fieldCount,
        admin: fieldCount,
        active: fieldCount,
        available: fieldCount,
        ringing: fieldCount,
        unavailable: fieldCount,
      }),
      connections: fc.record({
        opened: fieldCount,
        closed: fieldCount,
        active: fieldCount,
        idle: fieldCount,
      }),
      databaseSize: fieldCount,
      cdrSize: fieldCount,
      java: fc.record({
        vmName: awkwardText(),
        vmVendor: awkwardText(),
        vmVersion: awkwardText(),
        version: awkwardText(),
        heapUsed: fieldCount,
        heapMax: fieldCount,
        nonHeapUsed: fieldCount,
        nonHeapMax: fieldCount,
        maxMemory: fieldCount,
      }),
      raid: fc.option(
        fc.record(
          {
            level: fc.constantFrom('raid1', 'raid5', 'raid10'),
            status: fc.constantFrom('clean', 'degraded', 'rebuilding', 'failed'),
            devices: fc.array(
              fc.record({ name: awkwardText(6), state: fc.constantFrom('active', 'faulty', 'spare') }),
              {
                maxLength: 3,
              },
            ),
            controllerTable: fc.array(awkwardText(20), { maxLength: 4 }),
          },
          { requiredKeys: ['level', 'status', 'devices'] },
        ),
      ),
      backups: backupTargets(now),
      pbxExtra: extraLines,
      javaExtra: extraLines,
    })
    .map((g) => ({
      appliance: {
        type: g.type,
        serial: g.serial,
        manufacturer: g.manufacturer,
        productName: g.productName,
        engineUptime: g.engineUptime,
        maxUsers: g.maxUsers,
        maxConnections: g.maxConnections,
        debugMode: g.debugMode,
      },
      licence: { owner: g.owner, maxUsers: g.licenceMaxUsers },
      security: { blockedIps: g.blockedIps, whitelistedHosts: g.whitelistedHosts },
      sip: {
        knownPhones: g.knownPhones,
        onlinePhones: g.onlinePhones,
        ipChangedPhones: g.ipChangedPhones,
        localhostStatus: g.localhostStatus,
      },
      accounts: g.accounts,
      database: { databaseSize: g.databaseSize, cdrSize: g.cdrSize, connections: g.connections },
      java: g.java,
      raid: g.raid,
      backups: g.backups.map((b) => ({ ...b, message: 'generated', sizeBytes: 0 })),
      agentExtensions: { extraLines: { pbx: g.pbxExtra, pbx_java: g.javaExtra } },
    }));
}

/**
 * Channel states for the field-way channel reader: maximum -1, 0 or any count, calls of the last
 * 5 minutes likewise, and active channels of every technology with awkward names (blanks, a name
 * that itself ends in `max calls`, an empty name, a lone `-`), which the encoding must keep on one
 * line each.
 */
export const channelStates: fc.Arbitrary<Record<string, unknown>> = fc.record({
  max: fc.oneof(fc.constant(-1), fc.constant(0), fc.nat({ max: 5000 })),
  last5MinCalls: fc.oneof(fc.constant(-1), fc.nat({ max: 100_000 })),
  active: fc.array(
    fc.oneof(
      fc.nat({ max: 0xffff }).map((n) => `SIP/${200 + (n % 60)}-${n.toString(16).padStart(8, '0')}`),
      fc.nat({ max: 0xffff }).map((n) => `DAHDI/i1/0791234567-${n.toString(16)}`),
      fc.constantFrom('IAX2/remote-1234', 'Local/200@default-0000001;1', 'SIP/max calls', '', '-', 'x y'),
      awkwardText(8),
    ),
    { maxLength: 12 },
  ),
});
