import { z } from 'zod';
import type { ControlDocumentHead } from '../shared/control/openapi-document.ts';
import { LISTENER_ERROR_CODES } from '../shared/http/control-server.ts';
import { ENDPOINT_CONTROL_OPERATIONS } from './endpoint-operations.ts';

/** What it says beside its operations: the document schemas/customer-endpoint-control.openapi.yaml is generated from. */
export const ENDPOINT_CONTROL_DOCUMENT: ControlDocumentHead = {
  file: 'customer-endpoint-control.openapi.yaml',
  info: {
    title: 'Recording customer endpoint — control plane',
    version: '1.0.0',
    description: [
      "The HTTP control plane of the recording customer endpoint (simulators/customer-endpoint/, `pbx-conformance endpoint`; issue 5, section 3). A PBX's search provider is pointed at the endpoint's base URL; this plane, on its own listener (127.0.0.1 unless told otherwise), sets how the endpoint answers and reads back exactly what the PBX sent. JSON in and out; bodies up to 2 MiB; every error is `{error, message}` with a one-line message.",
      '',
      'A behaviour is chosen per request path (`routes`, exact path without query), else `fallback` (default: 200 with the body `{}`). Body bytes that are not text travel as `bodyBase64`.',
      '',
      'Each operation is declared once in simulators/customer-endpoint/endpoint-operations.ts; this document is generated from those declarations, whose schemas are the ones the server checks with. The TypeScript form is the client derived from them (`start().client`, `httpEndpointControl`).',
    ].join('\n'),
    license: { name: 'MIT' },
  },
  servers: [
    {
      url: 'http://127.0.0.1:{port}',
      variables: { port: { default: '0', description: 'printed by `pbx-conformance endpoint`' } },
    },
  ],
  tags: [{ name: 'endpoint', description: 'The answers of the endpoint and what it recorded.' }],
  errorBody: z.strictObject({
    error: z
      .string()
      .meta({ examples: ['invalid_request', 'not_found', 'timeout', ...LISTENER_ERROR_CODES] }),
    message: z.string(),
  }),
  responses: { InvalidRequest: { description: 'The body or a parameter does not fit the schema.' } },
  errorsOf: (operation) => (operation.input ? { 400: 'InvalidRequest' } : {}),
  operations: ENDPOINT_CONTROL_OPERATIONS,
};
