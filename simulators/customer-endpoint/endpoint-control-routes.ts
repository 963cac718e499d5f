import { describeValue } from '../shared/http/control-input.ts';
import { ControlInputError } from '../shared/http/control-input-error.ts';
import type { ControlRoute } from '../shared/http/control-route.ts';
import { controlSchema, describeSchemaError } from './control-schema.ts';
import type { EndpointConfig } from './endpoint-behaviour.ts';
import type { RecordedRequest } from './recorded-request.ts';
import { configToWire, parseWireBehaviour, parseWireConfig, recordToWire } from './wire-config.ts';

/** What the control plane reads and changes of one running endpoint. */
export interface EndpointControlTarget {
  config(): EndpointConfig;
  configure(config: EndpointConfig): void;
  requests(): RecordedRequest[];
  clearRequests(): void;
  reset(): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  info(): { base: string; control: string; certificate: string | null };
}

function routePath(raw: string | undefined): string {
  const path = raw ?? '';
  if (!/^\/[^?#\s]{0,1023}$/.test(path))
    throw new ControlInputError(
      `the route path must start with / and hold no query, got ${describeValue(path)}`,
    );
  return path;
}

/**
 * The routes of the customer endpoint's HTTP control plane
 * (schemas/customer-endpoint-control.openapi.yaml): configuration (whole, per path, fallback),
 * recordings (read, clear, wait) and reset. Input is checked against the OpenAPI document's schemas.
 */
export function endpointControlRoutes(target: EndpointControlTarget): ControlRoute[] {
  const current = () => ({ status: 200, body: configToWire(target.config()) });
  return [
    { method: 'GET', path: '/info', handle: async () => ({ status: 200, body: target.info() }) },
    { method: 'GET', path: '/config', handle: async () => current() },
    {
      method: 'PUT',
      path: '/config',
      handle: async ({ body }) => {
        target.configure(parseWireConfig(body));
        return current();
      },
    },
    {
      method: 'PUT',
      path: '/routes/{path}',
      handle: async ({ params, body }) => {
        const path = routePath(params['path']);
        const behaviour = parseWireBehaviour(body, `route ${path}`);
        const config = target.config();
        target.configure({ ...config, routes: { ...config.routes, [path]: behaviour } });
        return current();
      },
    },
    {
      method: 'DELETE',
      path: '/routes/{path}',
      handle: async ({ params }) => {
        const path = routePath(params['path']);
        const config = target.config();
        if (!config.routes || !Object.hasOwn(config.routes, path))
          return { status: 404, body: { error: 'not_found', message: `no route for ${path}` } };
        const { [path]: _removed, ...routes } = config.routes;
        target.configure({ ...config, routes });
        return current();
      },
    },
    {
      method: 'PUT',
      path: '/fallback',
      handle: async ({ body }) => {
        target.configure({ ...target.config(), fallback: parseWireBehaviour(body, 'fallback') });
        return current();
      },
    },
    {
      method: 'GET',
      path: '/requests',
      handle: async ({ query }) => {
        const since = query.get('since') ?? '0';
        if (!/^\d{1,15}$/.test(since))
          throw new ControlInputError(`since must be a non-negative integer, got ${describeValue(since)}`);
        const after = Number(since);
        return {
          status: 200,
          body: target
            .requests()
            .filter((r) => r.seq > after)
            .map(recordToWire),
        };
      },
    },
    {
      method: 'DELETE',
      path: '/requests',
      handle: async () => {
        target.clearRequests();
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/requests/wait',
      handle: async ({ body }) => {
        const validate = controlSchema('WaitRequest');
        if (!validate(body))
          throw new ControlInputError(describeSchemaError(validate.errors, 'the request body'));
        const { count, timeoutMs } = body as { count: number; timeoutMs?: number };
        try {
          return {
            status: 200,
            body: (await target.waitForRequests(count, timeoutMs ?? 5000)).map(recordToWire),
          };
        } catch (error) {
          return { status: 408, body: { error: 'timeout', message: (error as Error).message } };
        }
      },
    },
    {
      method: 'POST',
      path: '/reset',
      handle: async () => {
        target.reset();
        return { status: 204 };
      },
    },
  ];
}
