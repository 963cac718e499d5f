import { ControlRefusal } from '../shared/control/control-error.ts';
import type { Effects } from '../shared/control/control-operation.ts';
import type { EndpointConfig } from './endpoint-behaviour.ts';
import {
  DEFAULT_WAIT_MS,
  type ENDPOINT_CONTROL_OPERATIONS,
  type EndpointInfo,
} from './endpoint-operations.ts';
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
  info(): EndpointInfo;
}

/**
 * What each operation of `ENDPOINT_CONTROL_OPERATIONS` does to one running endpoint. A
 * configuration or behaviour is checked against the OpenAPI document's schemas (`parseWire…`, 400
 * with one line naming the field); the configuration-changing operations answer the configuration
 * now in effect.
 */
export function endpointEffects(target: EndpointControlTarget): Effects<typeof ENDPOINT_CONTROL_OPERATIONS> {
  const current = () => configToWire(target.config());
  return {
    info: () => target.info(),
    getConfig: current,
    putConfig(wire) {
      target.configure(parseWireConfig(wire));
      return current();
    },
    putRoute({ path, behaviour }) {
      const parsed = parseWireBehaviour(behaviour, `route ${path}`);
      const config = target.config();
      target.configure({ ...config, routes: { ...config.routes, [path]: parsed } });
      return current();
    },
    deleteRoute({ path }) {
      const config = target.config();
      if (!config.routes || !Object.hasOwn(config.routes, path))
        throw new ControlRefusal(404, 'not_found', `no route for ${path}`);
      const { [path]: _removed, ...routes } = config.routes;
      target.configure({ ...config, routes });
      return current();
    },
    putFallback(behaviour) {
      target.configure({ ...target.config(), fallback: parseWireBehaviour(behaviour, 'fallback') });
      return current();
    },
    getRequests: ({ since = 0 }) =>
      target
        .requests()
        .filter((r) => r.seq > since)
        .map(recordToWire),
    clearRequests: () => target.clearRequests(),
    async waitForRequests({ count, timeoutMs = DEFAULT_WAIT_MS }) {
      try {
        return (await target.waitForRequests(count, timeoutMs)).map(recordToWire);
      } catch (error) {
        throw new ControlRefusal(408, 'timeout', (error as Error).message);
      }
    },
    reset: () => target.reset(),
  };
}
