/**
 * A fleet that did not start, and which part of it failed: the preflight (its message is the
 * one-line reason, e.g. the open-file limit or a pool address that is not on this machine), the
 * controller, or a PBX (the cause is the PBX's own error, such as `EADDRINUSE` with its port).
 * What was started is closed again before it is thrown.
 */
export class FleetStartError extends Error {
  constructor(
    readonly part: 'preflight' | 'controller' | 'pbx',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'FleetStartError';
  }
}
