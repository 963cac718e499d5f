import type { Snapshot } from '../snapshot.ts';
import { latestRun } from './backup-runs.ts';
import { formatNumber } from './text-safety.ts';
import { XML_DECLARATION, xmlBuilder, xmlSafe } from './xml-safe.ts';

/**
 * The snapshot as XML (`GET /xml`): root `pbx` (MON-XML-ROOT) with the children appliance,
 * license, security, sip, channels, accounts, peers, sipProviders, modules, backups, database,
 * java, and raid only when RAID is configured (MON-XML-CHILDREN, MON-XML-RAID, MON-XML-APPLIANCE,
 * MON-XML-LICENSE, MON-XML-SECURITY, MON-XML-SIP, MON-XML-CHANNELS-ATTRIBUTES,
 * MON-XML-CHANNELS-ACTIVE, MON-XML-ACCOUNTS, MON-XML-PEERS, MON-XML-SIP-PROVIDERS, MON-XML-MODULES,
 * MON-XML-BACKUPS, MON-XML-DATABASE, MON-XML-JAVA, MON-XML-NOT-LOCAL).
 *
 * MON-UNSPEC-XML-CHILDREN, the simulator's choices: `appliance` also has manufacturer, hostname,
 * pbxBuildDate, hardwareId, uptimeLinuxMs, updateAvailable, latestVersion; `license` also valid,
 * validUntil, updateContractValidUntil; `security` also sipFloodProtection, blockedIps; `java` also
 * version, nonHeapUsed, maxMemory; `raid` has children level, status and `device` elements with
 * attributes name and state. A `registration` is the text `<uri> Registered` or
 * `<uri> Unregistered` (the engine's wording) with attributes index, uri, registered; a module has
 * an extra attribute id; an `instance` holds the instance name as text; a `backup` has the extra
 * attributes type and result, and `time` is the epoch ms of the most recent run (`-1` if none).
 * Numbers that cannot be determined are `-1` (MON-UNSPEC-SENTINEL-SCOPE). No other root children
 * are added, so the root's child list is exactly the spec's.
 */
export function renderXmlSnapshot(snapshot: Snapshot): string {
  const s = snapshot.state;
  const n = formatNumber;
  const t = xmlSafe;
  const pbx: Record<string, unknown> = {
    appliance: {
      type: t(s.appliance.type),
      serial: t(s.appliance.serial),
      manufacturer: t(s.appliance.manufacturer),
      hostname: t(s.appliance.hostname),
      maxUsers: n(s.appliance.maxUsers),
      maxConnections: n(s.appliance.maxConnections),
      pbxVersion: t(s.appliance.pbxVersion),
      pbxBuildDate: t(s.appliance.pbxBuildDate),
      debugMode: String(s.appliance.debugMode),
      hardwareId: t(s.appliance.hardwareId),
      uptimeLinuxMs: n(s.appliance.uptimeLinuxMs),
      updateAvailable: String(s.update.kind !== 'none'),
      latestVersion: t(s.update.latestVersion),
    },
    license: {
      owner: t(s.licence.owner),
      maxUsers: n(s.licence.maxUsers),
      valid: String(s.licence.valid),
      validUntil: t(s.licence.serverLicenseValidUntil),
      updateContractValidUntil: t(s.licence.updateContractValidUntil),
    },
    security: {
      passwordCheck: String(s.security.passwordCheck),
      attackDetection: String(s.security.attackDetection),
      sipFloodProtection: String(s.security.sipFloodProtection),
      blockedIps: n(s.security.blockedIps),
    },
    sip: {
      localhostStatus: t(s.sip.localhostStatus),
      knownPhones: n(s.sip.knownPhones),
      onlinePhones: n(s.sip.onlinePhones),
      ipChangedPhones: n(s.sip.ipChangedPhones),
    },
    channels: {
      '@_max': n(s.channels.max),
      '@_last5min': n(s.channels.last5MinCalls),
      '@_engineUptime': t(s.appliance.engineUptime),
      channel: s.channels.active.map(t),
    },
    accounts: {
      '@_total': n(s.accounts.total),
      '@_admin': n(s.accounts.admin),
      '@_active': n(s.accounts.active),
      '@_available': n(s.accounts.available),
      '@_ringing': n(s.accounts.ringing),
      '@_unavailable': n(s.accounts.unavailable),
    },
    peers: {
      peer: s.peers.map((p) => ({ '@_name': t(p.name), '@_ipaddr': t(p.ipaddr), '@_lastms': n(p.lastms) })),
    },
    sipProviders: {
      registration: s.sipProviders.map((p, index) => ({
        '@_index': index,
        '@_uri': t(p.uri),
        '@_registered': String(p.registered),
        '#text': t(`${p.uri} ${p.registered ? 'Registered' : 'Unregistered'}`),
      })),
    },
    modules: {
      module: s.modules.map((m) => ({
        '@_name': t(m.name),
        '@_version': t(m.version),
        '@_vendor': t(m.vendor),
        '@_id': t(m.id),
        instance: m.instances.map((i) => t(i.name)),
      })),
    },
    backups: {
      backup: s.backups.map((b) => {
        const latest = latestRun(b.runs);
        return {
          '@_location': t(b.location),
          '@_time': latest ? n(latest.time) : '-1',
          '@_message': t(b.message),
          '@_type': t(b.type),
          '@_result': t(latest?.result ?? ''),
        };
      }),
    },
    database: { '@_databaseSize': n(s.database.databaseSize), '@_cdrSize': n(s.database.cdrSize) },
    java: {
      vmName: t(s.java.vmName),
      version: t(s.java.version),
      heapUsed: n(s.java.heapUsed),
      heapMax: n(s.java.heapMax),
      nonHeapUsed: n(s.java.nonHeapUsed),
      maxMemory: n(s.java.maxMemory),
    },
  };
  if (s.raid) {
    pbx['raid'] = {
      level: t(s.raid.level),
      status: t(s.raid.status),
      device: s.raid.devices.map((d) => ({ '@_name': t(d.name), '@_state': t(d.state) })),
    };
  }
  return `${XML_DECLARATION}${xmlBuilder().build({ pbx })}`;
}
