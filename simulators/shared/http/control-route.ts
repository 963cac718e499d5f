import type { StreamAnswer } from '../control/event-stream.ts';

/** HTTP methods of the control plane. */
export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ControlRequest {
  /** Path parameters by name, percent-decoded (`/faults/{name}` gives `name`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; `undefined` when the request carried none. */
  body: unknown;
}

export interface ControlResponse {
  status: number;
  /** Sent as JSON; no body (and status 204 by convention) when absent. */
  body?: unknown;
  /** A stream of Server-Sent Events instead of a body (an operation declared with `stream`). */
  stream?: StreamAnswer;
}

/**
 * One operation of the control plane's HTTP API. Route groups are plain arrays of these, so later
 * faces (the maintenance API's token management, the fleet controller) plug their own groups into
 * `createControlServer(…, { extraRoutes })` without touching the server. Handlers throw
 * `ControlInputError` or `UnknownFieldError` for bad input; the server turns them into 400.
 */
export interface ControlRoute {
  method: ControlMethod;
  /** An OpenAPI path template, e.g. `/faults/{name}`: the same string as the key under `paths`. */
  path: string;
  handle(request: ControlRequest): Promise<ControlResponse>;
}
