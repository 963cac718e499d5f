import { z } from 'zod';
import { flag, named, oneOf, text, unboundedText } from '../../shared/control/control-fields.ts';
import { SNAPSHOT_FORMATS } from '../snapshot/snapshot.ts';
import { FAULTS } from '../state/store.ts';

// The inputs and answers of the PBX control plane's own operations (state-operations.ts), named
// as the generated schemas/pbx-control.openapi.yaml names them.

/** A group of the state that the control plane passes on whole (its fields are the state's). */
const group = () => z.record(z.string(), z.unknown());

export const SnapshotFormat = named('SnapshotFormat', oneOf(SNAPSHOT_FORMATS));

export const FaultName = named('FaultName', oneOf(FAULTS).describe('See docs/control-plane.md, "Faults".'));

export const Faults = named(
  'Faults',
  z.strictObject({ active: z.array(FaultName), known: z.array(FaultName) }),
);

export const ScenarioInfo = named('ScenarioInfo', z.object({ name: z.string(), description: z.string() }));

export const EndpointStatus = named(
  'EndpointStatus',
  z
    .strictObject({
      state: z.enum(['listening', 'stopped', 'inactive']),
      port: z
        .int()
        .nullable()
        .describe(
          'The port it listens on (the configured one, or the next after a conflict); null unless listening.',
        ),
      host: z.string().describe('The IPv4 listen address.'),
      configuredPort: z.int().min(0).max(65535),
      firewallOpenFor: z
        .array(z.string().meta({ examples: ['127.0.0.1/32'] }))
        .describe(
          "The networks the module has opened the PBX firewall for on the endpoint's port, as `a.b.c.d/n` (MON-STATE-FIREWALL): the valid active monitoring-hosts entries while the endpoint listens, none otherwise.",
        ),
    })
    .describe(
      'Where the data endpoint is in its state machine (monitoring-endpoint-and-xmlrpc.md, "States and transitions").',
    ),
);

export const MonitoringHostEntry = named(
  'MonitoringHostEntry',
  z.strictObject(
    {
      entry: unboundedText(1)
        .describe('An IPv4 address (`192.0.2.7`) or CIDR range (`192.0.2.0/24`).')
        .meta({ examples: ['127.0.0.1/32'] }),
      active: flag().default(true),
    },
    { error: 'must be a JSON object' },
  ),
);

export const UserInput = named(
  'UserInput',
  z.strictObject(
    {
      login: text(128, 1).regex(/^[^:\s]+$/, { error: 'must hold no colon or white space' }),
      password: text(1024).meta({ writeOnly: true }),
      admin: flag().default(false),
    },
    { error: 'must be a JSON object' },
  ),
);

export const ModuleLogEntry = named(
  'ModuleLogEntry',
  z.strictObject({
    seq: z.int().min(1).describe('Increases by one per line; pass the last one seen as `since`.'),
    at: z.int().describe('Virtual-clock time in epoch ms.'),
    level: z.enum(['info', 'warning', 'error']),
    source: z.string().meta({
      examples: ['monitoring', 'xmlrpc', 'maintenance', 'resolver', 'events', 'control', 'ui'],
    }),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).describe('Structured details; never secrets.').optional(),
  }),
);

export const ClockTime = named(
  'ClockTime',
  z.strictObject({
    now: z.int().describe('Virtual time in epoch ms.'),
    mode: z
      .enum(['frozen', 'running'])
      .describe(
        '`frozen`: time stands still until advanced; `running`: it moves with real time (and when advanced).',
      ),
  }),
);

export const StateOverlay = named(
  'StateOverlay',
  z
    .strictObject(
      {
        appliance: group().optional(),
        licence: group().optional(),
        update: group().optional(),
        security: group().optional(),
        sip: group().optional(),
        traffic: group().optional(),
        rtp: group().optional(),
        channels: group().optional(),
        accounts: group().optional(),
        peers: z.array(z.unknown()).optional(),
        sipProviders: z.array(z.unknown()).optional(),
        modules: z.array(z.unknown()).optional(),
        backups: z.array(z.unknown()).optional(),
        database: group().optional(),
        java: group().optional(),
        raid: group().nullable().optional(),
        os: group().optional(),
        system: group().optional(),
        users: z
          .array(
            z.object({
              login: z.string(),
              passwordSha512: z.string().regex(/^[0-9a-f]{128}$/),
              admin: z.boolean(),
            }),
          )
          .optional(),
        directory: group().optional(),
        monitoring: group().optional(),
        maintenance: group().optional(),
        resolver: group()
          .describe(
            'Web resolver settings, providers and address book (docs/resolver.md); searchLog only to [], callerId only to null.',
          )
          .optional(),
        agentExtensions: group()
          .describe(
            'Unknown extra content of the agent text (docs/simulator.md, "Agent-text extensions"): `sections` [{name, lines}] before `<<<pbx>>>`, `extraLines` {pbx, pbx_accounts, pbx_database, pbx_db_connections, pbx_java: [\'key value\', ...]}. An extra key must not clash by prefix with a key the section writes (400 otherwise).',
          )
          .optional(),
      },
      { error: 'must be a JSON object' },
    )
    .describe(
      "A deep-partial overlay of the state (the shape of `PublicState`, plus `passwordSha512` on users). Every field is optional; arrays replace and their elements must be complete. The server checks each field against the state's own shape and refuses unknown ones.",
    ),
);

export const MonitoringSettings = named(
  'MonitoringSettings',
  z.strictObject({
    tileOn: z.boolean(),
    port: z.int().min(0).max(65535).describe('The configured port; 0 asks the OS.'),
    host: z.string().describe('IPv4 listen address.'),
    defaultFormat: SnapshotFormat,
    hosts: z.array(z.strictObject({ entry: z.string(), active: z.boolean() })),
    cacheLifetimeMs: z.int().min(0).max(86400000),
    rawGraceMs: z.int().min(0).max(60000).describe('How long the endpoint waits for an HTTP request line.'),
    instanceName: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
    authParam: z.string().describe('URL parameter that carries XML-RPC credentials.'),
  }),
);

export const PublicState = named(
  'PublicState',
  z
    .strictObject({
      appliance: group(),
      licence: z.looseObject({
        valid: z.boolean().describe('The module licence; without it the endpoint stops.'),
      }),
      update: group(),
      security: group(),
      sip: group(),
      traffic: group(),
      rtp: group(),
      channels: group(),
      accounts: group(),
      peers: z.array(group()),
      sipProviders: z.array(group()),
      modules: z.array(group()),
      backups: z.array(group()),
      database: group(),
      java: group(),
      raid: group().nullable().describe('null when no RAID is configured.'),
      os: group(),
      system: group(),
      users: z
        .array(z.strictObject({ login: z.string(), admin: z.boolean() }))
        .describe('Login and admin right only; the password hash is never shown.'),
      directory: z.looseObject({ activeDirectoryEnabled: z.boolean() }),
      monitoring: MonitoringSettings,
      maintenance: group(),
      resolver: group().describe(
        'Web resolver state (docs/resolver.md); secret provider field values read ***.',
      ),
      agentExtensions: z
        .looseObject({ sections: z.array(z.unknown()), extraLines: group() })
        .describe(
          'Extra sections and extra `key value` lines of the agent text (docs/simulator.md, "Agent-text extensions"); empty by default.',
        ),
    })
    .describe(
      'The state of the simulated PBX (simulators/pbx/state/types.ts, `PbxState`) without secrets. The field list follows the JSON snapshot of the monitoring spec; numbers that cannot be determined are -1. Only the groups the control plane itself sets are detailed here.',
    ),
);
