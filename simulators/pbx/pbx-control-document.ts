import { z } from 'zod';
import type { ControlDocumentHead } from '../shared/control/openapi-document.ts';
import { LISTENER_ERROR_CODES } from '../shared/http/control-server.ts';
import { PBX_CONTROL_OPERATIONS } from './pbx-control.ts';

/** What it says beside its operations: the document schemas/pbx-control.openapi.yaml is generated from. */
export const PBX_CONTROL_DOCUMENT: ControlDocumentHead = {
  file: 'pbx-control.openapi.yaml',
  info: {
    title: 'PBX simulator control plane',
    version: '1.0.0',
    summary: 'Set up and observe a simulated PBX from a test suite in any language.',
    description: [
      'The control plane of the pbx-conformance PBX simulator. Conformance scenarios and plug-in vendors use it to put the simulated telephone system into the state a test needs (scenario, tile, licence, monitoring hosts, users, instance name, faults, virtual clock, resolver, API tokens, attention events, field activity) and to observe what the spec does not put on the wire (module log, UI warnings, endpoint state, search log, completion events).',
      '',
      'It is not part of the simulated product: it listens on its own port, has no authentication beyond loopback (a bearer token when told to listen further) and is meant for loopback use only. JSON in and out (UTF-8); request bodies are limited to 1 MiB. Operations that change something answer `204 No Content` unless stated otherwise. Every error is `{ "error": <code>, "message": <one line> }`; the listener itself answers 401 `unauthorized` (beyond loopback, without the token) and 403 `cross_site_request` (a state-changing request a browser sends for another site: CSRF).',
      '',
      'Each operation is declared once, in the folder of the face it acts on (simulators/pbx/*/…-operations.ts, combined in simulators/pbx/pbx-control.ts); this document is generated from those declarations. The TypeScript form of the same operations is `PbxControl`, the client derived from them, in process (`start().control`) or over HTTP (`httpPbxControl`); each `operationId` is the name of its method. A guide with curl and Python examples is docs/control-plane.md.',
    ].join('\n'),
    license: { name: 'MIT' },
  },
  servers: [
    {
      url: 'http://127.0.0.1:{port}',
      description:
        'A simulator started by `pbx-conformance simulate` or by the harness (the port is reported at start); a PBX of a pooled fleet is at `/pbx/{siteId}` of the fleet control plane.',
      variables: { port: { default: '7000' } },
    },
  ],
  tags: [
    {
      name: 'console',
      description:
        'What the console at `/console` reads (issue 32): the change feed (Server-Sent Events) and what each face of the data endpoint serves now.',
    },
    { name: 'state', description: 'The one state of the simulated PBX and named scenarios.' },
    {
      name: 'monitoring',
      description: 'Settings and state of the monitoring data endpoint and the XML-RPC queries.',
    },
    { name: 'faults', description: 'Failures switched on for one scenario.' },
    { name: 'observe', description: 'What the module shows besides the wire (warnings, module log).' },
    { name: 'time', description: 'The virtual clock and the snapshot cache.' },
    {
      name: 'resolver',
      description:
        "The web resolver (docs/resolver.md): the operator's stand-in for the module UI (settings, search providers, address book, settings test) and the observation points the RESOLVER clauses need (caller-ID result, search log). On a real PBX without them the resolver scenarios are not verifiable. Each `operationId` is `resolver` followed by the method of the `Resolver` class (simulators/pbx/resolver/resolver.ts).",
    },
    {
      name: 'maintenance',
      description:
        "What the module UI offers for interface A (docs/maintenance-api.md): API tokens (standing in for the security card's API tokens button, MAINT-UNSPEC-TOKEN-UI) and the completion events of the command executor. Without the administration right every token operation is refused with 403 `forbidden`.",
    },
    {
      name: 'pbx-events',
      description:
        'Attention events (docs/fleet-controller.md, "PBX control plane"): raise an event as a module would, release the partner, point the PBX at a fleet controller, cut and restore its link, wait until everything raised has been delivered.',
    },
  ],
  errorBody: z
    .strictObject({
      error: z
        .enum([
          'invalid_request',
          'forbidden',
          'not_found',
          'method_not_allowed',
          'timeout',
          'payload_too_large',
          'internal_error',
          ...LISTENER_ERROR_CODES,
        ])
        .describe('A stable code.'),
      message: z.string().describe('One line for people; never holds a secret.'),
    })
    .describe('Body of every error answer (any path, including unknown ones (404) and wrong methods (405)).'),
  responses: {
    InvalidRequest: {
      description:
        'Bad input (malformed JSON, wrong type, out of range, unknown field, scenario or fault); nothing changed.',
      examples: {
        badCidr: {
          value: {
            error: 'invalid_request',
            message:
              'hosts[0].entry must be an IPv4 address or CIDR range such as 192.0.2.0/24, got "10.0.0.0/33"',
          },
        },
        unknownField: {
          value: { error: 'invalid_request', message: 'unknown state field: monitoring.tile' },
        },
      },
    },
    PayloadTooLarge: { description: 'The body exceeds 1 MiB; the connection is closed after the answer.' },
    InternalError: { description: 'A failure inside the simulator (a bug or a broken scenario file).' },
  },
  errorsOf: (operation) => ({
    ...(operation.input ? { 400: 'InvalidRequest' } : {}),
    ...(['PUT', 'POST', 'PATCH'].includes(operation.method) && operation.input
      ? { 413: 'PayloadTooLarge' }
      : {}),
    500: 'InternalError',
  }),
  operations: PBX_CONTROL_OPERATIONS,
};
