import type { Server } from 'node:http';
import { type ControlDialect, createControlDispatcher } from '../http/control-dispatch.ts';
import type { ControlRoute } from '../http/control-route.ts';
import { type ControlServerOptions, startControlServer } from '../http/control-server.ts';
import { controlClient, injectTransport } from './control-client.ts';
import type { ControlClient, ControlOperations, Effects } from './control-operation.ts';
import { type ServeOptions, serveOperations } from './serve-operations.ts';

/** A control plane without a listener: its route table and the typed client in this process. */
export interface InProcessControlPlane<T extends ControlOperations> {
  /** The table it dispatches (a listener, or a plane that mounts it at `/pbx/{siteId}`, serves it). */
  routes: readonly ControlRoute[];
  /** The typed client in this process, through the same dispatcher (no socket). */
  client: ControlClient<T>;
}

export interface ControlPlane<T extends ControlOperations> extends InProcessControlPlane<T> {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * A control plane from its declarations and their effects, without a listener: the route table
 * and the in-process client on one dispatcher, worded in the plane's dialect. For a PBX mounted on
 * a fleet's control plane, and for tests that need no socket.
 */
export function controlPlane<T extends ControlOperations>(
  operations: T,
  effects: Effects<T>,
  options: ServeOptions & { dialect?: ControlDialect } = {},
): InProcessControlPlane<T> {
  const routes = serveOperations(operations, effects, options);
  const client = controlClient(operations, injectTransport(createControlDispatcher(routes, options.dialect)));
  return { routes, client };
}

/**
 * A control plane that listens: `controlPlane` on the shared control-plane server
 * (simulators/shared/http/control-server.ts). Every simulator's plane starts here: the PBX's, the
 * fleet controller's (with its dialect and the PBXs it serves at `/pbx/{siteId}`) and the customer
 * endpoint's.
 */
export async function startControlPlane<T extends ControlOperations>(
  operations: T,
  effects: Effects<T>,
  options: ControlServerOptions & ServeOptions,
): Promise<ControlPlane<T>> {
  const { routes, client } = controlPlane(operations, effects, options);
  const listener = await startControlServer(routes, options);
  return {
    server: listener.server,
    url: listener.url,
    routes: listener.routes,
    client,
    close: listener.close,
  };
}
