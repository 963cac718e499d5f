import type { PbxState } from '../../state/types.ts';
import { backupTargetName, latestRun } from './backup-runs.ts';
import {
  backupStatus,
  phoneStatus,
  providerStatus,
  ramStatus,
  ramUsePercent,
  type SensorStatus,
  updateStatus,
} from './sensor-status.ts';
import { formatNumber } from './text-safety.ts';
import { XML_DECLARATION, xmlBuilder, xmlSafe } from './xml-safe.ts';

export {
  BACKUP_ERROR_TEXT,
  backupStatus,
  phoneStatus,
  providerStatus,
  ramStatus,
  ramUsePercent,
  updateStatus,
} from './sensor-status.ts';

/** One sensor of the `local` document (XMLRPC-LOCAL-ENTRY). */
export interface LocalEntry {
  key: string;
  status: SensorStatus;
  name: string;
  value: string;
  string: string;
}

/**
 * The parts of a PBX version `major.minor.build.revision` as numbers (XMLRPC-VERSION-PARTS);
 * a missing or non-numeric part is `-1`. Leading digits count (`3-beta` gives 3).
 */
export function versionParts(
  version: string,
): [major: number, minor: number, build: number, revision: number] {
  const parts = version.split('.');
  const part = (i: number) => {
    const digits = /^\d+/.exec(parts[i] ?? '')?.[0];
    return digits === undefined ? -1 : Number(digits);
  };
  return [part(0), part(1), part(2), part(3)];
}

/** RAM use truncated (not rounded) to two decimals, so the shown value never crosses 70 or 90 before the status does. */
export function ramValueText(percent: number): string {
  if (percent < 0) return '-1';
  return formatNumber(Math.trunc(percent * 100) / 100);
}

/**
 * The sensors of `GetMonitoringDataXML` in document order: diskUtilization, update, major, minor,
 * build, revision, phoneStatus, then `backup` and `backupTime` per target, then `provider` per SIP
 * provider (XMLRPC-DISK-IS-RAM, XMLRPC-DISK-THRESHOLDS, XMLRPC-UPDATE-VALUE, XMLRPC-UPDATE-MAJOR,
 * XMLRPC-UPDATE-MINOR, XMLRPC-VERSION-PARTS, XMLRPC-PHONE-STATUS, XMLRPC-BACKUP-ENTRIES,
 * XMLRPC-BACKUP-FAILED, XMLRPC-BACKUP-ERROR-TEXT, XMLRPC-PROVIDER-ENTRIES, XMLRPC-PROVIDER-STATUS).
 *
 * XMLRPC-UNSPEC-ENTRY-VALUES, the simulator's choices: `diskUtilization` value in percent without
 * a unit, truncated to two decimals (`-1` when unknown); `update` value `true`/`false`;
 * `phoneStatus` value = online phones; `backup` value = result key of the most recent run (empty
 * when it never ran) with the status message as `string`; `backupTime` value = epoch milliseconds
 * of the most recent run (`-1` when it never ran), status 0 (1 when it never ran), `string` the
 * ISO 8601 time; `provider` value `true`/`false` for registered.
 */
export function localEntries(state: PbxState): LocalEntry[] {
  const percent = ramUsePercent(state.os);
  const [major, minor, build, revision] = versionParts(state.appliance.pbxVersion);
  const version = state.appliance.pbxVersion;
  const { kind, latestVersion } = state.update;
  const entries: LocalEntry[] = [
    {
      key: 'diskUtilization',
      status: ramStatus(percent),
      name: 'Disk Utilization',
      value: ramValueText(percent),
      string:
        percent < 0 ? 'RAM use unknown' : `RAM use ${ramValueText(percent)} % (MemTotal - MemAvailable)`,
    },
    {
      key: 'update',
      status: updateStatus(kind),
      name: 'Update',
      value: String(kind !== 'none'),
      string:
        kind === 'none'
          ? 'No update available'
          : `${kind === 'major' ? 'Major' : 'Minor'} update to ${latestVersion}`,
    },
    versionEntry('major', 'Major version', major, version),
    versionEntry('minor', 'Minor version', minor, version),
    versionEntry('build', 'Build', build, version),
    versionEntry('revision', 'Revision', revision, version),
    {
      key: 'phoneStatus',
      status: phoneStatus(state.sip),
      name: 'Phone Status',
      value: formatNumber(state.sip.onlinePhones),
      string: `${formatNumber(state.sip.onlinePhones)} of ${formatNumber(state.sip.knownPhones)} known phones online`,
    },
  ];
  for (const backup of state.backups) {
    const target = backupTargetName(backup);
    const latest = latestRun(backup.runs);
    entries.push(
      {
        key: 'backup',
        status: backupStatus(backup),
        name: `Backup ${target}`,
        value: latest?.result ?? '',
        string: backup.message,
      },
      {
        key: 'backupTime',
        status: latest ? 0 : 1,
        name: `Backup Time ${target}`,
        value: latest ? formatNumber(latest.time) : '-1',
        string: latest ? isoTime(latest.time) : 'no backup yet',
      },
    );
  }
  for (const provider of state.sipProviders) {
    entries.push({
      key: 'provider',
      status: providerStatus(provider),
      name: `SIP Provider ${provider.uri}`,
      value: String(provider.registered),
      string: provider.registered ? 'registered' : 'not registered',
    });
  }
  return entries;
}

/**
 * The XML-RPC `GetMonitoringDataXML` document: root `local`, one `entry key="…"` per sensor with
 * the children status, name, value, string (XMLRPC-LOCAL-ENTRY). XML declaration with UTF-8
 * (XMLRPC-UNSPEC-LOCAL-DOCUMENT). Not the `/xml` snapshot (MON-XML-NOT-LOCAL).
 */
export function renderLocalDocument(state: PbxState): string {
  const entry = localEntries(state).map((e) => ({
    '@_key': e.key,
    status: e.status,
    name: xmlSafe(e.name),
    value: xmlSafe(e.value),
    string: xmlSafe(e.string),
  }));
  return `${XML_DECLARATION}${xmlBuilder().build({ local: { entry } })}`;
}

function versionEntry(key: string, name: string, part: number, version: string): LocalEntry {
  return { key, status: 0, name, value: String(part), string: `PBX version ${version}` };
}

function isoTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? String(epochMs) : date.toISOString();
}
