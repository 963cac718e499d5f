import type { LicenceUsage, PbxState } from '../../state/types.ts';
import { sanitiseCheckText, sanitiseServiceName } from './agent-text-encoding.ts';
import { backupTargetName, latestRun } from './backup-runs.ts';
import {
  backupStatus,
  contractStatus,
  FAX_QUEUE_LEVELS,
  faxQueueStatus,
  licenceUsageStatus,
  phoneStatus,
  providerStatus,
  updateStatus,
} from './sensor-status.ts';

/** One metric of a local check, written `name=value;warn;crit;min;max`. */
export interface Metric {
  name: string;
  value: number;
  warn?: number;
  crit?: number;
  min?: number;
  max?: number;
}

/** One line of the `<<<local>>>` section (MON-LOCAL-LINE-SHAPE). */
export interface LocalCheck {
  status: 0 | 1 | 2 | 3;
  /** Already sanitised: no quotes, no line breaks, no `<<<` (see `sanitiseServiceName`). */
  name: string;
  metrics: Metric[];
  /** Already sanitised: one line (see `sanitiseCheckText`). */
  text: string;
}

/**
 * The local checks of the agent text, in a stable order (MON-LOCAL-UPDATE-SERVICES,
 * MON-LOCAL-LICENCE-SERVICES, MON-LOCAL-SYSTEM-SERVICES, MON-LOCAL-MODULE-SERVICES,
 * MON-LOCAL-BACKUP-SERVICES, MON-LOCAL-SIP-PROVIDER-SERVICES). Statuses are 0 to 2 only, as the
 * spec's line shape says.
 *
 * MON-UNSPEC-LOCAL-DETAILS, the simulator's choices:
 * - `Licensed/Used iQueues` is three services: `Licensed/Used iQueues standard`,
 *   `… priority based`, `… skill based`. `PBX Log Status Support/PBX` is one service.
 * - The per-item services put one space between the fixed part and the item:
 *   `PBX Module CRM Lookup` (instance name), `PBX Backup SMB 192.0.2.6:/Backup` (type and location),
 *   `PBX SIP Provider sip:…`. A name that would repeat gets ` (2)`, ` (3)`, … appended.
 * - A line without metrics writes `-`. Status rules are those of sensor-status.ts.
 */
export function localChecks(state: PbxState, now: number): LocalCheck[] {
  const checks: LocalCheck[] = [
    updateCheck(state),
    {
      status: 0,
      name: 'PBX version',
      metrics: [],
      text: `Installed PBX version ${state.appliance.pbxVersion} (build date ${state.appliance.pbxBuildDate})`,
    },
    licenceCheck('Licensed/Used full users', 'full users', state.licence.fullUsers),
    licenceCheck('Licensed/Used light users', 'light users', state.licence.lightUsers),
    licenceCheck('Licensed/Used iQueues standard', 'standard iQueues', state.licence.iQueues.standard),
    licenceCheck(
      'Licensed/Used iQueues priority based',
      'priority based iQueues',
      state.licence.iQueues.priority,
    ),
    licenceCheck('Licensed/Used iQueues skill based', 'skill based iQueues', state.licence.iQueues.skill),
    licenceCheck(
      'Licensed/Used terminal server permissions',
      'terminal server permissions',
      state.licence.terminalServer,
    ),
    licenceCheck(
      'Licensed/Used app premium permissions',
      'app premium permissions',
      state.licence.appPremium,
    ),
    contractCheck(state, now),
    ...state.modules.flatMap((module) =>
      module.instances.map(
        (instance): LocalCheck => ({
          status: instance.status,
          name: `PBX Module ${instance.name}`,
          metrics: [],
          text: `${instance.statusText || 'no status'} (module ${module.name} ${module.version} by ${module.vendor})`,
        }),
      ),
    ),
    {
      status: state.system.logStatus.status,
      name: 'PBX Log Status Support/PBX',
      metrics: [],
      text: state.system.logStatus.text || 'no status',
    },
    phonesCheck(state),
    { status: 0, name: 'PBX Hardware ID', metrics: [], text: `Hardware ID ${state.appliance.hardwareId}` },
    faxCheck(state.system.faxQueue),
    ...state.backups.map((backup): LocalCheck => {
      const latest = latestRun(backup.runs);
      const when = latest ? `last run ${isoTime(latest.time)}, result ${latest.result}` : 'no run yet';
      const metrics: Metric[] = latest
        ? [{ name: 'age_minutes', value: Math.floor((now - latest.time) / 60_000) }]
        : [];
      return {
        status: backupStatus(backup),
        name: `PBX Backup ${backupTargetName(backup)}`,
        metrics,
        text: `${backup.message || 'no message'}; ${when}`,
      };
    }),
    ...state.sipProviders.map(
      (provider): LocalCheck => ({
        status: providerStatus(provider),
        name: `PBX SIP Provider ${provider.uri}`,
        metrics: [],
        text: provider.registered ? 'Trunk registered' : 'Trunk not registered',
      }),
    ),
  ];
  return uniqueNames(checks.map(sanitiseCheck));
}

