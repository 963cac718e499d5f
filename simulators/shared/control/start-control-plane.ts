import type { Server } from 'node:http';
import { createControlDispatcher } from '../http/control-dispatch.ts';
import type { ControlRoute } from '../http/control-route.ts';
import { type ControlServerOptions, startControlServer } from '../http/control-server.ts';
import { controlClient, injectTransport } from './control-client.ts';
import type { ControlClient, ControlOperations, Effects } from './control-operation.ts';
import { type ServeOptions, serveOperations } from './serve-operations.ts';

export interface ControlPlane<T extends ControlOperations> {
  server: Server;
  url: string;
  /** The table it dispatches, so a test can hold it against the OpenAPI documents. */
  routes: readonly ControlRoute[];
  /** The typed client in this process, through the same dispatcher (no socket). */
  client: ControlClient<T>;
  close(): Promise<void>;
}

/**
 * A control plane from its declarations and their effects: the HTTP listener of the shared
 * control-plane server and the in-process client, both on one route table.
 */
export async function startControlPlane<T extends ControlOperations>(
  operations: T,
  effects: Effects<T>,
  options: ControlServerOptions & ServeOptions,
): Promise<ControlPlane<T>> {
  const routes = serveOperations(operations, effects, options);
  const { server, url, close } = await startControlServer(routes, options);
  const client = controlClient(operations, injectTransport(createControlDispatcher(routes, options.dialect)));
  return { server, url, routes, client, close };
}
