import type { LicenceUsage } from '../../state/types.ts';
import type { Snapshot } from '../snapshot.ts';
import { latestRun, runsOldestFirst } from './backup-runs.ts';
import { formatNumber, numberOrSentinel as num, wellFormed } from './text-safety.ts';

/**
 * The snapshot as JSON (`GET /json`): one object with the field names of the spec's JSON table
 * (MON-JSON-OBJECT, MON-JSON-APPLIANCE, MON-JSON-LICENCE, MON-JSON-SIP, MON-JSON-PEERS,
 * MON-JSON-SIP-PROVIDER-ENTRIES, MON-JSON-TELEPHONY, MON-JSON-USERS, MON-JSON-RTP, MON-JSON-OS,
 * MON-JSON-DATABASE, MON-JSON-RUNTIME, MON-JSON-BACKUPS, MON-JSON-MODULES). Numbers that cannot be
 * determined are `-1` (MON-JSON-SENTINEL); a non-finite number in state also becomes `-1`.
 *
 * MON-UNSPEC-JSON-PATHS, the simulator's choice: every listed field sits at the top level (a
 * consumer finds `knownPhones` at `$.knownPhones`); the hierarchy is in the lists and objects:
 * `peers[]` {name, ipaddr, lastms as text, monitored, online}; `sipProviderEntries[]` {index from
 * 0, uri, registered}; `dbConnByApplication[]` and `dbConnByDatabase[]` {name, count};
 * `backups[]` {type, location, time (epoch ms of the most recent run, -1 if none), message,
 * runInfo {lastResult, successful, runs[] {time, result} oldest first}}; `lastBackupAgeMinutes`
 * whole minutes from the newest run of any target to the snapshot time (-1 if none);
 * `modules[]` {name, id, version, vendor, instances[] {name, status, statusText}}; `raid` null or
 * {level, status, devices[] {name, state}}; `licenseUsage` {fullUsers, lightUsers, iQueuesStandard,
 * iQueuesPriority, iQueuesSkill, terminalServer, appPremium} each {licensed, used}.
 * MON-UNSPEC-JSON-FIELDS: further fields are additive; schemas/monitoring-snapshot.schema.json
 * describes them all.
 */
