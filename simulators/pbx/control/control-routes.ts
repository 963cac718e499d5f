import { describeValue, requireObject } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { ControlResponse, ControlRoute } from '../../shared/http/control-route.ts';
import type { FaultName } from '../state/store.ts';
import { FAULTS } from '../state/store.ts';
import type { SnapshotFormat } from '../state/types.ts';
import type { MonitoringHostEntry, PbxControl, PbxUserInput } from './control-api.ts';

const ok = (body: unknown): ControlResponse => ({ status: 200, body });
const NO_CONTENT: ControlResponse = { status: 204 };

/** The one field of a `{ <name>: value }` body; the value's type is checked by the control. */
function field(body: unknown, name: string): unknown {
  return requireObject(body, 'the request body', [name])[name];
}

function sinceParameter(query: URLSearchParams): number | undefined {
  const since = query.get('since');
  if (since === null) return undefined;
  if (!/^\d{1,15}$/.test(since))
    throw new ControlInputError(`since must be a non-negative integer, got ${describeValue(since)}`);
  return Number(since);
}

/**
 * The route table of the PBX control plane (schemas/pbx-control.openapi.yaml documents every
 * entry; a unit test keeps the two in step). Bodies are passed on unchecked: the control checks
 * types and ranges, so the HTTP and TypeScript forms refuse the same input alike.
 */
export function controlRoutes(control: PbxControl): ControlRoute[] {
  return [
    { method: 'GET', path: '/state', handle: async () => ok(await control.getState()) },
    {
      method: 'PATCH',
      path: '/state',
      handle: async ({ body }) => {
        await control.patchState(body);
        return NO_CONTENT;
      },
    },
    { method: 'GET', path: '/scenarios', handle: async () => ok(await control.listScenarios()) },
    {
      method: 'PUT',
      path: '/scenario',
      handle: async ({ body }) => {
        await control.loadScenario(field(body, 'name') as string);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/tile',
      handle: async ({ body }) => {
        await control.setTile(field(body, 'on') as boolean);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/licence',
      handle: async ({ body }) => {
        await control.setLicence(field(body, 'valid') as boolean);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/hosts',
      handle: async ({ body }) => {
        await control.setMonitoringHosts(body as MonitoringHostEntry[]);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/users',
      handle: async ({ body }) => {
        await control.setUsers(body as PbxUserInput[]);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/instance',
      handle: async ({ body }) => {
        await control.setInstanceName(field(body, 'name') as string);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/default-format',
      handle: async ({ body }) => {
        await control.setDefaultFormat(field(body, 'format') as SnapshotFormat);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/cache-lifetime',
      handle: async ({ body }) => {
        await control.setCacheLifetime(field(body, 'ms') as number);
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      path: '/monitoring/port',
      handle: async ({ body }) => ok(await control.setMonitoringPort(field(body, 'port') as number)),
    },
    { method: 'POST', path: '/monitoring/restart', handle: async () => ok(await control.restartEndpoint()) },
    { method: 'GET', path: '/monitoring/status', handle: async () => ok(await control.endpointStatus()) },
    {
      method: 'GET',
      path: '/faults',
      handle: async () => ok({ active: await control.activeFaults(), known: [...FAULTS] }),
    },
    {
      method: 'POST',
      path: '/faults',
      handle: async ({ body }) => {
        await control.injectFault(field(body, 'name') as FaultName);
        return NO_CONTENT;
      },
    },
    {
      method: 'DELETE',
      path: '/faults',
      handle: async () => {
        await control.clearFault();
        return NO_CONTENT;
      },
    },
    {
      method: 'DELETE',
      path: '/faults/{name}',
      handle: async ({ params }) => {
        await control.clearFault(params['name'] as FaultName);
        return NO_CONTENT;
      },
    },
    { method: 'GET', path: '/warnings', handle: async () => ok(await control.warnings()) },
    {
      method: 'GET',
      path: '/module-log',
      handle: async ({ query }) => ok(await control.moduleLog(sinceParameter(query))),
    },
    { method: 'GET', path: '/clock', handle: async () => ok({ now: await control.now() }) },
    {
      method: 'POST',
      path: '/clock/advance',
      handle: async ({ body }) => ok({ now: await control.advanceClock(field(body, 'ms') as number) }),
    },
    {
      method: 'POST',
      path: '/snapshot/invalidate',
      handle: async () => {
        await control.invalidateSnapshot();
        return NO_CONTENT;
      },
    },
    {
      method: 'POST',
      path: '/reset',
      handle: async () => {
        await control.reset();
        return NO_CONTENT;
      },
    },
  ];
}
