import { type ControlDialect, createControlDispatcher } from '../http/control-dispatch.ts';
import { controlClient, injectTransport } from './control-client.ts';
import type { ControlClient, ControlOperations, Effects } from './control-operation.ts';
import { serveOperations } from './serve-operations.ts';

/**
 * The typed client of `operations` working on `effects` in this process, through the same
 * dispatcher the HTTP server uses (no socket): same input checks, statuses and `ControlError`s.
 */
export function inProcessClient<T extends ControlOperations>(
  operations: T,
  effects: Effects<T>,
  dialect?: ControlDialect,
): ControlClient<T> {
  return controlClient(
    operations,
    injectTransport(createControlDispatcher(serveOperations(operations, effects), dialect)),
  );
}
