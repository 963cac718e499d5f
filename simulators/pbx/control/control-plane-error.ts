/**
 * A control-plane request that did not succeed, as `HttpPbxControl` reports it: the HTTP status,
 * the server's error code (`invalid_request`, `not_found`, …) and its one-line message. A status
 * of 0 means no answer arrived (connection refused, timeout).
 */
export class ControlPlaneError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`control plane ${operation}: ${status === 0 ? '' : `${status} `}${detail}`);
    this.name = 'ControlPlaneError';
  }
}