function updateCheck(state: PbxState): LocalCheck {
  const { kind, latestVersion } = state.update;
  const installed = state.appliance.pbxVersion;
  const text =
    kind === 'none'
      ? `No update available (installed ${installed})`
      : `${kind === 'major' ? 'Major' : 'Minor'} update available: ${latestVersion} (installed ${installed})`;
  return { status: updateStatus(kind), name: 'PBX update', metrics: [], text };
}

function licenceCheck(name: string, what: string, usage: LicenceUsage): LocalCheck {
  const known = usage.licensed >= 0 && usage.used >= 0 && Number.isFinite(usage.licensed + usage.used);
  return {
    status: licenceUsageStatus(usage),
    name,
    metrics: known
      ? [
          { name: 'used', value: usage.used, min: 0, max: usage.licensed },
          { name: 'licensed', value: usage.licensed },
        ]
      : [],
    text: known ? `${usage.used} of ${usage.licensed} ${what} used` : `Usage of ${what} unknown`,
  };
}

function contractCheck(state: PbxState, now: number): LocalCheck {
  const until = state.licence.updateContractValidUntil;
  const { status, daysLeft } = contractStatus(until, now);
  if (daysLeft === null) {
    return { status, name: 'Update contract valid until', metrics: [], text: `Unreadable date ${until}` };
  }
  const text = daysLeft < 0 ? `Expired on ${until}` : `Valid until ${until} (${daysLeft} days left)`;
  return {
    status,
    name: 'Update contract valid until',
    metrics: [{ name: 'days_left', value: daysLeft }],
    text,
  };
}

function phonesCheck(state: PbxState): LocalCheck {
  const { knownPhones, onlinePhones } = state.sip;
  const known = knownPhones >= 0 && onlinePhones >= 0;
  return {
    status: phoneStatus(state.sip),
    name: 'PBX All Phones Offline',
    metrics: known
      ? [
          { name: 'online', value: onlinePhones, min: 0, max: knownPhones },
          { name: 'known', value: knownPhones },
        ]
      : [],
    text: known ? `${onlinePhones} of ${knownPhones} known phones online` : 'Phone counts unknown',
  };
}

function faxCheck(queued: number): LocalCheck {
  const known = Number.isFinite(queued) && queued >= 0;
  return {
    status: faxQueueStatus(queued),
    name: 'PBX Fax Queue',
    metrics: known ? [{ name: 'queued', value: queued, ...FAX_QUEUE_LEVELS, min: 0 }] : [],
    text: known ? `${queued} faxes queued` : 'Fax queue length unknown',
  };
}

function sanitiseCheck(check: LocalCheck): LocalCheck {
  return {
    ...check,
    name: sanitiseServiceName(check.name),
    text: sanitiseCheckText(check.text),
    metrics: check.metrics.filter((m) => Number.isFinite(m.value)),
  };
}

function uniqueNames(checks: LocalCheck[]): LocalCheck[] {
  const seen = new Set<string>();
  return checks.map((check) => {
    let name = check.name;
    for (let n = 2; seen.has(name); n++) name = `${check.name} (${n})`;
    seen.add(name);
    return name === check.name ? check : { ...check, name };
  });
}

function isoTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? String(epochMs) : date.toISOString();
}
