/**
 * A control operation that did not succeed, as every control client reports it (in-process or over
 * HTTP, for the PBX, the fleet controller and the customer endpoint alike): the operation
 * (`PUT /monitoring/tile`), the HTTP status, the server's `error` code (`invalid_request`,
 * `not_found`, `conflict`, …) and its one-line message. Status 0 means no answer arrived
 * (connection refused, timeout); `body` is the parsed answer when there was one.
 */
export class ControlError extends Error {
  override name = 'ControlError';
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body?: unknown,
  ) {
    super(`control plane ${operation}: ${status === 0 ? '' : `${status} `}${detail}`);
  }
}

/**
 * Thrown by an effect to answer with a status other than success or 400: 404 for an unknown
 * record, 408 or 504 when a wait ran out, 403 for an actor without the right. The dispatcher sends
 * `body` when given (e.g. the status the caller waited on), else `{ error: code, message }`.
 */
export class ControlRefusal extends Error {
  override name = 'ControlRefusal';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}
