/**
 * What the spec fixes about the JSON snapshot (monitoring-endpoint-and-xmlrpc.md, "Snapshot as
 * JSON"), as a check every target can be held to. The nesting of the fields and the shape of some
 * list elements are not stated (MON-UNSPEC-JSON-PATHS), the field list is a selection
 * (MON-UNSPEC-JSON-FIELDS): a field counts wherever it sits, extra fields never fail. The
 * simulator's own layout (all fields at the top level, schemas/monitoring-snapshot.schema.json) is
 * checked by its unit tests, not here.
 */
import { findJsonFields } from './snapshot-values.ts';

/** The fields the spec lists, by group (MON-JSON-APPLIANCE … MON-JSON-MODULES). */
export const JSON_SNAPSHOT_FIELDS: readonly string[] = [
  // Appliance/system
  'applianceType',
  'applianceSerialNumber',
  'pbxVersion',
  'pbxBuildDate',
  'systemManufacturer',
  'hostname',
  'uptimeLinuxMs',
  'debugMode',
  // Licence/update
  'licenseOwner',
  'licenseMaxUsers',
  'updateAvailable',
  'pbxLatestVersion',
  'serverLicenseValidUntil',
  // SIP/phones
  'sipStatusLocalhost',
  'knownPhones',
  'onlinePhones',
  'ipChangedPhones',
  'peers',
  'sipProviderEntries',
  // Telephony
  'channelsMax',
  'channelsActive',
  'channelsLast5MinCalls',
  'currentLinkedCalls',
  'currentParkedCalls',
  'currentConferenceCalls',
  // Users
  'accountsTotal',
  'accountsAdmin',
  'accountsActive',
  'accountsAvailable',
  'accountsRinging',
  'accountsUnavailable',
  'appWebSessions',
  'appConnectedClients',
  // RTP quality
  'rtpActiveChannels',
  'rtpAvgJitterMs',
  'rtpMedianJitterMs',
  'rtpAvgPacketLossPercent',
  'rtpAvgRttMs',
  'rtpEstimatedMos',
  'rtpMedianMos',
  // OS/resources
  'osLoad1min',
  'osLoad5min',
  'osLoad15min',
  'osMemTotalBytes',
  'osMemAvailableBytes',
  'osDiskRootTotalBytes',
  'osDiskRootFreeBytes',
  // Database
  'databaseSize',
  'cdrSize',
  'dbConnTotal',
  'dbConnActive',
  'dbConnIdle',
  'dbConnIdleInTx',
  'dbConnMax',
  'dbConnByApplication',
  'dbConnByDatabase',
  // Runtime
  'javaVmName',
  'javaVersion',
  'javaHeapUsed',
  'javaHeapMax',
  'javaNonHeapUsed',
  'javaMaxMemory',
  // Backups/modules
  'backups',
  'lastBackupAgeMinutes',
  'modules',
];

type TypeName = 'string' | 'integer' | 'boolean' | 'list';

/**
 * The lists the spec marks with `[]`, with the members it names for their elements and the types
 * it states (`lastms as text`, `index integer`, …). An empty list has nothing to check.
 */
const JSON_SNAPSHOT_LISTS: readonly { list: string; members: Record<string, TypeName | 'any'> | 'string' }[] =
  [
    { list: 'peers', members: { name: 'any', ipaddr: 'any', lastms: 'string' } },
    { list: 'sipProviderEntries', members: { index: 'integer', uri: 'string', registered: 'boolean' } },
    { list: 'channelsActive', members: 'string' },
    { list: 'dbConnByApplication', members: {} },
    { list: 'dbConnByDatabase', members: {} },
    { list: 'backups', members: { location: 'any', time: 'any', message: 'any', runInfo: 'any' } },
    { list: 'modules', members: { name: 'any', version: 'any', vendor: 'any', instances: 'list' } },
  ];

const TYPE_CHECKS: Record<TypeName, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  list: Array.isArray,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Where a parsed body departs from what the spec fixes for the JSON snapshot; empty when it is
 * one: a hierarchical JSON object (MON-JSON-OBJECT) that carries every listed field somewhere, the
 * `[]` fields as lists whose elements have the named members with the stated types.
 */
export function jsonSnapshotDeviations(value: unknown): string[] {
  if (!isObject(value)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  if (!Object.values(value).some((v) => v !== null && typeof v === 'object'))
    problems.push('the JSON object is not hierarchical: it holds no nested object or list');
  const missing = JSON_SNAPSHOT_FIELDS.filter((field) => findJsonFields(value, field).length === 0);
  if (missing.length > 0) problems.push(`fields missing: ${missing.join(', ')}`);
  for (const { list, members } of JSON_SNAPSHOT_LISTS) {
    const found = findJsonFields(value, list);
    if (found.length === 0) continue;
    const items = found.find(Array.isArray) as unknown[] | undefined;
    if (!items) {
      problems.push(`"${list}" is not a list`);
      continue;
    }
    items.forEach((item, i) => {
      if (members === 'string') {
        if (typeof item !== 'string') problems.push(`element ${i} of "${list}" is not a string`);
        return;
      }
      if (Object.keys(members).length === 0) return;
      if (!isObject(item)) {
        problems.push(`element ${i} of "${list}" is not an object`);
        return;
      }
      for (const [member, type] of Object.entries(members)) {
        if (!(member in item)) problems.push(`element ${i} of "${list}" lacks "${member}"`);
        else if (type !== 'any' && !TYPE_CHECKS[type](item[member]))
          problems.push(
            `"${member}" of element ${i} of "${list}" is ${JSON.stringify(item[member])}, not ${type}`,
          );
      }
    });
  }
  return problems;
}
