import { z } from 'zod';
import { fields, integer, named, oneOf, unboundedText } from '../../shared/control/control-fields.ts';
import { SEVERITIES } from '../../shared/wire/severity.ts';

// The inputs and answers of the attention-event operations (attention-operations.ts), named as the
// generated schemas/pbx-control.openapi.yaml names them.

export const AttentionEventInput = named(
  'AttentionEventInput',
  fields({
    module: unboundedText(1).describe('Display name of the module.'),
    moduleId: unboundedText().optional(),
    subject: unboundedText(),
    description: unboundedText().optional(),
    severity: oneOf(SEVERITIES),
    at: integer(0, Number.MAX_SAFE_INTEGER).describe('PBX clock, epoch ms; default now.').optional(),
  }),
);

export const ControllerSettingsInput = named(
  'ControllerSettingsInput',
  fields({
    ingest: unboundedText(1).describe("`tcp://host:port` from the controller's `registerPbx`."),
    siteId: unboundedText(1),
    key: unboundedText(1).describe('The ingest key the controller issued (a secret: never logged).'),
  })
    .nullable()
    .describe('Where the PBX forwards its attention events; null disconnects.'),
);

export const ForwarderStatus = named(
  'ForwarderStatus',
  z.strictObject({
    link: z.enum(['disabled', 'cut', 'connecting', 'up', 'down']),
    siteId: z.string().nullable().describe('Site the link is configured for; the key is never shown.'),
    stats: z
      .strictObject({
        raised: z.int(),
        notReleased: z.int(),
        withheld: z.int(),
        forwarded: z.int(),
        delivered: z.int(),
        dropped: z.int(),
        buffered: z.int(),
        inFlight: z.int(),
        pendingSuppressed: z.int(),
      })
      .describe(
        'raised = notReleased + withheld + forwarded; forwarded = delivered + dropped + buffered + inFlight.',
      ),
  }),
);

export const RaiseAnswer = z.strictObject({
  outcome: z.enum(['sent', 'buffered', 'withheld', 'not-released']),
});
