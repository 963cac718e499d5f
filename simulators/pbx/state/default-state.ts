import { defaultResolverState } from '../state/resolver-state.ts';
import { type AgentExtensions, KEY_VALUE_SECTIONS, type PbxState } from './types.ts';

/** sha512('Pass123') and sha512('secret'): the test-vector users (test-vectors.md). */
const SHA512_PASS123 =
  'd01feaafb5359e1fa2c020a76ebb526fc75786b0b837e0c9a4dcabd58ad734efa469513cf66a272d5ef4b1b9646b4b39f50807afc8f8663e1c6bb23552b04cd6';
const SHA512_SECRET =
  'bd2b1aaf7ef4f09be9f52ce2d8d599674d81aa9d6a4421696dc4d93dd0619d682ce56b4d64a9ef097761ced99e0f67265b5f76085e5b0ee7ca4696b2ad6fe2b2';

/**
 * The embedded default scenario ("healthy"): a mid-size appliance with everything in order.
 * Named scenarios in ../scenarios/ are overlays of this state.
 */
export function defaultState(now: number): PbxState {
  const minutes = (n: number) => now - n * 60_000;
  return {
    appliance: {
      type: 'PBX-Appliance-M',
      serial: 'PBXM-2041-7731',
      manufacturer: 'Simulated Systems GmbH',
      productName: 'SimServer 1U R2',
      hostname: 'pbx-sim-01',
      pbxVersion: '12.4.1.3',
      pbxBuildDate: '2026-09-14',
      maxUsers: 250,
      maxConnections: 120,
      debugMode: false,
      hardwareId: 'HWID-7C3A-91F0-22B4',
      uptimeLinuxMs: 1_209_600_000,
      engineUptime: '14 days, 2 hours, 11 minutes',
    },
    licence: {
      valid: true,
      owner: 'Example Trading AG',
      maxUsers: 250,
      fullUsers: { licensed: 200, used: 143 },
      lightUsers: { licensed: 50, used: 12 },
      iQueues: {
        standard: { licensed: 10, used: 4 },
        priority: { licensed: 5, used: 1 },
        skill: { licensed: 2, used: 0 },
      },
      terminalServer: { licensed: 20, used: 7 },
      appPremium: { licensed: 30, used: 18 },
      serverLicenseValidUntil: '2027-12-31',
      updateContractValidUntil: '2027-06-30',
    },
    update: {
      kind: 'none',
      latestVersion: '12.4.1.3',
      availableVersions: ['12.4.1.3', '12.4.2.0', '13.0.0.1'],
    },
    security: {
      passwordCheck: true,
      attackDetection: true,
      sipFloodProtection: true,
      blockedIps: 3,
      whitelistedHosts: 12,
    },
    sip: {
      localhostStatus: 'OK',
      knownPhones: 148,
      onlinePhones: 139,
      ipChangedPhones: 2,
      provisionedPhones: 148,
      autoprovisioning: true,
      acceptAllMacs: false,
      automatedFirmwareUpdates: true,
    },
    traffic: { webSessions: 9, appConnections: 61, linkedCalls: 7, parkedCalls: 1, conferenceCalls: 1 },
    rtp: {
      activeChannels: 14,
      avgJitterMs: 3.2,
      medianJitterMs: 2.8,
      maxJitterMs: 11.5,
      avgPacketLossPercent: 0.12,
      medianPacketLossPercent: 0,
      maxPacketLossPercent: 1.4,
      avgRttMs: 24.1,
      medianRttMs: 21,
      maxRttMs: 88,
      estimatedMos: 4.31,
      medianMos: 4.35,
      minMos: 3.9,
    },
    channels: {
      max: 60,
      active: [
        'SIP/trunk-telekom-0000012a',
        'SIP/trunk-telekom-0000012b',
        'SIP/201-0000012c',
        'SIP/214-0000012d',
        'SIP/trunk-sipgate-0000012e',
        'SIP/233-0000012f',
        'DAHDI/i1/0307654321-1d4',
      ],
      last5MinCalls: 23,
    },
    accounts: { total: 155, admin: 4, active: 139, available: 96, ringing: 3, unavailable: 40 },
    peers: [
      { name: '201', ipaddr: '10.20.1.21', lastms: 12, monitored: true, online: true, port: 5060 },
      { name: '202', ipaddr: '10.20.1.22', lastms: 9, monitored: true, online: true, port: 5060 },
      { name: '214', ipaddr: '10.20.1.34', lastms: 15, monitored: true, online: true, port: 5062 },
      { name: '233', ipaddr: '10.20.2.3', lastms: 22, monitored: true, online: true, port: 5060, nat: true },
      // A conference-room phone that is not qualified: its absence is not judged.
      { name: '240', ipaddr: '(Unspecified)', lastms: -1, monitored: false, online: false, port: 0 },
      {
        name: 'trunk-telekom',
        ipaddr: '217.0.18.4',
        lastms: 31,
        monitored: true,
        online: true,
        port: 5060,
        dynamic: false,
        acl: true,
      },
      {
        name: 'trunk-sipgate',
        ipaddr: '217.10.79.9',
        // Not qualified by the engine, so it has no latency (its status column says Unmonitored).
        lastms: -1,
        monitored: false,
        online: true,
        port: 5060,
        dynamic: false,
      },
    ],
    sipProviders: [
      { uri: 'sip:+4930123456@tel.t-online.de', registered: true },
      { uri: 'sip:4711234@sipgate.de', registered: true },
    ],
    modules: [
      {
        name: 'Monitoring',
        id: '5a1f6e2c-3b1d-4c8e-9d0a-7b2e4f6a8c10',
        version: '26.9.2',
        vendor: 'Simulated Systems GmbH',
        instances: [{ name: 'Monitoring', status: 0, statusText: 'running' }],
      },
      {
        name: 'Management',
        id: '7ce0d8df-1c2b-4a5e-8f90-3d4c5b6a7e81',
        version: '26.9.2',
        vendor: 'Simulated Systems GmbH',
        instances: [{ name: 'Management', status: 0, statusText: 'running' }],
      },
      {
        name: 'WebResolver',
        id: '2b9d4e61-0a7c-4f3b-b5e2-6c8d1a9f0e34',
        version: '26.8.14',
        vendor: 'Simulated Systems GmbH',
        instances: [
          { name: 'CRM Lookup', status: 0, statusText: 'running' },
          { name: 'ERP Lookup', status: 0, statusText: 'running' },
        ],
      },
    ],
    backups: [
      {
        type: 'HDD',
        location: '',
        message: 'Backup completed successfully',
        runs: [
          { time: minutes(60 * 26), result: 'de.vendor.backup.successful' },
          { time: minutes(60 * 2), result: 'de.vendor.backup.successful' },
        ],
        sizeBytes: 4_831_838_208,
      },
      {
        type: 'SMB',
        location: '192.0.2.6:/Backup',
        message: 'Backup completed successfully',
        runs: [{ time: minutes(60 * 3), result: 'de.vendor.backup.successful' }],
        sizeBytes: 4_790_125_312,
      },
    ],
    database: {
      databaseSize: 2_147_483_648,
      cdrSize: 536_870_912,
      connections: {
        opened: 184_223,
        closed: 184_185,
        total: 38,
        active: 6,
        idle: 30,
        idleInTx: 2,
        max: 200,
        byApp: [
          { name: 'pbx-core', count: 20 },
          { name: 'management', count: 8 },
          { name: 'monitoring', count: 4 },
          { name: 'web', count: 6 },
        ],
        byDb: [
          { name: 'pbx', count: 30 },
          { name: 'cdr', count: 8 },
        ],
      },
    },
    java: {
      vmName: 'OpenJDK 64-Bit Server VM',
      vmVendor: 'Eclipse Adoptium',
      vmVersion: '17.0.15+6',
      version: '17.0.15',
      heapUsed: 412_090_368,
      heapMax: 2_147_483_648,
      nonHeapUsed: 187_695_104,
      nonHeapMax: -1,
      maxMemory: 2_147_483_648,
    },
    raid: null,
    os: {
      load1: 0.42,
      load5: 0.51,
      load15: 0.48,
      memTotalBytes: 8_589_934_592,
      memAvailableBytes: 4_724_464_026,
      diskRootTotalBytes: 107_374_182_400,
      diskRootFreeBytes: 64_424_509_440,
      linuxSectionsSource: 'synthetic',
    },
    system: {
      systemMessages: 312,
      logBytes: 734_003_200,
      tempFileBytes: 157_286_400,
      recordingBytes: 21_474_836_480,
      faxes: 86,
      faxQueue: 0,
      firmwareBytes: 943_718_400,
      supportLogBytes: 209_715_200,
      logStatus: { status: 0, text: 'Support log and PBX log OK' },
    },
    users: [
      { login: '123', passwordSha512: SHA512_PASS123, admin: false },
      { login: 'admin', passwordSha512: SHA512_SECRET, admin: true },
    ],
    directory: { activeDirectoryEnabled: false },
    monitoring: {
      tileOn: true,
      port: 6556,
      host: '127.0.0.1',
      defaultFormat: 'checkmk',
      hosts: [{ entry: '127.0.0.1/32', active: true }],
      cacheLifetimeMs: 30_000,
      rawGraceMs: 150,
      instanceName: 'Monitoring',
      authParam: 'de.vendor.pbx.auth',
    },
    maintenance: {
      moduleVersion: '26.9.2',
      partnerReleased: true,
      restartingUntil: 0,
      restartDurationMs: 60_000,
      timeZone: 'UTC',
      scheduledUpdate: { version: '', executeAt: '', dueAt: 0 },
    },
    resolver: defaultResolverState(),
    agentExtensions: emptyAgentExtensions(),
  };
}

/** No extra sections and no extra lines (the default of `agentExtensions`). */
export function emptyAgentExtensions(): AgentExtensions {
  return {
    sections: [],
    extraLines: Object.fromEntries(
      KEY_VALUE_SECTIONS.map((name) => [name, []]),
    ) as unknown as AgentExtensions['extraLines'],
  };
}