export function jsonSnapshot(snapshot: Snapshot): Record<string, unknown> {
  const s = snapshot.state;
  const str = wellFormed;
  let newest = -Infinity;
  for (const backup of s.backups) for (const run of backup.runs) if (run.time > newest) newest = run.time;
  const usage = (u: LicenceUsage) => ({ licensed: num(u.licensed), used: num(u.used) });
  return {
    snapshotTakenAt: snapshot.takenAt,
    applianceType: str(s.appliance.type),
    applianceSerialNumber: str(s.appliance.serial),
    pbxVersion: str(s.appliance.pbxVersion),
    pbxBuildDate: str(s.appliance.pbxBuildDate),
    systemManufacturer: str(s.appliance.manufacturer),
    hostname: str(s.appliance.hostname),
    uptimeLinuxMs: num(s.appliance.uptimeLinuxMs),
    debugMode: s.appliance.debugMode,
    hardwareId: str(s.appliance.hardwareId),
    engineUptime: str(s.appliance.engineUptime),
    maxUsers: num(s.appliance.maxUsers),
    maxConnections: num(s.appliance.maxConnections),
    licenseValid: s.licence.valid,
    licenseOwner: str(s.licence.owner),
    licenseMaxUsers: num(s.licence.maxUsers),
    updateAvailable: s.update.kind !== 'none',
    updateKind: s.update.kind,
    pbxLatestVersion: str(s.update.latestVersion),
    serverLicenseValidUntil: str(s.licence.serverLicenseValidUntil),
    updateContractValidUntil: str(s.licence.updateContractValidUntil),
    licenseUsage: {
      fullUsers: usage(s.licence.fullUsers),
      lightUsers: usage(s.licence.lightUsers),
      iQueuesStandard: usage(s.licence.iQueues.standard),
      iQueuesPriority: usage(s.licence.iQueues.priority),
      iQueuesSkill: usage(s.licence.iQueues.skill),
      terminalServer: usage(s.licence.terminalServer),
      appPremium: usage(s.licence.appPremium),
    },
    securityPasswordCheck: s.security.passwordCheck,
    securityAttackDetection: s.security.attackDetection,
    securitySipFloodProtection: s.security.sipFloodProtection,
    securityBlockedIps: num(s.security.blockedIps),
    sipStatusLocalhost: str(s.sip.localhostStatus),
    knownPhones: num(s.sip.knownPhones),
    onlinePhones: num(s.sip.onlinePhones),
    ipChangedPhones: num(s.sip.ipChangedPhones),
    provisionedPhones: num(s.sip.provisionedPhones),
    peers: s.peers.map((p) => ({
      name: str(p.name),
      ipaddr: str(p.ipaddr),
      lastms: formatNumber(p.lastms),
      monitored: p.monitored,
      online: p.online,
    })),
    sipProviderEntries: s.sipProviders.map((p, index) => ({
      index,
      uri: str(p.uri),
      registered: p.registered,
    })),
    channelsMax: num(s.channels.max),
    channelsActive: s.channels.active.map(str),
    channelsLast5MinCalls: num(s.channels.last5MinCalls),
    currentLinkedCalls: num(s.traffic.linkedCalls),
    currentParkedCalls: num(s.traffic.parkedCalls),
    currentConferenceCalls: num(s.traffic.conferenceCalls),
    accountsTotal: num(s.accounts.total),
    accountsAdmin: num(s.accounts.admin),
    accountsActive: num(s.accounts.active),
    accountsAvailable: num(s.accounts.available),
    accountsRinging: num(s.accounts.ringing),
    accountsUnavailable: num(s.accounts.unavailable),
    appWebSessions: num(s.traffic.webSessions),
    appConnectedClients: num(s.traffic.appConnections),
    rtpActiveChannels: num(s.rtp.activeChannels),
    rtpAvgJitterMs: num(s.rtp.avgJitterMs),
    rtpMedianJitterMs: num(s.rtp.medianJitterMs),
    rtpMaxJitterMs: num(s.rtp.maxJitterMs),
    rtpAvgPacketLossPercent: num(s.rtp.avgPacketLossPercent),
    rtpMedianPacketLossPercent: num(s.rtp.medianPacketLossPercent),
    rtpMaxPacketLossPercent: num(s.rtp.maxPacketLossPercent),
    rtpAvgRttMs: num(s.rtp.avgRttMs),
    rtpMedianRttMs: num(s.rtp.medianRttMs),
    rtpMaxRttMs: num(s.rtp.maxRttMs),
    rtpEstimatedMos: num(s.rtp.estimatedMos),
    rtpMedianMos: num(s.rtp.medianMos),
    rtpMinMos: num(s.rtp.minMos),
    osLoad1min: num(s.os.load1),
    osLoad5min: num(s.os.load5),
    osLoad15min: num(s.os.load15),
    osMemTotalBytes: num(s.os.memTotalBytes),
    osMemAvailableBytes: num(s.os.memAvailableBytes),
    osDiskRootTotalBytes: num(s.os.diskRootTotalBytes),
    osDiskRootFreeBytes: num(s.os.diskRootFreeBytes),
    databaseSize: num(s.database.databaseSize),
    cdrSize: num(s.database.cdrSize),
    dbConnTotal: num(s.database.connections.total),
    dbConnActive: num(s.database.connections.active),
    dbConnIdle: num(s.database.connections.idle),
    dbConnIdleInTx: num(s.database.connections.idleInTx),
    dbConnMax: num(s.database.connections.max),
    dbConnByApplication: s.database.connections.byApp.map((g) => ({
      name: str(g.name),
      count: num(g.count),
    })),
    dbConnByDatabase: s.database.connections.byDb.map((g) => ({ name: str(g.name), count: num(g.count) })),
    javaVmName: str(s.java.vmName),
    javaVersion: str(s.java.version),
    javaHeapUsed: num(s.java.heapUsed),
    javaHeapMax: num(s.java.heapMax),
    javaNonHeapUsed: num(s.java.nonHeapUsed),
    javaMaxMemory: num(s.java.maxMemory),
    backups: s.backups.map((b) => {
      const latest = latestRun(b.runs);
      return {
        type: str(b.type),
        location: str(b.location),
        time: latest ? num(latest.time) : -1,
        message: str(b.message),
        runInfo: {
          lastResult: str(latest?.result ?? ''),
          successful: latest ? latest.result.endsWith('successful') : false,
          runs: runsOldestFirst(b.runs).map((r) => ({ time: num(r.time), result: str(r.result) })),
        },
      };
    }),
    lastBackupAgeMinutes: Number.isFinite(newest) ? Math.floor((snapshot.takenAt - newest) / 60_000) : -1,
    modules: s.modules.map((m) => ({
      name: str(m.name),
      id: str(m.id),
      version: str(m.version),
      vendor: str(m.vendor),
      instances: m.instances.map((i) => ({
        name: str(i.name),
        status: i.status,
        statusText: str(i.statusText),
      })),
    })),
    raid: s.raid
      ? {
          level: str(s.raid.level),
          status: str(s.raid.status),
          devices: s.raid.devices.map((d) => ({ name: str(d.name), state: str(d.state) })),
        }
      : null,
  };
}

/** `jsonSnapshot` serialised (UTF-8 text, no pretty-printing). */
export function renderJsonSnapshot(snapshot: Snapshot): string {
  return JSON.stringify(jsonSnapshot(snapshot));
}
