import { isPlainObject } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import type { FieldActivity, FieldActivityOptions } from './field-activity.ts';

function parseOptions(body: unknown): FieldActivityOptions {
  if (!isPlainObject(body)) throw new ControlInputError('the body must be a JSON object with seed');
  const known = new Set(['seed', 'eventsPerHour', 'stormsPerDay', 'stormSize']);
  for (const key of Object.keys(body))
    if (!known.has(key)) throw new ControlInputError(`unknown field ${key}`);
  const seed = body['seed'];
  if (typeof seed !== 'string' || seed === '' || seed.length > 200)
    throw new ControlInputError('seed must be a string of 1 to 200 characters');
  const options: FieldActivityOptions = { seed };
  for (const [name, max] of [
    ['eventsPerHour', 100_000],
    ['stormsPerDay', 1440],
    ['stormSize', 10_000],
  ] as const) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
      throw new ControlInputError(`${name} must be a number from 0 to ${max}`);
    options[name] = name === 'stormSize' ? Math.round(value) : value;
  }
  return options;
}

/**
 * The control-plane switch of `--activity field` (issue 22): `GET /activity` → its status,
 * `PUT /activity` `{seed, eventsPerHour?, stormsPerDay?, stormSize?}` → 204, starts (or restarts)
 * it; `DELETE /activity` → 204, stops it.
 */
export function activityControlRoutes(activity: FieldActivity): ControlRoute[] {
  return [
    { method: 'GET', path: '/activity', handle: async () => ({ status: 200, body: activity.status() }) },
    {
      method: 'PUT',
      path: '/activity',
      handle: async ({ body }) => {
        activity.start(parseOptions(body));
        return { status: 204 };
      },
    },
    {
      method: 'DELETE',
      path: '/activity',
      handle: async () => {
        activity.stop();
        return { status: 204 };
      },
    },
  ];
}
