import { z } from 'zod';
import { decimal, fields, named, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';

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
    tag: 'time',
    description:
      'Whether `--activity field` (issue 22) runs on this PBX, its seed and rates, and what it has done: minutes simulated, events raised, storms, backup runs and failures.',
    answers: "The activity's status.",
    actsOn: 'the field activity (reads)',
    output: named(
      'FieldActivityStatus',
      z.strictObject({
        on: z.boolean(),
        seed: z.string().nullable(),
        siteId: z.string().nullable(),
        eventsPerHour: z.number().min(0),
        stormsPerDay: z.number().min(0),
        stormSize: z.int().min(0),
        ticks: z.int().min(0).describe('Virtual minutes simulated since it started.'),
        eventsRaised: z.int().min(0),
        storms: z.int().min(0),
        backupRuns: z.int().min(0),
        backupFailures: z.int().min(0),
      }),
    ),
  },
  activityStart: {
    method: 'PUT',
    path: '/activity',
    summary: 'Starts (or restarts) field activity from a seed',
    tag: 'time',
    description:
      'Makes the PBX change over its virtual time like a real one, deterministically from `seed`: once per virtual minute phones register and drop, calls follow the day, backups run at 02:00 and now and then fail, trunks flap, RAM drifts, an update appears, and attention events are raised through the forwarder at `eventsPerHour`, with storms of `stormSize` at `stormsPerDay`. A frozen clock stops it; a reset ends it. Restarts it when it runs.',
    answers: 'The activity runs.',
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
    tag: 'time',
    description: 'Ends field activity on this PBX; the state stays as the activity left it.',
    answers: 'The activity stopped (or was not running).',
    actsOn: 'the field activity',
  },
});
