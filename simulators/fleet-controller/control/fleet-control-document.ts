import { z } from 'zod';
import type { ControlDocumentHead } from '../../shared/control/openapi-document.ts';
import { SITE_OPERATIONS } from '../../shared/control/site-operations.ts';
import { LISTENER_ERROR_CODES } from '../../shared/http/control-server.ts';
import { FLEET_CONTROL_OPERATIONS } from './fleet-operations.ts';

/** What it says beside its operations: the document schemas/fleet-control.openapi.yaml is generated from. */
export const FLEET_CONTROL_DOCUMENT: ControlDocumentHead = {
  file: 'fleet-control.openapi.yaml',
  info: {
    title: 'Fleet controller simulator control plane',
    version: '1.0.0',
    summary: 'Set up and observe a simulated fleet controller from a test suite in any language.',
    description: [
      "The control plane of the pbx-conformance fleet controller simulator. It stands in for the controller console (partner accesses, sites, rights, accounts, MCP access tokens) and for the simulated PBXs (registering a PBX's ingest key, setting an inventory, injecting an attention event as if a PBX had forwarded it, cutting and restoring a PBX's link), and it moves the virtual clock.",
      '',
      'Not part of the simulated product: its own port, no authentication, loopback use only. JSON in and out; request bodies up to 1 MiB. Operations without a result answer `204 No Content`. Every error is `{ "error": <code>, "message": <one line> }` with 400 (bad input), 404 (unknown partner, site, account, token or link), 405, 409 (exists already) or 413; the listener itself answers 401 `unauthorized` (beyond loopback, without the token) and 403 `cross_site_request` (a state-changing request a browser sends for another site: CSRF).',
      '',
      "Each operation is declared once in simulators/fleet-controller/control/fleet-operations.ts (and `GET /pbx`, tag `sites`, in simulators/shared/control/site-operations.ts); this document is generated from those declarations. The TypeScript form is `FleetControl`, the client derived from them, in process or over HTTP (`httpFleetControl`); each `operationId` is the name of its method. The simulator's choices are in docs/fleet-controller.md. The PBX side of attention events is in schemas/pbx-control.openapi.yaml (tag `pbx-events`).",
    ].join('\n'),
    license: { name: 'MIT' },
  },
  servers: [{ url: 'http://127.0.0.1:{port}', variables: { port: { default: '7101' } } }],
  tags: [
    { name: 'controller', description: "The fleet controller's control plane." },
    {
      name: 'sites',
      description:
        "The PBXs a pooled fleet serves on this control plane (issue 22): each at `/pbx/{siteId}`, where every operation of schemas/pbx-control.openapi.yaml works unchanged. Only when the controller serves PBXs (simulate --pbx-count beyond 50, --address-pool; a shard's control plane).",
    },
  ],
  defaultTag: 'controller',
  errorBody: z.strictObject({
    error: z.enum([
      'bad_request',
      'not_found',
      'method_not_allowed',
      'conflict',
      'too_large',
      'internal',
      ...LISTENER_ERROR_CODES,
    ]),
    message: z.string(),
  }),
  responses: { BadRequest: { description: 'Bad input.' } },
  errorsOf: (operation) => (operation.input ? { 400: 'BadRequest' } : {}),
  operations: { ...FLEET_CONTROL_OPERATIONS, ...SITE_OPERATIONS },
};
