import { answer, decimal, fields, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { FieldActivityStatus } from './field-activity.ts';

/**
 * The control-plane switch of `--activity field` (issue 22; schemas/pbx-control.openapi.yaml,
 * `/activity`): its status, start (or restart) from a seed, stop. `activityEffects`
 * (activity-effects.ts) gives what each does to the PBX's `FieldActivity`.
 */
export const ACTIVITY_OPERATIONS = defineOperations({
  activityStatus: {
    method: 'GET',
    path: '/activity',
    summary: 'Field activity of this PBX',
    actsOn: 'the field activity (reads)',
    output: answer<FieldActivityStatus>(),
  },
  activityStart: {
    method: 'PUT',
    path: '/activity',
    summary: 'Starts (or restarts) field activity from a seed',
    actsOn: 'the field activity, and through it the state over virtual time',
    input: fields({
      seed: text(200, 1),
      eventsPerHour: decimal(0, 100_000).optional(),
      stormsPerDay: decimal(0, 1440).optional(),
      stormSize: decimal(0, 10_000).optional(),
    }),
  },
  activityStop: {
    method: 'DELETE',
    path: '/activity',
    summary: 'Stops field activity; the state stays as it left it',
    actsOn: 'the field activity',
  },
});
