import { z } from 'zod';
import { named, schemaFile } from '../../shared/control/control-fields.ts';
import { LEVELS, ROLES } from '../model/types.ts';

// The answers of the fleet control plane (fleet-operations.ts), named as the generated
// schemas/fleet-control.openapi.yaml names them; their TypeScript forms are control-types.ts.

export const Role = named('Role', z.enum(ROLES));

export const Level = named('Level', z.enum(LEVELS));

export const Now = named(
  'Now',
  z.strictObject({ now: z.int().describe("The controller's virtual time, epoch ms.") }),
);

export const Account = named(
  'Account',
  z.strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: Role,
    partnerId: z.string(),
    level: Level,
    hasPassword: z.boolean(),
  }),
);

export const Inventory = named(
  'Inventory',
  z
    .looseObject({
      at: z.int(),
      pbxVersion: z.string(),
      updateKind: z.string().describe('`none`, `minor` or `major`.'),
      sipProviders: z.array(z.looseObject({ uri: z.string(), registered: z.boolean() })),
      backups: z.array(
        z.looseObject({
          target: z.string(),
          lastRun: z.looseObject({ time: z.int(), result: z.string() }).nullable(),
          lastSuccessAt: z.int().nullable(),
        }),
      ),
      modules: z.array(
        z.looseObject({ name: z.string(), id: z.string(), worstStatus: z.int().min(0).max(2) }),
      ),
    })
    .describe(
      'What a PBX reports about itself (simulators/shared/wire/pbx-inventory.ts `PbxInventory`); the controller checks it further.',
    ),
);

/** An attention item as interface B shows it (schemas/fleet/attention-item.schema.json). */
export const AttentionItem = schemaFile<unknown>('fleet/attention-item.schema.json');

export const ItemInfo = named(
  'ItemInfo',
  z.intersection(
    AttentionItem,
    z.object({
      siteId: z.string(),
      acknowledgedBy: z
        .array(z.strictObject({ partnerId: z.string(), at: z.int() }))
        .describe('The partner accesses that acknowledged it, and when.'),
    }),
  ),
);

export const InjectResult = z.strictObject({
  outcome: z.enum(['created', 'merged', 'capped']),
  item: AttentionItem.optional().describe('Absent when `capped` (EVENT-SITE-CAP).'),
});

export const PbxRegistration = z.strictObject({
  siteId: z.string(),
  ingest: z.string().describe('`tcp://host:port` of the ingest listener.'),
  key: z.string().describe("The PBX's ingest key, shown once."),
});

export const LinkStatus = z.strictObject({
  siteId: z.string(),
  registered: z.boolean(),
  connected: z.int().min(0),
  cut: z.boolean(),
});

export const IngestStats = z.strictObject({
  accepted: z.int().min(0).describe('Event messages accepted (each one an occurrence of an item).'),
  capped: z.int().min(0).describe('Event messages dropped because the site held 200 items (EVENT-SITE-CAP).'),
  cappedSuppressed: z
    .int()
    .min(0)
    .describe('Sum of `suppressed` carried by capped messages (lost with them).'),
  duplicates: z
    .int()
    .min(0)
    .describe('Re-sent messages already processed (same stream and sequence number).'),
  invalid: z.int().min(0).describe('Malformed event messages.'),
});

export const IssuedToken = z.strictObject({
  id: z.string(),
  token: z.string().describe('The secret: 32 random bytes, shown once.'),
});
