import type { Effects } from '../../shared/control/control-operation.ts';
import type { ACTIVITY_OPERATIONS } from './activity-operations.ts';
import type { FieldActivity } from './field-activity.ts';

/** What each operation of `ACTIVITY_OPERATIONS` does to one PBX's field activity. */
export function activityEffects(activity: FieldActivity): Effects<typeof ACTIVITY_OPERATIONS> {
  return {
    activityStatus: () => activity.status(),
    activityStart: ({ stormSize, ...options }) =>
      activity.start(stormSize === undefined ? options : { ...options, stormSize: Math.round(stormSize) }),
    activityStop: () => activity.stop(),
  };
}
