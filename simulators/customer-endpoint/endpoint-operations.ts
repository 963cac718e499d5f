import { z } from 'zod';
import { fields, integer, shaped } from '../shared/control/control-fields.ts';
import { defineOperations } from '../shared/control/control-operation.ts';
import { Behaviour, Config, Info, RecordedRequest } from './endpoint-schemas.ts';
import type { WireBehaviour, WireConfig, WireRecordedRequest } from './wire-config.ts';

/** How long `waitForRequests` waits when not told (real time). */
export const DEFAULT_WAIT_MS = 5000;

/** Where the endpoint is: the base URL a provider is pointed at, this plane, the HTTPS certificate. */
export interface EndpointInfo {
  base: string;
  control: string;
  certificate: string | null;
}

const pathError = 'must start with / and hold no query';
/** The request path a behaviour answers: exact, without query, percent-encoded as one segment. */
const routePath = z.string({ error: pathError }).regex(/^\/[^?#\s]{0,1023}$/, { error: pathError });
const configAnswer = shaped<WireConfig>(Config);

/**
 * The customer endpoint's control plane (schemas/customer-endpoint-control.openapi.yaml), each
 * operation declared once: the answer configuration (whole, per path, fallback), the recordings
 * (read, clear, wait) and reset. A configuration or behaviour is checked by its effect against the
 * document's own component schemas (wire-config.ts), so the document that describes it is the one
 * that checks it; `endpointEffects` (endpoint-effects.ts) gives what each operation does.
 */
export const ENDPOINT_CONTROL_OPERATIONS = defineOperations({
  info: {
    method: 'GET',
    path: '/info',
    summary: 'Where the endpoint is',
    answers: 'Base URL of the endpoint, URL of this plane, the server certificate when serving HTTPS',
    actsOn: 'nothing (reads the listeners)',
    output: Info,
  },
  getConfig: {
    method: 'GET',
    path: '/config',
    summary: 'The whole answer configuration',
    answers: 'Current configuration',
    actsOn: 'the configuration (reads)',
    output: configAnswer,
  },
  putConfig: {
    method: 'PUT',
    path: '/config',
    summary: 'Replaces the whole answer configuration',
    answers: 'The configuration now in effect',
    actsOn: 'the configuration',
    input: shaped<WireConfig, unknown>(Config),
    output: configAnswer,
  },
  putRoute: {
    method: 'PUT',
    path: '/routes/{path}',
    summary: 'Sets the behaviour of one path',
    answers: 'The configuration now in effect',
    actsOn: 'the configuration (routes)',
    input: fields({ path: routePath, behaviour: shaped<WireBehaviour, unknown>(Behaviour) }),
    bodyField: 'behaviour',
    output: configAnswer,
  },
  deleteRoute: {
    method: 'DELETE',
    path: '/routes/{path}',
    summary: 'Removes the behaviour of one path (the fallback answers it again)',
    answers: 'The configuration now in effect',
    refusals: { 404: 'No such route' },
    actsOn: 'the configuration (routes)',
    input: fields({ path: routePath }),
    output: configAnswer,
  },
  putFallback: {
    method: 'PUT',
    path: '/fallback',
    summary: 'Sets the behaviour of every path without a route',
    answers: 'The configuration now in effect',
    actsOn: 'the configuration (fallback)',
    input: shaped<WireBehaviour, unknown>(Behaviour),
    output: configAnswer,
  },
  getRequests: {
    method: 'GET',
    path: '/requests',
    summary: 'The recorded requests after seq `since`, oldest first',
    answers: 'Recordings (the newest 1000 are kept)',
    actsOn: 'the recordings (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional() }),
    query: ['since'],
    output: shaped<WireRecordedRequest[]>(z.array(RecordedRequest)),
  },
  clearRequests: {
    method: 'DELETE',
    path: '/requests',
    summary: 'Forgets every recording',
    answers: 'Cleared',
    actsOn: 'the recordings',
  },
  waitForRequests: {
    method: 'POST',
    path: '/requests/wait',
    summary: 'Waits until `count` recordings exist; 408 after `timeoutMs`',
    answers: 'All recordings once at least `count` exist',
    refusals: { 408: 'Fewer than `count` recordings after `timeoutMs`' },
    actsOn: 'the recordings (waits)',
    input: fields({ count: integer(1, 1000), timeoutMs: integer(0, 60_000).optional() }),
    output: shaped<WireRecordedRequest[]>(z.array(RecordedRequest)),
    waitMs: (input: { timeoutMs?: number } | undefined) => input?.timeoutMs ?? DEFAULT_WAIT_MS,
  },
  reset: {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the start configuration; no recordings, no outstanding digest nonces',
    answers: 'Reset',
    actsOn: 'the configuration, the recordings, digest nonces',
  },
});
