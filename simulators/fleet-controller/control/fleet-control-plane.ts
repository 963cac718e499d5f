import type { Effects } from '../../shared/control/control-operation.ts';
import { controlPlane, type InProcessControlPlane } from '../../shared/control/start-control-plane.ts';
import type { ControlDialect } from '../../shared/http/control-dispatch.ts';
import { ConflictError, NotFoundError } from '../model/fleet-errors.ts';
import { FLEET_CONTROL_OPERATIONS } from './fleet-operations.ts';

/**
 * The fleet control plane's own wording (schemas/fleet-control.openapi.yaml): `bad_request`,
 * `too_large`, `internal`, and 409 `conflict`; its model's errors map to 400, 404 and 409.
 */
export const FLEET_DIALECT: ControlDialect = {
  codes: { invalid_request: 'bad_request', payload_too_large: 'too_large', internal_error: 'internal' },
  classify(error) {
    if (error instanceof SyntaxError || error instanceof TypeError) {
      return { status: 400, error: 'bad_request', message: error.message };
    }
    if (error instanceof NotFoundError) return { status: 404, error: 'not_found', message: error.message };
    if (error instanceof ConflictError) return { status: 409, error: 'conflict', message: error.message };
    return undefined;
  },
};

/** The fleet control plane in this process, without a listener (routes and the typed client). */
export function inProcessFleetControlPlane(
  effects: Effects<typeof FLEET_CONTROL_OPERATIONS>,
): InProcessControlPlane<typeof FLEET_CONTROL_OPERATIONS> {
  return controlPlane(FLEET_CONTROL_OPERATIONS, effects, { dialect: FLEET_DIALECT });
}
